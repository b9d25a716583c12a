// One comment with 20,000 replies (issue 25 measured 200,000: a 116 MB page at 1.4 GiB peak). What
// keeps such a page's memory down is asserted by structure, not by a measurement that depends on
// the machine: the page never goes to Astro's WebAssembly digest as one string (its memory grows
// to the largest input and never shrinks), and <Comments> renders the list in bounded pieces.
import { startMockServer, type MockServer } from "@astro-comments/mock-server";
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveOptions } from "../src/integration/options.ts";
import { commentItemChunks, commentItemsHtml } from "../src/render/comment-markup.ts";
import { syncComments } from "../src/loader/sync-comments.ts";
import { loaderContext, storedComments } from "./helpers/loader-context.ts";
import { recordingSleep } from "./helpers/servers.ts";

const REPLIES = 20_000;
const stamp = (second: number) => new Date(Date.UTC(2026, 0, 1) + second * 1000).toISOString().replace("Z", "000Z");

let mock: MockServer;
beforeAll(async () => {
  const children = Array.from({ length: REPLIES }, (_, i) => ({
    created_at: stamp(60 + i),
    content: `Reply number ${i} to the thread, with a few words.`,
    name: `Replier ${i % 997}`,
  }));
  mock = await startMockServer({
    data: {
      format: "comments-mock-data",
      version: 1,
      domain: "example.com",
      comments: [{ created_at: stamp(0), content: "The first comment.", name: "Ann", path: "/posts/huge", children }],
    },
  });
});
afterAll(() => mock?.close());

describe("a thread of 20,000 replies", () => {
  it("syncs without handing the page to Astro's digest as one string, and renders <Comments> in pieces of at most 1,000 comments", async () => {
    const { context } = loaderContext();
    let longest = 0;
    const digest = context.generateDigest;
    context.generateDigest = (value) => {
      longest = Math.max(longest, typeof value === "string" ? value.length : JSON.stringify(value).length);
      return digest(value);
    };
    const clock = recordingSleep();
    const env = { COMMENTS_DOMAIN: "example.com", COMMENTS_API_URL: mock.url, COMMENTS_API_TOKEN: mock.token };
    await syncComments(
      context,
      { options: resolveOptions({ timeout: 60_000 }, env), command: "build" },
      { sleep: clock.sleep, now: clock.now, random: () => 0.5 },
    );
    const page = (await storedComments(context)).get("/posts/huge")!;
    expect(page.count).toBe(REPLIES + 1);
    expect(JSON.stringify(page).length).toBeGreaterThan(3_000_000);
    expect(longest).toBeLessThan(10_000);

    const view = {
      formatDate: (createdAt: string) => createdAt,
      messages: { replies: "Replies to {author}", permalink: "{date}, comment by {author}" },
    };
    const chunks = [...commentItemChunks(page.comments, view)];
    const articles = (html: string) => html.split("<article ").length - 1;
    expect(chunks.length).toBeGreaterThanOrEqual(REPLIES / 1_000);
    // A piece: a thousand replies, and the comment they answer when it opens there.
    expect(Math.max(...chunks.map(articles))).toBeLessThanOrEqual(1_001);
    expect(chunks.join("")).toBe(commentItemsHtml(page.comments, view));
    expect(articles(chunks.join(""))).toBe(REPLIES + 1);
    // What <Comments> and the island hand Astro (both render CommentsSection): the pieces, which
    // `set:html` renders one by one. No list is made for such a post (render/site-list.ts).
    expect(readFileSync(new URL("../components/CommentsSection.astro", import.meta.url), "utf8")).toContain(
      "set:html={listHtml ?? renderCommentItemChunks(comments, page)}",
    );
  });
});
