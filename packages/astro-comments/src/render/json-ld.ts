// schema.org structured data for a page's comments: each comment a `Comment` with its author, date,
// plain text and its replies nested under it, attached to the page's own article when there is one.
// Pure: the component passes the comments and what it knows about the page.
import { machineDate } from "./comment-markup.ts";
import type { RenderedComment } from "./comment-tree.ts";
import { htmlToText } from "./plain-text.ts";

/** A JSON-LD node: any schema.org type, e.g. `{ "@type": "BlogPosting", headline, url }`. */
export type JsonLdNode = { "@type"?: string | string[]; [property: string]: unknown };

export interface CommentsJsonLdInput {
  comments: readonly RenderedComment[];
  /** Approved comments on the page, replies included. */
  count: number;
  /** The page's absolute URL; each comment's `url` is this with its anchor. Without it, comments carry no URL. */
  pageUrl?: string | undefined;
  /** The page's own node (BlogPosting, Article, …): the comments are attached to it. Default: a WebPage. */
  article?: JsonLdNode | undefined;
}

function commentNode(comment: RenderedComment, pageUrl: string | undefined): JsonLdNode {
  const url = pageUrl === undefined ? undefined : new URL(`#${comment.id}`, pageUrl).href;
  const replies = "replies" in comment ? comment.replies.map((reply) => commentNode(reply, pageUrl)) : [];
  return {
    "@type": "Comment",
    ...(url === undefined ? {} : { "@id": url, url }),
    author: { "@type": "Person", name: comment.author },
    dateCreated: machineDate(comment.createdAt),
    text: htmlToText(comment.html),
    ...(replies.length === 0 ? {} : { comment: replies }),
  };
}

/** The structured data of a page's comments, as one JSON-LD document. */
export function commentsJsonLd({ comments, count, pageUrl, article }: CommentsJsonLdInput): JsonLdNode {
  const page: JsonLdNode = article ?? {
    "@type": "WebPage",
    ...(pageUrl === undefined ? {} : { "@id": pageUrl, url: pageUrl }),
  };
  const nodes = comments.map((comment) => commentNode(comment, pageUrl));
  return {
    "@context": "https://schema.org",
    ...page,
    commentCount: count,
    ...(nodes.length === 0 ? {} : { comment: nodes }),
  };
}

/**
 * JSON for a `<script type="application/ld+json">`: `<`, `>` and `&` become \u escapes, so no
 * name or body can close the script or open a comment in it; U+2028/U+2029 are escaped for old
 * JavaScript parsers that read it, DEL and C1 because HTML does not allow them in a document.
 * JSON.parse gives back the same value.
 */
export function serializeJsonLd(value: unknown): string {
  return JSON.stringify(value).replace(
    /[<>&\u007f-\u009f\u2028\u2029]/g,
    (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}
