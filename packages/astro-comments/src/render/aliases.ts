// URL aliases: comments left on an old URL belong to the page that URL now leads to. The map comes
// from the `aliases` option and from Astro's own `redirects`; both are reduced to page keys here,
// so any spelling of either side works. Pure: no I/O.
import type { CommentThread } from "../api/generated/api-types.ts";
import { pathKey } from "./path-key.ts";

/** Astro's `redirects` values: a path, or `{ status, destination }`. */
export type RedirectTarget = string | { destination: string };

/** Old page key → new page key, chains already followed. */
export type AliasMap = ReadonlyMap<string, string>;

// A redirect with [params] or [...rest] maps many URLs to many; its pattern is not a page key.
const isPattern = (path: string) => /\[[^\]]*\]/.test(path);
// An external destination is not a page of this site.
const isExternal = (path: string) => /^[a-z][a-z0-9+.-]*:/i.test(path) || path.startsWith("//");

/** Astro applies `base` to redirect sources and destinations; comments are stored with it. */
function withBase(base: string, path: string): string {
  const prefix = pathKey(base);
  const key = pathKey(path);
  return prefix === "/" || key === prefix || key.startsWith(`${prefix}/`) ? key : pathKey(`${prefix}/${key}`);
}

/**
 * Builds the alias map. Explicit `aliases` win over `redirects` for the same old URL; chains
 * (a → b → c) resolve to their end, and a cycle leaves its members where they are.
 */
export function buildAliasMap(
  aliases: Readonly<Record<string, string>>,
  redirects: Readonly<Record<string, RedirectTarget>> = {},
  base = "/",
): AliasMap {
  const direct = new Map<string, string>();
  for (const [from, target] of Object.entries(redirects)) {
    const to = typeof target === "string" ? target : target.destination;
    if (isPattern(from) || isPattern(to) || isExternal(to)) continue;
    direct.set(withBase(base, from), withBase(base, to));
  }
  for (const [from, to] of Object.entries(aliases)) direct.set(pathKey(from), pathKey(to));

  const resolved = new Map<string, string>();
  for (const from of direct.keys()) {
    const seen = new Set([from]);
    let to = direct.get(from)!;
    while (direct.has(to) && !seen.has(to)) {
      seen.add(to);
      to = direct.get(to)!;
    }
    if (seen.has(to) || to === from) continue;
    resolved.set(from, to);
  }
  return resolved;
}

/** The page key a path's threads are shown under: its key, moved along the alias map. */
export function aliasedKey(aliases: AliasMap): (path: string) => string {
  return (path) => {
    const key = pathKey(path);
    return aliases.get(key) ?? key;
  };
}

const identity = (thread: CommentThread) =>
  JSON.stringify([thread.created_at, thread.name, thread.content, thread.html]);

/**
 * One page's threads after merging aliases, with a comment stored under both the old and the new
 * URL counted once. Twins (identical comments under one path) are real and stay: a comment is kept
 * as many times as the path holding the most copies of it has it, preferring the page's own copies.
 */
export function dedupeAliasedThreads(threads: readonly CommentThread[], pageKey: string): CommentThread[] {
  const byIdentity = new Map<string, Map<string, CommentThread[]>>();
  for (const thread of threads) {
    const id = identity(thread);
    const bySource = byIdentity.get(id) ?? new Map<string, CommentThread[]>();
    byIdentity.set(id, bySource);
    const source = pathKey(thread.path);
    bySource.set(source, [...(bySource.get(source) ?? []), thread]);
  }
  const kept: CommentThread[] = [];
  for (const bySource of byIdentity.values()) {
    if (bySource.size === 1) {
      kept.push(...bySource.values().next().value!);
      continue;
    }
    const copies = [...bySource.entries()].sort(
      ([a, x], [b, y]) => y.length - x.length || Number(b === pageKey) - Number(a === pageKey) || (a < b ? -1 : 1),
    );
    kept.push(...copies[0]![1]);
  }
  return kept;
}
