// An Atom feed (RFC 4287) of the latest comments, built as a string. Pure: the route hands it the
// collection's entries and the site URL. Every value is XML-escaped, and characters XML 1.0 cannot
// carry at all are dropped, so a hostile name or body never breaks the document.
import type { PageCommentsData } from "../loader/entry-schema.ts";
import { postHref } from "../render/comment-pages.ts";
import { pathKey } from "../render/path-key.ts";

export interface FeedComment {
  /** The page key the comment is shown on. */
  page: string;
  /** The comment's HTML id on that page (its stable identity, see comment-id.ts). */
  id: string;
  /** Where the comment is, when not on the page itself: its comment page's path and anchor. */
  href?: string;
  author: string;
  createdAt: string;
  html: string;
  path: string;
}

export interface AtomFeedInput {
  title: string;
  /** Absolute URL of the feed itself (rel="self", and the feed's id). */
  selfUrl: string;
  /** Absolute URL of the site's home page (the feed's alternate link). */
  siteUrl: string;
  comments: readonly FeedComment[];
  limit: number;
  /** Whether the site's page URLs end in "/", as links to comments on their posts then do. */
  trailingSlash: boolean;
}

// XML 1.0 Char production: tab, LF, CR and U+0020 upwards, without surrogates halves or U+FFFE/F.
const notXmlChar = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

export function escapeXml(text: string): string {
  return text
    .replace(notXmlChar, "")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;");
}

const iso = (createdAt: string) => new Date(createdAt).toISOString();

/**
 * Every comment of the collection, top-level and replies, with the page it shows on; `hrefs`
 * gives, per page, where its comments are when the page is split into comment pages.
 */
export function feedComments(
  entries: Iterable<{ id: string; data: PageCommentsData }>,
  hrefs: (page: string, data: PageCommentsData) => ReadonlyMap<string, string> | undefined = () => undefined,
): FeedComment[] {
  const comments: FeedComment[] = [];
  for (const { id, data } of entries) {
    const where = hrefs(id, data);
    for (const comment of data.comments) {
      for (const one of [comment, ...comment.replies])
        comments.push({
          page: id,
          id: one.id,
          ...(where?.has(one.id) ? { href: where.get(one.id)! } : {}),
          author: one.author,
          createdAt: one.createdAt,
          html: one.html,
          path: one.path,
        });
    }
  }
  return comments;
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * A stable Atom id for a comment: `urn:uuid:` (a registered URN scheme, unlike a made-up one, and
 * free of the date a `tag:` URI needs) with a UUID (version 8, RFC 9562) from a SHA-256 of the
 * comment's identity. That identity is the stored HTML id, itself a hash of created_at, name,
 * path and content with twins numbered, plus the path's key, so it neither changes when the
 * renderer or an alias changes nor repeats across pages. Web Crypto rather than node:crypto: the
 * route may be prerendered outside Node (workerd).
 */
export async function atomEntryId(comment: Pick<FeedComment, "id" | "path">): Promise<string> {
  const digest = new Uint8Array(
    await crypto.subtle.digest("SHA-256", new TextEncoder().encode(`${pathKey(comment.path)}\u0000${comment.id}`)),
  );
  digest[6] = (digest[6]! & 0x0f) | 0x80;
  digest[8] = (digest[8]! & 0x3f) | 0x80;
  const hex = Array.from(digest.subarray(0, 16), (byte) => byte.toString(16).padStart(2, "0")).join("");
  return `urn:uuid:${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/** The newest `limit` comments as an Atom document; `updated` is the newest comment's time. */
export async function buildAtomFeed(input: AtomFeedInput): Promise<string> {
  const ids = new Map(
    await Promise.all(input.comments.map(async (comment) => [comment, await atomEntryId(comment)] as const)),
  );
  const latest = [...input.comments]
    .sort((a, b) => compare(iso(b.createdAt), iso(a.createdAt)) || compare(ids.get(a)!, ids.get(b)!))
    .slice(0, input.limit);
  // An empty feed still needs an `updated`; the epoch keeps the document byte-stable.
  const updated = latest[0] ? iso(latest[0].createdAt) : new Date(0).toISOString();
  const entries = latest.map((comment) => {
    const link = new URL(comment.href ?? `${postHref(comment.page, input)}#${comment.id}`, input.siteUrl).href;
    return (
      `  <entry>\n` +
      `    <id>${escapeXml(ids.get(comment)!)}</id>\n` +
      `    <title type="text">${escapeXml(`${comment.author} on ${comment.page}`)}</title>\n` +
      `    <updated>${iso(comment.createdAt)}</updated>\n` +
      `    <published>${iso(comment.createdAt)}</published>\n` +
      `    <author><name>${escapeXml(comment.author)}</name></author>\n` +
      `    <link rel="alternate" type="text/html" href="${escapeXml(link)}"/>\n` +
      `    <content type="html">${escapeXml(comment.html)}</content>\n` +
      `  </entry>\n`
    );
  });
  return (
    `<?xml version="1.0" encoding="utf-8"?>\n` +
    `<feed xmlns="http://www.w3.org/2005/Atom">\n` +
    `  <id>${escapeXml(input.selfUrl)}</id>\n` +
    `  <title type="text">${escapeXml(input.title)}</title>\n` +
    `  <updated>${updated}</updated>\n` +
    `  <link rel="self" type="application/atom+xml" href="${escapeXml(input.selfUrl)}"/>\n` +
    `  <link rel="alternate" type="text/html" href="${escapeXml(input.siteUrl)}"/>\n` +
    `  <generator>astro-comments</generator>\n` +
    entries.join("") +
    `</feed>\n`
  );
}

const unescapeXml = (text: string) =>
  text.replace(
    /&(lt|gt|quot|apos|amp);/g,
    (_, name: string) => ({ lt: "<", gt: ">", quot: '"', apos: "'", amp: "&" })[name]!,
  );

const ENTRY_START = "  <entry>";
const ENTRY_END = "  </entry>";
const FEED_UPDATED = /^  <updated>.*<\/updated>$/;
const ENTRY_UPDATED = /^    <updated>(.*)<\/updated>$/;
const ENTRY_LINK = /^    <link rel="alternate" type="text\/html" href="(.*)"\/>$/;

/**
 * A feed made by buildAtomFeed, line by line, without the entries whose page `isShown` rejects and
 * with at most `limit` entries; the feed's `updated` follows its newest entry. A build renders its
 * feeds before it knows which pages it builds, so it renders every comment and this trims them
 * once it does. Lines in and out are without their "\n"; bodies' own line breaks pass unchanged.
 */
export async function* shownEntriesOnly(
  lines: AsyncIterable<string>,
  isShown: (pageKey: string) => boolean,
  limit: number,
): AsyncGenerator<string> {
  const head: string[] = [];
  const withUpdated = (updated: string) =>
    head.map((text) => (FEED_UPDATED.test(text) ? `  <updated>${updated}</updated>` : text));
  let entry: string[] | undefined;
  let seenEntry = false;
  let kept = 0;
  for await (const line of lines) {
    if (kept === limit) break;
    if (entry === undefined) {
      if (line === ENTRY_START) {
        entry = [line];
        seenEntry = true;
      } else if (!seenEntry && line !== "</feed>") head.push(line);
      continue;
    }
    entry.push(line);
    if (line !== ENTRY_END) continue;
    const link = entry.map((text) => ENTRY_LINK.exec(text)?.[1]).find((href) => href !== undefined);
    if (link !== undefined && isShown(pathKey(new URL(unescapeXml(link)).pathname))) {
      if (kept === 0)
        yield* withUpdated(entry.map((text) => ENTRY_UPDATED.exec(text)?.[1]).find((value) => value !== undefined)!);
      yield* entry;
      kept++;
    }
    entry = undefined;
  }
  if (kept === 0) yield* withUpdated(new Date(0).toISOString());
  yield "</feed>";
}

/** Page key → approved comments on it, replies included, keys sorted so the file is byte-stable. */
export function commentCounts(counts: Iterable<readonly [string, number]>): Record<string, number> {
  return Object.fromEntries([...counts].sort(([a], [b]) => compare(a, b)));
}
