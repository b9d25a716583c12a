// How a page writes a comment's date and texts: the view comment-markup.ts renders with. Shared by
// the data API (pages) and the loader (each post's list, made once when its comments are stored).
// Pure: no I/O.
import { formatCount } from "../i18n/messages.ts";
import type { PageLocale } from "../i18n/page-locale.ts";
import type { ResolvedOptions } from "../integration/options.ts";
import type { CommentView } from "./comment-markup.ts";

export type DateFormat = ResolvedOptions["dateFormat"];

// Building an Intl.DateTimeFormat costs far more than formatting with one: once per locale and format.
const formatters = new Map<string, Intl.DateTimeFormat>();

/** The dateFormat option's formatter for a locale (the site's, `dateFormat.locale`, by default). */
export function dateFormatter(dateFormat: DateFormat, locale = dateFormat.locale): Intl.DateTimeFormat {
  const { timeZone, dateStyle, timeStyle } = dateFormat;
  const key = `${locale}\u0000${timeZone}\u0000${dateStyle}\u0000${timeStyle}`;
  let formatter = formatters.get(key);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat(locale, { timeZone, dateStyle, ...(timeStyle ? { timeStyle } : {}) });
    formatters.set(key, formatter);
  }
  return formatter;
}

/** The view of a page in `page`'s language: its dates per `dateFormat`, its texts. */
export function commentView(page: PageLocale, dateFormat: DateFormat): CommentView {
  const dates = dateFormatter(dateFormat, page.dateLocale);
  return {
    formatDate: (createdAt) => dates.format(new Date(createdAt)),
    messages: page.messages,
    moreReplies: (count) => formatCount(page.messages.moreReplies, count, page.locale),
  };
}
