// How a page writes a comment's date and texts: the view comment-markup.ts renders with. Shared by
// the data API (pages) and the loader (each post's list, made once when its comments are stored).
// Pure: no I/O.
import { formatCount } from "../i18n/messages.ts";
import type { PageLocale } from "../i18n/page-locale.ts";
import type { ResolvedOptions } from "../integration/options.ts";
import type { CommentView, DateFormatter } from "./comment-markup.ts";

export type DateFormat = ResolvedOptions["dateFormat"];

// Building an Intl.DateTimeFormat costs far more than formatting with one: once per locale and format.
const formatters = new Map<string, DateFormatter>();

// From 1973 on, every time zone is a whole number of quarter hours from UTC (Liberia's −0:44:30
// ended in 1972), so a local day starts on a UTC quarter hour and a local minute on a UTC minute.
const ALIGNED_SINCE = Date.UTC(1973, 0, 1);
const QUARTER_HOUR_MS = 900_000;
const MINUTE_MS = 60_000;

/**
 * The dateFormat option's formatter for a locale (the site's, `dateFormat.locale`, by default).
 * Formatting takes 2 to 4 µs a date, half a second for a thread of 200,000 replies, and replies
 * come seconds apart, in date order; a date shown without a time, or to the minute, is the same
 * text for every comment of its quarter hour or minute, so a run of them is formatted once.
 */
export function dateFormatter(dateFormat: DateFormat, locale = dateFormat.locale): DateFormatter {
  const { timeZone, dateStyle, timeStyle } = dateFormat;
  const key = `${locale}\u0000${timeZone}\u0000${dateStyle}\u0000${timeStyle}`;
  let text = formatters.get(key);
  if (!text) {
    const intl = new Intl.DateTimeFormat(locale, { timeZone, dateStyle, ...(timeStyle ? { timeStyle } : {}) });
    // "short" is the only time style without seconds.
    const sameTextFor = timeStyle === false ? QUARTER_HOUR_MS : timeStyle === "short" ? MINUTE_MS : undefined;
    let lastSlot = Number.NaN;
    let lastText = "";
    text = (createdAt) => {
      const date = new Date(createdAt);
      const time = date.getTime();
      if (sameTextFor === undefined || !(time >= ALIGNED_SINCE)) return intl.format(date);
      const slot = Math.floor(time / sameTextFor);
      if (slot !== lastSlot) {
        lastText = intl.format(date);
        lastSlot = slot;
      }
      return lastText;
    };
    formatters.set(key, text);
  }
  return text;
}

/** The view of a page in `page`'s language: its dates per `dateFormat`, its texts. */
export function commentView(page: PageLocale, dateFormat: DateFormat): CommentView {
  return {
    formatDate: dateFormatter(dateFormat, page.dateLocale),
    messages: page.messages,
    moreReplies: (count) => formatCount(page.messages.moreReplies, count, page.locale),
  };
}
