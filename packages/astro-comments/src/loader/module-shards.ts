// Puts pages into Astro's data store: one small entry per page (path, count, digest) pointing at
// its shard's comment module (module-format.ts). A shard whose module already exists,
// intact, under the name its pages give it keeps it, and nothing in it is rendered; otherwise its
// module is written anew from the pages' earlier modules, and only pages no module holds intact
// are rendered.
import type { LoaderContext } from "astro/loaders";
import type { CommentModules, ModulePages } from "./module-files.ts";
import { configError } from "../errors.ts";
import { ModulesNotWritable } from "../errors-data.ts";
import type { PageCommentsData, PageEntryData } from "./entry-schema.ts";
import { shardOf } from "./module-format.ts";
import { boundedMap } from "../utils/bounded-map.ts";

/**
 * Shards stored at once. All 16 at once rendered every page of a cold sync before the first
 * module was written, so every comment was held rendered at the sync's peak; two at a time, one
 * renders while the other is written. A cold build of 53,000 comments peaked 46 MiB lower (813
 * against 859 MiB, medians of 3 interleaved), its sync no slower; one at a time saved about as
 * much again in one series and nothing in another, with a slower sync.
 */
const SHARDS_AT_ONCE = 2;

export interface PageToStore {
  id: string;
  /** Changes exactly when the page's comments (or the renderer) do. */
  digest: string;
  count: number;
  /**
   * The module that holds this page's comments at this digest, when the store has no entry saying
   * so (a restore from the last good copy).
   */
  from?: string;
  /**
   * Sanitizes and highlights the page's comments: called only when no module holds them. Returns
   * undefined when there is nothing to render them from (a kept page whose module is gone); the
   * page is then dropped.
   */
  render(): Promise<PageCommentsData | undefined>;
}

export interface StoredShards {
  /** Pages whose comments were rendered. */
  rendered: number;
  /** Pages dropped: no module held them intact and nothing could render them. */
  dropped: string[];
  /** Modules found damaged (cut short, changed, a folder): their pages were rendered again or dropped. */
  damaged: string[];
  /** Every module the entries point at. */
  filePaths: string[];
}

type Context = Pick<LoaderContext, "store" | "generateDigest">;

const byId = (a: PageToStore, b: PageToStore) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/**
 * Stores `pages` shard by shard. `stored` hears of each shard once it is done (its pages stored
 * or dropped, its module kept or written), with the pages it was given: nothing of that shard
 * renders after it.
 */
export async function storeShards(
  context: Context,
  modules: CommentModules,
  pages: Iterable<PageToStore>,
  stored?: (shard: number, pages: readonly PageToStore[]) => void,
): Promise<StoredShards> {
  const { store } = context;
  const shards = new Map<number, PageToStore[]>();
  for (const page of pages) {
    const shard = shardOf(page.id);
    const members = shards.get(shard);
    if (members) members.push(page);
    else shards.set(shard, [page]);
  }
  // The format and the import are part of the name: after either changes, no earlier module is reused as it is.
  const fileOf = (shard: number, members: readonly PageToStore[]) =>
    modules.filePath(
      shard,
      context.generateDigest(
        `${modules.signature}\n${members.map((page) => `${page.id}\u0000${page.digest}`).join("\n")}`,
      ),
    );
  // Each earlier module is read at most once, however many of its pages are kept.
  const earlier = new Map<string, Promise<ModulePages | undefined>>();
  const damaged = new Set<string>();
  const readEarlier = (filePath: string) => {
    let read = earlier.get(filePath);
    if (read === undefined) {
      read = modules.read(filePath).then((found) => {
        if (found?.damaged) damaged.add(filePath);
        return found;
      });
      earlier.set(filePath, read);
    }
    return read;
  };

  let rendered = 0;
  const dropped: string[] = [];
  const filePaths = await boundedMap([...shards], SHARDS_AT_ONCE, async ([shard, all]) => {
    let members = all.sort(byId);
    let filePath = fileOf(shard, members);
    const condition = await modules.check(filePath);
    if (condition === "damaged") damaged.add(filePath);
    if (condition !== "intact") {
      const data = new Map<string, PageCommentsData>();
      for (const page of members) {
        const existing = store.get(page.id);
        const from = page.from ?? (existing?.digest === page.digest ? existing.filePath : undefined);
        // The module that should hold it, when that one is damaged: what is intact in it is kept.
        const source = from ?? (condition === "damaged" ? filePath : undefined);
        let kept = source === undefined ? undefined : (await readEarlier(source))?.pages.get(page.id);
        if (kept === undefined) {
          kept = await page.render();
          if (kept !== undefined) rendered++;
        }
        if (kept !== undefined) data.set(page.id, kept);
      }
      if (data.size < members.length) {
        for (const page of members) {
          if (data.has(page.id)) continue;
          dropped.push(page.id);
          store.delete(page.id);
        }
        members = members.filter((page) => data.has(page.id));
        if (members.length === 0) {
          stored?.(shard, all);
          return undefined;
        }
        filePath = fileOf(shard, members);
      }
      await modules.write(filePath, data).catch((error: Error) => {
        throw configError(ModulesNotWritable, modules.dir, error.message);
      });
    }
    for (const page of members) {
      const existing = store.get(page.id);
      if (existing?.digest === page.digest && existing.filePath === filePath) {
        // Astro 5 and 6 bundle only the modules a sync names, unchanged ones included.
        store.addModuleImport(filePath);
        continue;
      }
      // Astro's store ignores a set with the entry's digest, and a kept page may have moved module.
      if (existing !== undefined) store.delete(page.id);
      store.set<PageEntryData>({
        id: page.id,
        data: { path: page.id, count: page.count },
        digest: page.digest,
        filePath,
        deferredRender: true,
      });
    }
    stored?.(shard, all);
    return filePath;
  });
  return {
    rendered,
    dropped: dropped.sort(),
    damaged: [...damaged].sort(),
    filePaths: filePaths.filter((filePath) => filePath !== undefined),
  };
}
