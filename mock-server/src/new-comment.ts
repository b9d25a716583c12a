// A comment added at run time (admin route, CLI or in-process), checked and completed with the
// service's defaults before the store sees it, so a bad one fails here and not as a 500 later.
import type { CommentStore } from "./dataset/comment-store.ts";
import type { StoredComment } from "./dataset/generate-dataset.ts";
import { paragraphHtml } from "./dataset/text-corpus.ts";
import { isServiceTimestamp } from "./dataset/timestamp.ts";
import { InvalidInputError } from "./invalid-input.ts";

export interface NewComment {
  /** Required unless `replyTo` is given; a reply defaults to (and must match) its parent's. */
  domain?: string;
  path?: string;
  name: string;
  content: string;
  /** Default: the content, escaped, as one paragraph: `<p>…</p>\n`. */
  html?: string;
  /** Default "approved". */
  status?: "approved" | "pending";
  /** Id of the top-level comment this one replies to. */
  replyTo?: number;
  /** Default: now. Written as the service does, e.g. 2023-11-26T06:30:07.000000Z. */
  created_at?: string;
}

const stringFields = ["domain", "path", "name", "content", "html", "created_at"] as const;
const knownFields = new Set<string>([...stringFields, "status", "replyTo"]);

/** Checks that an untyped JSON body (the admin route's) has the shape of a NewComment. */
export function parseNewComment(body: unknown): NewComment {
  const fail = (problem: string) => new InvalidInputError(`Cannot add the comment: ${problem}`);
  if (typeof body !== "object" || body === null || Array.isArray(body))
    throw fail('send a JSON object such as {"domain":"example.com","path":"/posts/x","name":"Ann","content":"Hi"}.');
  const fields = body as Record<string, unknown>;
  const unknown = Object.keys(fields).filter((key) => !knownFields.has(key));
  if (unknown.length > 0)
    throw fail(`unknown field ${unknown.join(", ")}; the fields are ${[...knownFields].join(", ")}.`);
  for (const key of stringFields) {
    if (fields[key] !== undefined && typeof fields[key] !== "string") throw fail(`send "${key}" as a string.`);
  }
  if (typeof fields.name !== "string" || typeof fields.content !== "string")
    throw fail('send "name" and "content": both are required.');
  if (fields.status !== undefined && fields.status !== "approved" && fields.status !== "pending")
    throw fail('send "status" as "approved" or "pending", or leave it out.');
  if (fields.replyTo !== undefined && !(Number.isSafeInteger(fields.replyTo) && (fields.replyTo as number) > 0))
    throw fail('send "replyTo" as the numeric id of a top-level comment.');
  return fields as unknown as NewComment;
}

/** The stored fields of a new comment: defaults filled in, its parent and timestamp checked. */
export function resolveNewComment(input: NewComment, store: CommentStore, now: string): Omit<StoredComment, "id"> {
  let { domain, path } = input;
  if (input.replyTo !== undefined) {
    const parent = store.get(input.replyTo);
    if (parent === undefined)
      throw new InvalidInputError(
        `Cannot add the reply: there is no comment ${input.replyTo}; pass the id of an existing top-level comment.`,
      );
    if (parent.parentId !== null)
      throw new InvalidInputError(
        `Cannot add the reply: comment ${parent.id} is itself a reply; reply to its top-level comment ${parent.parentId} instead.`,
      );
    if ((domain ?? parent.domain) !== parent.domain || (path ?? parent.path) !== parent.path) {
      throw new InvalidInputError(
        `Cannot add the reply: comment ${parent.id} is on ${parent.domain} ${parent.path}; leave domain and path out or send those.`,
      );
    }
    domain = parent.domain;
    path = parent.path;
  }
  if (!domain || !path)
    throw new InvalidInputError(
      'Cannot add the comment: send "domain" (the site, e.g. example.com) and "path" (the page, e.g. /posts/x).',
    );
  if (input.created_at !== undefined && !isServiceTimestamp(input.created_at)) {
    throw new InvalidInputError(
      `Cannot add the comment: created_at "${input.created_at}" is not a UTC time like 2023-11-26T06:30:07.000000Z; send one or leave it out for now.`,
    );
  }
  return {
    domain,
    path,
    parentId: input.replyTo ?? null,
    status: input.status ?? "approved",
    created_at: input.created_at ?? now,
    content: input.content,
    html: input.html ?? paragraphHtml(input.content),
    name: input.name,
  };
}
