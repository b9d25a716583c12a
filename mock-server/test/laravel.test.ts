import { describe, expect, it } from "vitest";
import { phpJsonEncode, phpJsonEncodePage, phpJsonPretty } from "../src/laravel/json-encoding.ts";
import { resolvePageNumber } from "../src/laravel/page-number.ts";
import { pageWindow, paginationBlocks } from "../src/laravel/paginator.ts";
import { parsePhpQuery } from "../src/laravel/php-query.ts";
import { buildQuery } from "../src/laravel/query-encoding.ts";
import { validateListQuery } from "../src/laravel/validation.ts";

describe("page resolution (FILTER_VALIDATE_INT, >= 1, else 1)", () => {
  it.each([
    [undefined, 1],
    ["", 1],
    ["2", 2],
    ["+4", 4],
    [" 3", 3],
    ["3 ", 3],
    ["\t5\n", 5],
    ["0", 1],
    ["-1", 1],
    ["-0", 1],
    ["02", 1],
    ["007", 1],
    ["1.0", 1],
    ["2.5", 1],
    ["1e2", 1],
    ["0x1A", 1],
    ["2abc", 1],
    ["abc", 1],
    [["2"], 1],
    ["9223372036854775808", 1],
    ["\f2", 1],
    ["12", 12],
  ])("page=%j resolves to %i", (raw, expected) => {
    expect(resolvePageNumber(raw)).toBe(expected);
  });
});

describe("meta.links window (UrlWindow, onEachSide 3)", () => {
  const render = (c: number, l: number) =>
    pageWindow(c, l)
      .map((p) => (p === null ? "..." : p === c ? `${p}*` : String(p)))
      .join(" ");
  it.each([
    [1, 13, "1* 2 3 4 5 6 7 8 9 10 11 12 13"],
    [7, 14, "1 2 3 4 5 6 7* 8 9 10 ... 13 14"],
    [8, 14, "1 2 ... 5 6 7 8* 9 10 11 12 13 14"],
    [8, 15, "1 2 ... 5 6 7 8* 9 10 11 ... 14 15"],
    [8, 100, "1 2 ... 5 6 7 8* 9 10 11 ... 99 100"],
    [93, 100, "1 2 ... 90 91 92 93* 94 95 96 ... 99 100"],
    [94, 100, "1 2 ... 91 92 93 94* 95 96 97 98 99 100"],
    [150, 100, "1 2 ... 91 92 93 94 95 96 97 98 99 100"],
  ])("page %i of %i", (current, last, expected) => {
    expect(render(current, last)).toBe(expected);
  });
});

describe("paginated resource blocks", () => {
  it("reproduces Laravel's bytes for total 7, per_page 3, page 2", () => {
    const blocks = paginationBlocks({
      path: "http://localhost/api/items",
      currentPage: 2,
      perPage: 3,
      total: 7,
      itemCount: 3,
    });
    const expected =
      '"links":{"first":"http:\\/\\/localhost\\/api\\/items?page=1","last":"http:\\/\\/localhost\\/api\\/items?page=3","prev":"http:\\/\\/localhost\\/api\\/items?page=1","next":"http:\\/\\/localhost\\/api\\/items?page=3"},"meta":{"current_page":2,"from":4,"last_page":3,"links":[{"url":"http:\\/\\/localhost\\/api\\/items?page=1","label":"&laquo; Previous","page":1,"active":false},{"url":"http:\\/\\/localhost\\/api\\/items?page=1","label":"1","page":1,"active":false},{"url":"http:\\/\\/localhost\\/api\\/items?page=2","label":"2","page":2,"active":true},{"url":"http:\\/\\/localhost\\/api\\/items?page=3","label":"3","page":3,"active":false},{"url":"http:\\/\\/localhost\\/api\\/items?page=3","label":"Next &raquo;","page":3,"active":false}],"path":"http:\\/\\/localhost\\/api\\/items","per_page":3,"to":6,"total":7}}';
    expect(phpJsonEncode(blocks)).toBe(`{${expected}`);
  });

  it("past the end: empty page, from/to null, prev past the end too, no active entry", () => {
    const { links, meta } = paginationBlocks({
      path: "http://localhost/api/items",
      currentPage: 5,
      perPage: 3,
      total: 7,
      itemCount: 0,
    });
    expect(links).toEqual({
      first: "http://localhost/api/items?page=1",
      last: "http://localhost/api/items?page=3",
      prev: "http://localhost/api/items?page=4",
      next: null,
    });
    expect(meta).toMatchObject({ current_page: 5, from: null, to: null, last_page: 3 });
    expect(meta.links?.some((l) => l.active)).toBe(false);
    expect(meta.links?.at(-1)).toEqual({ url: null, label: "Next &raquo;", page: null, active: false });
  });

  it("an empty list still has last_page 1 and three link entries", () => {
    const { meta } = paginationBlocks({
      path: "http://localhost/api/items",
      currentPage: 1,
      perPage: 15,
      total: 0,
      itemCount: 0,
    });
    expect(meta.last_page).toBe(1);
    expect(meta.links?.map((l) => l.label)).toEqual(["&laquo; Previous", "1", "Next &raquo;"]);
  });

  it("withQueryString keeps parameters in order with page moved last, RFC 3986-encoded", () => {
    const { links } = paginationBlocks({
      path: "http://h/api/comments",
      currentPage: 1,
      perPage: 2,
      total: 5,
      itemCount: 2,
      keptQuery: [
        ["page", "1"],
        ["domain", "example.com"],
        ["path", "/posts/a b+c"],
      ],
    });
    expect(links.next).toBe("http://h/api/comments?domain=example.com&path=%2Fposts%2Fa%20b%2Bc&page=2");
    expect(buildQuery([["q", "it's (ok)*!"]])).toBe("q=it%27s%20%28ok%29%2A%21");
  });
});

describe("query parsing as Laravel sees it", () => {
  it("last duplicate wins, [] builds a list, values are trimmed, empty strings become null", () => {
    const query = parsePhpQuery("domain=a.com&domain=b.com&ids[]=1&ids[]=2&path=%20/x%20&per_page=&a.b=1");
    expect(query.get("domain")).toBe("b.com");
    expect(query.get("ids")).toEqual(["1", "2"]);
    expect(query.get("path")).toBe("/x");
    expect(query.get("per_page")).toBeNull();
    expect(query.get("a_b")).toBe("1");
  });
});

describe("validation (422 body)", () => {
  it("lists every failing field in rule order and counts the rest in the message", () => {
    expect(validateListQuery(parsePhpQuery("per_page=abc"))).toEqual({
      message: "The domain field is required. (and 1 more error)",
      errors: { domain: ["The domain field is required."], per_page: ["The per page field must be an integer."] },
    });
    expect(validateListQuery(parsePhpQuery("domain[]=x&path[]=y&per_page=0"))).toEqual({
      message: "The domain field must be a string. (and 2 more errors)",
      errors: {
        domain: ["The domain field must be a string."],
        path: ["The path field must be a string."],
        per_page: ["The per page field must be at least 1."],
      },
    });
  });
  it.each(["5", "+5", " 7 ", ""])("accepts per_page=%j", (value) => {
    expect(validateListQuery(parsePhpQuery(`domain=x&per_page=${value}`))).toBeUndefined();
  });
  it.each(["1e2", "02", "1.5", "abc", "-3"])("rejects per_page=%j", (value) => {
    expect(validateListQuery(parsePhpQuery(`domain=x&per_page=${value}`))?.errors.per_page).toHaveLength(1);
  });
});

describe("JSON encoding", () => {
  it("escapes slashes and non-ASCII like json_encode with flags 0, and pretty-prints HTTP exceptions", () => {
    expect(phpJsonEncode({ path: "/a", name: "Zoë 😀", label: "&laquo; <b>'" })).toBe(
      '{"path":"\\/a","name":"Zo\\u00eb \\ud83d\\ude00","label":"&laquo; <b>\'"}',
    );
    expect(JSON.parse(phpJsonEncode({ name: "Zoë 😀" }))).toEqual({ name: "Zoë 😀" });
    const page = { data: [{ a: "/é" }, { b: 1 }], links: { first: "http://x/" }, meta: { total: 2 } };
    expect(phpJsonEncodePage(page).toString("latin1")).toBe(phpJsonEncode(page));
    // Second call: served from the per-item cache, same bytes.
    expect(phpJsonEncodePage(page).toString("latin1")).toBe(phpJsonEncode(page));
    expect(phpJsonPretty({ message: "Too Many Attempts." })).toBe('{\n    "message": "Too Many Attempts."\n}');
  });
});
