// Rate-limit windows that a slow machine cannot close early.
/**
 * A clock for the mock's rate limiter (`faults.rateLimit.now`, read once a request) that stands
 * still while the window has room and runs at real speed from the first request refused. A client
 * that waits Retry-After for real ends the window; a busy machine slow to send the first requests
 * cannot, so a test that expects a pause always gets one.
 */
export function windowsEndOnlyWhenFull(limit: number, windowMs: number): () => number {
  let virtualMs = 0;
  let endsAt = Number.NEGATIVE_INFINITY;
  let hits = 0;
  let runningSince: number | undefined;
  return () => {
    const real = performance.now();
    if (runningSince !== undefined) {
      virtualMs += real - runningSince;
      runningSince = real;
    }
    if (endsAt <= virtualMs) {
      endsAt = virtualMs + windowMs;
      hits = 0;
      runningSince = undefined;
    }
    if (++hits > limit) runningSince ??= real;
    return virtualMs;
  };
}
