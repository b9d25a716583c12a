// Stored comments as the loader keeps them, for tests of what pages make of them.
import type { StoredComment } from "../../src/loader/entry-schema.ts";

/** A comment on /posts/x whose body is its id, with `replies` short replies ("<id>-r0", …). */
export const storedComment = (id: string, replies = 0): StoredComment => ({
  id,
  author: id,
  createdAt: "2026-01-01T00:00:00.000000Z",
  html: `<p>${id}</p>`,
  path: "/posts/x",
  replies: Array.from({ length: replies }, (_, i) => ({
    id: `${id}-r${i}`,
    author: "r",
    createdAt: "2026-01-01T00:00:01.000000Z",
    html: "<p>r</p>",
    path: "/posts/x",
  })),
});
