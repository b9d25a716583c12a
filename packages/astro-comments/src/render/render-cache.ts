// Rendered bodies from earlier builds, keyed by what they were rendered from. Comments rarely
// change between builds, so a warm build skips sanitizing and highlighting almost entirely.
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { renderCommentBody, type RenderedBody } from "./render-body.ts";

/** Bump when sanitizing or highlighting changes output: old entries are then ignored. */
export const RENDER_VERSION = "1";

export type BodyRenderer = (html: string, content: string) => RenderedBody;

export interface RenderCache {
  render: BodyRenderer;
  /** Entries used by this build (what to persist), and how many came from the cache. */
  entries(): Record<string, [string, ...string[]]>;
  readonly hits: number;
}

export function createRenderCache(previous: Record<string, [string, ...string[]]> = {}): RenderCache {
  const used: Record<string, [string, ...string[]]> = {};
  let hits = 0;
  return {
    render(html, content) {
      const key = createHash("sha1").update(html).update("\u0000").update(content).digest("base64url");
      const cached = used[key] ?? previous[key];
      if (cached) {
        hits++;
        used[key] = cached;
        const [rendered, ...unknownLanguages] = cached;
        return { html: rendered, unknownLanguages };
      }
      const body = renderCommentBody(html, content);
      used[key] = [body.html, ...body.unknownLanguages];
      return body;
    },
    entries: () => used,
    get hits() {
      return hits;
    },
  };
}

/** The cache file's entries, or none when it is missing, unreadable or from another render version. */
export async function loadRenderCache(file: string): Promise<Record<string, [string, ...string[]]>> {
  try {
    const parsed = JSON.parse(await readFile(file, "utf8")) as { version?: string; entries?: Record<string, [string, ...string[]]> };
    return parsed.version === RENDER_VERSION && parsed.entries ? parsed.entries : {};
  } catch {
    return {};
  }
}
