// Which language a page's comments speak. Pure: the components pass Astro.currentLocale (set when
// the site uses Astro's i18n routing) and the integration's settings.
import type { ResolvedOptions } from "../integration/options.ts";
import { languageOf, resolveMessages, type CommentMessageOverrides, type CommentMessages } from "./messages.ts";

export interface LocaleSettings {
  /** The site's locale for dates: `dateFormat.locale`, else `i18n.defaultLocale`, else "en". */
  dateLocale: string;
  /** The `heading` and `emptyText` options: the site language's texts when changed from the English defaults. */
  heading: string;
  emptyText: string;
  /** The `messages` option. */
  messages: Readonly<Record<string, CommentMessageOverrides>>;
}

/** The locale settings the integration's options give: what the data API and the loader's lists both read. */
export function localeSettings(
  options: Pick<ResolvedOptions, "dateFormat" | "heading" | "emptyText" | "messages">,
): LocaleSettings {
  return {
    dateLocale: options.dateFormat.locale,
    heading: options.heading,
    emptyText: options.emptyText,
    messages: options.messages,
  };
}

export interface PageLocale {
  /** Locale for numbers and plural rules. */
  locale: string;
  /** Locale for dates: the site's own (which may name a region, "en-GB") on pages in the site's language. */
  dateLocale: string;
  messages: CommentMessages;
}

const english = resolveMessages("en");

/**
 * Astro accepts locale codes Intl does not ("pt_BR"); such a code is read as a BCP 47 tag, and one
 * that is not a tag at all leaves the page in the site's locale instead of failing the render.
 */
function canonical(locale: string | undefined): string | undefined {
  if (locale === undefined) return undefined;
  try {
    return Intl.getCanonicalLocales(locale.replace(/_/g, "-"))[0];
  } catch {
    return undefined;
  }
}

/**
 * A page's locale and texts. A page without a locale of its own (no i18n routing) or in the site's
 * language keeps the site's date locale, so `dateFormat: { locale: "en-GB" }` still shapes an "en"
 * page; a page in another language gets that language's dates and texts.
 */
export function pageLocale(currentLocale: string | undefined, settings: LocaleSettings): PageLocale {
  const locale = canonical(currentLocale) ?? settings.dateLocale;
  const siteLanguage = languageOf(settings.dateLocale);
  const inSiteLanguage = languageOf(locale) === siteLanguage;
  // The older `heading` and `emptyText` options predate `messages`; their schema defaults are the
  // English texts, so only a changed value is an override (and `messages` wins over it).
  const legacy: CommentMessageOverrides = {};
  if (settings.heading !== english.heading) legacy.heading = settings.heading;
  if (settings.emptyText !== english.emptyText) legacy.emptyText = settings.emptyText;
  const overrides = inSiteLanguage
    ? { ...settings.messages, [languageOf(locale)]: { ...legacy, ...settings.messages[languageOf(locale)] } }
    : settings.messages;
  return {
    locale,
    dateLocale: inSiteLanguage ? settings.dateLocale : locale,
    messages: resolveMessages(locale, overrides),
  };
}
