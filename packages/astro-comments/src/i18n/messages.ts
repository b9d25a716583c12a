// Every string a reader sees, per language, and the pure lookup that picks them for a page. The
// catalogs are plain data (templates with {placeholders}, plural forms keyed by Intl.PluralRules
// categories) so that user overrides can travel through the integration's options, which must
// serialise into a virtual module.

/** Words for a number, keyed by `Intl.PluralRules` category; `other` is required as the fallback. */
export type PluralForms = Partial<Record<Intl.LDMLPluralRule, string>> & { other: string };

export interface CommentMessages {
  /** Title of the comments section. */
  heading: string;
  /** Shown when a page has no comments. */
  emptyText: string;
  /** Accessible name of a comment's reply list. `{author}`: the comment's author. */
  replies: string;
  /** Accessible name of a comment's permalink. `{date}`: its visible date, `{author}`: the author. */
  permalink: string;
  /** `<CommentCount>`: `{count}` is the formatted number. */
  count: PluralForms;
  /** The stale notice; `{date}` becomes the date of the fetch shown. */
  staleAsOf: string;
  /** The stale notice when no fetch ever succeeded for this version of the page. */
  staleUnavailable: string;
  /** Accessible name of the navigation between a post's comment pages. */
  pages: string;
  /** Accessible name of the navigation between a long thread's pages. `{author}`: the thread's author. */
  threadPages: string;
  /** The navigation's links to the previous and the next page. */
  previous: string;
  next: string;
  /** A long thread's link to its own pages; `{count}` is the formatted number of replies not shown. */
  moreReplies: PluralForms;
  /** A comment page's title. `{path}`: the post's path, `{page}` and `{pages}`: numbers. */
  pageTitle: string;
  /** A long thread's page title: as pageTitle, and `{author}`, the thread's author. */
  threadTitle: string;
  /** A comment page's link back to the post. */
  backToPost: string;
}

/** What a site may override, per locale: any subset, plural forms replaced as a whole. */
export type CommentMessageOverrides = Partial<CommentMessages>;

const en: CommentMessages = {
  heading: "Comments",
  emptyText: "No comments yet.",
  replies: "Replies to {author}",
  permalink: "{date}, comment by {author}",
  count: { one: "{count} comment", other: "{count} comments" },
  staleAsOf: "Comments as of {date}.",
  staleUnavailable: "Comments could not be loaded for this version of the page.",
  pages: "Comment pages",
  threadPages: "Pages of replies to {author}",
  previous: "Previous",
  next: "Next",
  moreReplies: { one: "{count} more reply", other: "{count} more replies" },
  pageTitle: "Comments on {path} (page {page} of {pages})",
  threadTitle: "Replies to {author} on {path} (page {page} of {pages})",
  backToPost: "Back to the post",
};

const de: CommentMessages = {
  heading: "Kommentare",
  emptyText: "Noch keine Kommentare.",
  replies: "Antworten auf {author}",
  permalink: "{date}, Kommentar von {author}",
  count: { one: "{count} Kommentar", other: "{count} Kommentare" },
  staleAsOf: "Kommentare mit Stand vom {date}.",
  staleUnavailable: "Die Kommentare konnten für diese Version der Seite nicht geladen werden.",
  pages: "Kommentarseiten",
  threadPages: "Seiten der Antworten auf {author}",
  previous: "Zurück",
  next: "Weiter",
  moreReplies: { one: "{count} weitere Antwort", other: "{count} weitere Antworten" },
  pageTitle: "Kommentare zu {path} (Seite {page} von {pages})",
  threadTitle: "Antworten auf {author} zu {path} (Seite {page} von {pages})",
  backToPost: "Zurück zum Beitrag",
};

// French uses "one" for 0 and 1, and "many" for round millions ("1 000 000 de commentaires").
const fr: CommentMessages = {
  heading: "Commentaires",
  emptyText: "Aucun commentaire pour le moment.",
  replies: "Réponses à {author}",
  permalink: "{date}, commentaire de {author}",
  count: { one: "{count} commentaire", many: "{count} de commentaires", other: "{count} commentaires" },
  staleAsOf: "Commentaires au {date}.",
  staleUnavailable: "Les commentaires n’ont pas pu être chargés pour cette version de la page.",
  pages: "Pages de commentaires",
  threadPages: "Pages des réponses à {author}",
  previous: "Précédent",
  next: "Suivant",
  moreReplies: { one: "{count} autre réponse", many: "{count} d’autres réponses", other: "{count} autres réponses" },
  pageTitle: "Commentaires sur {path} (page {page} sur {pages})",
  threadTitle: "Réponses à {author} sur {path} (page {page} sur {pages})",
  backToPost: "Retour à l’article",
};

const es: CommentMessages = {
  heading: "Comentarios",
  emptyText: "Todavía no hay comentarios.",
  replies: "Respuestas a {author}",
  permalink: "{date}, comentario de {author}",
  count: { one: "{count} comentario", many: "{count} de comentarios", other: "{count} comentarios" },
  staleAsOf: "Comentarios a fecha de {date}.",
  staleUnavailable: "No se pudieron cargar los comentarios para esta versión de la página.",
  pages: "Páginas de comentarios",
  threadPages: "Páginas de respuestas a {author}",
  previous: "Anterior",
  next: "Siguiente",
  moreReplies: { one: "{count} respuesta más", many: "{count} de respuestas más", other: "{count} respuestas más" },
  pageTitle: "Comentarios en {path} (página {page} de {pages})",
  threadTitle: "Respuestas a {author} en {path} (página {page} de {pages})",
  backToPost: "Volver a la entrada",
};

/** The languages shipped, by primary language subtag. English is the fallback for every other. */
export const builtInMessages: Readonly<Record<string, CommentMessages>> = { en, de, fr, es };

/** "de-CH" → "de": catalogs are looked up by exact tag first, then by language. */
export function languageOf(locale: string): string {
  return locale.split(/[-_]/)[0]!.toLowerCase();
}

function lookup<T>(table: Readonly<Record<string, T>>, locale: string): T | undefined {
  return table[locale] ?? table[languageOf(locale)];
}

/**
 * The messages for a locale: the site's overrides for it (exact tag, then language) over the
 * built-in catalog of its language, over English.
 */
export function resolveMessages(
  locale: string,
  overrides: Readonly<Record<string, CommentMessageOverrides>> = {},
): CommentMessages {
  const base = lookup(builtInMessages, locale) ?? en;
  const language = overrides[languageOf(locale)];
  const exact = overrides[locale];
  return { ...base, ...language, ...(exact === language ? undefined : exact) };
}

// A template is split once: a page of a thousand comments fills the same two templates two
// thousand times. Templates come from the catalogs and the `messages` option, so the table stays small.
const templates = new Map<string, string[]>();

/** Fills `{name}` placeholders; unknown placeholders stay as written. */
export function fillTemplate(template: string, values: Readonly<Record<string, string>>): string {
  let parts = templates.get(template);
  if (parts === undefined) {
    // Odd indexes are placeholder names.
    parts = template.split(/\{(\w+)\}/);
    templates.set(template, parts);
  }
  let out = parts[0]!;
  for (let i = 1; i < parts.length; i += 2) out += `${values[parts[i]!] ?? `{${parts[i]}}`}${parts[i + 1]}`;
  return out;
}

// Building an Intl formatter costs some 30 µs (more than a thousand uses of one): one per locale.
const numberFormats = new Map<string, Intl.NumberFormat>();
const pluralRules = new Map<string, Intl.PluralRules>();

/** A number as the locale writes it: "1,234", "1.234", "1 234". */
export function formatNumber(value: number, locale: string): string {
  let format = numberFormats.get(locale);
  if (format === undefined) {
    format = new Intl.NumberFormat(locale);
    numberFormats.set(locale, format);
  }
  return format.format(value);
}

/** The Intl.PluralRules category of `count` in the locale. */
export function pluralCategory(count: number, locale: string): Intl.LDMLPluralRule {
  let rules = pluralRules.get(locale);
  if (rules === undefined) {
    rules = new Intl.PluralRules(locale);
    pluralRules.set(locale, rules);
  }
  return rules.select(count);
}

/** A count in words for the locale, e.g. "1 comment", "12 Kommentare", "1 000 000 de commentaires". */
export function formatCount(forms: PluralForms, count: number, locale: string): string {
  return fillTemplate(forms[pluralCategory(count, locale)] ?? forms.other, { count: formatNumber(count, locale) });
}
