// The render cache, in cacheDir/astro-comments/render/: every comment body's sanitized,
// highlighted HTML, so a sync renders only bodies no earlier build rendered with this renderer.
// The comment modules already keep unchanged pages; this keeps the unchanged comments of a page
// that changed (one new reply re-rendered its whole page), and every comment when Astro dropped
// its data store (a changed astro.config, another Astro version). Keys and files: render-cache-format.ts.
// A page's bodies live in its shard's pack, so a build reads only the packs of the shards it
// renders in. Each pack is written aside and renamed into place: two builds at once in one folder
// each leave whole files, and every line is sealed. The cache only saves work: a file that cannot
// be read is a miss, and one that cannot be written warns once and costs the next build the work.
import { mkdir, readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { BodyRenderer } from "../render/comment-tree.ts";
import { RENDER_VERSION, renderCommentBody, type RenderedBody } from "../render/render-body.ts";
import { pruneLeftoverTemps } from "../utils/leftover-temps.ts";
import { writeAside } from "../utils/write-aside.ts";
import { writeLines } from "../utils/write-lines.ts";
import { packLines, renderKey, unpackEntries } from "./render-cache-format.ts";

/** What renders a body, and a version that changes whenever its output may. */
export interface Renderer {
  version: string;
  render: BodyRenderer;
}

/**
 * The package's renderer. Its version follows the package's release and PrismJS's (a new release
 * of either renders everything again) and RENDER_VERSION. No option changes a body's markup: the
 * options shape what surrounds it when a page renders, so none is part of the key; one that
 * changes a body's HTML must be added to this version.
 */
export function packageRenderer(): Renderer {
  const require = createRequire(import.meta.url);
  const versionOf = (name: string) => (require(`${name}/package.json`) as { version: string }).version;
  return {
    version: `astro-comments ${versionOf("astro-comments")} prismjs ${versionOf("prismjs")} render ${RENDER_VERSION}`,
    render: renderCommentBody,
  };
}

/** A pack's bound: 16 of them hold 256 MiB at most, five times a 53,000-comment site's HTML. */
const MAX_PACK_BYTES = 16 * 1_048_576;

interface Body {
  html: string;
  content: string;
}

export interface RenderCacheCounts {
  /** Bodies read back from the cache. */
  reused: number;
  /** Bodies rendered now. */
  rendered: number;
  /** Lines of the packs read that were damaged or foreign (their bodies were rendered). */
  damaged: number;
}

export interface RenderCache {
  /** The renderer for the pages of `shard`: a body rendered before comes from its pack, read once. */
  renderer(shard: number): Promise<BodyRenderer>;
  /**
   * Keeps the entries of these bodies in a pack this sync read, though nothing rendered them now
   * (the other pages of a shard, whose comments the modules kept): only entries no page uses are
   * dropped. Before `save(shard)`, which lets the pack go.
   */
  retain(shard: number, bodies: Iterable<Body>): void;
  /**
   * Keeps every entry of a pack this sync read: for the pages of the shard whose bodies it does not
   * know (right after a check, the pages that did not change are not read from its crawl). The
   * next sync that knows every body drops the entries none uses. Before `save(shard)`.
   */
  keepAll(shard: number): void;
  /** Whether this sync read the shard's pack. */
  read(shard: number): boolean;
  readonly counts: RenderCacheCounts;
  /**
   * Writes the shard's pack in the background when its entries changed, and lets go of it: once
   * the shard is stored, nothing of it renders again in this sync. So a sync holds the bodies of
   * the shards it is storing, not every body it rendered until its end.
   */
  save(shard: number): void;
  /** Saves the packs not saved yet and waits for every write. Never rejects: a failure warns once. */
  finish(): Promise<void>;
}

interface Pack {
  /** What the file held. */
  found: Map<string, RenderedBody>;
  /** What this sync used or kept: the next file. */
  used: Map<string, RenderedBody>;
  /** Bodies rendered now: the file must change, as it must when lines were damaged. */
  fresh: number;
  damaged: number;
}

export function renderCache(cacheDir: URL, logger: { warn(message: string): void }, renderer: Renderer): RenderCache {
  const dir = join(fileURLToPath(cacheDir), "astro-comments", "render");
  const file = (shard: number) => join(dir, `bodies-${shard}.txt`);
  const packs = new Map<number, Promise<Pack>>();
  const loaded = new Map<number, Pack>();
  const counts: RenderCacheCounts = { reused: 0, rendered: 0, damaged: 0 };
  // One pack is written at a time, in the order the shards were stored; after a failure, none.
  let writes = Promise.resolve();
  let failed = false;
  const load = (shard: number): Promise<Pack> => {
    let pack = packs.get(shard);
    if (pack === undefined) {
      pack = readFile(file(shard), "utf8").then(
        (text) => {
          const { entries, damaged } = unpackEntries(text);
          counts.damaged += damaged;
          return { found: entries, used: new Map(), fresh: 0, damaged };
        },
        // Missing, a folder in its place, unreadable: nothing to reuse.
        () => ({ found: new Map(), used: new Map(), fresh: 0, damaged: 0 }),
      );
      pack.then((read) => loaded.set(shard, read));
      packs.set(shard, pack);
    }
    return pack;
  };
  const save = (shard: number): void => {
    const pack = loaded.get(shard);
    if (pack === undefined) return;
    loaded.delete(shard);
    packs.delete(shard);
    // Unchanged when every entry it holds was used and none was added: then it is not written.
    if (pack.fresh === 0 && pack.damaged === 0 && pack.used.size === pack.found.size) return;
    writes = writes.then(async () => {
      if (failed) return;
      try {
        await mkdir(dir, { recursive: true });
        await writeAside(file(shard), (temporary) => writeLines(temporary, packLines(pack.used, MAX_PACK_BYTES)));
      } catch (error) {
        failed = true;
        logger.warn(
          `could not save the rendered comments to ${dir} (${(error as Error).message}); this build is not affected, and the next one renders them again`,
        );
      } finally {
        pack.used.clear();
        pack.found.clear();
      }
    });
  };
  return {
    counts,
    async renderer(shard) {
      const pack = await load(shard);
      return (html, content) => {
        const key = renderKey(renderer.version, html, content);
        let body = pack.used.get(key) ?? pack.found.get(key);
        if (body === undefined) {
          body = renderer.render(html, content);
          pack.fresh++;
          counts.rendered++;
        } else counts.reused++;
        pack.used.set(key, body);
        return body;
      };
    },
    retain(shard, bodies) {
      const pack = loaded.get(shard);
      if (pack === undefined) return;
      for (const { html, content } of bodies) {
        const key = renderKey(renderer.version, html, content);
        const body = pack.found.get(key);
        if (body !== undefined) pack.used.set(key, body);
      }
    },
    keepAll(shard) {
      const pack = loaded.get(shard);
      if (pack === undefined) return;
      for (const [key, body] of pack.found) if (!pack.used.has(key)) pack.used.set(key, body);
    },
    read: (shard) => loaded.has(shard),
    save,
    async finish() {
      for (const shard of [...loaded.keys()]) save(shard);
      await writes;
      // What killed or failed writes of earlier builds left here, whether or not this one wrote.
      await pruneLeftoverTemps(dir);
    },
  };
}
