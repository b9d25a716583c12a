import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { CommentsConfigError } from "../../src/errors.ts";
import { readCommentsEnv, resolveOptions } from "../../src/options.ts";

const env = { COMMENTS_DOMAIN: "example.com", COMMENTS_API_URL: "https://api.example/", COMMENTS_API_TOKEN: "secret-token" };

describe("options", () => {
  it("fail with one sentence naming every missing setting", () => {
    expect(() => resolveOptions({}, {})).toThrowError(
      "astro-comments: set COMMENTS_DOMAIN, COMMENTS_API_URL and COMMENTS_API_TOKEN (in the environment or .env), or pass domain, apiUrl, apiToken to comments({ … }) in astro.config.",
    );
    expect(() => resolveOptions({ domain: "example.com" }, { COMMENTS_API_URL: "https://x" })).toThrowError(/^astro-comments: set COMMENTS_API_TOKEN \(/);
    expect(() => resolveOptions({}, {})).toThrowError(CommentsConfigError);
  });

  it("fall back to the environment, options winning, and build the endpoint from the base URL", () => {
    const resolved = resolveOptions({ domain: "other.org" }, env);
    expect(resolved.domain).toBe("other.org");
    expect(resolved.endpoint.toString()).toBe("https://api.example/api/comments");
    expect(resolveOptions({ apiUrl: "https://x.example/api/comments/" }, env).endpoint.toString()).toBe("https://x.example/api/comments");
  });

  it("list every bad option in one error, without printing the token", () => {
    let message = "";
    try {
      resolveOptions({ perPage: 0, concurrency: 1.5, order: "random" as never, bogus: 1, apiUrl: "ftp://x", dateFormat: { timeZone: "Mars/Base" } } as never, env);
    } catch (error) {
      message = (error as Error).message;
    }
    for (const part of ['"bogus" is not an option', '"perPage" must be a whole number from 1 to 1000, got 0', '"concurrency" must be a whole number', '"order" must be one of', '"apiUrl" must be an http(s) URL', "Mars/Base"]) {
      expect(message).toContain(part);
    }
    expect(message).not.toContain("secret-token");
  });

  it("reject a domain given as a URL and a token with whitespace", () => {
    expect(() => resolveOptions({ domain: "https://example.com" }, env)).toThrowError(/bare domain/);
    expect(() => resolveOptions({ apiToken: "abc def" }, env)).toThrowError(/whitespace/);
  });

  it("do not need credentials for commands that fetch nothing", () => {
    expect(resolveOptions({ heading: "Talk" }, {}, { requireCredentials: false }).heading).toBe("Talk");
    expect(() => resolveOptions({ perPage: -1 }, {}, { requireCredentials: false })).toThrowError(/perPage/);
  });

  it("read COMMENTS_* from .env files in Vite's order, the real environment winning", () => {
    const dir = mkdtempSync(join(tmpdir(), "ac-env-"));
    writeFileSync(join(dir, ".env"), "COMMENTS_DOMAIN=from-env-file.com\nCOMMENTS_API_TOKEN=file-token\nOTHER=x\n");
    writeFileSync(join(dir, ".env.production"), "COMMENTS_API_URL=https://prod.example\n");
    const root = pathToFileURL(`${dir}/`);
    expect(readCommentsEnv(root, "production", { COMMENTS_API_TOKEN: "real-env" })).toEqual({
      COMMENTS_DOMAIN: "from-env-file.com", COMMENTS_API_URL: "https://prod.example", COMMENTS_API_TOKEN: "real-env",
    });
  });
});
