import type { CommentListResponse, CommentThread } from "@astro-comments/schema";
import { describe, expect, it } from "vitest";
import { boundedMap } from "../../src/utils/bounded-map.ts";
import { collectThreads, crawlAllPages } from "../../src/api/crawl.ts";
import type { FetchedPage } from "../../src/api/http-client.ts";
import { backoffDelay, classifyStatus, defaultRetryPolicy, parseRetryAfter } from "../../src/api/retry-policy.ts";
import { CommentsApiError } from "../../src/errors.ts";

const thread = (i: number): CommentThread => ({
  created_at: `2024-01-01T00:00:${String(i % 60).padStart(2, "0")}.${String(i).padStart(6, "0")}Z`,
  content: `c${i}`,
  html: "",
  status: "approved",
  name: `n${i}`,
  path: `/p/${i % 7}`,
  children: [],
});

/** A paginated API over an array that a test may change between requests. */
function fakeApi(items: CommentThread[], cap = 100) {
  const requested: Array<{ page: number; perPage: number }> = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const fetchPage = async (page: number, asked: number): Promise<FetchedPage> => {
    requested.push({ page, perPage: asked });
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    await Promise.resolve();
    inFlight--;
    const perPage = Math.min(asked, cap);
    const data = items.slice((page - 1) * perPage, page * perPage);
    const lastPage = Math.max(1, Math.ceil(items.length / perPage));
    const body: CommentListResponse = {
      data,
      links: { first: "http://x/?page=1", last: `http://x/?page=${lastPage}`, prev: null, next: null },
      meta: {
        current_page: page,
        from: data.length ? (page - 1) * perPage + 1 : null,
        last_page: lastPage,
        per_page: perPage,
        to: data.length ? (page - 1) * perPage + data.length : null,
        total: items.length,
      },
    };
    return { url: `http://x/api/comments?page=${page}`, body: structuredClone(body) };
  };
  return {
    fetchPage,
    requested,
    get maxInFlight() {
      return maxInFlight;
    },
  };
}

describe("crawl", () => {
  it("fetches every page once, in order, trusting meta.per_page over the request", async () => {
    const items = Array.from({ length: 95 }, (_, i) => thread(i));
    const api = fakeApi(items, 10);
    const result = await crawlAllPages({
      collect: collectThreads,
      fetchPage: api.fetchPage,
      endpoint: "http://x",
      perPage: 50,
      concurrency: 4,
    });
    expect(result.result).toEqual(items);
    expect(result).toMatchObject({ total: 95, pages: 10, perPage: 10, crawls: 1 });
    expect(api.requested.map((r) => r.page).sort((a, b) => a - b)).toEqual(Array.from({ length: 10 }, (_, i) => i + 1));
    expect(api.requested.slice(1).every((r) => r.perPage === 10)).toBe(true);
    expect(api.maxInFlight).toBeLessThanOrEqual(4);
  });

  it("handles an empty list in one request", async () => {
    const api = fakeApi([]);
    expect(
      await crawlAllPages({
        collect: collectThreads,
        fetchPage: api.fetchPage,
        endpoint: "http://x",
        perPage: 50,
        concurrency: 4,
      }),
    ).toMatchObject({ result: [], total: 0, pages: 1 });
  });

  it("crawls again when a comment is approved mid-crawl, and returns the new complete list", async () => {
    const items = Array.from({ length: 30 }, (_, i) => thread(i));
    const api = fakeApi(items);
    let calls = 0;
    const restarts: string[] = [];
    const result = await crawlAllPages({
      collect: collectThreads,
      fetchPage: async (page, perPage) => {
        if (++calls === 2) items.splice(3, 0, thread(1000));
        return api.fetchPage(page, perPage);
      },
      endpoint: "http://x",
      perPage: 10,
      concurrency: 1,
      onRestart: (reason) => restarts.push(reason),
    });
    expect(restarts).toEqual(["the total went from 30 to 31"]);
    expect(result.result).toEqual(items);
    expect(result.crawls).toBe(2);
  });

  it("gives up with a clear error when the list never holds still", async () => {
    const items = Array.from({ length: 30 }, (_, i) => thread(i));
    const api = fakeApi(items);
    let n = 2000;
    const crawl = crawlAllPages({
      collect: collectThreads,
      fetchPage: async (page, perPage) => {
        if (page === 2) items.push(thread(n++));
        return api.fetchPage(page, perPage);
      },
      endpoint: "http://x/api/comments",
      perPage: 10,
      concurrency: 2,
      maxCrawls: 3,
    });
    await expect(crawl).rejects.toThrowError(/kept changing during 3 crawls.*http:\/\/x\/api\/comments/);
    await expect(crawl).rejects.toBeInstanceOf(CommentsApiError);
  });

  it("keeps identical twin comments, even across a page boundary, without calling it drift", async () => {
    const items = Array.from({ length: 20 }, (_, i) => thread(i));
    items[10] = { ...items[9]! };
    const crawl = await crawlAllPages({
      collect: collectThreads,
      fetchPage: fakeApi(items).fetchPage,
      endpoint: "http://x",
      perPage: 10,
      concurrency: 2,
      maxCrawls: 1,
    });
    expect(crawl.result).toEqual(items);
    expect(crawl.crawls).toBe(1);
  });

  it("refuses a server that ignores the page parameter", async () => {
    const items = Array.from({ length: 20 }, (_, i) => thread(i));
    const api = fakeApi(items);
    await expect(
      crawlAllPages({
        collect: collectThreads,
        fetchPage: (_page, perPage) => api.fetchPage(1, perPage),
        endpoint: "http://x",
        perPage: 10,
        concurrency: 1,
      }),
    ).rejects.toThrowError(/asked for page 2 but got page 1/);
  });
});

describe("bounded concurrency", () => {
  it("stops starting tasks after a failure and rethrows it", async () => {
    const started: number[] = [];
    await expect(
      boundedMap([1, 2, 3, 4, 5, 6], 2, async (n) => {
        started.push(n);
        if (n === 2) throw new Error("boom");
        return n;
      }),
    ).rejects.toThrowError("boom");
    expect(started.length).toBeLessThan(6);
  });
});

describe("retry policy", () => {
  it("backs off exponentially with equal jitter, capped", () => {
    expect(backoffDelay(0, defaultRetryPolicy, () => 0)).toBe(400);
    expect(backoffDelay(0, defaultRetryPolicy, () => 0.999)).toBe(799);
    expect(backoffDelay(3, defaultRetryPolicy, () => 0.5)).toBe(4800);
    expect(backoffDelay(20, defaultRetryPolicy, () => 0.999)).toBe(7996);
  });

  it("spreads the default retries over 10 to 20 seconds", () => {
    const total = (random: () => number) =>
      Array.from({ length: defaultRetryPolicy.retries }, (_, retry) =>
        backoffDelay(retry, defaultRetryPolicy, random),
      ).reduce((a, b) => a + b);
    expect(total(() => 0)).toBeGreaterThanOrEqual(10_000);
    expect(total(() => 0.9999)).toBeLessThanOrEqual(20_000);
  });
  it("reads Retry-After as seconds or an HTTP date", () => {
    expect(parseRetryAfter("7", 0)).toBe(7);
    expect(parseRetryAfter(new Date(30_000).toUTCString(), 0)).toBe(30);
    expect(parseRetryAfter("soon", 0)).toBeUndefined();
    expect(parseRetryAfter(undefined, 0)).toBeUndefined();
  });
  it("retries 5xx and 408, waits on 429, fails fast on other 4xx", () => {
    expect([200, 500, 503, 408, 429, 401, 403, 404, 422].map(classifyStatus)).toEqual([
      "ok",
      "retry",
      "retry",
      "retry",
      "rate-limited",
      "fatal",
      "fatal",
      "fatal",
      "fatal",
    ]);
  });
});
