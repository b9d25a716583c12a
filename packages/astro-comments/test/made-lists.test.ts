// Each post's comment list is made once, when the loader stores its comments, and written by every
// later build as it is (issue 40). In real builds of the example site: the pages are the same as
// rendering the comments, a list damaged on disk is never shown, and a changed option that shapes
// the list makes every list anew without sanitizing or highlighting a comment again.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { showcasePaths, startMockServer, type MockServer } from "@astro-comments/mock-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { astroBuild, BUILD_TIMEOUT_MS } from "./helpers/astro-cli.ts";
import { section } from "./helpers/long-threads.ts";
import { copySite, editConfig, type SiteCopy } from "./helpers/site-copy.ts";

let mock: MockServer;
let site: SiteCopy;
const posts = Object.values(showcasePaths);
let first: Map<string, string>;

const build = async () => {
  const env = { COMMENTS_DOMAIN: "example.com", COMMENTS_API_URL: mock.url, COMMENTS_API_TOKEN: mock.token };
  const result = await astroBuild(env, join(site.dir, "dist"), site.dir);
  expect(result.code, result.log).toBe(0);
  return result.log;
};
const sections = () =>
  new Map(posts.map((path) => [path, section(readFileSync(join(site.dir, "dist", path, "index.html"), "utf8"))]));
const listOf = (html: string) => /<ol class="astro-comments__list">([\s\S]*)<\/ol>/.exec(html)![1]!;
const dataFiles = () => {
  const dir = join(site.dir, "node_modules/.astro/astro-comments/modules");
  return readdirSync(dir)
    .filter((name) => name.endsWith(".json"))
    .map((name) => join(dir, name));
};

beforeAll(async () => {
  mock = await startMockServer();
  site = copySite("made-lists");
  await build();
  first = sections();
}, BUILD_TIMEOUT_MS);
afterAll(() => Promise.all([mock?.close(), site?.remove()]));

describe("made comment lists", () => {
  it(
    "are what each post shows, kept beside its comments, and a build after them writes the same pages",
    async () => {
      const stored = dataFiles().map((file) => readFileSync(file, "utf8"));
      for (const path of [showcasePaths.hello, showcasePaths.code, showcasePaths.xss]) {
        const list = listOf(first.get(path)!);
        expect(list).toContain('data-comment id="comment-');
        expect(stored.some((text) => text.includes(`\n${list}\n`))).toBe(true);
      }
      const log = await build();
      expect(log).toMatch(/: 0 rendered, \d+ unchanged, 0 removed/);
      expect(sections()).toEqual(first);
    },
    BUILD_TIMEOUT_MS,
  );

  it(
    "are never shown damaged: a changed byte in one gets its module written again, the page as it was",
    async () => {
      const list = listOf(first.get(showcasePaths.code)!);
      const file = dataFiles().find((candidate) => readFileSync(candidate, "utf8").includes(`\n${list}\n`))!;
      const text = readFileSync(file, "utf8");
      writeFileSync(
        file,
        text.replace(`\n${list}\n`, `\n${list.replace("astro-comments__item", "astro-comments__itex")}\n`),
      );
      const log = await build();
      expect(log).toContain("rebuilt 1 damaged comment module");
      expect(sections()).toEqual(first);
    },
    BUILD_TIMEOUT_MS,
  );

  it(
    "are made anew when an option that shapes them changes, with no comment rendered again",
    async () => {
      editConfig(site.dir, (config) => config.replace('dateStyle: "medium"', 'dateStyle: "full"'));
      const log = await build();
      expect(log).toMatch(/: 0 rendered, \d+ unchanged, 0 removed/);
      const html = sections().get(showcasePaths.hello)!;
      const full = new Intl.DateTimeFormat("en-GB", { timeZone: "UTC", dateStyle: "full", timeStyle: "short" });
      const times = [
        ...html.matchAll(/<time class="astro-comments__time" id="[^"]+" datetime="([^"]+)">([^<]+)<\/time>/g),
      ];
      expect(times.length).toBeGreaterThan(2);
      for (const [, datetime, shown] of times) expect(shown).toBe(full.format(new Date(datetime!)));
    },
    BUILD_TIMEOUT_MS,
  );
});
