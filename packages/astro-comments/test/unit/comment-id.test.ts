// Permalinks: a comment's id comes from what it is, so #comment-… keeps pointing at the same
// comment when others are approved before or around it.
import { CommentStore, exampleDomain, generateDataset, showcasePaths } from "@astro-comments/mock-server";
import { describe, expect, it } from "vitest";
import type { PageCommentsData, StoredComment } from "../../src/loader/entry-schema.ts";
import { commentIdAllocator, commentIdentity, withMissingIds } from "../../src/render/comment-id.ts";
import { groupThreadsByPage, renderPageComments, sortPageThreads } from "../../src/render/comment-tree.ts";

/** Every comment of a domain's pages, rendered as the loader stores them. */
async function renderDomain(store: CommentStore): Promise<Map<string, PageCommentsData>> {
  const threads = structuredClone(store.threads(exampleDomain)) as ReturnType<CommentStore["threads"]>;
  return new Map(
    await Promise.all(
      [...groupThreadsByPage(threads)].map(
        async ([key, page]) => [key, await renderPageComments(key, sortPageThreads(page))] as const,
      ),
    ),
  );
}

/** id → what the reader sees of that comment, over a page's comments and replies, in page order. */
function anchors(page: PageCommentsData): Map<string, string> {
  const all = page.comments.flatMap((comment) => [comment, ...comment.replies]);
  return new Map(all.map((comment) => [comment.id, JSON.stringify([comment.author, comment.createdAt, comment.html])]));
}

describe("comment ids", () => {
  const comment = { createdAt: "2024-01-01T00:00:00.000000Z", author: "Ann", path: "/a", content: "Hi" };

  it("are 'comment-' and 8 hex digits, the same for the same comment and different for another", () => {
    expect(commentIdentity(comment)).toMatch(/^comment-[0-9a-f]{8}$/);
    expect(commentIdentity({ ...comment })).toBe(commentIdentity(comment));
    for (const change of [
      { createdAt: "2024-01-01T00:00:01.000000Z" },
      { author: "Bob" },
      { path: "/b" },
      { content: "Hi!" },
      { author: "Ann\u0000/a" },
    ]) {
      expect(commentIdentity({ ...comment, ...change }), JSON.stringify(change)).not.toBe(commentIdentity(comment));
    }
  });

  it("hash the UTF-8 bytes TextEncoder writes, so ids made before stay the same", () => {
    // The reference: FNV-1a over TextEncoder's bytes, as ids were made when they were introduced.
    const reference = (text: string) => {
      let hash = 0x811c9dc5;
      for (const byte of new TextEncoder().encode(text)) hash = Math.imul(hash ^ byte, 0x01000193);
      return `comment-${(hash >>> 0).toString(16).padStart(8, "0")}`;
    };
    // ASCII, 2-, 3- and 4-byte characters, and lone surrogates (written as U+FFFD) at either end.
    for (const content of [
      "plain",
      "é ß",
      "€ 日本",
      "😀 𝄞",
      "\ud800",
      "x\udc00y",
      "\udbff",
      "a\ud83d",
      "\uffff\u0800\u07ff",
      // Longer than the reused buffer grows to, then short again: the bytes of one never reach the next.
      `${"日".repeat(400_000)}😀`,
      "é",
      `${"x".repeat(5_000)}€`,
      "x",
    ]) {
      const comment = { createdAt: "2026-01-02T03:04:05Z", author: "Zoë", path: "/p/", content };
      expect(commentIdentity(comment)).toBe(reference(["2026-01-02T03:04:05Z", "Zoë", "/p/", content].join("\u0000")));
    }
  });

  it("number identical twins -2, -3 in page order, keeping every id on a page unique", () => {
    const next = commentIdAllocator();
    const base = commentIdentity(comment);
    expect([next(comment), next({ ...comment, author: "Bob" }), next(comment), next(comment)]).toEqual([
      base,
      commentIdentity({ ...comment, author: "Bob" }),
      `${base}-2`,
      `${base}-3`,
    ]);
  });

  it("stay with their comment across approvals that shift every position, twins and tied timestamps included", async () => {
    const comments = generateDataset({ seed: 11, size: 300, twins: 3, wholeSecondTimestamps: true });
    const store = new CommentStore(comments);
    const before = await renderDomain(store);

    // A moderator approves everything pending (top-level and replies, between existing comments),
    // and a new earliest comment lands at the top of a showcase page.
    let approved = 0;
    for (const pending of comments.filter((c) => c.domain === exampleDomain && c.status === "pending")) {
      store.approve(pending.id);
      approved++;
    }
    store.insert({
      domain: exampleDomain,
      parentId: null,
      status: "approved",
      created_at: "2000-01-01T00:00:00.000000Z",
      content: "First!",
      html: "<p>First!</p>",
      name: "Early",
      path: showcasePaths.hello,
    });
    const after = await renderDomain(store);

    expect(approved).toBeGreaterThan(0);
    let moved = 0;
    let kept = 0;
    for (const [key, page] of before) {
      const old = anchors(page);
      const now = anchors(after.get(key)!);
      for (const [id, seen] of old) {
        expect(now.get(id), `${key}#${id}`).toBe(seen);
        kept++;
      }
      const oldOrder = [...old.keys()];
      const newOrder = [...now.keys()];
      moved += oldOrder.filter((id, index) => newOrder[index] !== id).length;
      // Unique within the page.
      expect(new Set(newOrder).size).toBe(newOrder.length);
    }
    // The approvals did move comments: positional anchors would have broken.
    expect(moved).toBeGreaterThan(0);
    expect(kept).toBeGreaterThan(100);
    // The dataset's twins are there, told apart by their suffix.
    expect([...after.values()].some((page) => [...anchors(page).keys()].some((id) => /-2$/.test(id)))).toBe(true);
  });

  it("are filled in for comments stored before they had ids, unique on the page, twins included", () => {
    const old = { author: "Ann", createdAt: "2024-01-01T00:00:00.000000Z", html: "<p>Hi</p>", path: "/a" };
    const stored = [
      { ...old, replies: [{ ...old }] },
      { ...old, replies: [] },
    ] as unknown as StoredComment[];
    const filled = withMissingIds(stored);
    const id = commentIdentity({ ...old, content: old.html });
    expect(filled.map((c) => [c.id, c.replies.map((r) => r.id)])).toEqual([
      [id, [`${id}-2`]],
      [`${id}-3`, []],
    ]);
    // Current entries pass through untouched.
    expect(withMissingIds(filled)).toBe(filled);
  });
});
