import diagnostics from "node:diagnostics_channel";
import { vi } from "vitest";

/**
 * A deadline that can run out only after the response headers are in, however slow the machine:
 * the global setTimeout (which the client's attempt deadline and undici's own timeouts under 1 s
 * use) is faked, and each time headers from `origin` reach undici, `ms` of that time passes. So a
 * test of a body that trickles past the deadline never sees "no response headers" instead.
 * `restore()` gives the real timers back.
 */
export function deadlineAfterHeaders(origin: string, ms: number): { restore: () => void } {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
  const onHeaders = (message: unknown) => {
    if ((message as { request: { origin: string } }).request.origin !== origin) return;
    // The channel speaks before undici hands the response over: the client takes it first, then the
    // time passes. setImmediate is not faked.
    setImmediate(() => vi.advanceTimersByTime(ms));
  };
  diagnostics.subscribe("undici:request:headers", onHeaders);
  return {
    restore() {
      diagnostics.unsubscribe("undici:request:headers", onHeaders);
      vi.useRealTimers();
    },
  };
}
