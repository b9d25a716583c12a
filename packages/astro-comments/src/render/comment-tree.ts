// Turns the API's threads into page entries: grouped by page key, in a deterministic order, bodies
// made safe, replies nested under their comment. Pure: no I/O.
import type { CommentReply, CommentThread } from "../api/generated/api-types.ts";
import type { PageCommentsData, StoredComment, StoredReply } from "../loader/entry-schema.ts";
import { commentIdAllocator } from "./comment-id.ts";
import { loadLanguagesOf } from "./highlight.ts";
import { memoizedKeys, pathKey } from "./path-key.ts";
import { renderCommentBody, type RenderedBody } from "./render-body.ts";
import { withoutControlCharacters } from "./sanitize.ts";

/** A comment as the markup renders it: a top-level comment, or a reply (which has no replies). */
export type RenderedComment = StoredComment | StoredReply;

/**
 * Groups threads by the key of their path, so every spelling of a page's path lands on one page.
 * `keyOf` chooses another page for a path (URL aliases move old URLs' comments to the new page).
 */
export function groupThreadsByPage(
  threads: Iterable<CommentThread>,
  keyOf: (path: string) => string = pathKey,
): Map<string, CommentThread[]> {
  const pages = new Map<string, CommentThread[]>();
  const keyOfPath = memoizedKeys(keyOf);
  for (const thread of threads) {
    const key = keyOfPath(thread.path);
    const page = pages.get(key);
    if (page) page.push(thread);
    else pages.set(key, [thread]);
  }
  return pages;
}

const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Oldest first. Services that store whole seconds tie often, and a database may page ties in a
 * different order on every request, so ties are broken by the comment itself: the same comments
 * always come out in the same order (and give the same digest). Identical twins compare equal and
 * are both kept.
 */
type Comparable = Pick<CommentReply, "created_at" | "name" | "content" | "html" | "path">;

function compareComments(a: Comparable, b: Comparable): number {
  return (
    compareText(a.created_at, b.created_at) ||
    compareText(a.name, b.name) ||
    compareText(a.content, b.content) ||
    compareText(a.html, b.html) ||
    compareText(a.path, b.path)
  );
}

/** A page's threads, and each thread's replies, in the order they are stored and shown. */
export function sortPageThreads(threads: readonly CommentThread[]): CommentThread[] {
  return threads
    .map((thread) => ({ ...thread, children: [...thread.children].sort(compareComments) }))
    .sort(compareComments);
}

/** Approved comments in these threads, replies included: a page's count. */
export function countComments(threads: readonly CommentThread[]): number {
  return threads.reduce((sum, thread) => sum + 1 + thread.children.length, 0);
}

export type BodyRenderer = (html: string, content: string) => RenderedBody;

/**
 * The entry data of one page from its sorted threads; unknown code-fence languages are reported.
 * Asynchronous because the PrismJS grammars its code blocks need are loaded first.
 */
export async function renderPageComments(
  key: string,
  sortedThreads: readonly CommentThread[],
  unknownLanguages?: Set<string>,
  renderBody: BodyRenderer = renderCommentBody,
): Promise<PageCommentsData> {
  await loadLanguagesOf(
    sortedThreads.flatMap((thread) => [thread.html, ...thread.children.map((reply) => reply.html)]),
  );
  // Ids are handed out in the stored order (thread, its replies, next thread), which does not
  // depend on how the service paged them, so twins get the same suffixes on every sync.
  const nextId = commentIdAllocator();
  const render = (comment: Comparable): StoredReply => {
    const body = renderBody(comment.html, comment.content);
    for (const language of body.unknownLanguages) unknownLanguages?.add(language);
    const id = nextId({
      createdAt: comment.created_at,
      author: comment.name,
      path: comment.path,
      content: comment.content,
    });
    // The name reaches HTML, JSON-LD, the Atom feed and the data API: cleaned once, here.
    return {
      id,
      author: withoutControlCharacters(comment.name),
      createdAt: comment.created_at,
      html: body.html,
      path: comment.path,
    };
  };
  const comments = sortedThreads.map((thread) => ({ ...render(thread), replies: thread.children.map(render) }));
  return { path: key, count: countComments(sortedThreads), comments };
}
