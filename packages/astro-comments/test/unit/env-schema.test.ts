// The integration declares COMMENTS_* as astro:env server secrets, so the runtime modes can read
// them with getSecret on every adapter, and keeps a declaration the site's config already has.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { envField } from "astro/config";
import { afterEach, describe, expect, it } from "vitest";
import comments from "../../src/index.ts";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Runs astro:config:setup for `astro sync` (no fetch) and returns the env schema it added. */
function declaredSchema(schema?: Record<string, unknown>): Record<string, unknown> {
  const root = mkdtempSync(join(tmpdir(), "ac-env-"));
  dirs.push(root);
  const updates: Array<{ env?: { schema?: Record<string, unknown> } }> = [];
  const setup = comments().hooks["astro:config:setup"] as (params: unknown) => void;
  const noop = () => undefined;
  setup({
    config: { root: pathToFileURL(`${root}/`), base: "/", vite: {}, env: schema ? { schema } : undefined },
    command: "sync",
    updateConfig: (update: (typeof updates)[number]) => updates.push(update),
    injectScript: noop,
    injectRoute: noop,
    logger: { info: noop, warn: noop, debug: noop, error: noop },
  });
  return Object.assign({}, ...updates.map((update) => update.env?.schema ?? {}));
}

describe("the astro:env schema", () => {
  it("declares the three variables as optional server secrets", () => {
    const schema = declaredSchema();
    expect(Object.keys(schema).sort()).toEqual(["COMMENTS_API_TOKEN", "COMMENTS_API_URL", "COMMENTS_DOMAIN"]);
    for (const field of Object.values(schema))
      expect(field).toMatchObject({ type: "string", context: "server", access: "secret", optional: true });
  });

  it("keeps a declaration the site's config already has", () => {
    const own = { COMMENTS_DOMAIN: envField.string({ context: "server", access: "public", default: "example.com" }) };
    expect(Object.keys(declaredSchema(own)).sort()).toEqual(["COMMENTS_API_TOKEN", "COMMENTS_API_URL"]);
  });
});
