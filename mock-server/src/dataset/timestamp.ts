// created_at as the service writes it: Carbon's toJSON(), UTC with six fractional digits and a Z.

export function serviceTimestamp(epochMs: number, micros: number): string {
  return `${new Date(epochMs).toISOString().slice(0, 19)}.${String(micros).padStart(6, "0")}Z`;
}

/** True when the text is exactly what serviceTimestamp writes for a real instant (no Feb 30). */
export function isServiceTimestamp(text: string): boolean {
  const match = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})\.(\d{6})Z$/.exec(text);
  if (!match) return false;
  const epochMs = Date.parse(`${match[1]}Z`);
  return !Number.isNaN(epochMs) && serviceTimestamp(epochMs, Number(match[2])) === text;
}

/** This instant as the service stores it; Eloquent's default columns keep whole seconds only. */
export function currentTimestamp(wholeSeconds: boolean, nowMs = Date.now()): string {
  return serviceTimestamp(nowMs, wholeSeconds ? 0 : (nowMs % 1000) * 1000);
}
