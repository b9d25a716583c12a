import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { commandMode, readCommentsEnv } from "../../src/integration/env.ts";
import { CommentsConfigError } from "../../src/errors.ts";
import { resolveOptions } from "../../src/integration/options.ts";

const env = {
  COMMENTS_DOMAIN: "example.com",
  COMMENTS_API_URL: "https://api.example/",
  COMMENTS_API_TOKEN: "secret-token",
};

function message(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error("expected an error");
}

describe("options", () => {
  it("fail with one sentence naming every missing setting", () => {
    expect(() => resolveOptions({}, {})).toThrowError(
      "astro-comments: set COMMENTS_DOMAIN, COMMENTS_API_URL and COMMENTS_API_TOKEN (in the environment or .env), or pass domain, apiUrl, apiToken to comments({ … }) in astro.config.",
    );
    expect(() => resolveOptions({ domain: "example.com" }, { COMMENTS_API_URL: "https://x" })).toThrowError(
      /^astro-comments: set COMMENTS_API_TOKEN \(/,
    );
    expect(() => resolveOptions({}, {})).toThrowError(CommentsConfigError);
  });

  it("fall back to the environment, options winning, and build the endpoint from the base URL", () => {
    const resolved = resolveOptions({ domain: "other.org" }, env);
    expect(resolved.credentials?.domain).toBe("other.org");
    expect(resolved.credentials?.endpoint.toString()).toBe("https://api.example/api/comments");
    expect(resolveOptions({ apiUrl: "https://x.example/api/comments/" }, env).credentials?.endpoint.toString()).toBe(
      "https://x.example/api/comments",
    );
  });

  it("fill in documented defaults", () => {
    const resolved = resolveOptions({}, env);
    expect(resolved.perPage).toBeUndefined();
    expect(resolved).toMatchObject({
      concurrency: 6,
      retries: 5,
      giveUpAfter: 50_000,
      rateLimitWait: 600_000,
      onError: "last-good",
      maxStaleHours: 168,
      allowEmpty: false,
      staleNotice: false,
      order: "oldest-first",
    });
    expect(resolved.dateFormat).toEqual({ locale: "en", timeZone: "UTC", dateStyle: "medium", timeStyle: "short" });
    expect(resolveOptions({}, env, { locale: "de" }).dateFormat.locale).toBe("de");
  });

  it("list every bad option in one error, without printing the token", () => {
    const text = message(() =>
      resolveOptions(
        {
          perPage: 0,
          concurrency: 1.5,
          order: "random",
          bogus: 1,
          apiUrl: "ftp://x",
          onError: "warn",
          dateFormat: { timeZone: "Mars/Base" },
        },
        env,
      ),
    );
    for (const part of [
      '"bogus" is not an option',
      '"perPage" must be a whole number from 1 to 100',
      '"concurrency" must be a whole number',
      '"order"',
      '"onError"',
      '"apiUrl" must be an http(s) URL',
      "Mars/Base",
    ]) {
      expect(text).toContain(part);
    }
    expect(text).not.toContain("secret-token");
  });

  it("reject a domain given as a URL, a token with whitespace and a per_page a Laravel service refuses", () => {
    expect(() => resolveOptions({ domain: "https://example.com" }, env)).toThrowError(/bare domain/);
    expect(() => resolveOptions({ apiToken: "abc def" }, env)).toThrowError(/whitespace/);
    expect(() => resolveOptions({ perPage: 1000 }, env)).toThrowError(/"perPage" must be a whole number from 1 to 100/);
  });

  it("take darkMode as a mode, false or the site's own selectors, and searchIndex as bodies or none", () => {
    expect(resolveOptions({}, env)).toMatchObject({ darkMode: "auto", searchIndex: "bodies" });
    expect(resolveOptions({ darkMode: { dark: " body.mode-dark " } }, env).darkMode).toEqual({
      dark: "body.mode-dark",
    });
    expect(resolveOptions({ darkMode: false, searchIndex: "none" }, env)).toMatchObject({
      darkMode: false,
      searchIndex: "none",
    });
    const text = message(() => resolveOptions({ darkMode: { dark: "x} body{color:red" }, searchIndex: "all" }, env));
    expect(text).toContain('"darkMode');
    expect(text).toContain('"searchIndex"');
    expect(message(() => resolveOptions({ darkMode: "class" }, env))).toContain('"darkMode"');
  });

  it("do not need credentials for commands that fetch nothing", () => {
    const resolved = resolveOptions({ heading: "Talk" }, {}, { requireCredentials: false });
    expect(resolved.heading).toBe("Talk");
    expect(resolved.credentials).toBeUndefined();
    expect(() => resolveOptions({ perPage: -1 }, {}, { requireCredentials: false })).toThrowError(/perPage/);
  });
});

describe("environment", () => {
  const site = () => {
    const dir = mkdtempSync(join(tmpdir(), "ac-env-"));
    return { dir, root: pathToFileURL(`${dir}/`) };
  };

  it("reads COMMENTS_* from .env files in Vite's order, the real environment winning", () => {
    const { dir, root } = site();
    writeFileSync(join(dir, ".env"), "COMMENTS_DOMAIN=from-env-file.com\nCOMMENTS_API_TOKEN=file-token\nOTHER=x\n");
    writeFileSync(join(dir, ".env.production"), "COMMENTS_API_URL=https://prod.example\n");
    process.env.COMMENTS_API_TOKEN = "real-env";
    try {
      expect(readCommentsEnv({ root, vite: {} }, "production")).toMatchObject({
        COMMENTS_DOMAIN: "from-env-file.com",
        COMMENTS_API_URL: "https://prod.example",
        COMMENTS_API_TOKEN: "real-env",
      });
    } finally {
      delete process.env.COMMENTS_API_TOKEN;
    }
  });

  it("honours vite.envDir and the mode's own files", () => {
    const { dir, root } = site();
    writeFileSync(join(dir, ".env"), "COMMENTS_DOMAIN=root.example\n");
    const envDir = join(dir, "env");
    mkdirSync(envDir);
    writeFileSync(join(envDir, ".env.staging"), "COMMENTS_DOMAIN=staging.example\n");
    expect(readCommentsEnv({ root, vite: { envDir } }, "staging").COMMENTS_DOMAIN).toBe("staging.example");
    expect(readCommentsEnv({ root, vite: { envDir: "env" } }, "staging").COMMENTS_DOMAIN).toBe("staging.example");
    expect(readCommentsEnv({ root, vite: { envDir: false } }, "staging").COMMENTS_DOMAIN).toBeUndefined();
  });

  it("takes the mode from --mode, else from the command", () => {
    expect(commandMode("build", ["node", "astro", "build", "--mode", "staging"])).toBe("staging");
    expect(commandMode("dev", ["node", "astro", "dev", "--mode=preview-env"])).toBe("preview-env");
    expect(commandMode("dev", [])).toBe("development");
    expect(commandMode("build", [])).toBe("production");
  });
});
