// The comment modules on disk, in cacheDir/astro-comments/modules/ (format: module-format.ts),
// with the comments inside them (a site that may render pages on demand) or in a JSON file beside
// each (a site that only prerenders).
// A module is named after its shard and a digest of its pages, so changed comments always get a
// new file: neither Vite's module cache in `astro dev` nor an interrupted build can serve a stale
// one. They double as the last good comments: an entry restored after an outage points at its
// module again.
import { mkdir, readdir, readFile, stat, unlink, writeFile } from "node:fs/promises";
import { basename, isAbsolute, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import type { PageCommentsData } from "./entry-schema.ts";
import { configError } from "../errors.ts";
import { CacheDirOnOtherDrive } from "../errors-data.ts";
import { integrityDigest } from "../utils/integrity-digest.ts";
import { realPath } from "../utils/real-path.ts";
import { writeAside } from "../utils/write-aside.ts";
import { fileSlices, type FileSlices } from "../utils/file-slices.ts";
import { writePieces } from "../utils/write-lines.ts";
import {
  commentDataFile,
  commentModuleSource,
  outlineSlices,
  externalData,
  externalModuleSource,
  MODULE_FORMAT,
  parseCommentData,
  parseCommentModule,
  parsePageSlice,
  unsealModule,
  unsealOlderModule,
  type BesideMaker,
  type BesidePage,
} from "./module-format.ts";

/** A module as a sync finds it: complete as written, not there, or damaged (cut short, changed, or a folder). */
type ModuleState = "intact" | "missing" | "damaged";

export interface ModulePages {
  /** The pages whose comments are intact. */
  pages: Map<string, PageCommentsData>;
  /** Whether any of its pages' comments (or the module itself) are damaged. */
  damaged: boolean;
}

export interface CommentModules {
  /** The folder, for messages. */
  readonly dir: string;
  /**
   * How the modules import the package's components: a path relative to the folder, so it holds
   * wherever the cacheDir is (a bare "astro-comments/components" does not resolve from a cacheDir
   * outside the project) and when the project moves with its node_modules.
   */
  readonly components: string;
  /** What, besides the pages, a module's name depends on: its format, how it imports, where it keeps the comments. */
  readonly signature: string;
  /** The entries' `filePath` for a shard's module: relative to the site root, with "/" separators. */
  filePath(shard: number, digest: string): string;
  /** Whether the module and its data file are complete as written: checked before one is reused as it is. */
  check(filePath: string): Promise<ModuleState>;
  /** Written aside and renamed into place, so a file under its final name is always complete. */
  write(filePath: string, pages: ReadonlyMap<string, PageCommentsData>): Promise<void>;
  /** The pages a module holds intact; undefined when it is missing. */
  read(filePath: string): Promise<ModulePages | undefined>;
  /** Deletes the files in the folder that are not these and are older than an hour. */
  prune(keep: Iterable<string>): Promise<void>;
}

const PRUNE_AFTER_MS = 3_600_000;

const posix = (path: string) => path.split(sep).join("/");

/**
 * Whether the comments must travel inside the bundle: a site with an adapter (or server output)
 * may render pages on demand, on a server that has no cacheDir. Without one, every page is
 * prerendered on this machine and the comments can stay on disk.
 */
function commentsInBundle(config: { output?: string; adapter?: unknown }): boolean {
  return config.output === "server" || config.adapter !== undefined;
}

/** What a shard's data file holds besides the comments: each post's list, or its comment pages, made once. */
export interface ListMaker extends BesideMaker {
  /** Names the settings they are made with: part of every module's name. */
  key: string;
}

/** Whether what follows a page in its data file is as written: a list, or a split post's outline and every page it names. */
async function besideIntact(file: FileSlices, [kind, start, length, digest]: BesidePage): Promise<boolean> {
  const bytes = await file.slice(start, length);
  if (bytes === undefined || integrityDigest(bytes) !== digest) return false;
  if (kind === "list") return true;
  const slices = outlineSlices(bytes);
  if (slices === undefined) return false;
  for (const [pageStart, pageLength, pageDigest] of slices) {
    const page = await file.slice(pageStart, pageLength);
    if (page === undefined || integrityDigest(page) !== pageDigest) return false;
  }
  return true;
}

export function commentModules(
  config: {
    root: URL;
    cacheDir: URL;
    output?: string;
    adapter?: unknown;
  },
  lists?: ListMaker,
): CommentModules {
  const root = fileURLToPath(config.root);
  const dir = join(fileURLToPath(config.cacheDir), "astro-comments", "modules");
  if (isAbsolute(relative(root, dir))) {
    // Windows, another drive: Astro finds an entry's module by a path relative to the project only.
    throw configError(CacheDirOnOtherDrive, fileURLToPath(config.cacheDir), root);
  }
  const absolute = (filePath: string) => join(root, filePath);
  const componentsFile = realPath(fileURLToPath(new URL("../../components/index.ts", import.meta.url)));
  // Between real paths: Vite resolves a module's imports from where it really is, so a cacheDir
  // reached through a symlink (a CI cache on another disk) would otherwise point nowhere. The
  // package on another drive than the cacheDir (Windows) has no relative path: then the absolute one.
  const fromDir = relative(realPath(dir), componentsFile);
  const components = isAbsolute(fromDir) || fromDir.startsWith("..") ? posix(fromDir) : `./${posix(fromDir)}`;
  const inline = commentsInBundle(config);
  const dataFile = (filePath: string) => absolute(filePath).replace(/\.mjs$/, ".json");
  let made: Promise<unknown> | undefined;
  const writeText = (file: string, text: string) => writeAside(file, (temporary) => writeFile(temporary, text));
  // undefined when there is no file, null when it cannot be read (a folder in its place).
  const readSource = (file: string) =>
    readFile(file, "utf8").then(
      (text): string | null | undefined => text,
      (error: NodeJS.ErrnoException) => (error.code === "ENOENT" ? undefined : null),
    );
  // What a module holds, checking each page's bytes against its digest: `take` turns intact bytes
  // (valid only during the call: they are read through one buffer) into what the caller wants (the parsed comments, or just a yes), undefined when they are not;
  // `pagesOf` takes the comments of a module that holds them inside (without it, they are not parsed).
  async function inspect<T>(
    filePath: string,
    take: (bytes: Uint8Array, digest: string) => T | undefined,
    pagesOf?: (pages: Map<string, PageCommentsData>) => Map<string, T>,
  ): Promise<{ pages: Map<string, T>; damaged: boolean; older?: boolean } | undefined> {
    const source = await readSource(absolute(filePath));
    if (source === undefined) return undefined;
    const damaged = { pages: new Map<string, T>(), damaged: true };
    if (source === null) return damaged;
    const body = unsealModule(source);
    if (body === null) return damaged;
    // An older release's module: from format 4 on, it is sealed as today's are and its index names
    // each page's bytes and their digest, so an upgrade during an outage keeps every intact page.
    const older = body === undefined;
    const olderBody = older ? unsealOlderModule(source) : undefined;
    const external = externalData(body ?? olderBody ?? source);
    const sliced =
      olderBody !== undefined &&
      external !== undefined &&
      external.index.every((entry) => typeof entry[3] === "string");
    if (older && !sliced) {
      // Earlier still: whole or nothing.
      const pages =
        external === undefined
          ? parseCommentModule(source)
          : await readFile(external.file, "utf8").then(parseCommentData, () => undefined);
      return pages === undefined ? damaged : { pages: pagesOf?.(pages) ?? new Map(), damaged: false };
    }
    if (external === undefined) {
      // Sealed: intact as a whole, so a check need not parse it.
      const pages = pagesOf === undefined ? new Map<string, PageCommentsData>() : parseCommentModule(body ?? source);
      return pages === undefined ? damaged : { pages: pagesOf?.(pages) ?? new Map(), damaged: false };
    }
    // Beside the module, where write() put it: the path the module names is where the project was
    // when it was written, and a CI cache restored under another workspace path is elsewhere.
    const file = await fileSlices(dataFile(filePath));
    const pages = new Map<string, T>();
    if (file === undefined) return { pages, damaged: external.index.length > 0, older };
    try {
      for (const entry of external.index) {
        const [key, start, length, digest, beside] = entry;
        // A page whose list or comment pages are damaged counts as damaged: its module is written
        // again, with them. An older format's are not read: its module is written anew anyway.
        if (!older && beside !== undefined && !(await besideIntact(file, beside))) continue;
        const bytes = await file.slice(start, length);
        const found = bytes === undefined ? undefined : take(bytes, digest);
        if (found !== undefined) pages.set(key, found);
      }
    } finally {
      await file.close();
    }
    return { pages, damaged: pages.size < external.index.length, older };
  }
  return {
    dir,
    components,
    signature: `${MODULE_FORMAT}\n${components}\n${inline ? "inline" : `${dir}\n${lists?.key ?? ""}`}`,
    filePath: (shard, digest) => posix(relative(root, join(dir, `comments-${shard}-${digest}.mjs`))),
    async check(filePath) {
      const found = await inspect(filePath, (bytes, digest) => integrityDigest(bytes) === digest || undefined);
      // An older format's seal is not checked: under today's name (which names the format) such a module is damage.
      return found === undefined ? "missing" : found.damaged || found.older ? "damaged" : "intact";
    },
    async write(filePath, pages) {
      await (made ??= mkdir(dir, { recursive: true }));
      if (inline) return writeText(absolute(filePath), commentModuleSource(pages, components));
      // The data first: a module under its final name always finds its comments.
      const { pieces, index } = commentDataFile(pages, lists);
      await writeAside(dataFile(filePath), (temporary) => writePieces(temporary, pieces));
      await writeText(absolute(filePath), externalModuleSource(dataFile(filePath), index, components, lists?.key));
    },
    // Either kind, whichever the site (or an earlier release) wrote: the comments inside, or where the module says they are.
    read: (filePath) => inspect(filePath, parsePageSlice, (pages) => pages),
    async prune(keep) {
      const kept = new Set([...keep].flatMap((filePath) => [basename(filePath), basename(dataFile(filePath))]));
      const names = await readdir(dir).catch(() => [] as string[]);
      // `astro dev` and `astro build` keep separate stores but share this folder: a module the
      // other one wrote lately (or is writing) may still be in use there, so only old ones go.
      const before = Date.now() - PRUNE_AFTER_MS;
      const prune = async (file: string) => {
        if ((await stat(file)).mtimeMs < before) await unlink(file);
      };
      await Promise.all(
        names.filter((name) => !kept.has(name)).map((name) => prune(join(dir, name)).catch(() => undefined)),
      );
    },
  };
}
