// Serves the dataset the way the service's database query does: approved only, one domain,
// optionally one exact path, oldest first, replies nested under their top-level comment.
import type { CommentReply, CommentThread } from "@astro-comments/schema";
import type { StoredComment, StoredStatus } from "./generate-dataset.ts";

const byAge = (a: StoredComment, b: StoredComment) =>
  a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : a.id - b.id;

export interface CommentPage {
  items: CommentThread[];
  total: number;
}

/**
 * One page of a domain as a moderator sees it: its approved and pending top-level comments, and its
 * pending replies (a reply waits for moderation too, and the API serves none until approved).
 */
export interface PageCounts {
  path: string;
  approved: number;
  pending: number;
  pendingReplies: number;
}

export class CommentStore {
  readonly #comments: StoredComment[];
  readonly #byId = new Map<number, StoredComment>();
  readonly #repliesByParent = new Map<number, StoredComment[]>();
  // Served threads are never mutated, only replaced: the JSON encoder caches each one's bytes.
  readonly #threadById = new Map<number, CommentThread>();
  readonly #sourceOf = new WeakMap<CommentThread, StoredComment>();
  readonly #threadsByDomain = new Map<string, CommentThread[]>();
  readonly #threadsByPath = new Map<string, CommentThread[]>();
  readonly #domains: Set<string>;
  #lastId = 0;

  /** `domains`: the account's domains that have no comment yet (any comment's domain is one). */
  constructor(comments: StoredComment[], domains: Iterable<string> = []) {
    this.#comments = comments;
    this.#domains = new Set([...domains, ...comments.map((comment) => comment.domain)]);
    for (const comment of comments) {
      this.#byId.set(comment.id, comment);
      this.#lastId = Math.max(this.#lastId, comment.id);
      if (comment.parentId !== null) push(this.#repliesByParent, comment.parentId, comment);
    }
    for (const replies of this.#repliesByParent.values()) replies.sort(byAge);
    // One sort, then appends: the 100k-comment dataset indexes without a binary search per thread.
    for (const comment of comments.filter((c) => c.parentId === null && c.status === "approved").sort(byAge)) {
      const thread = this.#thread(comment);
      push(this.#threadsByDomain, comment.domain, thread);
      push(this.#threadsByPath, pathKey(comment.domain, comment.path), thread);
    }
  }

  /** Domains the account has (including ones with nothing approved yet). */
  get domains(): ReadonlySet<string> {
    return this.#domains;
  }

  page(domain: string, path: string | null, offset: number, limit: number): CommentPage {
    const threads =
      (path === null ? this.#threadsByDomain.get(domain) : this.#threadsByPath.get(pathKey(domain, path))) ?? [];
    return { items: threads.slice(offset, offset + limit), total: threads.length };
  }

  /** Every approved thread of a domain, in served order: the reference a client crawl must reproduce. */
  threads(domain: string): readonly CommentThread[] {
    return this.#threadsByDomain.get(domain) ?? [];
  }

  get(id: number): StoredComment | undefined {
    return this.#byId.get(id);
  }

  /** Stores a new comment with the next id; served at once when approved (and its parent is). */
  insert(fields: Omit<StoredComment, "id">): StoredComment {
    const comment: StoredComment = { id: ++this.#lastId, ...fields };
    this.#comments.push(comment);
    this.#byId.set(comment.id, comment);
    this.#domains.add(comment.domain);
    if (comment.parentId !== null) {
      const replies = this.#repliesByParent.get(comment.parentId) ?? [];
      replies.splice(
        lowerBound(replies, (reply) => byAge(reply, comment) < 0),
        0,
        comment,
      );
      this.#repliesByParent.set(comment.parentId, replies);
    }
    if (comment.status === "approved") this.#publish(comment);
    return comment;
  }

  /** Approves a comment by id (a no-op when it already is); undefined when there is no such comment. */
  approve(id: number): StoredComment | undefined {
    return this.setStatus(id, "approved");
  }

  /**
   * Moderates a comment: approving serves it at once, anything else withdraws it (and a top-level
   * comment's thread with it) from the next response. Undefined when there is no such comment.
   */
  setStatus(id: number, status: StoredStatus): StoredComment | undefined {
    const comment = this.#byId.get(id);
    if (comment === undefined || comment.status === status) return comment;
    const wasServed = comment.status === "approved";
    comment.status = status;
    if (status === "approved") this.#publish(comment);
    else if (wasServed) this.#withdraw(comment);
    return comment;
  }

  /** Deletes a comment, and a top-level comment's replies with it; undefined when there is no such comment. */
  remove(id: number): StoredComment | undefined {
    const comment = this.#byId.get(id);
    if (comment === undefined) return undefined;
    for (const reply of this.#repliesByParent.get(id) ?? []) this.#byId.delete(reply.id);
    this.#repliesByParent.delete(id);
    if (comment.parentId !== null) {
      const siblings = this.#repliesByParent.get(comment.parentId) ?? [];
      siblings.splice(siblings.indexOf(comment), 1);
    }
    if (comment.status === "approved") this.#withdraw(comment);
    this.#byId.delete(id);
    const gone = (c: StoredComment) => !this.#byId.has(c.id);
    for (let i = this.#comments.length - 1; i >= 0; i--) if (gone(this.#comments[i]!)) this.#comments.splice(i, 1);
    return comment;
  }

  /** A domain's pages (any comment's path), with their counts, by path. */
  pagesOf(domain: string): PageCounts[] {
    const pages = new Map<string, PageCounts>();
    for (const comment of this.#comments) {
      if (comment.domain !== domain) continue;
      const page = pages.get(comment.path) ?? { path: comment.path, approved: 0, pending: 0, pendingReplies: 0 };
      pages.set(comment.path, page);
      if (comment.parentId !== null) {
        if (comment.status === "pending") page.pendingReplies++;
      } else if (comment.status === "approved") page.approved++;
      else if (comment.status === "pending") page.pending++;
    }
    return [...pages.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }

  /** Every top-level comment on a page, whatever its status, oldest first, with all its replies. */
  commentsOn(domain: string, path: string): Array<{ comment: StoredComment; replies: readonly StoredComment[] }> {
    return this.#comments
      .filter((c) => c.domain === domain && c.path === path && c.parentId === null)
      .sort(byAge)
      .map((comment) => ({ comment, replies: this.#repliesByParent.get(comment.id) ?? [] }));
  }

  /**
   * Approves up to `count` pending top-level comments (oldest first), as a moderator would in the
   * middle of a crawl. Their created_at puts them between existing comments, so pages shift.
   */
  approvePending(count: number, domain?: string): number {
    const pending = this.#comments.filter(
      (c) => c.parentId === null && c.status === "pending" && (domain === undefined || c.domain === domain),
    );
    const chosen = pending.slice(0, count);
    for (const comment of chosen) this.approve(comment.id);
    return chosen.length;
  }

  #thread(comment: StoredComment): CommentThread {
    const replies = this.#repliesByParent.get(comment.id) ?? [];
    const thread: CommentThread = {
      ...toReply(comment),
      children: replies.filter((r) => r.status === "approved").map(toReply),
    };
    this.#threadById.set(comment.id, thread);
    this.#sourceOf.set(thread, comment);
    return thread;
  }

  /** Puts a newly approved comment where the database query would find it, keeping the rest as is. */
  #publish(comment: StoredComment): void {
    if (comment.parentId === null) {
      const thread = this.#thread(comment);
      this.#place(this.#threadsByDomain, comment.domain, comment, thread, "insert");
      this.#place(this.#threadsByPath, pathKey(comment.domain, comment.path), comment, thread, "insert");
      return;
    }
    this.#rebuildThreadOf(comment.parentId);
  }

  /** A served thread whose replies changed: replaced by a fresh one (served threads are never mutated). */
  #rebuildThreadOf(parentId: number): void {
    const parent = this.#byId.get(parentId);
    // A reply to a comment that is not served stays hidden until its parent is approved.
    if (parent === undefined || !this.#threadById.has(parent.id)) return;
    const thread = this.#thread(parent);
    this.#place(this.#threadsByDomain, parent.domain, parent, thread, "replace");
    this.#place(this.#threadsByPath, pathKey(parent.domain, parent.path), parent, thread, "replace");
  }

  /** Takes a comment that was approved out of what is served: its thread, or its place in its parent's. */
  #withdraw(comment: StoredComment): void {
    if (comment.parentId === null) {
      const thread = this.#threadById.get(comment.id);
      this.#threadById.delete(comment.id);
      if (thread === undefined) return;
      for (const [map, key] of [
        [this.#threadsByDomain, comment.domain],
        [this.#threadsByPath, pathKey(comment.domain, comment.path)],
      ] as const) {
        const list = map.get(key) ?? [];
        const at = list.indexOf(thread);
        if (at >= 0) list.splice(at, 1);
      }
      return;
    }
    this.#rebuildThreadOf(comment.parentId);
  }

  /** Inserts the thread of `comment` at its sorted position, or replaces the one already there. */
  #place(
    map: Map<string, CommentThread[]>,
    key: string,
    comment: StoredComment,
    thread: CommentThread,
    how: "insert" | "replace",
  ): void {
    const list = map.get(key) ?? [];
    const at = lowerBound(list, (served) => byAge(this.#sourceOf.get(served)!, comment) < 0);
    list.splice(at, how === "replace" ? 1 : 0, thread);
    map.set(key, list);
  }
}

const pathKey = (domain: string, path: string) => `${domain}\u0000${path}`;

function toReply(comment: StoredComment): CommentReply {
  // Field order as the service sends it.
  return {
    created_at: comment.created_at,
    content: comment.content,
    html: comment.html,
    status: "approved",
    name: comment.name,
    path: comment.path,
  };
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** The first index of a sorted list whose item is not `before` the sought position (binary search). */
function lowerBound<T>(list: readonly T[], before: (item: T) => boolean): number {
  let low = 0;
  let high = list.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (before(list[middle]!)) low = middle + 1;
    else high = middle;
  }
  return low;
}
