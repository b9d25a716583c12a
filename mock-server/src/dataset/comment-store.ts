// Serves the dataset the way the service's database query does: approved only, one domain,
// optionally one exact path, oldest first, replies nested under their top-level comment.
import type { CommentReply, CommentThread } from "@astro-comments/schema";
import type { StoredComment } from "./generate-dataset.ts";

const byAge = (a: StoredComment, b: StoredComment) =>
  a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : a.id - b.id;

export interface CommentPage {
  items: CommentThread[];
  total: number;
}

export class CommentStore {
  readonly #comments: StoredComment[];
  #threadsByDomain = new Map<string, CommentThread[]>();
  #threadsByPath = new Map<string, CommentThread[]>();
  readonly #domains: ReadonlySet<string>;

  constructor(comments: StoredComment[]) {
    this.#comments = comments;
    this.#domains = new Set(comments.map((comment) => comment.domain));
    this.#index();
  }

  /** Domains the account has (including ones with nothing approved yet). */
  get domains(): ReadonlySet<string> {
    return this.#domains;
  }

  page(domain: string, path: string | null, offset: number, limit: number): CommentPage {
    const threads = (path === null ? this.#threadsByDomain.get(domain) : this.#threadsByPath.get(`${domain}\u0000${path}`)) ?? [];
    return { items: threads.slice(offset, offset + limit), total: threads.length };
  }

  /** Every approved thread of a domain, in served order: the reference a client crawl must reproduce. */
  threads(domain: string): readonly CommentThread[] {
    return this.#threadsByDomain.get(domain) ?? [];
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
    for (const comment of chosen) comment.status = "approved";
    if (chosen.length > 0) this.#index();
    return chosen.length;
  }

  #index(): void {
    const replies = new Map<number, CommentReply[]>();
    const approved = this.#comments.filter((c) => c.status === "approved").sort(byAge);
    for (const reply of approved) {
      if (reply.parentId === null) continue;
      const list = replies.get(reply.parentId) ?? [];
      list.push(toReply(reply));
      replies.set(reply.parentId, list);
    }
    this.#threadsByDomain = new Map();
    this.#threadsByPath = new Map();
    for (const comment of approved) {
      if (comment.parentId !== null) continue;
      const thread: CommentThread = { ...toReply(comment), children: replies.get(comment.id) ?? [] };
      push(this.#threadsByDomain, comment.domain, thread);
      push(this.#threadsByPath, `${comment.domain}\u0000${comment.path}`, thread);
    }
  }
}

function toReply(comment: StoredComment): CommentReply {
  // Field order as the service sends it.
  return { created_at: comment.created_at, content: comment.content, html: comment.html, status: "approved", name: comment.name, path: comment.path };
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
