// undici's pooled client as the wire, for the build's crawl and the check (Node only): hundreds of
// requests over a few kept-alive connections, timeouts enforced by the pool as well. Never
// imported by the runtime modes: undici compiles its HTTP parser to WebAssembly on each connection,
// which workerd forbids, and it would add a megabyte to every server bundle.
import { runtimeLimits } from "../errors-data.ts";
import { WireUnavailable, type Transport } from "./transport.ts";

// Loaded when a crawl starts, not with the integration: a build that reuses a check's crawl, `astro
// sync` and `astro preview` send no request, and loading undici's 110 modules cost each of them about
// 50 ms (176 against 128 ms to import the integration, 2026-11-29).
let undici: Promise<typeof import("undici")> | undefined;

export const undiciTransport: Transport = ({ connections, timeoutMs }) => {
  const pool = (undici ??= import("undici")).then(({ Agent, request }) => ({
    request,
    agent: new Agent({ connections, headersTimeout: timeoutMs, bodyTimeout: timeoutMs }),
  }));
  // Also what keeps a wire that is never used from crashing the process when undici is missing.
  const settled = pool.then(
    () => undefined,
    () => undefined,
  );
  return {
    ready: () => settled,
    async get(url, headers, signal) {
      const { request, agent } = await pool.catch((error: unknown) => {
        // A broken install, not the network: no retry can help.
        throw new WireUnavailable(runtimeLimits.noUndici(error instanceof Error ? error.message : String(error)));
      });
      // undici's request follows no redirect unless told to.
      const response = await request(url, { dispatcher: agent, method: "GET", headers, signal });
      return { status: response.statusCode, headers: response.headers, body: response.body };
    },
    // destroy, not close: after a failed crawl nothing may keep a hung socket (and the build) alive.
    // A pool that never came up has nothing to close.
    close: () =>
      pool.then(
        ({ agent }) => agent.destroy(),
        () => undefined,
      ),
  };
};
