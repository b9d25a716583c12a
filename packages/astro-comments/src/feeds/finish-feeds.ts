// After the build, the feeds show what the site shows. Astro renders the feed routes before it
// has built the pages, so a route cannot tell a comment on a built page from one on a path no page
// shows (an orphan): in a build the site feed holds every comment, newest first, and here, in
// astro:build:done, it loses the orphans' entries and is cut to `limit`; the per-page feeds of
// orphan paths are removed. Streamed line by line: a large site's full feed never sits in memory.
import { createReadStream, createWriteStream } from "node:fs";
import { rename, rm } from "node:fs/promises";
import { join } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { fileURLToPath } from "node:url";
import type { ResolvedOptions } from "../integration/options.ts";
import { shownEntriesOnly } from "./atom-xml.ts";
import { pageFeedParam } from "./feed-settings.ts";

/** What astro:build:done says about the output: its folder, and the files each route wrote. */
export interface BuildOutput {
  dir: URL;
  assets: ReadonlyMap<string, readonly URL[]>;
}

async function* fileLines(path: string): AsyncGenerator<string> {
  let rest = "";
  for await (const chunk of createReadStream(path, { encoding: "utf8" })) {
    const lines = (rest + (chunk as string)).split("\n");
    rest = lines.pop()!;
    yield* lines;
  }
  if (rest !== "") yield rest;
}

async function* withNewlines(lines: AsyncIterable<string>): AsyncGenerator<string> {
  for await (const line of lines) yield `${line}\n`;
}

/**
 * Rewrites the site feed and removes the page feeds of `unshown` page keys. An entry belongs to the
 * post `postOf` names for the page its link goes to: a comment on a split post links to a comment page.
 */
export async function finishFeeds(
  feeds: ResolvedOptions["feeds"],
  base: string,
  unshown: ReadonlySet<string>,
  output: BuildOutput,
  postOf: (pageKey: string) => string,
): Promise<void> {
  const written = (pattern: string | undefined) =>
    new Set((pattern === undefined ? [] : (output.assets.get(pattern) ?? [])).map((url) => fileURLToPath(url)));
  for (const path of written(feeds.atom)) {
    const trimmed = `${path}.tmp`;
    await pipeline(
      Readable.from(withNewlines(shownEntriesOnly(fileLines(path), (key) => !unshown.has(postOf(key)), feeds.limit))),
      createWriteStream(trimmed),
    );
    await rename(trimmed, path);
  }
  if (feeds.pageAtom === undefined || unshown.size === 0) return;
  const pageFeeds = written(feeds.pageAtom);
  const root = fileURLToPath(output.dir);
  for (const key of unshown) {
    const path = join(root, feeds.pageAtom.replace("[...page]", pageFeedParam(key, base)));
    if (pageFeeds.has(path)) await rm(path);
  }
}
