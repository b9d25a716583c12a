// Runtime outages: after a good answer, the service drops, stalls, trickles or fails every request
// until switched off, and the server still closes at once.
import { afterEach, describe, expect, it } from "vitest";
import { startMockServer, type MockServer } from "../src/index.ts";
import { get } from "./helpers.ts";

let mock: MockServer | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

const start = async () => {
  mock = await startMockServer({ dataset: { size: 50 } });
  expect((await get(mock.url, "domain=example.com", mock.token)).status).toBe(200);
  return mock;
};
const request = (server: MockServer, signal?: AbortSignal) =>
  fetch(`${server.url}/api/comments?domain=example.com`, {
    headers: { authorization: `Bearer ${server.token}`, accept: "application/json" },
    signal,
  });
const settle = (promise: Promise<unknown>) =>
  promise.then(
    () => "answered",
    (error: Error) => error,
  );

/** Reads until more than `length` characters arrived (then stops reading) or the body ended. */
async function readPast(response: Response, length: number): Promise<{ text: string; done: boolean }> {
  const reader = response.body!.getReader();
  let text = "";
  while (text.length <= length) {
    const next = await reader.read();
    if (next.done) return { text, done: true };
    text += Buffer.from(next.value).toString("latin1");
  }
  await reader.cancel();
  return { text, done: false };
}

describe("outage modes", () => {
  it("down: the connection is destroyed, the client sees a socket error", async () => {
    const server = await start();
    server.setOutage("down");
    const outcome = await settle(request(server));
    expect(outcome).toBeInstanceOf(TypeError);
    expect(String((outcome as Error).cause)).toMatch(/socket|ECONNRESET|closed/i);
  });

  it("hang: no response headers within a client's timeout", async () => {
    const server = await start();
    server.setOutage("hang");
    const outcome = await settle(request(server, AbortSignal.timeout(500)));
    expect((outcome as Error).name).toBe("TimeoutError");
  });

  it("trickle: headers at once, then a body that keeps arriving and never completes", async () => {
    const server = await start();
    server.setOutage("trickle");
    const response = await request(server);
    expect(response.status).toBe(200);
    // More than the opening arrives, and the body has not ended: bytes keep coming, so an idle
    // timeout alone never fires. A body that ended would say so; one that stalled fails the test's timeout.
    const { text, done } = await readPast(response, '{"data":['.length);
    expect(done).toBe(false);
    expect(text.startsWith('{"data":[')).toBe(true);
  });

  it("500: Laravel's server error body on every request", async () => {
    const server = await start();
    server.setOutage("500");
    for (let i = 0; i < 3; i++) {
      const response = await request(server);
      expect(response.status).toBe(500);
      expect(await response.text()).toBe('{\n    "message": "Server Error"\n}');
    }
  });

  it("off: normal service again, and admin routes keep working during an outage", async () => {
    const server = await start();
    server.setOutage("down");
    const switchedOff = await fetch(`${server.url}/__admin/outage`, {
      method: "POST",
      headers: { authorization: `Bearer ${server.token}` },
      body: JSON.stringify({ mode: "off" }),
    });
    expect(switchedOff.status).toBe(200);
    expect((await get(server.url, "domain=example.com", server.token)).status).toBe(200);
  });
});

describe("close() during an outage", () => {
  it.each(["hang", "trickle"] as const)("returns promptly while a request is stuck in %s", async (mode) => {
    const server = (mock = await startMockServer({ dataset: { size: 50 } }));
    server.setOutage(mode);
    let settled = false;
    const pending = settle(request(server).then((response) => response.text())).finally(() => (settled = true));
    // Wait until the server holds the request: it counted it (and, trickling, sent the opening).
    while (server.requestCount === 0) await new Promise((resolve) => setImmediate(resolve));
    // close() must not wait for the stuck request, which would never end on its own: it returns
    // (or the test times out) and ends the request with an error.
    await server.close();
    mock = undefined;
    expect(await pending).toBeInstanceOf(Error);
    expect(settled).toBe(true);
  });
});
