// The comment modules on disk, in cacheDir/astro-comments/modules/ (format: render/comment-module.ts).
// A module is named after its shard and a digest of its pages, so changed comments always get a
// new file: neither Vite's module cache in `astro dev` nor an interrupted build can serve a stale
// one. They double as the last good comments: an entry restored after an outage points at its
// module again.
import { existsSync } from "node:fs";
import { mkdir, readdir, readFile, rename, unlink, writeFile } from "node:fs/promises";
import { basename, isAbsolute, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import type { PageCommentsData } from "./entry-schema.ts";
import { commentModuleSource, parseCommentModule } from "./render/comment-module.ts";

export interface CommentModules {
  /** The folder, for messages. */
  readonly dir: string;
  /**
   * How the modules import the package's components: a path relative to the folder, so it holds
   * wherever the cacheDir is (a bare "astro-comments/components" does not resolve from a cacheDir
   * outside the project) and when the project moves with its node_modules.
   */
  readonly components: string;
  /** The entries' `filePath` for a shard's module: relative to the site root, with "/" separators. */
  filePath(shard: number, digest: string): string;
  exists(filePath: string): boolean;
  /** Written aside and renamed into place, so a file under its final name is always complete. */
  write(filePath: string, pages: ReadonlyMap<string, PageCommentsData>): Promise<void>;
  /** The pages a module holds; undefined when it is missing or not one of ours. */
  read(filePath: string): Promise<Map<string, PageCommentsData> | undefined>;
  /** Deletes every file in the folder but these. */
  prune(keep: Iterable<string>): Promise<void>;
}

export function commentModules(config: { root: URL; cacheDir: URL }): CommentModules {
  const root = fileURLToPath(config.root);
  const dir = join(fileURLToPath(config.cacheDir), "astro-comments", "modules");
  const absolute = (filePath: string) => join(root, filePath);
  const componentsFile = fileURLToPath(new URL("../components/index.ts", import.meta.url));
  // Another drive on Windows has no relative path: then the absolute one.
  const fromDir = relative(dir, componentsFile);
  const components = isAbsolute(fromDir) ? fromDir.split(sep).join("/") : fromDir.startsWith("..") ? fromDir.split(sep).join("/") : `./${fromDir.split(sep).join("/")}`;
  let made: Promise<unknown> | undefined;
  return {
    dir,
    components,
    filePath: (shard, digest) => relative(root, join(dir, `comments-${shard}-${digest}.mjs`)).split(sep).join("/"),
    exists: (filePath) => existsSync(absolute(filePath)),
    async write(filePath, pages) {
      await (made ??= mkdir(dir, { recursive: true }));
      const file = absolute(filePath);
      const temporary = `${file}.${process.pid}.tmp`;
      await writeFile(temporary, commentModuleSource(pages, components));
      await rename(temporary, file);
    },
    read: (filePath) => readFile(absolute(filePath), "utf8").then(parseCommentModule, () => undefined),
    async prune(keep) {
      const kept = new Set([...keep].map((filePath) => basename(filePath)));
      const names = await readdir(dir).catch(() => [] as string[]);
      await Promise.all(names.filter((name) => !kept.has(name)).map((name) => unlink(join(dir, name)).catch(() => undefined)));
    },
  };
}
