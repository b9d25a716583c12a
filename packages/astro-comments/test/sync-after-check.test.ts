// The sync of a build right after `astro-comments check`: it takes each page's count and digest from
// the check's state, and decodes from the check's crawl only the pages it renders. The bodies of the
// pages it kept stay in the render cache, though it never read them.
import { rmSync } from "node:fs";
import { join } from "node:path";
import type { LoaderContext } from "astro/loaders";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { CommentThread } from "../src/api/generated/api-types.ts";
import { CheckCrawlWriter, checkCrawlFile, readCheckCrawl, type CrawlThreads } from "../src/freshness/check-crawl.ts";
import { resolveOptions } from "../src/integration/options.ts";
import type { FetchedComments } from "../src/loader/fetch-comments.ts";
import { commentModules } from "../src/loader/module-files.ts";
import { shardOf } from "../src/loader/module-format.ts";
import { syncComments } from "../src/loader/sync-comments.ts";
import type { SiteHandoff } from "../src/site-registry.ts";
import { thread } from "./helpers/api-threads.ts";
import { loaderContext, storedComments } from "./helpers/loader-context.ts";

const env = {
  COMMENTS_DOMAIN: "check.example",
  COMMENTS_API_URL: "https://comments.example/api",
  COMMENTS_API_TOKEN: "t0ken-1234",
};
const options = resolveOptions({}, env);
const credentials = options.credentials!;

// Three posts whose comments share one module and one render-cache pack.
const posts = Array.from({ length: 200 }, (_, n) => `/posts/p${n}`)
  .filter((key, _, all) => shardOf(key) === shardOf(all[0]!))
  .slice(0, 3) as [string, string, string];

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** What the loader takes over from a check's crawl of these pages of threads (as a build would). */
async function fromCheck(
  context: LoaderContext,
  pages: CommentThread[][],
): Promise<FetchedComments & { threads: CrawlThreads }> {
  const file = checkCrawlFile(join(context.config.root.pathname, "check"));
  const writer = new CheckCrawlWriter(file, credentials, new Date().toISOString());
  await writer.prepare();
  const collector = writer.collect();
  pages.forEach((threads, at) => collector.add(at + 1, threads));
  await writer.commit(collector.finish(), { requests: pages.length, perPage: 2, bytes: 1, pages: pages.length });
  const found = await readCheckCrawl(file, credentials, 60_000);
  if (found.kind !== "fresh") throw new Error(`the check's crawl is not used: ${JSON.stringify(found)}`);
  const summary = { ...found.figures, retries: 0, rateLimitPauses: 0, rateLimitSeconds: 0, crawls: 1, seconds: 0 };
  return { threads: found.threads, crawlState: found.state, summary, reused: { crawledAt: found.crawledAt, ageMs: 0 } };
}

async function sync(context: LoaderContext, fetched: FetchedComments): Promise<void> {
  const site: SiteHandoff = { options, command: "build", prefetch: Promise.resolve(fetched) };
  await syncComments(context, site);
  await site.pendingWrite;
}

const [first, second, third] = posts;
const deployed = [[thread(first, "Ann", 1), thread(second, "Bob", 2)], [thread(third, "Cy", 3)]];
const approved = [deployed[0]!, [...deployed[1]!, thread(second, "Dee", 4)]];

describe("a sync right after a check", () => {
  it("reads from the check's crawl only the page whose comments changed, and stores its new comment", async () => {
    const { context, lines } = loaderContext();
    folders.push(context.config.root.pathname);
    await sync(context, await fromCheck(context, deployed));
    expect(lines.at(-1)).toMatch(/3 comments on 3 pages: 3 rendered, 0 unchanged/);

    const fetched = await fromCheck(context, approved);
    const read = vi.spyOn(fetched.threads, "of");
    await sync(context, fetched);
    expect(read.mock.calls).toEqual([[second]]);
    expect(lines.at(-1)).toMatch(/4 comments on 3 pages: 1 rendered, 2 unchanged/);
    const stored = await storedComments(context);
    expect(stored.get(second)!.comments.map((comment) => comment.author)).toEqual(["Bob", "Dee"]);
    expect(stored.get(first)!.comments.map((comment) => comment.author)).toEqual(["Ann"]);
    expect(context.store.get(second)!.data).toEqual({ path: second, count: 2 });
  });

  it("keeps the render cache's entries for the pages it did not read", async () => {
    const { context, lines } = loaderContext();
    folders.push(context.config.root.pathname);
    await sync(context, await fromCheck(context, deployed));
    await sync(context, await fromCheck(context, approved));
    // Astro dropped its data store and the modules are gone: every page is made again, and no body
    // needs sanitizing, those of the pages the last sync never read included.
    const again = loaderContext({ root: context.config.root, cacheDir: context.config.cacheDir });
    rmSync(commentModules(context.config).dir, { recursive: true, force: true });
    await sync(again.context, await fromCheck(context, approved));
    expect(again.lines.at(-1)).toMatch(
      /3 rendered, 0 unchanged.*comment bodies: 0 sanitized and highlighted, 4 from the render cache/,
    );
    expect(lines).not.toContainEqual(expect.stringMatching(/^WARN/));
  });
});
