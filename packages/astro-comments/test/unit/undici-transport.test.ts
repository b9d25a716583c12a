// undici is loaded when a crawl makes its wire (undici-transport.ts). An install without it fails
// the first request at once, saying so, instead of retrying it as if the network were down.
import { describe, expect, it, vi } from "vitest";
import { createCommentsClient } from "../../src/api/http-client.ts";
import { undiciTransport } from "../../src/api/undici-transport.ts";
import { CommentsApiError } from "../../src/errors.ts";
import { recordingSleep } from "../helpers/servers.ts";

vi.mock("undici", () => {
  throw new Error("Cannot find package 'undici'");
});

describe("the undici wire without undici", () => {
  it("fails the first request with what to do, retries nothing, and closes", async () => {
    const clock = recordingSleep();
    const client = createCommentsClient({
      endpoint: new URL("http://127.0.0.1:9/api/comments"),
      token: "tok-unused-1234",
      domain: "example.com",
      timeoutMs: 5_000,
      connections: 1,
      maxResponseBytes: 1_000_000,
      random: () => 0.5,
      sleep: clock.sleep,
      now: clock.now,
      transport: undiciTransport,
    });
    const error = await client.fetchPage(1, 10).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(CommentsApiError);
    expect((error as CommentsApiError).message).toMatch(
      /^astro-comments: this runtime cannot send requests to the comments API: undici, the HTTP client the build sends with, cannot be loaded \(/,
    );
    expect((error as CommentsApiError).action).toBe(
      "Nothing reached the API, so the URL and the network are not to blame: install the site's dependencies again (npm ci, pnpm install): astro-comments depends on undici.",
    );
    expect(clock.waits).toEqual([]);
    await expect(client.close()).resolves.toBeUndefined();
  });

  it("a wire made and never used leaves no unhandled rejection behind", async () => {
    const wire = undiciTransport({ connections: 1, timeoutMs: 1_000 });
    // Past the failed import's settling: an unhandled rejection would fail this file's run.
    await new Promise((resolve) => setTimeout(resolve, 10));
    await expect(wire.close()).resolves.toBeUndefined();
  });
});
