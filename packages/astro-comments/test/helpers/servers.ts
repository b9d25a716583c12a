import { createServer, type RequestListener } from "node:http";
import type { AddressInfo } from "node:net";

/** A throwaway HTTP server on 127.0.0.1 and a free port; close() also drops open connections. */
export async function serve(handler: RequestListener): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Records backoff waits instead of sleeping: deterministic and instant. `now` is a clock that the
 * recorded waits move forward, so a request's time budget runs out as if they had been slept.
 */
export function recordingSleep() {
  const waits: number[] = [];
  let waited = 0;
  return {
    waits,
    sleep: async (ms: number) => {
      waits.push(ms);
      waited += ms;
    },
    now: () => performance.now() + waited,
  };
}

/**
 * One virtual clock for a mock's rate-limit windows (`faults.rateLimit.now`) and a client's waits: a
 * window closes when the client waits it out, never because the machine is slow (on a busy machine a
 * real 1 s window closed before the limit was reached, and nothing paused). Concurrent sleeps end at
 * their own times, so the clock moves to the latest of them, not their sum.
 */
export function virtualClock() {
  let virtualMs = 0;
  return {
    now: () => virtualMs,
    sleep: async (ms: number) => {
      const until = virtualMs + ms;
      await Promise.resolve();
      virtualMs = Math.max(virtualMs, until);
    },
  };
}
