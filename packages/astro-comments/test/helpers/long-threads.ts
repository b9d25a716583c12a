// The comments of issue 39's targets as mock data, and a reader's walk through the comment pages:
// from the post page, following only the plain links inside the comments section.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Parser } from "htmlparser2";

const stamp = (second: number) => new Date(Date.UTC(2026, 0, 1) + second * 1000).toISOString().replace("Z", "000Z");

interface MockReply {
  created_at: string;
  content: string;
  name: string;
}

/** A post with 1,000 comments: 600 threads, every third with 2 replies. */
export function manyThreads(path: string) {
  return Array.from({ length: 600 }, (_, i) => ({
    created_at: stamp(10 * i),
    content: `Comment ${i} on the busy post.`,
    name: `Reader ${i % 89}`,
    path,
    children:
      i % 3 === 0
        ? [1, 2].map((n) => ({
            created_at: stamp(10 * i + n),
            content: `Reply ${n} to comment ${i}.`,
            name: `Replier ${n}`,
          }))
        : [],
  }));
}

/** One thread of `replies` replies. */
export function oneLongThread(path: string, replies: number) {
  const children: MockReply[] = Array.from({ length: replies }, (_, i) => ({
    created_at: stamp(60 + i),
    content: `Reply number ${i} to the thread.`,
    name: `Replier ${i % 997}`,
  }));
  return [{ created_at: stamp(0), content: "The first comment.", name: "Ann", path, children }];
}

/**
 * A post of comments with highlighted code, about 60 elements each: 130 threads, the first with
 * 40 replies. Split by count alone, its first page would hold 100 of them (some 6,800 elements).
 * With `threads` and `replies`, another post of such comments.
 */
export function codeThreads(path: string, threads = 130, replies = 40) {
  const code = (i: number) => ({
    content: `Snippet ${i}`,
    html:
      `<p>Snippet ${i}:</p><pre><code class="language-js">const total = items.reduce((sum, item) => sum + item.price * item.qty, ${i});\n` +
      "if (total > 100) {\n  console.log(`Free shipping for ${total}`);\n}\n" +
      "export default function cart(items) { return items.map((item) => item.id); }\n</code></pre>",
  });
  return Array.from({ length: threads }, (_, i) => ({
    created_at: stamp(100 * i),
    name: `Coder ${i % 13}`,
    path,
    ...code(i),
    children:
      i === 0
        ? Array.from({ length: replies }, (_, n) => ({
            created_at: stamp(n + 1),
            name: `Helper ${n % 7}`,
            ...code(1_000 + n),
          }))
        : [],
  }));
}

/** A few comments: a post that fits one page. */
export function smallPost(path: string) {
  return [
    {
      created_at: stamp(0),
      content: "First!",
      name: "Ann",
      path,
      children: [{ created_at: stamp(5), content: "Hi Ann.", name: "Bob" }],
    },
    { created_at: stamp(9), content: "A second thought.", name: "Cy", path, children: [] },
  ];
}

/** What a page of the walk holds. */
export interface WalkedPage {
  url: string;
  html: string;
  /** Every element of the page, chrome included. */
  elements: number;
  /** The ids of the comments in the section, in document order. */
  comments: string[];
  /** Links inside the section that lead to another page (not a fragment of this one). */
  links: string[];
  permalinks: string[];
  /** Elements inside the section. */
  scripts: number;
}

/** The comments section of a page: from `<section` to its matching `</section>`. */
export function section(html: string): string {
  const start = html.indexOf('<section class="astro-comments"');
  return start < 0 ? "" : html.slice(start, html.indexOf("</section>", start) + "</section>".length);
}

export function readPage(out: string, url: string): WalkedPage {
  const path = decodeURIComponent(new URL(url, "https://example.com").pathname);
  const html = readFileSync(join(out, path, path.endsWith("/") ? "index.html" : "/index.html"), "utf8");
  let elements = 0;
  new Parser({ onopentag: () => elements++ }).end(html);
  const page: WalkedPage = { url, html, elements, comments: [], links: [], permalinks: [], scripts: 0 };
  new Parser(
    {
      onopentag(name, attributes) {
        if (name === "script") page.scripts++;
        if (name === "article" && "data-comment" in attributes) page.comments.push(attributes.id ?? "");
        if (name !== "a" || attributes.href === undefined) return;
        if ("data-comment-permalink" in attributes) page.permalinks.push(attributes.href);
        else if (!attributes.href.startsWith("#")) page.links.push(attributes.href);
      },
    },
    { decodeEntities: true },
  ).end(section(html));
  return page;
}

/** Every page reachable from `start` through the section's links, breadth first, each once. */
export function walk(out: string, start: string): WalkedPage[] {
  const seen = new Map<string, WalkedPage>();
  const queue = [start];
  while (queue.length > 0) {
    const url = queue.shift()!;
    const path = new URL(url, "https://example.com").pathname;
    if (seen.has(path)) continue;
    const page = readPage(out, url);
    seen.set(path, page);
    queue.push(...page.links);
  }
  return [...seen.values()];
}
