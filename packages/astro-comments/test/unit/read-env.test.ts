import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { readCommentsEnv } from "../../src/cli/read-env.ts";

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("the check's COMMENTS_* settings", () => {
  it("come from the .env files in Vite's order, the real environment over all", () => {
    dir = mkdtempSync(join(tmpdir(), "ac-env-"));
    writeFileSync(
      join(dir, ".env"),
      "COMMENTS_DOMAIN=from-env\nCOMMENTS_API_URL=http://env.example\nCOMMENTS_API_TOKEN='quoted # not a comment'\nOTHER=ignored\n",
    );
    writeFileSync(join(dir, ".env.local"), "COMMENTS_API_URL=http://local.example\n");
    writeFileSync(
      join(dir, ".env.production"),
      "COMMENTS_DOMAIN=production.example\nCOMMENTS_STATE_URL=https://production.example/comments/state.json\n",
    );
    writeFileSync(join(dir, ".env.staging.local"), "COMMENTS_DOMAIN=staging.example\n");
    expect(readCommentsEnv(dir, "production", { COMMENTS_API_URL: "http://real.example", PATH: "/bin" })).toEqual({
      COMMENTS_DOMAIN: "production.example",
      COMMENTS_API_URL: "http://real.example",
      COMMENTS_API_TOKEN: "quoted # not a comment",
      COMMENTS_STATE_URL: "https://production.example/comments/state.json",
    });
    expect(readCommentsEnv(dir, "staging", {}).COMMENTS_DOMAIN).toBe("staging.example");
  });

  it("are the environment's alone where there are no .env files", () => {
    dir = mkdtempSync(join(tmpdir(), "ac-env-"));
    expect(readCommentsEnv(join(dir, "missing"), "production", { COMMENTS_DOMAIN: "example.com" })).toEqual({
      COMMENTS_DOMAIN: "example.com",
    });
  });
});
