// The benchmark's blog, as issue 17 describes it: a `posts` collection of 2,000 pages (a JSON file)
// and, for the mock to serve (`comments-mock --data`), 40,000 approved top-level comments plus a
// reply to every third one (13,334) spread over those pages, every fifth body with a link and a
// code block. The mock's own generator cannot take that shape (its reply counts, body mix, held
// replies and showcase threads are its own), so the bench writes the comments in the mock's data
// file format, with the mock's word list and code samples. Same seed, same files, byte for byte.
import type { MockData, MockDataThread } from "../mock-server/src/index.ts";
import {
  authorNames,
  codeSamples,
  escapeHtml,
  paragraphHtml,
  sentence,
} from "../mock-server/src/dataset/text-corpus.ts";
import { serviceTimestamp } from "../mock-server/src/dataset/timestamp.ts";
import { dice, type Dice } from "../mock-server/src/random.ts";

export interface BlogShape {
  seed: number;
  domain: string;
  pages: number;
  topLevel: number;
  /** One top-level comment in `replyEvery` has one reply. */
  replyEvery: number;
  /** One body in `richEvery` (counting top-level comments and replies in served order) has a link and a code block. */
  richEvery: number;
}

export const issue17Blog: BlogShape = {
  seed: 1,
  domain: "example.com",
  pages: 2_000,
  topLevel: 40_000,
  replyEvery: 3,
  richEvery: 5,
};

/** An entry of the `posts` collection (bench/site/shared/posts.ts validates it). */
export interface Post {
  id: string;
  path: string;
  title: string;
  date: string;
  paragraphs: string[];
}

export interface Blog {
  posts: Post[];
  comments: MockData;
  replies: number;
}

interface Body {
  content: string;
  html: string;
}

const START = Date.UTC(2023, 0, 1);

function paragraph(rng: Dice): string {
  return Array.from({ length: rng.int(1, 4) }, () => sentence(rng.pick, rng.int(4, 14))).join(" ");
}

/** A paragraph; or, for a rich body, a paragraph, a link and a code block (as the service renders Markdown). */
function body(rng: Dice, rich: boolean): Body {
  const text = paragraph(rng);
  if (!rich) return { content: text, html: paragraphHtml(text) };
  const url = `https://docs.example.net/guide/${rng.int(1, 99)}`;
  const sample = rng.pick(codeSamples);
  return {
    content: `${text}\n\nSee [the guide](${url}).\n\n\`\`\`${sample.language}\n${sample.code}\n\`\`\``,
    html: `${paragraphHtml(text)}<p>See <a href="${url}">the guide</a>.</p>\n<pre><code class="language-${sample.language}">${escapeHtml(sample.code)}\n</code></pre>\n`,
  };
}

/** The blog's posts and the comments on them. */
export function generateBlog(shape: BlogShape = issue17Blog): Blog {
  const rng = dice(shape.seed);
  let clock = START;
  const tick = () => serviceTimestamp((clock += rng.int(60, 3_600) * 1000), rng.int(0, 999_999));
  const posts: Post[] = Array.from({ length: shape.pages }, (_, i) => {
    const title = sentence(rng.pick, rng.int(3, 7)).slice(0, -1);
    const slug = `${title.toLowerCase().replace(/[^a-z]+/g, "-")}-${i + 1}`;
    return {
      id: slug,
      path: `/posts/${slug}`,
      title,
      date: new Date(START - (shape.pages - i) * 86_400_000).toISOString().slice(0, 10),
      paragraphs: Array.from({ length: rng.int(3, 6) }, () => paragraph(rng)),
    };
  });
  let bodies = 0;
  const nextBody = () => body(rng, ++bodies % shape.richEvery === 0);
  let replies = 0;
  const threads: MockDataThread[] = Array.from({ length: shape.topLevel }, (_, i) => {
    // Popularity is skewed as on a real blog (and as in the mock's generator): early posts collect most comments.
    const path = posts[Math.floor(posts.length * rng.float() ** 2)]!.path;
    const thread: MockDataThread = { created_at: tick(), name: rng.pick(authorNames), path, ...nextBody() };
    if (i % shape.replyEvery === 0) {
      replies++;
      thread.children = [{ created_at: tick(), name: rng.pick(authorNames), ...nextBody() }];
    }
    return thread;
  });
  return {
    posts,
    comments: { format: "comments-mock-data", version: 1, domain: shape.domain, comments: threads },
    replies,
  };
}
