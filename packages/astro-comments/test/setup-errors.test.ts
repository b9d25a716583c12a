// Set-up mistakes a user can make, each answered by one clear error that says what to add where.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { astroBuild } from "./helpers/astro-cli.ts";
import { astroDev } from "./helpers/astro-dev.ts";
import { copySite, type SiteCopy } from "./helpers/site-copy.ts";

// Nothing is fetched in these cases, so no API needs to be up.
const env = { COMMENTS_DOMAIN: "example.com", COMMENTS_API_URL: "http://127.0.0.1:9", COMMENTS_API_TOKEN: "unused" };

let site: SiteCopy;
beforeAll(() => {
  site = copySite("no-collection");
  const config = join(site.dir, "src", "content.config.ts");
  const text = readFileSync(config, "utf8").replace(
    "export const collections = { posts, comments };",
    "export const collections = { posts };",
  );
  writeFileSync(config, text.replace(/^.*commentsLoader.*$/gm, ""));
});
afterAll(() => site.remove());

const missing = "astro-comments: no collection uses commentsLoader(); add it to src/content.config.ts";
const line = "export const collections = { comments: defineCollection({ loader: commentsLoader() }) };";

describe("a site without the comments collection", () => {
  it("fails astro build naming the file and the line to add", async () => {
    const result = await astroBuild(env, undefined, site.dir);
    expect(result.code).not.toBe(0);
    expect(result.log).toContain(missing);
    expect(result.log).toContain(line);
    expect(result.log).not.toMatch(/Stack trace/);
  });

  it("stops astro dev with the same error", async () => {
    // The dev server exits before it reports ready; astroDev rejects with everything it printed.
    const stopped = astroDev(site.dir, env);
    await expect(stopped).rejects.toThrow(missing);
    await expect(stopped).rejects.toThrow(line);
  });
});
