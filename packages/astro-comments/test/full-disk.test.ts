// The cache on a disk that fills up, on a real file system: a small tmpfs filled to leave nothing,
// half of what the comment modules need, the modules and 4 KiB, the modules and half the saved
// list of pages, or all it needs. No write may crash the process: what the build needs fails it
// with one line of ours, what only the fallback copy needs costs that copy with one warning. After
// each case, with the space back and the service down, a build with Astro's store and one without
// it (the store deleted) ship every page's comments, and no temporary file is left.
// Runs the loader's sync as a build does (the real build is in cache-folders.test.ts): the writes
// are the same, and six cases stay fast.
import { startMockServer, type MockServer } from "@astro-comments/mock-server";
import type { DataStore, LoaderContext } from "astro/loaders";
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveOptions } from "../src/integration/options.ts";
import { syncComments } from "../src/loader/sync-comments.ts";
import type { SiteHandoff } from "../src/site-registry.ts";
import { loaderContext, memoryMeta, memoryStore, storedComments } from "./helpers/loader-context.ts";
import { recordingSleep } from "./helpers/servers.ts";
import { cannotMount, mountTmpfs, type Tmpfs } from "./helpers/tmpfs.ts";

const BLOCK = 4096;
/** What a file takes on a tmpfs: whole pages. */
const footprint = (file: string) => Math.ceil(statSync(file).size / BLOCK) * BLOCK;

let mock: MockServer;
let disk: Tmpfs;

beforeAll(async () => {
  if (cannotMount) return;
  // Enough pages with comments that the saved list is well over 64 KiB (a stream's buffer): the
  // case that used to crash.
  mock = await startMockServer({ dataset: { seed: 41, size: 800, paths: 2000 } });
  disk = mountTmpfs(64 * 1_048_576);
});
afterAll(async () => {
  disk?.unmount();
  await mock?.close();
});

function build(): SiteHandoff {
  const env = { COMMENTS_DOMAIN: "example.com", COMMENTS_API_URL: mock.url, COMMENTS_API_TOKEN: mock.token };
  return { options: resolveOptions({ retries: 0 }, env), command: "build" };
}

/** One build's sync, settled with the write of the fallback copy; its error's first line when it failed. */
async function sync(context: LoaderContext, up = true): Promise<string | undefined> {
  mock.setOutage(up ? "off" : "500");
  const site = build();
  const clock = recordingSleep();
  try {
    await syncComments(context, site, { sleep: clock.sleep, now: clock.now, random: () => 0.5 });
    await site.pendingWrite;
    return undefined;
  } catch (error) {
    return (error as Error).message.split("\n")[0];
  } finally {
    mock.setOutage("off");
  }
}

/** A store as Astro saves it: a build that fails saves nothing, so the next one starts from the last saved. */
function copyOf(store: DataStore): DataStore {
  const copy = memoryStore();
  for (const entry of store.values()) copy.set(structuredClone(entry));
  return copy;
}

/** Every file under the cache folder whose name says it is a temporary one. */
const temporaries = (dir: string) =>
  readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((name) => name.endsWith(".tmp"));

let caseNumber = 0;
/** A site whose cache folder is on the small disk, after one good build; `inline` switches every module's kind (and name) at once. */
async function builtSite() {
  const cacheDir = pathToFileURL(join(disk.dir, `site-${++caseNumber}`, ".astro/"));
  const first = loaderContext({ cacheDir });
  expect(await sync(first.context)).toBeUndefined();
  return { first, cacheDir, expected: await storedComments(first.context) };
}

/** The bytes the next build writes: every module anew (the site now renders on demand, so each carries its comments), and the list. */
async function measureWrites() {
  const site = await builtSite();
  const dir = join(site.first.context.config.cacheDir.pathname, "astro-comments");
  const before = new Set(readdirSync(join(dir, "modules")));
  Object.assign(site.first.context.config, { output: "server" });
  expect(await sync(site.first.context)).toBeUndefined();
  const written = readdirSync(join(dir, "modules")).filter((name) => !before.has(name));
  expect(written).toHaveLength(16);
  const modules = written.reduce((sum, name) => sum + footprint(join(dir, "modules", name)), 0);
  return { modules, list: footprint(join(dir, "last-good.jsonl")) };
}

describe.skipIf(cannotMount !== undefined)("the cache on a disk that fills up (a real tmpfs)", () => {
  let sizes: { modules: number; list: number };
  beforeAll(async () => {
    sizes = await measureWrites();
  });

  it("measures a saved list over 64 KiB (the size that used to crash)", () => {
    expect(sizes.list).toBeGreaterThan(65_536);
  });

  const modulesFail = /^astro-comments: could not write the comments to .*modules: .*ENOSPC/;
  const storeWarning =
    /^WARN the disk holding the cache folder .* has [\d,]+ KiB free, less than Astro's data store needs there \(about [\d,]+ KiB\); if Astro now fails with UnknownFilesystemError \(ENOSPC\), that is why/;
  const listWarning =
    /^WARN could not write .*last-good\.jsonl \(ENOSPC\), so the last good comments were not saved; this build is complete/;
  // Each: what the disk leaves free; the build's error, or undefined; its warnings, in order.
  const cases: Array<[string, (s: { modules: number; list: number }) => number, RegExp | undefined, RegExp[]]> = [
    ["nothing left", () => 0, modulesFail, []],
    ["half of what the modules need", (s) => s.modules / 2, modulesFail, []],
    ["the modules and 4 KiB", (s) => s.modules + 4096, undefined, [storeWarning, listWarning]],
    ["the modules and half the list", (s) => s.modules + s.list / 2, undefined, [storeWarning, listWarning]],
    ["all it needs", () => 64 * 1_048_576, undefined, []],
  ];

  it.each(cases)(
    "%s: no crash, one line of ours, and the last good comments whole after",
    async (_name, free, fails, warns) => {
      const site = await builtSite();
      const saved = copyOf(site.first.context.store);
      const fault = loaderContext({
        root: site.first.context.config.root,
        cacheDir: site.cacheDir,
        store: site.first.context.store,
        meta: site.first.context.meta,
      });
      Object.assign(fault.context.config, { output: "server" });
      disk.fill(free(sizes));
      let failure: string | undefined;
      try {
        failure = await sync(fault.context);
      } finally {
        disk.unfill();
      }
      if (fails) expect(failure).toMatch(fails);
      else expect(failure).toBeUndefined();
      expect(fault.lines.filter((line) => line.startsWith("WARN"))).toEqual(
        warns.map((warning) => expect.stringMatching(warning)),
      );

      // The next builds, space back, service down: Astro's store as the fault build left it saved…
      const withStore = loaderContext({
        root: site.first.context.config.root,
        cacheDir: site.cacheDir,
        store: failure === undefined ? fault.context.store : saved,
        meta: fault.context.meta,
      });
      expect(await sync(withStore.context, false)).toBeUndefined();
      expect(await storedComments(withStore.context)).toEqual(site.expected);
      // …and with it deleted: the loader's own saved list.
      const withoutStore = loaderContext({
        root: site.first.context.config.root,
        cacheDir: site.cacheDir,
        store: memoryStore(),
        meta: memoryMeta(),
      });
      expect(await sync(withoutStore.context, false)).toBeUndefined();
      expect(await storedComments(withoutStore.context)).toEqual(site.expected);
      expect(withoutStore.lines.filter((line) => line.startsWith("WARN"))).toEqual([
        expect.stringMatching(/^WARN showing the comments as of /),
      ]);
      expect(temporaries(site.cacheDir.pathname)).toEqual([]);
    },
  );
});
