// Comments that no page shows: their path matches no built page and no on-demand route. Usually a
// typo, a moved post or a path the site spells differently. The report names them, and the feeds
// leave them out. Pure: the integration feeds it the stored keys (from the loader) and the built
// pages (from astro:build:done).
import { escapeControlCharacters } from "../api/service-text.ts";
import { pathKey } from "../render/path-key.ts";

export interface OrphanPath {
  key: string;
  count: number;
  /** The built page key closest to it, if any page was built. */
  nearest: string | undefined;
}

/**
 * Levenshtein distance between two keys (or, past `limit`, some value above it). The mistakes that orphan comments are small edits of
 * the right path (a missing or doubled letter, a renamed slug segment, a stray character), which
 * is exactly what edit distance counts; case and slashes are already normalized by pathKey.
 */
export function editDistance(a: string, b: string, limit = Number.POSITIVE_INFINITY): number {
  if (a === b) return 0;
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowMinimum = i;
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (current[j]! < rowMinimum) rowMinimum = current[j]!;
    }
    // No later row is smaller than this one's minimum: past the limit, the exact value is moot.
    if (rowMinimum > limit) return rowMinimum;
    previous = current;
  }
  return previous[b.length]!;
}

/** The closest key by edit distance; ties go to the alphabetically first, so reports are stable. */
export function nearestKey(key: string, candidates: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of candidates) {
    // A candidate farther than the best so far is ruled out as soon as that is certain: on the
    // bench's 2,000 pages the report took 118 ms computing every distance in full.
    if (Math.abs(key.length - candidate.length) > bestDistance) continue;
    const distance = editDistance(key, candidate, bestDistance);
    if (distance < bestDistance || (distance === bestDistance && best !== undefined && candidate < best)) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/** Page keys of astro:build:done's `pages` (route paths without `base`), with the base added. */
export function builtPageKeys(pathnames: Iterable<string>, base: string): Set<string> {
  const prefix = pathKey(base);
  const keys = new Set<string>();
  for (const pathname of pathnames) keys.add(pathKey(prefix === "/" ? pathname : `${prefix}/${pathname}`));
  return keys;
}

/** Stored keys that no built page and no on-demand route pattern (tested without base) renders, sorted. */
export function unshownKeys(
  stored: Iterable<string>,
  built: ReadonlySet<string>,
  onDemand: readonly RegExp[],
  base: string,
): string[] {
  const prefix = pathKey(base);
  const withoutBase = (key: string) =>
    prefix !== "/" && (key === prefix || key.startsWith(`${prefix}/`)) ? key.slice(prefix.length) || "/" : key;
  const unshown: string[] = [];
  for (const key of stored) {
    if (built.has(key)) continue;
    const local = withoutBase(key);
    if (!onDemand.some((pattern) => pattern.test(local) || pattern.test(`${local}/`))) unshown.push(key);
  }
  return unshown.sort((a, b) => (a < b ? -1 : 1));
}

/** The orphans among the stored pages, each with its count and the nearest built page. */
export function findOrphans(
  stored: ReadonlyMap<string, number>,
  built: ReadonlySet<string>,
  onDemand: readonly RegExp[],
  base: string,
): OrphanPath[] {
  return unshownKeys(stored.keys(), built, onDemand, base).map((key) => ({
    key,
    count: stored.get(key)!,
    nearest: nearestKey(key, built),
  }));
}

/** The one WARN (or error) block listing every orphan path. */
export function describeOrphans(orphans: readonly OrphanPath[]): string {
  const total = orphans.reduce((n, orphan) => n + orphan.count, 0);
  // A key is the service's path, decoded: %1b is an ESC by now, and must not reach the terminal as one.
  const lines = orphans.map(
    ({ key, count, nearest }) =>
      `  ${escapeControlCharacters(key)} (${count} comment${count === 1 ? "" : "s"})${nearest ? `: nearest built page ${nearest}` : ""}`,
  );
  return [
    `${total} comment${total === 1 ? "" : "s"} on ${orphans.length} path${orphans.length === 1 ? "" : "s"} that no built page shows; fix the path in the comments service or map it with the aliases option:`,
    ...lines,
  ].join("\n");
}
