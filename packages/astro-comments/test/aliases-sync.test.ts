// URL aliases in the loader's sync: the `aliases` option and Astro's `redirects` move old URLs'
// comments onto the new page, counted once, with digests that follow; and the stored keys and
// counts reach the integration through the site registry (for the orphan report).
import { startMockServer, type MockServer } from "@astro-comments/mock-server";
import type { LoaderContext } from "astro/loaders";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PageEntryData } from "../src/loader/entry-schema.ts";
import { resolveOptions, type CommentsOptions } from "../src/integration/options.ts";
import type { SiteHandoff } from "../src/site-registry.ts";
import { syncComments } from "../src/loader/sync-comments.ts";
import { loaderContext, storedComments } from "./helpers/loader-context.ts";
import { recordingSleep } from "./helpers/servers.ts";

const DOMAIN = "empty.example";
let mock: MockServer;
beforeAll(async () => {
  mock = await startMockServer({ dataset: { seed: 3, size: 20 } });
  const add = (path: string, name: string, content: string, created_at: string) =>
    mock.addComment({ domain: DOMAIN, path, name, content, created_at });
  add("/posts/new-home/", "Ann", "On the new page", "2026-01-03T00:00:00.000000Z");
  add("/blog/old-home", "Bob", "Left on the old URL", "2026-01-01T00:00:00.000000Z");
  // Imported twice by the service: once under each URL. Must show once.
  add("/blog/old-home", "Cy", "Posted before the move", "2026-01-02T00:00:00.000000Z");
  add("/posts/new-home", "Cy", "Posted before the move", "2026-01-02T00:00:00.000000Z");
  add("/2019/redirected.html", "Dee", "Under a redirect's source", "2026-01-04T00:00:00.000000Z");
  add("/posts/target", "Eve", "On the redirect's target", "2026-01-05T00:00:00.000000Z");
});
afterAll(() => mock.close());

function site(options: CommentsOptions = {}): SiteHandoff {
  const env = { COMMENTS_DOMAIN: DOMAIN, COMMENTS_API_URL: mock.url, COMMENTS_API_TOKEN: mock.token };
  // The mock answers: a timeout no loaded machine reaches.
  return { options: resolveOptions({ timeout: 30_000, ...options }, env), command: "build" };
}

async function sync(context: LoaderContext, state: SiteHandoff) {
  const clock = recordingSleep();
  await syncComments(context, state, { sleep: clock.sleep, now: clock.now, random: () => 0.5 });
}

const withRedirects = (context: LoaderContext, redirects: Record<string, unknown>) => {
  (context.config as { redirects: unknown }).redirects = redirects;
  return context;
};
const page = (context: LoaderContext, id: string) => context.store.get<PageEntryData>(id);

describe("aliases and redirects in the sync", () => {
  it("without aliases, every URL is its own page", async () => {
    const { context } = loaderContext();
    const state = site();
    await sync(context, state);
    expect(context.store.keys().sort()).toEqual([
      "/2019/redirected",
      "/blog/old-home",
      "/posts/new-home",
      "/posts/target",
    ]);
    // The integration's orphan report reads the stored keys and counts from the registry.
    expect(Object.fromEntries(state.storedPages!)).toEqual({
      "/2019/redirected": 1,
      "/blog/old-home": 2,
      "/posts/new-home": 2,
      "/posts/target": 1,
    });
  });

  it("merges old URLs into the new page, in order and counted once, from aliases and redirects", async () => {
    const { context } = loaderContext();
    withRedirects(context, {
      "/2019/redirected/": { status: 301, destination: "/posts/target" },
      "/tags/[tag]": "/topics/[tag]",
    });
    const state = site({ aliases: { "https://example.com/blog/old-home/": "/posts/new-home/" } });
    await sync(context, state);
    expect(context.store.keys().sort()).toEqual(["/posts/new-home", "/posts/target"]);
    const comments = await storedComments(context);
    expect(comments.get("/posts/new-home")!.comments.map((c) => c.author)).toEqual(["Bob", "Cy", "Ann"]);
    expect(page(context, "/posts/new-home")!.data.count).toBe(3);
    expect(comments.get("/posts/target")!.comments.map((c) => c.author)).toEqual(["Dee", "Eve"]);
    expect(Object.fromEntries(state.storedPages!)).toEqual({ "/posts/new-home": 3, "/posts/target": 2 });
  });

  it("changes a page's digest when an alias adds comments to it, and only then", async () => {
    const { context } = loaderContext();
    await sync(context, site());
    const before = page(context, "/posts/new-home")!.digest;
    await sync(context, site());
    expect(page(context, "/posts/new-home")!.digest).toBe(before);
    await sync(context, site({ aliases: { "/blog/old-home": "/posts/new-home" } }));
    expect(page(context, "/posts/new-home")!.digest).not.toBe(before);
    expect(page(context, "/posts/target")!.data.count).toBe(1);
  });
});
