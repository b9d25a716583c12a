// Comments whose bodies hold every block a reset can flatten: paragraphs, both kinds of list
// (nested too), a blockquote, a highlighted code block, inline code and a link. Two pages, so a
// view-transition test can tell each page's comments apart.
import type { StoredComment } from "@astro-comments/mock-server";

const richBody = [
  '<p>First paragraph, with <code>inline code</code> and <a href="https://example.org/docs">a link to the docs</a>.</p>',
  "<p>Second paragraph.</p>",
  "<ul><li>an unordered item</li><li>another, with a nested list<ul><li>nested item</li></ul></li></ul>",
  "<ol><li>first step</li><li>second step</li></ol>",
  "<blockquote><p>A quoted line.</p></blockquote>",
  '<pre><code class="language-js">const answer = await fetch("/api/comments?page=1");\nfunction greet(name) { return `Hello, ${name}`; } // says hello</code></pre>',
  "<p>Closing paragraph.</p>",
].join("");

/** Two comments (one a reply) on the first path, one on the second; ids from `firstId` on. */
export function themeComments(domain: string, paths: readonly [string, string], firstId: number): StoredComment[] {
  const [first, second] = paths;
  const base = { domain, status: "approved" as const, content: "" };
  return [
    {
      ...base,
      id: firstId,
      parentId: null,
      created_at: "2026-03-01T09:30:00.000000Z",
      name: "Ada Lovelace",
      html: richBody,
      path: first,
    },
    {
      ...base,
      id: firstId + 1,
      parentId: firstId,
      created_at: "2026-03-02T10:00:00.000000Z",
      name: "Grace Hopper",
      html: "<p>A reply, with a list of its own:</p><ul><li>one</li><li>two</li></ul>",
      path: first,
    },
    {
      ...base,
      id: firstId + 2,
      parentId: null,
      created_at: "2026-03-03T11:15:00.000000Z",
      name: "Katherine Johnson",
      html: "<p>Only on the second page.</p>",
      path: second,
    },
  ];
}
