// The comment modules' source: what the loader writes is what the build imports and what a later
// sync reads back, whatever the comments contain.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { PageCommentsData } from "../../src/loader/entry-schema.ts";
import {
  commentDataFile,
  commentModuleSource,
  externalData,
  externalModuleSource,
  parseCommentData,
  parseCommentModule,
  SHARDS,
  shardOf,
  unsealModule,
  unsealOlderModule,
} from "../../src/loader/module-format.ts";
import { paginateComments } from "../../src/render/comment-pages.ts";
import { outlinedPagination, type CommentsAt } from "../../src/render/pagination-outline.ts";
import { LISTS_FIELD, type ShardLists } from "../../src/render/site-list.ts";
import { commentPagesUnder } from "../helpers/data-api-mocks.ts";
import { storedComment } from "../helpers/stored-comments.ts";
import { integrityDigest } from "../../src/utils/integrity-digest.ts";

const hostile = [
  "\u2028\u2029",
  "</script><script>alert(1)</script>",
  "*/ throw 1; /*",
  "\n}; export const x = 1; //",
  "`${x}`",
  "\\",
  "\ud83d\ude00",
].join(" ");
const page = (path: string, text: string): PageCommentsData => ({
  path,
  count: 2,
  comments: [
    {
      id: "comment-1",
      author: text,
      createdAt: "2026-01-01T00:00:00.000000Z",
      html: `<p>${text}</p>`,
      path,
      replies: [{ id: "comment-2", author: "B", createdAt: "2026-01-02T00:00:00.000000Z", html: text, path }],
    },
  ],
});

/** Evaluates a module's source the way a bundler would see it, with the component import stubbed. */
async function evaluate(source: string): Promise<Record<string, unknown>> {
  const stubbed = source.replace(
    /^export \{ Comments as Content \} from "[^"]+";$/m,
    "export const Content = () => 'stub';",
  );
  return (await import(`data:text/javascript;base64,${Buffer.from(stubbed).toString("base64")}`)) as Record<
    string,
    unknown
  >;
}

describe("comment module source", () => {
  const pages = new Map([
    ["/posts/a", page("/posts/a", hostile)],
    ["/posts/\u2028b", page("/posts/\u2028b", "plain")],
  ]);
  const source = commentModuleSource(pages, "../../../astro-comments/components/index.ts");

  it("is a module whose frontmatter holds every page's comments exactly, hostile text included", async () => {
    const module = await evaluate(source);
    expect(module["frontmatter"]).toEqual(Object.fromEntries(pages));
    expect(Object.keys(module).sort()).toEqual(["Content", "frontmatter"]);
  });

  it("exports Content from the package's own components, as render(entry) needs", () => {
    expect(source).toContain('export { Comments as Content } from "../../../astro-comments/components/index.ts";');
  });

  it("reads back what it wrote, and nothing else", () => {
    expect(parseCommentModule(source)).toEqual(pages);
    expect(parseCommentModule('export const frontmatter = JSON.parse("{}");')).toEqual(new Map());
    expect(
      parseCommentModule('export const frontmatter = JSON.parse("{\\"/a\\": {\\"path\\": \\"/a\\"}}");'),
    ).toBeUndefined();
    expect(parseCommentModule('export const frontmatter = JSON.parse("{");')).toBeUndefined();
    expect(parseCommentModule("export const frontmatter = {};")).toBeUndefined();
    expect(parseCommentModule("export default 1;")).toBeUndefined();
  });
});

describe("comment module with its comments beside it (sites without on-demand pages)", () => {
  const pages = new Map([
    ["/posts/a", page("/posts/a", hostile)],
    ["/posts/\u2028b", page("/posts/\u2028b", "plain")],
  ]);
  const dataFile = join(mkdtempSync(join(tmpdir(), "ac-module-")), "comments-0-abc.json");
  const { pieces, index } = commentDataFile(pages);
  const json = Buffer.concat([...pieces]).toString();
  writeFileSync(dataFile, json);
  const source = externalModuleSource(dataFile, index, "../../../astro-comments/components/index.ts");

  it("holds no comment text, and its frontmatter is every page's comments exactly, read from the file", async () => {
    expect(source).not.toContain("plain");
    expect(source.length).toBeLessThan(2000);
    const module = await evaluate(source);
    expect(module["frontmatter"]).toEqual(Object.fromEntries(pages));
    expect(Object.keys(module).sort()).toEqual(["Content", "frontmatter"]);
  });

  it("says where its comments are, for a later sync to read them back, whatever the path holds", () => {
    expect(externalData(source)?.file).toBe(dataFile);
    const odd = 'C:\\Users\\a "quoted" name\\comments-1-x.json';
    expect(externalData(externalModuleSource(odd, [], "./c.ts"))?.file).toBe(odd);
    expect(externalData(commentModuleSource(pages, "./c.ts"))).toBeUndefined();
  });

  it("is each page's JSON on a line of its own, made in pieces that never hold a long thread at once", () => {
    const long: PageCommentsData = {
      ...page("/posts/long", "plain"),
      comments: [
        {
          ...page("/posts/long", "plain").comments[0]!,
          replies: Array.from({ length: 5_000 }, (_, i) => ({
            id: `comment-r${i}`,
            author: "R",
            createdAt: "2026-01-03T00:00:00.000000Z",
            html: `<p>${hostile} ${i}</p>`,
            path: "/posts/long",
          })),
        },
      ],
    };
    const all = new Map([...pages, ["/posts/long", long]]);
    const file = commentDataFile(all);
    const parts = [...file.pieces];
    const bytes = Buffer.concat(parts);
    expect(bytes.toString()).toBe([...all.values()].map((data) => `${JSON.stringify(data)}\n`).join(""));
    expect(parts.length).toBeGreaterThan(5);
    expect(Math.max(...parts.map((part) => part.length))).toBeLessThan(140_000);
    for (const [key, start, length, digest] of file.index) {
      const slice = bytes.subarray(start, start + length);
      expect(JSON.parse(slice.toString())).toEqual(all.get(key));
      expect(integrityDigest(slice)).toBe(digest);
    }
  });

  it("carries each post's made list beside its comments, shown only while its bytes are as written", async () => {
    const lists = commentDataFile(pages, { list: (key) => (key === "/posts/a" ? `<li>${hostile}</li>` : undefined) });
    const text = Buffer.concat([...lists.pieces]).toString();
    const file = join(mkdtempSync(join(tmpdir(), "ac-module-")), "comments-1-def.json");
    writeFileSync(file, text);
    const module = await evaluate(externalModuleSource(file, lists.index, "./c.ts", "the key"));
    const frontmatter = module["frontmatter"] as Record<string, unknown>;
    // The lists are no page: whatever walks the pages never meets them.
    expect(frontmatter).toEqual(Object.fromEntries(pages));
    expect(frontmatter[LISTS_FIELD]).toEqual({
      key: "the key",
      html: { "/posts/a": `<li>${hostile}</li>` },
      split: {},
    });
    const at = text.indexOf("<li>") + 4;
    writeFileSync(file, `${text.slice(0, at)}${text[at] === "x" ? "y" : "x"}${text.slice(at + 1)}`);
    expect((frontmatter[LISTS_FIELD] as ShardLists).html["/posts/a"]).toBeUndefined();
    expect(frontmatter["/posts/a"]).toEqual(pages.get("/posts/a"));
  });

  it("carries a split post's comment pages beside its comments, each read alone and only while its bytes are as written", async () => {
    const settings = commentPagesUnder("/");
    const busy: PageCommentsData = {
      path: "/posts/busy",
      count: 46,
      comments: [
        { ...storedComment("a", 25), html: `<p>${"A long parent. ".repeat(50)}</p>` },
        ...["b", "c", "d", "e"].map((id) => storedComment(id, 3)),
        { ...storedComment("f", 3), author: hostile },
      ],
    };
    const split = paginateComments("/posts/busy", "/posts/busy/", busy.comments, { ...settings, size: 10 });
    const all = new Map([...pages, ["/posts/busy", busy]]);
    const written = commentDataFile(all, { split: (key) => (key === "/posts/busy" ? split : undefined) });
    const text = Buffer.concat([...written.pieces]).toString();
    const file = join(mkdtempSync(join(tmpdir(), "ac-module-")), "comments-2-abc.json");
    writeFileSync(file, text);
    const module = await evaluate(externalModuleSource(file, written.index, "./c.ts", "the key"));
    const frontmatter = module["frontmatter"] as Record<string, unknown>;
    expect(frontmatter).toEqual(Object.fromEntries(all));
    const lists = frontmatter[LISTS_FIELD] as ShardLists;
    const reads: CommentsAt[] = [];
    const pagination = outlinedPagination(lists.split!["/posts/busy"]!, (at) => {
      reads.push(at);
      return lists.read!(at)!;
    });
    // Nothing is read until a page's comments are asked for, and then that page's only.
    expect(reads).toEqual([]);
    expect(pagination.pages[1]!.comments).toEqual(split.pages[1]!.comments);
    expect(reads).toHaveLength(1);
    expect(split.pages.length).toBeGreaterThan(2);
    // The same split, page for page: numbers, URLs, threads and comments.
    expect(pagination.pages).toEqual(split.pages);
    const threads = [...pagination.threads];
    expect(threads.map(([id, thread]) => [id, thread.map((page) => [page.number, page.href, page.comments])])).toEqual(
      [...split.threads].map(([id, thread]) => [id, thread.map((page) => [page.number, page.href, page.comments])]),
    );
    expect(threads[0]![1].every((page) => page.thread?.author === "a")).toBe(true);
    // A thread page's parent comes without its replies, and once for all its pages: a thread of
    // 200,000 replies, or a long parent, would be in every page's props.
    expect(threads[0]![1][1]!.thread!.replies).toEqual([]);
    expect(new Set(threads[0]![1].map((page) => page.thread)).size).toBe(1);
    const [, , , , beside] = written.index.find(([key]) => key === "/posts/busy")!;
    const outlineText = Buffer.from(text)
      .subarray(beside![1], beside![1] + beside![2])
      .toString();
    expect(outlineText.split("A long parent.").length - 1).toBe(50);
    // One changed byte in page 2's comments: that page reads as nothing, the others as written.
    const bytes = Buffer.from(text);
    const [start] = lists.split!["/posts/busy"]!.pages[1]!.at!;
    bytes[start + 2]! ^= 1;
    writeFileSync(file, bytes);
    expect(lists.read!(lists.split!["/posts/busy"]!.pages[1]!.at!)).toBeUndefined();
    expect(lists.read!(lists.split!["/posts/busy"]!.pages[0]!.at!)).toEqual(split.pages[0]!.comments);
  });

  it("reads an older release's data file back, and nothing else", () => {
    expect(parseCommentData(JSON.stringify(Object.fromEntries(pages)))).toEqual(pages);
    expect(parseCommentData("null")).toBeUndefined();
    expect(parseCommentData('{"/a": {"path": "/a"}}')).toBeUndefined();
    expect(parseCommentData("{")).toBeUndefined();
  });
});

describe("sealed modules", () => {
  const pages = new Map([["/posts/a", page("/posts/a", hostile)]]);
  const source = commentModuleSource(pages, "./c.ts");

  it("hand back their body only while every byte is as written; an older format is told apart from damage", () => {
    expect(parseCommentModule(unsealModule(source)!)).toEqual(pages);
    const at = source.indexOf("plain") >= 0 ? source.indexOf("plain") : Math.floor(source.length / 2);
    expect(unsealModule(`${source.slice(0, at)}${source[at] === "x" ? "y" : "x"}${source.slice(at + 1)}`)).toBeNull();
    expect(unsealModule(source.slice(0, -10))).toBeNull();
    expect(unsealModule(source.slice(0, source.length / 2))).toBeNull();
    expect(unsealModule("")).toBeNull();
    expect(
      unsealModule(
        '// Generated by astro-comments: the comments of some of the site\'s pages.\nexport const frontmatter = JSON.parse("{}");\n',
      ),
    ).toBeUndefined();
    // An older release's sealed module is read whole, not taken for damage.
    expect(unsealModule(source.replace(/module format \d+/, "module format 5"))).toBeUndefined();
  });

  it("of an older release (format 4 on) are trusted only while their seal matches", () => {
    const body = unsealModule(source)!.replace(/module format \d+/, "module format 5");
    const older = `${body}// sha256 ${integrityDigest(body)}\n`;
    expect(unsealOlderModule(older)).toBe(body);
    expect(unsealOlderModule(older.slice(0, -30))).toBeUndefined();
    expect(unsealOlderModule(older.replace("frontmatter", "frontmatteR"))).toBeUndefined();
    expect(
      unsealOlderModule("// Generated by astro-comments: the comments of some of the site's pages.\n"),
    ).toBeUndefined();
  });
});

describe("shards", () => {
  it("puts a page in the same shard on every run, and spreads pages over all of them", () => {
    expect(shardOf("/posts/hello-world")).toBe(shardOf("/posts/hello-world"));
    const used = new Map<number, number>();
    for (let i = 0; i < 2_000; i++) {
      const shard = shardOf(`/posts/post-${i}`);
      expect(shard).toBeGreaterThanOrEqual(0);
      expect(shard).toBeLessThan(SHARDS);
      used.set(shard, (used.get(shard) ?? 0) + 1);
    }
    expect(used.size).toBe(SHARDS);
    // No shard holds more than twice its share.
    expect(Math.max(...used.values())).toBeLessThan((2 * 2_000) / SHARDS);
  });

  it("is FNV-1a, so a known key lands in a known shard on any platform", () => {
    // FNV-1a (32 bit) of "/posts/hello-world" is 0x3a43d613, computed independently.
    expect(shardOf("/posts/hello-world")).toBe(0x3a43d613 % SHARDS);
  });
});
