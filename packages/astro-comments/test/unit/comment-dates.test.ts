// A comment's date as a page shows it: a run of dates in one quarter hour (no time shown) or minute
// ("short" time) is formatted once. Every text reused must be what Intl gives for that very
// instant, in zones a quarter hour off UTC, across midnights and DST changes, before 1973 too.
import { describe, expect, it } from "vitest";
import { resolveOptions } from "../../src/integration/options.ts";
import { dateFormatter } from "../../src/render/comment-view.ts";

const dateFormat = (user: Record<string, unknown>) =>
  resolveOptions({ dateFormat: user }, {}, { requireCredentials: false }).dateFormat;

/** A small seeded generator (mulberry32), so the instants are the same on every run. */
function seeded(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

// Local midnights and DST changes, each with the seconds around it: where a window that does not
// start on a local boundary would show the day or the minute before.
const edges = [
  "2026-03-29T00:59:59Z", // Europe/Berlin springs forward at 01:00 UTC
  "2026-10-25T00:59:59Z", // and falls back
  "2026-06-14T18:14:59Z", // midnight in Asia/Kathmandu (+05:45)
  "2026-06-14T15:14:59Z", // midnight in Australia/Eucla (+08:45)
  "2026-06-14T02:29:59Z", // midnight in America/St_Johns (−02:30 in summer)
  "2026-06-14T11:14:59Z", // midnight in Pacific/Chatham (+12:45 in winter)
  "1971-06-14T00:44:29Z", // midnight in Africa/Monrovia, then −00:44:30
].flatMap((edge) => [-61_000, -1_000, 0, 1_000, 2_000, 59_000, 61_000].map((ms) => Date.parse(edge) + ms));

const random = seeded(40);
const spread = Array.from({ length: 2_000 }, () => Date.UTC(1965, 0, 1) + random() * 70 * 365.25 * 86_400_000);
// As the API writes them: microseconds, UTC; seconds apart within one thread.
const instants = [...edges, ...spread.flatMap((time) => [time, time + 1_000, time + 7_000])].map(
  (time) => `${new Date(time).toISOString().slice(0, -1)}${String(Math.floor(random() * 1000)).padStart(3, "0")}Z`,
);

describe("dates as pages show them", () => {
  const zones = [
    "UTC",
    "Europe/Berlin",
    "Asia/Kathmandu",
    "Australia/Eucla",
    "America/St_Johns",
    "Pacific/Chatham",
    "Africa/Monrovia",
  ];
  for (const timeStyle of [false, "short", "medium"] as const) {
    it(`match Intl for every instant, time style ${timeStyle}, in zones a quarter hour off UTC`, () => {
      for (const timeZone of zones) {
        const format = dateFormat({ timeZone, timeStyle, locale: "en-GB" });
        const formatted = dateFormatter(format);
        const intl = new Intl.DateTimeFormat("en-GB", {
          timeZone,
          dateStyle: "medium",
          ...(timeStyle ? { timeStyle } : {}),
        });
        // Forwards, then backwards: a remembered text is reused in both directions.
        for (const createdAt of [...instants, ...[...instants].reverse()]) {
          expect(formatted(createdAt), `${createdAt} in ${timeZone}`).toBe(intl.format(new Date(createdAt)));
        }
      }
    });
  }

  it("an unreadable date fails as Intl does, not with a remembered text", () => {
    const formatted = dateFormatter(dateFormat({ timeStyle: false }));
    formatted("2026-01-01T00:00:00.000000Z");
    expect(() => formatted("not a date")).toThrow(RangeError);
  });
});
