// One site's view of the comments: everything on the site's own domain (or each of its domains),
// and, when the site names its pages, on those pages only, so that a developer's own build shows
// the showcase threads (code, hostile markup, long threads) where the site can render them.
import {
  emptyDomain,
  exampleDomain,
  generateDataset,
  type DatasetOptions,
  type StoredComment,
} from "./generate-dataset.ts";

/**
 * The generated dataset served under `domains` instead of the example domains: each domain gets
 * the same comments. With `options.paths` as a list of the site's paths, the showcase threads move
 * onto those paths too (in turn), so no comment is left on a page the site does not have.
 */
export function siteDataset(domains: readonly string[], options: DatasetOptions = {}): StoredComment[] {
  const generated = generateDataset({ ...options, domains: [[exampleDomain, 1]] }).filter(
    (comment) => comment.domain !== emptyDomain,
  );
  const sitePaths = typeof options.paths === "object" && options.paths.length > 0 ? options.paths : undefined;
  return onDomains(sitePaths ? onPaths(generated, sitePaths) : generated, domains);
}

/** Every comment once per domain, on that domain; ids renumbered so that they stay unique. */
export function onDomains(comments: readonly StoredComment[], domains: readonly string[]): StoredComment[] {
  const span = comments.reduce((max, comment) => Math.max(max, comment.id), 0);
  return domains.flatMap((domain, index) =>
    comments.map((comment) => ({
      ...comment,
      domain,
      id: comment.id + index * span,
      parentId: comment.parentId === null ? null : comment.parentId + index * span,
    })),
  );
}

/** Comments on a path that is not one of `paths` move to one that is: the k-th such path to paths[k % n]. */
function onPaths(comments: readonly StoredComment[], paths: readonly string[]): StoredComment[] {
  const kept = new Set(paths);
  const moved = new Map<string, string>();
  for (const { path } of comments) {
    if (!kept.has(path) && !moved.has(path)) moved.set(path, paths[moved.size % paths.length]!);
  }
  return comments.map((comment) => ({ ...comment, path: moved.get(comment.path) ?? comment.path }));
}
