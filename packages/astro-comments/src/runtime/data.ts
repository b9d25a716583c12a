// Read side, for components and for sites that want the data itself:
//   import { getComments, getCommentCount } from "astro-comments/data";
// Runs inside Astro's render (it imports a virtual module the integration provides).
import { readFileSync, statSync } from "node:fs";
import config from "virtual:astro-comments/config";
import { parseStore, publishedStore, type StoredComments } from "../comments-store.ts";
import type { RenderSettings } from "../options.ts";
import type { PageComments, RenderedComment } from "../render/comment-tree.ts";
import { pathKey } from "../render/path-key.ts";
import { commentItemsHtml } from "../render/comment-markup.ts";

export type { PageComments, RenderedComment } from "../render/comment-tree.ts";
export { pathKey } from "../render/path-key.ts";
export { machineDate } from "../render/comment-markup.ts";

let cached: { mtimeMs: number; store: StoredComments } | undefined;

function store(): StoredComments {
  const live = publishedStore(config.storeFile);
  if (live) return live;
  let mtimeMs: number;
  try {
    mtimeMs = statSync(config.storeFile).mtimeMs;
  } catch {
    throw new Error(
      `astro-comments: no comments have been fetched (${config.storeFile} is missing). Comments are fetched by \`astro build\` and \`astro dev\`; check that comments() is in the integrations of astro.config.`,
    );
  }
  // In dev the store is rewritten when comments are fetched again; reload it then.
  if (cached?.mtimeMs !== mtimeMs) cached = { mtimeMs, store: parseStore(readFileSync(config.storeFile, "utf8"), config.storeFile) };
  return cached.store;
}

const empty: PageComments = Object.freeze({ count: 0, comments: [] }) as PageComments;

/** The comments of one page (any spelling of its path: trailing slash, encoded, full URL). */
export function getComments(path: string): PageComments {
  return store().pages[pathKey(path)] ?? empty;
}

/** Approved comments on a page, replies included. */
export function getCommentCount(path: string): number {
  return getComments(path).count;
}

/** Every page that has comments, by page key. */
export function getAllComments(): ReadonlyMap<string, PageComments> {
  return new Map(Object.entries(store().pages));
}

/** The settings the integration was configured with (order, date format, texts). */
export const renderSettings: RenderSettings = config;

const formatters = new Map<string, Intl.DateTimeFormat>();

/** A comment's created_at as the site shows it, per the dateFormat option. */
export function formatCommentDate(createdAt: string): string {
  const { locale, timeZone, dateStyle, timeStyle } = config.dateFormat;
  const key = `${locale}|${timeZone}|${dateStyle}|${timeStyle}`;
  let formatter = formatters.get(key);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat(locale, { timeZone, dateStyle, ...(timeStyle ? { timeStyle } : {}) });
    formatters.set(key, formatter);
  }
  return formatter.format(new Date(createdAt));
}

/** The `<li>` items of a page's comment list, in the documented markup (what <Comments> renders). */
export function renderCommentItems(comments: readonly RenderedComment[]): string {
  return commentItemsHtml(comments, formatCommentDate);
}
