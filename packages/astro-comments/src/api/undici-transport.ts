// undici's pooled client as the wire, for the build's crawl and the check (Node only): hundreds of
// requests over a few kept-alive connections, timeouts enforced by the pool as well. Never
// imported by the runtime modes: undici compiles its HTTP parser to WebAssembly on each connection,
// which workerd forbids, and it would add a megabyte to every server bundle.
import { Agent, request } from "undici";
import type { Transport } from "./transport.ts";

export const undiciTransport: Transport = ({ connections, timeoutMs }) => {
  const agent = new Agent({ connections, headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
  return {
    async get(url, headers, signal) {
      // undici's request follows no redirect unless told to.
      const response = await request(url, { dispatcher: agent, method: "GET", headers, signal });
      return { status: response.statusCode, headers: response.headers, body: response.body };
    },
    // destroy, not close: after a failed crawl nothing may keep a hung socket (and the build) alive.
    close: () => agent.destroy(),
  };
};
