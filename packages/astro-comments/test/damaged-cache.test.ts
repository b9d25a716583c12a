// A damaged comment cache (a CI cache restored in part, a full disk, a flipped byte, a folder where
// a file was) never costs comments while the service is up: the sync finds it and rebuilds it from
// the fetch. While the service is down, one line names the pages whose saved comments are damaged,
// and every other page keeps its comments. Also: a build killed between the loader's own copy and
// Astro's store keeps the newer of the two.
import { startMockServer, type MockServer } from "@astro-comments/mock-server";
import type { DataStore, LoaderContext } from "astro/loaders";
import { mkdirSync, readFileSync, rmSync, truncateSync, utimesSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { commentModules } from "../src/loader/module-files.ts";
import type { PageCommentsData } from "../src/loader/entry-schema.ts";
import { resolveOptions, type CommentsOptions } from "../src/integration/options.ts";
import { externalData } from "../src/loader/module-format.ts";
import type { SiteHandoff } from "../src/site-registry.ts";
import { syncComments } from "../src/loader/sync-comments.ts";
import { loaderContext, memoryMeta, memoryStore, storedComments } from "./helpers/loader-context.ts";
import { recordingSleep, serve } from "./helpers/servers.ts";

let mock: MockServer;
let front: Awaited<ReturnType<typeof serve>>;
/** Whether the service in front of the mock answers; down, it says 503. */
let up = true;

beforeAll(async () => {
  mock = await startMockServer({ dataset: { seed: 11, size: 200 } });
  front = await serve(async (req, res) => {
    if (!up)
      return void res.writeHead(503, { "content-type": "application/json" }).end('{"message":"Service Unavailable"}');
    const answer = await fetch(new URL(req.url ?? "/", mock.url), {
      headers: { authorization: req.headers.authorization ?? "", accept: "application/json" },
    });
    res
      .writeHead(answer.status, { "content-type": answer.headers.get("content-type") ?? "application/json" })
      .end(Buffer.from(await answer.arrayBuffer()));
  });
});
afterAll(async () => {
  await front?.close();
  await mock?.close();
});

function site(options: CommentsOptions = {}): SiteHandoff {
  const env = { COMMENTS_DOMAIN: "example.com", COMMENTS_API_URL: front.url, COMMENTS_API_TOKEN: mock.token };
  return { options: resolveOptions({ retries: 0, ...options }, env), command: "build" };
}

/** One build's sync; retry waits are recorded, not slept. */
async function sync(context: LoaderContext, state = site()) {
  const clock = recordingSleep();
  await syncComments(context, state, { sleep: clock.sleep, now: clock.now, random: () => 0.5 });
  await state.pendingWrite;
}

async function down<T>(run: () => Promise<T>): Promise<T> {
  up = false;
  try {
    return await run();
  } finally {
    up = true;
  }
}

/** A site after one good build; `inline`: a site with an adapter, whose modules carry their comments. */
async function builtSite(inline = false) {
  const built = loaderContext();
  if (inline) Object.assign(built.context.config, { output: "server" });
  await sync(built.context);
  const before = await storedComments(built.context);
  const root = built.context.config.root;
  const file = (filePath: string) => fileURLToPath(new URL(filePath, root));
  const filePaths = [...new Set(built.context.store.values().map((entry) => entry.filePath!))].sort();
  // A module and the pages it holds.
  const module = (n: number) => ({
    file: file(filePaths[n]!),
    data: file(filePaths[n]!.replace(/\.mjs$/, ".json")),
    pages: built.context.store
      .entries()
      .filter(([, entry]) => entry.filePath === filePaths[n])
      .map(([id]) => id)
      .sort(),
  });
  return { ...built, before, module, filePaths };
}

const cutShort = (file: string) => truncateSync(file, Math.floor(readFileSync(file).length / 2));
const makeEmpty = (file: string) => writeFileSync(file, "");
const makeFolder = (file: string) => {
  rmSync(file);
  mkdirSync(`${file}/inside`, { recursive: true });
};
/** Flips one byte in the middle of one page's comments in a data file. */
function flipPage(moduleFile: string, page: string) {
  const found = externalData(readFileSync(moduleFile, "utf8"))!;
  const [, start, length] = found.index.find(([key]) => key === page)!;
  const bytes = readFileSync(found.file);
  const at = start + Math.floor(length / 2);
  bytes[at] = bytes[at]! ^ 0x01;
  writeFileSync(found.file, bytes);
}

const damages: Array<[string, (module: { file: string; data: string; pages: string[] }) => void]> = [
  ["its data file cut short", (module) => cutShort(module.data)],
  ["a byte flipped in its data file", (module) => flipPage(module.file, module.pages[0]!)],
  ["its data file missing", (module) => rmSync(module.data)],
  ["its data file empty", (module) => makeEmpty(module.data)],
  ["a folder where its data file was", (module) => makeFolder(module.data)],
  ["the module cut short", (module) => cutShort(module.file)],
  ["the module empty", (module) => makeEmpty(module.file)],
  ["a folder where the module was", (module) => makeFolder(module.file)],
];

const intact = async (context: LoaderContext, filePaths: readonly string[]) => {
  const modules = commentModules(context.config);
  return Promise.all(filePaths.map((filePath) => modules.check(filePath)));
};

describe("a damaged comment cache, with the service up", () => {
  it.each(damages)("is rebuilt from the fetch: %s", async (_name, damage) => {
    const built = await builtSite();
    damage(built.module(0));
    const errors = built.lines.length;
    await sync(built.context);
    expect(await storedComments(built.context)).toEqual(built.before);
    expect(await intact(built.context, built.filePaths)).toEqual(built.filePaths.map(() => "intact"));
    const lines = built.lines.slice(errors);
    expect(lines.filter((line) => !line.startsWith("INFO"))).toEqual([]);
    expect(lines).toContainEqual(
      expect.stringMatching(/^INFO rebuilt 1 damaged comment module in .*modules from the fetch$/),
    );
  });

  it("is rebuilt from the fetch when the module carries its comments (a site with an adapter) and was cut short", async () => {
    const built = await builtSite(true);
    cutShort(built.module(0).file);
    await sync(built.context);
    expect(await storedComments(built.context)).toEqual(built.before);
    expect(built.lines.at(-2)).toMatch(/^INFO rebuilt 1 damaged comment module/);
  });
});

describe("a damaged comment cache, with the service down", () => {
  it("names the one page whose comments are damaged, in one line, and keeps every other page's", async () => {
    const built = await builtSite();
    const { file, pages } = built.module(1);
    flipPage(file, pages[0]!);
    const state = site();
    await down(() => sync(built.context, state));
    const after = await storedComments(built.context);
    const expected = new Map([...built.before].filter(([id]) => id !== pages[0]));
    expect(after).toEqual(expected);
    const warnings = built.lines.filter((line) => line.startsWith("WARN"));
    expect(warnings).toEqual([
      `WARN the saved comments of ${pages[0]} are missing or damaged in ${commentModules(built.context.config).dir}, so that page is built without comments; the other ${expected.size} pages keep theirs`,
      expect.stringMatching(/^WARN showing the comments as of .* \(\d+ pages\), because the fetch failed: /),
    ]);
    expect(state.status).toMatchObject({ stale: true });
  });

  it.each(damages.filter(([name]) => !name.startsWith("a byte")))(
    "names the pages of a module with %s, and keeps the rest",
    async (name, damage) => {
      const built = await builtSite();
      const module = built.module(2);
      damage(module);
      await down(() => sync(built.context));
      const after = await storedComments(built.context);
      for (const [id, page] of after) expect(page).toEqual(built.before.get(id));
      const lost = [...built.before.keys()].filter((id) => !after.has(id)).sort();
      // A data file cut short still holds the pages before the cut, whole.
      if (name === "its data file cut short") {
        expect(lost.length).toBeGreaterThan(0);
        expect(lost.length).toBeLessThan(module.pages.length);
        expect(module.pages).toEqual(expect.arrayContaining(lost));
      } else expect(lost).toEqual(module.pages);
      const listed = lost.length > 5 ? `${lost.slice(0, 5).join(", ")} and ${lost.length - 5} more` : lost.join(", ");
      expect(built.lines.filter((line) => line.startsWith("WARN"))[0]).toBe(
        `WARN the saved comments of ${listed} are missing or damaged in ${commentModules(built.context.config).dir}, so ${lost.length === 1 ? "that page is" : "those pages are"} built without comments; the other ${after.size} pages keep theirs`,
      );
    },
  );

  /** The next build after Astro cleared its store (a config or version change), during an outage. */
  const afterClearing = (built: { context: LoaderContext }) =>
    loaderContext({
      root: built.context.config.root,
      cacheDir: built.context.config.cacheDir,
      store: memoryStore(),
      meta: memoryMeta(),
    });
  const cacheFile = (built: { context: LoaderContext }, name: string) =>
    fileURLToPath(new URL(`astro-comments/${name}`, built.context.config.cacheDir));

  it("keeps the whole entries of a saved list cut short, and says how many pages it lost", async () => {
    const built = await builtSite();
    const list = cacheFile(built, "last-good.jsonl");
    const lines = readFileSync(list, "utf8").split("\n");
    // Cut in the middle of the fourth entry: three whole ones are left.
    writeFileSync(list, [...lines.slice(0, 4), lines[4]!.slice(0, 20)].join("\n"));
    const cleared = afterClearing(built);
    await down(() => sync(cleared.context));
    const after = await storedComments(cleared.context);
    expect(after.size).toBe(3);
    for (const [id, page] of after) expect(page).toEqual(built.before.get(id));
    expect(cleared.lines.filter((line) => line.startsWith("WARN"))[0]).toBe(
      `WARN the saved list of pages in ${fileURLToPath(new URL("astro-comments", built.context.config.cacheDir))} is cut short or damaged: ${built.before.size - 3} pages in it cannot be read and are built without comments; the other 3 pages keep theirs`,
    );
  });

  it("keeps the comments, as of the saved list's own date, when the record of the last fetch is damaged", async () => {
    const built = await builtSite();
    cutShort(cacheFile(built, "last-fetch.json"));
    const cleared = afterClearing(built);
    await down(() => sync(cleared.context, site({ maxStaleHours: 1 })));
    expect(await storedComments(cleared.context)).toEqual(built.before);
    expect(cleared.lines.at(-1)).toMatch(
      /^WARN showing the comments as of \d{4}-\d\d-\d\d \d\d:\d\d UTC \(\d+ pages\)/,
    );
  });

  it("keeps the newer copy when a build was killed after the loader saved its copy but before Astro saved its store", async () => {
    const built = await builtSite();
    // Astro's store on disk as that build left it: the one before.
    const oldStore = memoryStore();
    for (const [, entry] of built.context.store.entries()) oldStore.set(structuredClone(entry));
    const oldMeta = memoryMeta();
    for (const key of ["source", "fetchedAt"]) oldMeta.set(key, built.context.meta.get(key)!);
    // The next build: one comment approved, the replaced modules an hour old, so they are pruned.
    for (const filePath of built.filePaths) {
      const old = new Date(Date.now() - 2 * 3_600_000);
      for (const file of [filePath, filePath.replace(/\.mjs$/, ".json")])
        utimesSync(fileURLToPath(new URL(file, built.context.config.root)), old, old);
    }
    mock.store.approvePending(1);
    await sync(built.context);
    const newer = await storedComments(built.context);
    expect(newer).not.toEqual(built.before);
    // Killed: Astro's store is the old one, and the service is down.
    const killed = loaderContext({
      root: built.context.config.root,
      cacheDir: built.context.config.cacheDir,
      store: oldStore as DataStore,
      meta: oldMeta,
    });
    await down(() => sync(killed.context));
    expect(await storedComments(killed.context)).toEqual(newer);
    expect(killed.lines.filter((line) => line.startsWith("WARN"))).toHaveLength(1);
  });
});

describe("a damaged comment cache at render time", () => {
  it("gives no comments for a page whose bytes changed after the sync, never a parse error", async () => {
    const built = await builtSite();
    const { file, pages } = built.module(0);
    flipPage(file, pages[0]!);
    const source = readFileSync(file, "utf8").replace(/^export \{ Comments as Content \} from "[^"]+";$/m, "");
    const module = (await import(`data:text/javascript;base64,${Buffer.from(source).toString("base64")}`)) as {
      frontmatter: Record<string, PageCommentsData | undefined>;
    };
    expect(module.frontmatter[pages[0]!]).toBeUndefined();
    for (const page of pages.slice(1)) expect(module.frontmatter[page]).toEqual(built.before.get(page));
  });
});
