// A split post's pagination as the loader writes it beside the post's comments: every page's
// number, URL and thread, and where its comments are, without the comments. Page generation then
// lists a post's comment pages and renders each one reading only that page's comments: splitting
// the post there parsed its whole thread (200,000 replies) and kept it in the comment pages'
// props for the whole of page generation. Pure: where the comments are is the caller's.
import type { StoredComment } from "../loader/entry-schema.ts";
import type { CommentPage, PostPagination, ShownComment } from "./comment-pages.ts";

/** A page's comments in a data file: byte offset, byte length, digest of those bytes. */
export type CommentsAt = [start: number, length: number, digest: string];

/** A comment page without its comments: `at` says where they are (none on a thread's opening, which is the post page). */
interface OutlinePage {
  number: number;
  href: string;
  at?: CommentsAt;
}

export interface PaginationOutline {
  pages: OutlinePage[];
  /**
   * Each long thread's parent, without its replies, and its pages, in the pagination's order. The
   * parent is written once: its id and author are what a thread page shows of it besides its comments.
   */
  threads: Array<[parent: StoredComment, pages: OutlinePage[]]>;
}

/** Every page that holds comments of its own, in the order a data file writes them: the post's pages, then each long thread's. */
export function pagesWithComments(pagination: PostPagination): CommentPage[] {
  const threadPages = [...pagination.threads.values()].flatMap((pages) => pages.slice(1));
  return [...pagination.pages, ...threadPages];
}

/**
 * The outline of `pagination`, given where each page of pagesWithComments went (`written`, in
 * that order).
 */
export function paginationOutline(pagination: PostPagination, written: readonly CommentsAt[]): PaginationOutline {
  let next = 0;
  const outline = ({ number, href }: CommentPage, withComments: boolean): OutlinePage =>
    withComments ? { number, href, at: written[next++]! } : { number, href };
  const pages = pagination.pages.map((page) => outline(page, true));
  const threads = [...pagination.threads.values()].map((thread): [StoredComment, OutlinePage[]] => [
    { ...thread[0]!.thread!, replies: [] },
    thread.map((page, index) => outline(page, index > 0)),
  ]);
  return { pages, threads };
}

/** Where an outline's pages keep their comments, in the order pagesWithComments writes them. */
export function outlinePlaces(outline: PaginationOutline): CommentsAt[] {
  const pages = [...outline.pages, ...outline.threads.flatMap(([, thread]) => thread)];
  return pages.flatMap((page) => (page.at === undefined ? [] : [page.at]));
}

/**
 * The pagination an outline describes, each page's comments read by `read` whenever they are
 * asked for and kept by nobody: a build holds one page's comments at a time.
 */
export function outlinedPagination(
  outline: PaginationOutline,
  read: (at: CommentsAt) => ShownComment[],
): PostPagination {
  const page = ({ number, href, at }: OutlinePage, thread?: StoredComment): CommentPage => {
    const shown: CommentPage = { number, href, comments: [], ...(thread === undefined ? {} : { thread }) };
    if (at !== undefined) Object.defineProperty(shown, "comments", { enumerable: true, get: () => read(at) });
    return shown;
  };
  return {
    pages: outline.pages.map((each) => page(each)),
    threads: new Map(outline.threads.map(([parent, pages]) => [parent.id, pages.map((each) => page(each, parent))])),
  };
}
