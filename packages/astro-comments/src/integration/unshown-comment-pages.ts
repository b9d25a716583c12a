// Comment pages of a path no built page shows (an orphan: a moved post, a typo in the path). The
// comment route lists its pages before Astro has built the site's own, so it cannot tell; here, in
// astro:build:done, they are removed with their moved-links file, and the feeds leave out the
// entries that link to them, as they leave out an orphan's. Kept, each would link back to a post
// that does not exist. The orphan report still names the path.
import { rm, rmdir } from "node:fs/promises";
import { dirname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { postParam, postParamOfPagePath, underBase, type PagesSettings } from "../render/comment-pages.ts";
import { pathKey } from "../render/path-key.ts";
import type { BuildOutput } from "../feeds/finish-feeds.ts";

/**
 * The route parameter of the post a comment page belongs to ("posts/x"), from the page's path below
 * the base ("/comments/posts/x/page/2/", or its file "comments/posts/x/page/2/index.html");
 * undefined for any other path.
 */
export function commentPageParam(local: string, route: string): string | undefined {
  const key = pathKey(local);
  const prefix = `${pathKey(route)}/`;
  return key.startsWith(prefix) ? postParamOfPagePath(key.slice(prefix.length)) : undefined;
}

/** The key of the post whose comment page `key` (a page key, base included) is; `key` itself for any other page. */
export function postOfPage(key: string, pages: PagesSettings | false): string {
  if (pages === false) return key;
  const param = commentPageParam(postParam(key, pages.base), pages.route);
  return param === undefined ? key : pathKey(`${pages.base}/${param === "index" ? "" : param}`);
}

/**
 * Removes the comment pages and moved-links files the comment routes wrote for `unshown` page
 * keys, and the folders that leaves empty. Returns how many pages it removed.
 */
export async function removeUnshownCommentPages(
  pages: PagesSettings | false,
  unshown: ReadonlySet<string>,
  output: BuildOutput,
): Promise<number> {
  if (pages === false || unshown.size === 0) return 0;
  // A path outside the base has no comment pages: the pages under its parameter are another post's.
  const params = new Set(
    [...unshown].filter((key) => underBase(key, pages.base)).map((key) => postParam(key, pages.base)),
  );
  const root = fileURLToPath(output.dir);
  const top = join(root, pathKey(pages.route));
  const written = (pattern: string) => (output.assets.get(pattern) ?? []).map((url) => fileURLToPath(url));
  const doomed = written(`${pages.route}/[...page]`).filter((file) => {
    const param = commentPageParam(relative(root, file).split(sep).join("/"), pages.route);
    return param !== undefined && params.has(param);
  });
  const removed = doomed.length;
  // A post's moved-links file is <route>/<param>.json.
  const movedLinks = new Set(written(`${pages.route}/[...page].json`));
  for (const param of params) {
    const file = join(top, `${param}.json`);
    if (movedLinks.has(file)) doomed.push(file);
  }
  await Promise.all(doomed.map((file) => rm(file, { force: true })));
  // Deepest first, up to the route's own folder: rmdir refuses a folder that still holds something,
  // such as another post's pages.
  const folders = new Set<string>();
  for (const file of doomed) {
    for (let folder = dirname(file); folder.startsWith(`${top}${sep}`); folder = dirname(folder)) folders.add(folder);
  }
  for (const folder of [...folders].sort((a, b) => b.length - a.length)) await rmdir(folder).catch(() => undefined);
  return removed;
}
