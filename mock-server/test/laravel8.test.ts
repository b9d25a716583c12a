// What a real Laravel 8 app serving this API does differently (the Addendum of the Laravel notes):
// it rejects a large per_page, sends per_page as a string, stores whole seconds, keeps twins.
import type { CommentThread } from "@astro-comments/schema";
import { afterEach, describe, expect, it } from "vitest";
import { generateDataset, startMockServer, type MockServer, type StoredComment } from "../src/index.ts";
import { crawl, getRaw } from "./helpers.ts";

let mock: MockServer | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

const fingerprint = (c: { created_at: string; name: string; path: string; content: string; html: string }) =>
  `${c.created_at}|${c.name}|${c.path}|${c.content}|${c.html}`;

describe("perPageLimit", () => {
  it('"reject" answers Laravel 8\'s 422 body, byte for byte, above the maximum', async () => {
    mock = await startMockServer({ dataset: { size: 50 }, perPageLimit: "reject" });
    const rejected = await getRaw(mock.url, "domain=example.com&per_page=101", mock.token);
    expect(rejected.status).toBe(422);
    expect(rejected.text).toBe(
      '{"message":"The given data was invalid.","errors":{"per_page":["The per page may not be greater than 100."]}}',
    );
    expect((await getRaw(mock.url, "domain=example.com&per_page=100", mock.token)).status).toBe(200);
    // The framework's own rules still come first.
    expect(
      JSON.parse((await getRaw(mock.url, "domain=example.com&per_page=abc", mock.token)).text).errors.per_page,
    ).toEqual(["The per page field must be an integer."]);
  });

  it("names the configured maximum; the default still caps", async () => {
    mock = await startMockServer({ dataset: { size: 50 }, perPageLimit: "reject", maxPerPage: 20 });
    expect((await getRaw(mock.url, "domain=example.com&per_page=21", mock.token)).text).toContain(
      "The per page may not be greater than 20.",
    );
    await mock.close();
    mock = await startMockServer({ dataset: { size: 50 } });
    const capped = await getRaw(mock.url, "domain=example.com&per_page=500", mock.token);
    expect(capped.status).toBe(200);
    expect(capped.text).toContain('"per_page":100,');
  });
});

describe("stringNumbers", () => {
  it("sends meta.per_page as a JSON string: the value given, or the default or cap in effect", async () => {
    const violations: string[] = [];
    mock = await startMockServer({
      dataset: { size: 50 },
      stringNumbers: true,
      onViolation: (detail) => violations.push(detail),
    });
    const cases: Array<[string, string]> = [
      ["", '"per_page":"50"'],
      ["&per_page=7", '"per_page":"7"'],
      ["&per_page=%2B5", '"per_page":"+5"'],
      ["&per_page=500", '"per_page":"100"'],
    ];
    for (const [query, expected] of cases) {
      const answer = await getRaw(mock.url, `domain=example.com${query}`, mock.token);
      expect(answer.status).toBe(200);
      expect(answer.text).toContain(expected);
    }
    // Prism validated the integer before the encoding step changed it: no contract violation.
    expect(violations).toEqual([]);
    // Everything else in meta stays a number.
    expect((await getRaw(mock.url, "domain=example.com", mock.token)).text).toMatch(
      /"current_page":1,"from":1,"last_page":\d+,/,
    );
  });

  it("is off by default", async () => {
    mock = await startMockServer({ dataset: { size: 50 } });
    expect((await getRaw(mock.url, "domain=example.com", mock.token)).text).toContain('"per_page":50,');
  });
});

describe("dataset: twins and whole-second timestamps", () => {
  const topLevel = (comments: StoredComment[]) =>
    comments.filter((c) => c.parentId === null && c.status === "approved");

  it("is deterministic for a seed, and only the asked-for changes set it apart from the default", () => {
    const options = { seed: 4, size: 400, twins: 3, wholeSecondTimestamps: true };
    expect(JSON.stringify(generateDataset(options))).toBe(JSON.stringify(generateDataset(options)));
    expect(JSON.stringify(generateDataset(options))).not.toBe(JSON.stringify(generateDataset({ ...options, seed: 5 })));

    const plain = generateDataset({ seed: 4, size: 400 });
    const whole = generateDataset({ seed: 4, size: 400, wholeSecondTimestamps: true });
    const withoutTime = (comments: StoredComment[]) => comments.map(({ created_at, ...rest }) => rest);
    expect(withoutTime(whole)).toEqual(withoutTime(plain));
    // Twins replace the last random comments: everything before them is the default dataset.
    const twins = generateDataset({ seed: 4, size: 400, twins: 3 });
    expect(topLevel(twins)).toHaveLength(topLevel(plain).length);
    expect(twins.slice(0, -6)).toEqual(plain.slice(0, twins.length - 6));
  });

  it("whole seconds: every created_at ends in .000000Z, many tie, never going back in time", () => {
    const comments = generateDataset({ seed: 4, size: 400, wholeSecondTimestamps: true });
    expect(comments.every((c) => c.created_at.endsWith(".000000Z"))).toBe(true);
    const ties = comments.length - new Set(comments.map((c) => c.created_at)).size;
    expect(ties).toBeGreaterThan(comments.length / 5);
    const times = comments.map((c) => c.created_at);
    expect([...times].sort()).toEqual(times);
  });

  it("twins: three identical pairs on showcase paths", () => {
    const comments = generateDataset({ seed: 4, size: 400, twins: 3 });
    const counts = new Map<string, StoredComment[]>();
    for (const c of topLevel(comments)) counts.set(fingerprint(c), [...(counts.get(fingerprint(c)) ?? []), c]);
    const pairs = [...counts.values()].filter((group) => group.length === 2);
    expect(pairs).toHaveLength(3);
    for (const [a, b] of pairs) expect(a!.id).not.toBe(b!.id);
    expect(pairs.map(([a]) => a!.path)).toEqual([
      "/posts/hello-world",
      "/posts/around-the-world",
      "/posts/long-thread",
    ]);
  });
});

describe("the laravel8 preset", () => {
  it("crawls with twins present twice, ties in a stable order, per_page as a string and 422 above 100", async () => {
    mock = await startMockServer({ laravel8: true, dataset: { seed: 6, size: 500 } });
    expect((await getRaw(mock.url, "domain=example.com&per_page=1000", mock.token)).status).toBe(422);
    expect((await getRaw(mock.url, "domain=example.com&per_page=13", mock.token)).text).toContain('"per_page":"13"');

    const small = await crawl(mock.url, mock.token, "example.com", 13);
    const large = await crawl(mock.url, mock.token, "example.com", 100);
    // Ties keep one order (created_at, then id) whatever the page size: nothing lost or repeated.
    expect(small.map(fingerprint)).toEqual(large.map(fingerprint));
    expect(small.map(fingerprint)).toEqual(mock.store.threads("example.com").map(fingerprint));
    const times = small.map((c) => c.created_at);
    expect(new Set(times).size).toBeLessThan(times.length);

    const occurrences = new Map<string, CommentThread[]>();
    for (const c of small) occurrences.set(fingerprint(c), [...(occurrences.get(fingerprint(c)) ?? []), c]);
    expect([...occurrences.values()].filter((group) => group.length === 2)).toHaveLength(3);
  });

  it("gives way to options set explicitly", async () => {
    mock = await startMockServer({
      laravel8: true,
      perPageLimit: "cap",
      stringNumbers: false,
      dataset: { size: 50, twins: 0 },
    });
    const capped = await getRaw(mock.url, "domain=example.com&per_page=1000", mock.token);
    expect(capped.status).toBe(200);
    expect(capped.text).toContain('"per_page":100,');
    expect(capped.text).toMatch(/"created_at":"[^"]*\.000000Z"/);
  });
});
