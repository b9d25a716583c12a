// The loader's sync against the mock and against broken servers, with a Map-backed data store in
// place of Astro's: entries, digests, what gets rendered again, and what an outage keeps.
import { startMockServer, type MockServer } from "@astro-comments/mock-server";
import type { DataStore, LoaderContext } from "astro/loaders";
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { basename } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PageCommentsData } from "../src/loader/entry-schema.ts";
import { resolveOptions, type CommentsOptions } from "../src/integration/options.ts";
import type { SiteHandoff } from "../src/site-registry.ts";
import { shardOf, unsealModule } from "../src/loader/module-format.ts";
import { syncComments } from "../src/loader/sync-comments.ts";
import { renderCommentBody } from "../src/render/render-body.ts";
import { integrityDigest } from "../src/utils/integrity-digest.ts";
import { commentPagesUnder } from "./helpers/data-api-mocks.ts";
import { loaderContext, memoryMeta, memoryStore, storedComments } from "./helpers/loader-context.ts";
import { recordingSleep, serve } from "./helpers/servers.ts";

let mock: MockServer;
beforeAll(async () => {
  mock = await startMockServer({ dataset: { seed: 5, size: 400 } });
});
afterAll(() => mock.close());

function site(url: string, options: CommentsOptions = {}, token = mock.token): SiteHandoff {
  const env = { COMMENTS_DOMAIN: "example.com", COMMENTS_API_URL: url, COMMENTS_API_TOKEN: token };
  // The mock answers: a timeout no loaded machine reaches. Tests of a server that never answers set a short one.
  return { options: resolveOptions({ timeout: 30_000, ...options }, env), command: "build" };
}

/** One sync, as one build runs it; waits are recorded, not slept. */
async function sync(context: LoaderContext, state: SiteHandoff) {
  const clock = recordingSleep();
  await syncComments(context, state, { sleep: clock.sleep, now: clock.now, random: () => 0.5 });
}

/** Syncs against `local` with a renderer that records each body it renders (its content), waiting for every write. */
function countedBuilds(local: MockServer) {
  const calls: string[] = [];
  const renderer = {
    version: "loader test",
    render: (html: string, content: string) => {
      calls.push(content);
      return renderCommentBody(html, content);
    },
  };
  const build = async (context: LoaderContext) => {
    const state = site(local.url, {}, local.token);
    const clock = recordingSleep();
    await syncComments(context, state, { sleep: clock.sleep, now: clock.now, random: () => 0.5, renderer });
    await state.pendingWrite;
  };
  /**
   * Builds again with Astro's store and every comment module gone, and checks it stored the same
   * comments; the bodies it rendered.
   */
  const rebuildWithoutModules = async (context: LoaderContext) => {
    calls.length = 0;
    rmSync(new URL("node_modules/.astro/astro-comments/modules/", context.config.root), { recursive: true });
    const cleared = loaderContext({ root: context.config.root, cacheDir: context.config.cacheDir });
    await build(cleared.context);
    expect(await storedComments(cleared.context)).toEqual(await storedComments(context));
    return calls;
  };
  return { calls, build, rebuildWithoutModules };
}

const digests = (store: DataStore) => new Map(store.entries().map(([id, entry]) => [id, entry.digest]));
const totalComments = (store: DataStore) =>
  store.values().reduce((sum, entry) => sum + (entry.data as PageCommentsData).count, 0);

async function failure(run: Promise<unknown>): Promise<Error> {
  try {
    await run;
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected the sync to fail");
}

describe("loader sync", () => {
  it("writes one entry per page, and on the next build renders nothing that did not change", async () => {
    const { context, lines } = loaderContext();
    const state = site(mock.url);
    await sync(context, state);
    const store = context.store as DataStore & { writes: number };
    const expected = mock.store.threads("example.com").reduce((sum, thread) => sum + 1 + thread.children.length, 0);
    expect(totalComments(store)).toBe(expected);
    expect(state.collection).toBe("comments");
    expect(state.status).toMatchObject({ stale: false });
    const writes = store.writes;
    const before = digests(store);

    await sync(context, state);
    expect(store.writes).toBe(writes);
    expect(digests(store)).toEqual(before);
    expect(lines.at(-1)).toMatch(new RegExp(`: 0 rendered, ${before.size} unchanged, 0 removed`));
  });

  it("after one approval changes exactly the digest of the page that got the comment", async () => {
    const local = await startMockServer({ dataset: { seed: 8, size: 300 } });
    try {
      const { context } = loaderContext();
      const state = site(local.url, {}, local.token);
      await sync(context, state);
      const before = digests(context.store);
      const countBefore = totalComments(context.store);
      local.store.approvePending(1);
      await sync(context, state);
      const after = digests(context.store);
      const changed = [...after].filter(([id, digest]) => before.get(id) !== digest).map(([id]) => id);
      expect(changed).toHaveLength(1);
      expect(totalComments(context.store)).toBeGreaterThan(countBefore);
    } finally {
      await local.close();
    }
  });

  it("keeps comments out of Astro's store: small entries that point at comment modules, every module named on every sync", async () => {
    const { context, lines } = loaderContext();
    const state = site(mock.url);
    await sync(context, state);
    await state.pendingWrite;
    const store = context.store as ReturnType<typeof memoryStore>;
    for (const entry of store.values()) {
      expect(Object.keys(entry.data).sort()).toEqual(["count", "path"]);
      expect(entry.deferredRender).toBe(true);
      expect(existsSync(new URL(entry.filePath!, context.config.root))).toBe(true);
    }
    const comments = await storedComments(context);
    expect([...comments.values()].reduce((sum, page) => sum + page.count, 0)).toBe(totalComments(store));
    const modules = new Set(store.values().map((entry) => entry.filePath!));
    // A site without on-demand pages: each module reads its comments from the JSON file beside it.
    expect(readdirSync(new URL("node_modules/.astro/astro-comments/modules/", context.config.root)).sort()).toEqual(
      [...modules].flatMap((file) => [basename(file), basename(file).replace(/\.mjs$/, ".json")]).sort(),
    );

    // Astro 5 and 6 bundle only the modules a sync names: a sync that changed nothing names them all.
    store.moduleImports.clear();
    await sync(context, state);
    expect(store.moduleImports).toEqual(modules);
    expect(lines.at(-1)).toMatch(/: 0 rendered, \d+ unchanged/);
  });

  it("after one approval rewrites one module and renders one page; replaced modules go once they are an hour old", async () => {
    const local = await startMockServer({ dataset: { seed: 8, size: 300 } });
    try {
      const { context, lines } = loaderContext();
      const state = site(local.url, {}, local.token);
      await sync(context, state);
      const before = new Map(context.store.entries().map(([id, entry]) => [id, entry.filePath]));
      local.store.approvePending(1);
      await sync(context, state);
      await state.pendingWrite;
      expect(lines.at(-1)).toMatch(/: 1 rendered, /);
      const after = new Map(context.store.entries().map(([id, entry]) => [id, entry.filePath]));
      const moved = new Set([...after].filter(([id, file]) => before.get(id) !== file).map(([, file]) => file));
      expect(moved.size).toBe(1);
      const [replaced] = [
        ...new Set([...before].filter(([id]) => after.get(id) !== before.get(id)).map(([, file]) => file)),
      ];
      const replacedFile = new URL(replaced!, context.config.root);
      // `astro dev` and `astro build` share the folder: a module written lately may be the other one's.
      expect(existsSync(replacedFile)).toBe(true);
      expect((await storedComments(context)).size).toBe(after.size);
      const anHourAgo = new Date(Date.now() - 3_700_000);
      utimesSync(replacedFile, anHourAgo, anHourAgo);
      await sync(context, state);
      await state.pendingWrite;
      expect(existsSync(replacedFile)).toBe(false);
      expect((await storedComments(context)).size).toBe(after.size);
    } finally {
      await local.close();
    }
  });

  it("renders every page again under a new renderer version (an upgrade of the package or of PrismJS), so no page keeps the older rendering", async () => {
    const renderer = (version: string) => ({ version, render: renderCommentBody });
    const { context, lines } = loaderContext();
    const build = async (version: string) => {
      const state = site(mock.url);
      const clock = recordingSleep();
      await syncComments(context, state, {
        sleep: clock.sleep,
        now: clock.now,
        random: () => 0.5,
        renderer: renderer(version),
      });
      await state.pendingWrite;
    };
    await build("prismjs 1.30.0");
    const before = digests(context.store);
    await build("prismjs 1.30.0");
    expect(lines.at(-1)).toMatch(new RegExp(`: 0 rendered, ${before.size} unchanged`));
    await build("prismjs 1.31.0");
    expect(lines.at(-1)).toMatch(new RegExp(`: ${before.size} rendered, 0 unchanged`));
    expect([...digests(context.store)].every(([id, digest]) => digest !== before.get(id))).toBe(true);
  });

  it("sanitizes and highlights each comment once: after an approval only the new one, after the modules are lost none", async () => {
    const local = await startMockServer({ dataset: { seed: 8, size: 300 } });
    try {
      const { calls, build, rebuildWithoutModules } = countedBuilds(local);
      const { context, lines } = loaderContext();
      await build(context);
      const all = totalComments(context.store);
      // Every body at most once (a body on two pages of one shard is rendered once).
      expect(calls.length).toBeGreaterThan(all * 0.9);
      expect(calls.length).toBeLessThanOrEqual(all);

      calls.length = 0;
      local.store.approvePending(1);
      await build(context);
      expect(calls).toHaveLength(1);
      expect(totalComments(context.store)).toBe(all + 1);
      expect(lines.at(-1)).toMatch(
        /: 1 rendered, .*; comment bodies: 1 sanitized and highlighted, \d+ from the render cache$/,
      );

      // Astro's store and every comment module gone (a new module format, say): the bodies are read back.
      expect(await rebuildWithoutModules(context)).toEqual([]);
    } finally {
      await local.close();
    }
  });

  it("keeps the cached bodies of a shard's unchanged pages when another page of that shard changes", async () => {
    // Two posts whose comments share a module and so a render-cache pack, which is saved as soon as
    // the shard is stored: the unchanged post's bodies must be in it though nothing rendered them.
    const paths = Array.from({ length: 64 }, (_, i) => `/posts/p${i}`);
    const [changed, unchanged] = paths.filter((path) => shardOf(path) === shardOf(paths[0]!));
    const thread = (path: string, i: number) => ({
      created_at: `2026-01-0${i + 1}T00:00:00.000000Z`,
      content: `comment ${i} on ${path}`,
      name: "Ann",
      path,
      children: [],
    });
    const local = await startMockServer({
      data: {
        format: "comments-mock-data",
        version: 1,
        domain: "example.com",
        comments: [changed!, unchanged!].flatMap((path) => [0, 1, 2].map((i) => thread(path, i))),
      },
    });
    try {
      const { calls, build, rebuildWithoutModules } = countedBuilds(local);
      const { context } = loaderContext();
      await build(context);
      expect(calls).toHaveLength(6);

      calls.length = 0;
      local.addComment({ domain: "example.com", path: changed!, name: "Bo", content: "a new comment" });
      await build(context);
      expect(calls).toEqual(["a new comment"]);

      // Astro's store and the modules gone: every body, the unchanged post's too, comes from the cache.
      expect(await rebuildWithoutModules(context)).toEqual([]);
    } finally {
      await local.close();
    }
  });

  it("keeps the last good comments through an outage when their modules were written for another format or package location", async () => {
    const { context, lines } = loaderContext();
    const good = site(mock.url);
    await sync(context, good);
    const before = await storedComments(context);
    // What a package upgrade or move leaves: the same comments under names today's code would not give,
    // each module with its data file beside it.
    const store = context.store as ReturnType<typeof memoryStore>;
    for (const [id, entry] of store.entries()) {
      const old = entry.filePath!.replace(/comments-(\d+)-/, "comments-$1-old");
      if (!existsSync(new URL(old, context.config.root))) {
        for (const [from, to] of [
          [entry.filePath!, old],
          [entry.filePath!.replace(/\.mjs$/, ".json"), old.replace(/\.mjs$/, ".json")],
        ] as const)
          renameSync(new URL(from, context.config.root), new URL(to, context.config.root));
      }
      store.delete(id);
      store.set({ ...entry, filePath: old });
    }
    const server = await serve(() => undefined);
    await server.close();
    // Same source as the good fetch: only the API's health differs.
    const down = site(server.url, { retries: 0 }, mock.token);
    (context.meta as ReturnType<typeof memoryMeta>).set(
      "source",
      `example.com ${down.options.credentials!.endpoint.href}`,
    );
    await sync(context, down);
    expect(lines.at(-1)).toMatch(/^WARN showing the comments as of .* \(\d+ pages\), because the fetch failed/);
    expect(store.values().every((entry) => !entry.filePath!.includes("old"))).toBe(true);
    expect(await storedComments(context)).toEqual(before);
  });

  it("keeps the last good comments through an outage right after an upgrade: modules the release before wrote (format 6) are read page by page", async () => {
    const { context, lines } = loaderContext();
    // With comment pages, so the data files carry made lists and splits beside the comments.
    const good = { ...site(mock.url), pages: commentPagesUnder("/") };
    await sync(context, good);
    await good.pendingWrite;
    const before = await storedComments(context);
    // As the release before wrote them: under names of their own, with its header, a made list's
    // place in the index as three numbers after the page's (no splits), sealed as it sealed them.
    const store = context.store as ReturnType<typeof memoryStore>;
    const at = (filePath: string) => new URL(filePath, context.config.root);
    for (const [id, entry] of store.entries()) {
      const old = entry.filePath!.replace(/comments-(\d+)-/, "comments-$1-old");
      if (!existsSync(at(old))) {
        const body = unsealModule(readFileSync(at(entry.filePath!), "utf8"))!
          .replace(/\(module format \d+\)/, "(module format 6)")
          .replace(/^const index = (.*);$/m, (_, index: string) => {
            const entries = JSON.parse(index) as Array<[string, number, number, string, [string, ...unknown[]]?]>;
            const older = entries.map(([key, start, length, digest, beside]) =>
              beside?.[0] === "list" ? [key, start, length, digest, ...beside.slice(1)] : [key, start, length, digest],
            );
            return `const index = ${JSON.stringify(older)};`;
          });
        writeFileSync(at(old), `${body}// sha256 ${integrityDigest(body)}\n`);
        rmSync(at(entry.filePath!));
        renameSync(at(entry.filePath!.replace(/\.mjs$/, ".json")), at(old.replace(/\.mjs$/, ".json")));
      }
      store.delete(id);
      store.set({ ...entry, filePath: old });
    }
    const server = await serve(() => undefined);
    await server.close();
    const down = { ...site(server.url, { retries: 0 }, mock.token), pages: commentPagesUnder("/") };
    (context.meta as ReturnType<typeof memoryMeta>).set(
      "source",
      `example.com ${down.options.credentials!.endpoint.href}`,
    );
    await sync(context, down);
    expect(lines.at(-1)).toMatch(/^WARN showing the comments as of .* \(\d+ pages\), because the fetch failed/);
    expect(await storedComments(context)).toEqual(before);
    // Written again in today's format, splits and all.
    const modules = new Set(store.values().map((entry) => entry.filePath!));
    const sources = [...modules].map((filePath) => readFileSync(at(filePath), "utf8"));
    expect(sources.every((source) => unsealModule(source) !== undefined && unsealModule(source) !== null)).toBe(true);
    expect(sources.some((source) => source.includes('"split",'))).toBe(true);
  });

  it("keeps every page's comments after the project moved (a CI cache restored under another path): none lost in an outage, none rendered again", async () => {
    const first = loaderContext();
    const good = site(mock.url);
    await sync(first.context, good);
    await good.pendingWrite;
    const before = await storedComments(first.context);
    const root = new URL(`${first.context.config.root.href.replace(/\/$/, "")}-moved/`);
    renameSync(first.context.config.root, root);
    const { store, meta } = first.context;
    const moved = () => loaderContext({ root, cacheDir: new URL("node_modules/.astro/", root), store, meta });
    const server = await serve(() => undefined);
    await server.close();
    const down = site(server.url, { retries: 0 }, mock.token);
    (meta as ReturnType<typeof memoryMeta>).set("source", `example.com ${down.options.credentials!.endpoint.href}`);
    const outage = moved();
    await sync(outage.context, down);
    expect(outage.lines.at(-1)).toMatch(/^WARN showing the comments as of .* \(\d+ pages\), because the fetch failed/);
    expect(await storedComments(outage.context)).toEqual(before);

    const back = moved();
    await sync(back.context, good);
    expect(back.lines.at(-1)).toMatch(new RegExp(`: 0 rendered, ${before.size} unchanged, 0 removed`));
    expect(await storedComments(back.context)).toEqual(before);
  });

  it("after Astro cleared its store: restores an older renderer's comments rendered again, and fails when their modules are gone", async () => {
    const first = loaderContext();
    const good = site(mock.url);
    await sync(first.context, good);
    await good.pendingWrite;
    const before = await storedComments(first.context);
    const saved = new URL("node_modules/.astro/astro-comments/last-good.jsonl", first.context.config.root);
    writeFileSync(saved, readFileSync(saved, "utf8").replace(/"renderVersion":"[^"]*"/, '"renderVersion":"0"'));
    // Same source as the good fetch; the API stops answering.
    const failing = site(mock.url, { retries: 0 });
    failing.options.credentials!.endpoint = new URL("/api/comments", mock.url);
    const cleared = loaderContext({ root: first.context.config.root, cacheDir: first.context.config.cacheDir });
    await mock.close();
    try {
      await sync(cleared.context, failing);
      expect(cleared.lines.at(-1)).toMatch(/^WARN showing the comments as of/);
      const restored = await storedComments(cleared.context);
      const counts = (pages: Map<string, PageCommentsData>) =>
        Object.fromEntries([...pages].map(([id, page]) => [id, page.count]));
      expect(counts(restored)).toEqual(counts(before));
      // Rendered again: new digests, so incremental builds render those pages again.
      expect(
        cleared.context.store.values().every((entry) => entry.digest !== first.context.store.get(entry.id)?.digest),
      ).toBe(true);

      rmSync(new URL("node_modules/.astro/astro-comments/modules/", first.context.config.root), { recursive: true });
      const gone = loaderContext({ root: first.context.config.root, cacheDir: first.context.config.cacheDir });
      const error = await failure(sync(gone.context, failing));
      expect(error.message).toMatch(
        / The earlier fetch's comments are missing or damaged in .*modules; set allowEmpty: true to build without comments instead\.$/,
      );
    } finally {
      mock = await startMockServer({ dataset: { seed: 5, size: 400 } });
    }
  });

  it("renders nothing when Astro cleared its store but the comment modules are still there, and renders a page whose module is gone", async () => {
    const first = loaderContext();
    await sync(first.context, site(mock.url));
    const cleared = loaderContext({ root: first.context.config.root, cacheDir: first.context.config.cacheDir });
    await sync(cleared.context, site(mock.url));
    expect(cleared.lines.at(-1)).toMatch(/: 0 rendered, /);
    expect(digests(cleared.context.store)).toEqual(digests(first.context.store));

    const [id, entry] = cleared.context.store.entries()[0]!;
    rmSync(new URL(entry.filePath!, cleared.context.config.root));
    rmSync(new URL(entry.filePath!.replace(/\.mjs$/, ".json"), cleared.context.config.root));
    await sync(cleared.context, site(mock.url));
    expect(cleared.lines.at(-1)).toMatch(/: [1-9]\d* rendered, /);
    expect((await storedComments(cleared.context)).get(id)?.count).toBe(entry.data.count);
  });

  const broken: Array<[string, Parameters<typeof serve>[0]]> = [
    ["unreachable", () => undefined],
    ["hung (no headers)", () => undefined],
    [
      "trickling its body",
      (_req, res) => {
        res.writeHead(200, { "content-type": "application/json" });
        const timer = setInterval(() => res.write(" "), 20);
        res.once("close", () => clearInterval(timer));
      },
    ],
    [
      "failing with 500s",
      (_req, res) => res.writeHead(500, { "content-type": "application/json" }).end('{"message":"Server Error"}'),
    ],
    [
      "rejecting the token (401)",
      (_req, res) => res.writeHead(401, { "content-type": "application/json" }).end('{"message":"Unauthenticated."}'),
    ],
    ["off-contract", (_req, res) => res.writeHead(200, { "content-type": "application/json" }).end('{"data":"nope"}')],
  ];

  it.each(broken)(
    "keeps the last good comments when the API is %s, says as of when, and marks them stale",
    async (name, handler) => {
      const { context, lines } = loaderContext();
      await sync(context, site(mock.url));
      const before = digests(context.store);
      const server = await serve(handler);
      if (name === "unreachable") await server.close();
      try {
        // A timeout that only a server that never answers (hung, trickling) reaches.
        const state = site(server.url, { retries: 1, timeout: 1_000 }, mock.token);
        // Same source as the good fetch: only the API's health differs.
        state.options.credentials!.endpoint = new URL("/api/comments", server.url);
        (context.meta as ReturnType<typeof memoryMeta>).set(
          "source",
          `example.com ${state.options.credentials!.endpoint.href}`,
        );
        await sync(context, state);
        expect(digests(context.store)).toEqual(before);
        expect(state.status).toMatchObject({ stale: true });
        expect(state.status?.error).toMatch(/^the comments API|^the response/);
        expect(lines.at(-1)).toMatch(
          /^WARN showing the comments as of \d{4}-\d\d-\d\d \d\d:\d\d UTC \(\d+ pages\), because the fetch failed: /,
        );
      } finally {
        await server.close();
      }
    },
  );

  it("restores the last good comments from its own copy when Astro cleared the store, and fails without one", async () => {
    const first = loaderContext();
    await sync(first.context, site(mock.url));
    const before = digests(first.context.store);
    // Same cacheDir, empty store: what Astro leaves after "Clearing content store".
    const cleared = loaderContext({
      root: first.context.config.root,
      cacheDir: first.context.config.cacheDir,
      store: memoryStore(),
      meta: memoryMeta(),
    });
    const state = site(mock.url, { retries: 0 });
    state.options.credentials!.endpoint = new URL("/api/comments", mock.url);
    await mock.close();
    try {
      await sync(cleared.context, state);
      expect(digests(cleared.context.store)).toEqual(before);
      expect(cleared.lines.find((line) => line.startsWith("WARN showing the comments as of"))).toMatch(
        /\(\d+ pages\), because the fetch failed: the comments API did not answer/,
      );

      const fresh = loaderContext();
      const error = await failure(sync(fresh.context, state));
      expect(error.message).toMatch(
        /^astro-comments: the comments API did not answer: .* There is no earlier fetch to fall back on; set allowEmpty: true/,
      );
      expect(error.stack).toBe("");
      expect(error.message).not.toContain(mock.token);

      const allowed = loaderContext();
      const lenient = site(mock.url, { retries: 0, allowEmpty: true });
      await sync(allowed.context, lenient);
      expect(allowed.context.store.keys()).toEqual([]);
      expect(lenient.status).toMatchObject({ fetchedAt: null, stale: true });
      expect(allowed.lines.at(-1)).toMatch(/^WARN building without comments, because the fetch failed/);
    } finally {
      mock = await startMockServer({ dataset: { seed: 5, size: 400 } });
    }
  });

  it('fails instead with onError: "fail", or when the last good comments are older than maxStaleHours', async () => {
    const { context } = loaderContext();
    await sync(context, site(mock.url));
    const dead = await serve(() => undefined);
    await dead.close();
    const downSite = (options: CommentsOptions) => {
      const state = site(mock.url, { retries: 0, ...options });
      state.options.credentials!.endpoint = new URL("/api/comments", dead.url);
      (context.meta as ReturnType<typeof memoryMeta>).set(
        "source",
        `example.com ${state.options.credentials!.endpoint.href}`,
      );
      return state;
    };
    const strict = await failure(sync(context, downSite({ onError: "fail" })));
    expect(strict.message).toMatch(/did not answer.*\(onError: "fail"\)$/);
    (context.meta as ReturnType<typeof memoryMeta>).set(
      "fetchedAt",
      new Date(Date.now() - 30 * 3_600_000).toISOString(),
    );
    const old = await failure(sync(context, downSite({ maxStaleHours: 24 })));
    expect(old.message).toMatch(/are older than maxStaleHours \(24 h\), so the build stops rather than ship them\.$/);
    expect(context.store.keys().length).toBeGreaterThan(0);
  });

  it("never shows another domain's comments: a changed source starts from an empty store", async () => {
    const { context } = loaderContext();
    await sync(context, site(mock.url));
    expect(context.store.keys().length).toBeGreaterThan(0);
    const other = site(mock.url, {});
    other.options.credentials!.domain = "empty.example";
    await sync(context, other);
    expect(context.store.keys()).toEqual([]);
  });

  it("fetches nothing and keeps the store in astro sync and check, with or without credentials", async () => {
    const { context, lines } = loaderContext();
    await sync(context, site(mock.url));
    const before = digests(context.store);
    const state: SiteHandoff = { options: resolveOptions({}, {}, { requireCredentials: false }), command: "sync" };
    await sync(context, state);
    expect(digests(context.store)).toEqual(before);
    expect(lines.at(-1)).toMatch(/^INFO no credentials set, so no comments are fetched; \d+ stored pages kept$/);
    // With credentials too: a type check must not depend on the API being up.
    const requests = mock.requestCount;
    await sync(context, { ...site(mock.url), command: "sync" });
    expect(mock.requestCount).toBe(requests);
    expect(digests(context.store)).toEqual(before);
    expect(lines.at(-1)).toMatch(
      /^INFO astro sync and astro check fetch nothing, so no comments are fetched; \d+ stored pages kept$/,
    );
  });

  it("reads a Laravel 8 service: per_page as a string, identical twins and tied timestamps, all kept", async () => {
    const laravel = await startMockServer({ laravel8: true, dataset: { seed: 5, size: 400 } });
    try {
      const { context, lines } = loaderContext();
      const state = site(laravel.url, { perPage: 100 }, laravel.token);
      await sync(context, state);
      const served = laravel.store.threads("example.com");
      expect(totalComments(context.store)).toBe(served.reduce((sum, thread) => sum + 1 + thread.children.length, 0));
      // Twins: at least one page holds two comments that are equal in every field but their id,
      // which tells them apart with a suffix ("comment-…" and "comment-…-2").
      const twins = [...(await storedComments(context)).values()].some((data) => {
        const seen = new Map<string, string>();
        return data.comments.some(({ id, ...comment }) => {
          const key = JSON.stringify(comment);
          const first = seen.get(key);
          if (first !== undefined) return id === `${first}-2`;
          seen.set(key, id);
          return false;
        });
      });
      expect(twins).toBe(true);
      expect(lines.join("\n")).not.toMatch(/changed during the crawl/);
      const before = digests(context.store);
      await sync(context, state);
      expect(digests(context.store)).toEqual(before);
    } finally {
      await laravel.close();
    }
  });
});
