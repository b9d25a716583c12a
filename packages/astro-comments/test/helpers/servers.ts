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
