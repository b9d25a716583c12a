// The integration's options, declared once with astro/zod: the TypeScript types users see come
// from this schema, and validation lists every problem in one readable error.
import { z } from "astro/zod";
import { checkCredentials, envNames, listNames, type Credentials } from "../api/credentials.ts";
import { crawlDefaults } from "../api/crawl-comments.ts";
import { configError } from "../errors.ts";
import { InvalidOptions, MissingCredentials, OptionsNotAnObject } from "../errors-data.ts";

export type { Credentials } from "../api/credentials.ts";

const intlStyle = z.enum(["full", "long", "medium", "short"]);

const dateFormatSchema = z
  .object({
    /**
     * BCP 47 locale for dates. Default: the site's `i18n.defaultLocale`, else "en".
     * @example "en-GB"
     */
    locale: z.string().optional(),
    /**
     * IANA time zone the dates are shown in. Default "UTC", so a build never depends on the
     * build machine's zone.
     * @example "Europe/Berlin"
     */
    timeZone: z.string().optional(),
    /** `Intl.DateTimeFormat` date style. Default "medium". */
    dateStyle: intlStyle.optional(),
    /**
     * `Intl.DateTimeFormat` time style, or `false` to show no time. Default "short".
     * @example false
     */
    timeStyle: z.union([intlStyle, z.literal(false)]).optional(),
  })
  .strict();

// A selector goes into a generated <style>: one rule's worth of text, nothing that could end it.
const cssSelector = z
  .string()
  .trim()
  .min(1)
  .regex(/^[^{}<>;]+$/, { message: "must be a CSS selector, without { } < > or ;" });

const pluralForms = z
  .object({ zero: z.string(), one: z.string(), two: z.string(), few: z.string(), many: z.string() })
  .partial()
  .extend({ other: z.string() })
  .strict();

const wholeNumber = (min: number, max: number) =>
  z
    .number()
    .int({ message: `must be a whole number from ${min} to ${max}` })
    .min(min, { message: `must be a whole number from ${min} to ${max}` })
    .max(max, { message: `must be a whole number from ${min} to ${max}` });

export const optionsSchema = z
  .object({
    /**
     * The site's domain exactly as configured in the comments account. Falls back to
     * `COMMENTS_DOMAIN`.
     * @example "example.com"
     */
    domain: z.string().optional(),
    /**
     * Base URL of the comments service (a URL ending in `/api/comments` works too). Falls back to
     * `COMMENTS_API_URL`.
     * @example "https://go.jamcomments.com"
     */
    apiUrl: z.string().optional(),
    /**
     * API token from the account's admin area. Falls back to `COMMENTS_API_TOKEN`. Never logged and
     * never written into the build output. Prefer the environment over writing it into a file.
     * @example process.env.MY_COMMENTS_TOKEN
     */
    apiToken: z.string().optional(),
    /**
     * Top-level comments asked for per request, 1–100. Default: 100, the most a validating Laravel
     * service accepts; a service that refuses it (422) is asked again for 50, or for the maximum
     * its error names, once, with one info line. Set it to skip that request. The crawl follows
     * the `per_page` the service reports.
     * @example 50
     */
    perPage: wholeNumber(1, 100).optional(),
    /**
     * Requests in flight at once after page 1 (1–32). The default is a courtesy to a hosted
     * service; 16 halves a large site's crawl.
     * @example 16
     */
    concurrency: wholeNumber(1, 32).default(crawlDefaults.concurrency),
    /**
     * Milliseconds one attempt may take, from sending the request to the last byte of the body.
     * @example 20000
     */
    timeout: wholeNumber(100, 120_000).default(crawlDefaults.timeout),
    /**
     * Retries of one request after network errors, timeouts and 5xx answers (0–10). With the
     * default 5, backoff spreads the attempts over about 10 to 20 seconds, enough to ride out a
     * restart of the service.
     * @example 2
     */
    retries: wholeNumber(0, 10).default(crawlDefaults.retries),
    /**
     * Milliseconds a failing request may keep trying in all (attempts and backoff) before the
     * fetch fails. A hung or trickling API ends within this. Waits for the service's rate limit
     * do not count here (see `rateLimitWait`).
     * @example 30000
     */
    giveUpAfter: wholeNumber(1_000, 600_000).default(crawlDefaults.giveUpAfter),
    /**
     * Milliseconds the whole crawl may spend waiting for the service's rate limit (default 10
     * minutes). A 429 pauses every request until its `Retry-After` has passed; a site that needs
     * more requests than the limit allows waits it out, with one info line per pause. A pause that
     * would overrun this budget fails the fetch at once, naming the pages the site needs and the
     * limit the service announced.
     * @example 1200000
     */
    rateLimitWait: wholeNumber(0, 3_600_000).default(crawlDefaults.rateLimitWait),
    /**
     * Minutes after `npx astro-comments check` during which `astro build` uses the crawl the check
     * left in the cache folder instead of crawling the service again (default 10; 0 never does),
     * so a scheduled build costs one crawl, not two. A crawl of another domain, API URL, token or
     * package version, or one cut short or damaged, is never used, and each serves one build. The
     * build then shows the comments as of the check's crawl; one approved in between is in the
     * next check's answer (docs/rebuild-on-change.md).
     * @example 0
     */
    reuseCheckMinutes: z
      .number()
      .min(0, { message: "must be from 0 to 60 minutes" })
      .max(60, { message: "must be from 0 to 60 minutes" })
      .default(10),
    /**
     * Responses larger than this many bytes fail the fetch instead of exhausting memory.
     * @example 104857600
     */
    maxResponseBytes: wholeNumber(1024, 2 ** 31).default(crawlDefaults.maxResponseBytes),
    /**
     * What a failed fetch does. `"last-good"` (default): build with the comments of the last
     * complete fetch and warn, failing only when there is none (see `allowEmpty`) or it is older
     * than `maxStaleHours`. `"fail"`: any failed fetch fails the build.
     * @example "fail"
     */
    onError: z.enum(["last-good", "fail"]).default("last-good"),
    /**
     * Oldest last-good comments a build may ship, in hours (default 168, one week).
     * @example 24
     */
    maxStaleHours: z.number().positive({ message: "must be a positive number of hours" }).default(168),
    /**
     * When the fetch fails and there is no earlier fetch to fall back on, build without comments
     * (and say so) instead of failing. Default false.
     * @example true
     */
    allowEmpty: z.boolean().default(false),
    /**
     * Show "Comments as of …" in `<Comments>` when the comments come from an earlier fetch
     * because the latest one failed. Default false.
     * @example true
     */
    staleNotice: z.boolean().default(false),
    /**
     * In `astro dev`, fetch again every this many seconds (0, the default, never polls; the
     * refresh endpoint works either way).
     * @example 60
     */
    devPollSeconds: z.number().min(0).default(0),
    /**
     * Order of top-level comments on a page. Replies are always oldest first.
     * @example "newest-first"
     */
    order: z.enum(["oldest-first", "newest-first"]).default("oldest-first"),
    /** How dates are shown. */
    dateFormat: dateFormatSchema.default({}),
    /**
     * Heading of the comments section.
     * @example "Discussion"
     */
    heading: z.string().default("Comments"),
    /**
     * Text shown when a page has no comments.
     * @example "Be the first to comment."
     */
    emptyText: z.string().default("No comments yet."),
    /**
     * Add the default stylesheet to every page: colours taken from the site's text colour, so it
     * fits light, dark and toggled themes alike (docs/styling.md). Default false.
     * @example true
     */
    injectStyles: z.boolean().default(false),
    /**
     * The `color-scheme` the comments section declares (scrollbars of wide code blocks, and
     * `light-dark()` in `--ac-*` values you set); the default colours follow the page without it.
     * `"auto"` (default): the page's own `color-scheme`, overridden by `data-theme="dark"`/`"light"`
     * or a `dark`/`light` class on `<html>`. `"media"`: as auto, and the reader's system setting
     * where no toggle says otherwise. `false`: declares nothing. `{ dark, light }`: your toggle's
     * selectors, matched on an ancestor of the section.
     * @example { dark: "body.mode-dark", light: "body.mode-light" }
     */
    darkMode: z
      .union([
        z.enum(["auto", "media"]),
        z.literal(false),
        z.object({ dark: cssSelector, light: cssSelector.optional() }).strict(),
      ])
      .default("auto"),
    /**
     * What search indexers such as Pagefind index of `<Comments>`. `"bodies"` (default): the
     * comment texts only; the heading, counts, names, dates, permalinks and "No comments yet." carry
     * `data-pagefind-ignore`. `"none"`: the whole section carries `data-pagefind-ignore="all"`.
     * @example "none"
     */
    searchIndex: z.enum(["bodies", "none"]).default("bodies"),
    /**
     * Texts per locale (a BCP 47 tag, or a language such as "de" for all of its regions), over the
     * built-in English, German, French and Spanish. Pages follow Astro's i18n routing
     * (`Astro.currentLocale`); without it, the site's locale is `dateFormat.locale`. `{author}`,
     * `{date}` and `{count}` are filled in; `count` takes `Intl.PluralRules` categories.
     * @example { de: { heading: "Leserkommentare" }, nl: { heading: "Reacties", emptyText: "Nog geen reacties.", count: { one: "{count} reactie", other: "{count} reacties" } } }
     */
    messages: z
      .record(
        z.string(),
        z
          .object({
            heading: z.string(),
            emptyText: z.string(),
            /** Accessible name of a reply list; `{author}` is the parent comment's author. */
            replies: z.string(),
            /** Accessible name of a comment's permalink; `{date}` is its visible date, `{author}` the author. */
            permalink: z.string(),
            /** `<CommentCount>`, by `Intl.PluralRules` category; `{count}` is the formatted number. */
            count: pluralForms,
            /** The stale notice; `{date}` is the date of the fetch shown. */
            staleAsOf: z.string(),
            staleUnavailable: z.string(),
            /** Accessible name of the navigation between comment pages. */
            pages: z.string(),
            /** Accessible name of a long thread's page navigation; `{author}` is the thread's author. */
            threadPages: z.string(),
            previous: z.string(),
            next: z.string(),
            /** A long thread's link to its own pages, by `Intl.PluralRules` category ("{count} more replies"). */
            moreReplies: pluralForms,
            /** A comment page's title; `{path}`, `{page}` and `{pages}` are filled in. */
            pageTitle: z.string(),
            /** A long thread's page title; as pageTitle, and `{author}`. */
            threadTitle: z.string(),
            backToPost: z.string(),
          })
          .partial()
          .strict(),
      )
      .default({}),
    /**
     * What `astro build` does with comments whose path no built page (and no on-demand route)
     * renders: a typo, a moved post. `"warn"` (default) lists them in one warning with the nearest
     * built path, `"fail"` fails the build after listing them, `"ignore"` says nothing.
     * @example "fail"
     */
    orphans: z.enum(["warn", "fail", "ignore"]).default("warn"),
    /**
     * Old URL → new URL: comments left on the old URL show on the new page, merged in order and
     * counted once. Any spelling of either path works; Astro's own `redirects` are honoured too
     * (except patterns with [params]), and an alias here wins over a redirect.
     * @example { "/blog/hello/": "/posts/hello-world/" }
     */
    aliases: z.record(z.string(), z.string()).default({}),
    /**
     * Comment pages: a post with more comments than a page holds (`size`, replies included, and
     * `size` × 12 elements of them) shows its first page and links to the rest, which the build
     * writes at `<route>/<post path>/page/2/`; a thread bigger than a page shows its first replies
     * and links to its own pages at `<route>/<post path>/thread/<comment id>/2/`
     * (docs/long-threads.md). `false`: every comment on the post, as before. Default
     * `{ size: 100, route: "/comments", movedLinks: false }`.
     * @example { size: 50 }
     */
    pages: z
      .union([
        z.literal(false),
        z
          .object({
            /**
             * Comments per page, replies included (10–1000, default 100). A page also holds at most
             * `size` × 12 elements of comments, so comments with code fill a page sooner: a post
             * with more comments, or heavier ones, is split.
             * @example 50
             */
            size: wholeNumber(10, 1000).default(100),
            /** Where the comment pages live, below the site's base (default "/comments"). */
            route: z
              .string()
              .regex(/^(\/[A-Za-z0-9._~-]+)+$/, {
                message: 'must be a path such as "/comments", without "/" at its end',
              })
              .default("/comments"),
            /**
             * Adds, beside the comments, an inline script (about 400 bytes) that takes a
             * `#comment-…` link whose comment has moved to another comment page there, through a
             * small JSON file per post that the build writes. Off by default: a site with a strict
             * Content-Security-Policy must allow it (docs/long-threads.md).
             * @example { movedLinks: true }
             */
            movedLinks: z.boolean().default(false),
            /**
             * The site's layout for comment pages, a path from the site's root: it gets the props
             * `title`, `lang` and `canonical`, and the comments in its default slot
             * (docs/long-threads.md). Default: a minimal page of the integration's own.
             * @example { layout: "./src/layouts/Base.astro" }
             */
            layout: z.string().min(1).optional(),
          })
          .strict(),
      ])
      .default({ size: 100, route: "/comments", movedLinks: false }),
    /**
     * Prerendered files about the comments, each added as a route when its path is given. `atom`:
     * an Atom feed of the site's latest `limit` comments (needs the site's `site` URL). `pageAtom`:
     * one Atom feed per page with comments, at a pattern holding `[...page]` (the page's path; the
     * home page's is "index"). `counts`: a JSON object of page key → comment count, for pages built
     * earlier or elsewhere. `state`: digests and counts of the comments the build shows (no text),
     * for `npx astro-comments check` to skip builds that would change nothing (docs/rebuild-on-change.md).
     * The feeds hold only comments that a built page shows; `counts` holds every page's.
     * @example { atom: "/comments.xml", pageAtom: "/comments/[...page].xml", limit: 50, counts: "/comments/counts.json", state: "/comments/state.json" }
     */
    feeds: z
      .object({
        atom: z.string().regex(/^\//, { message: 'must be a path starting with "/"' }).optional(),
        pageAtom: z
          .string()
          .regex(/^\/(.*\/)?\[\.\.\.page\]/, {
            message: 'must be a path starting with "/" with a "[...page]" segment, e.g. "/comments/[...page].xml"',
          })
          .optional(),
        /** Comments in the Atom feed, newest first (1–1000, default 50). */
        limit: wholeNumber(1, 1000).default(50),
        /** The feed's title. Default: "Comments on <site host>". */
        title: z.string().optional(),
        counts: z.string().regex(/^\//, { message: 'must be a path starting with "/"' }).optional(),
        /**
         * Where the build publishes the state of its comments, which `npx astro-comments check`
         * compares with the service to tell whether a new build would show anything new.
         * @example "/comments/state.json"
         */
        state: z.string().regex(/^\//, { message: 'must be a path starting with "/"' }).optional(),
      })
      .strict()
      .default({ limit: 50 }),
  })
  .strict();

/** What `comments()` accepts. */
export type CommentsOptions = z.input<typeof optionsSchema>;
export type CommentsDateFormat = z.input<typeof dateFormatSchema>;
type ParsedOptions = z.output<typeof optionsSchema>;
export type CommentOrder = ParsedOptions["order"];

interface DateFormat {
  locale: string;
  timeZone: string;
  dateStyle: z.output<typeof intlStyle>;
  timeStyle: z.output<typeof intlStyle> | false;
}

export interface ResolvedOptions extends Omit<ParsedOptions, "domain" | "apiUrl" | "apiToken" | "dateFormat"> {
  /** Undefined where the command fetches nothing and none was given (astro sync, check, preview). */
  credentials: Credentials | undefined;
  dateFormat: DateFormat;
}

/** What components receive: nothing secret, safe to serialise into the build. */
export type RenderSettings = Pick<
  ResolvedOptions,
  "order" | "dateFormat" | "heading" | "emptyText" | "darkMode" | "searchIndex"
>;

function describeIssue(issue: {
  path: ReadonlyArray<PropertyKey>;
  message: string;
  code: string;
  keys?: string[];
}): string {
  if (issue.code === "unrecognized_keys" && issue.keys) {
    const where = issue.path.length > 0 ? ` of "${issue.path.join(".")}"` : " of astro-comments";
    return issue.keys.map((key) => `"${key}" is not an option${where}`).join("; ");
  }
  return `"${issue.path.map(String).join(".")}" ${issue.message}`;
}

/**
 * Validates the options and completes them from the environment (COMMENTS_*). Throws one
 * CommentsConfigError listing every problem. With `requireCredentials: false` (commands that
 * fetch nothing) missing credentials are allowed; what is given is still checked.
 */
export function resolveOptions(
  user: unknown,
  env: Record<string, string | undefined>,
  context: { locale?: string | undefined; requireCredentials?: boolean } = {},
): ResolvedOptions {
  if (user === null || typeof user !== "object" || Array.isArray(user)) {
    throw configError(OptionsNotAnObject);
  }
  const parsed = optionsSchema.safeParse(user);
  const problems = parsed.success
    ? []
    : parsed.error.issues.map((issue) => describeIssue(issue as Parameters<typeof describeIssue>[0]));
  const options = parsed.success ? parsed.data : undefined;

  const pick = (key: keyof typeof envNames) => {
    const given = (user as Record<string, unknown>)[key];
    return (typeof given === "string" ? given : (env[envNames[key]] ?? "")).trim();
  };
  const values = { domain: pick("domain"), apiUrl: pick("apiUrl"), apiToken: pick("apiToken") };
  const missing = (Object.keys(values) as Array<keyof typeof values>).filter((key) => values[key] === "");
  let credentials: Credentials | undefined;
  if (missing.length === 0) credentials = checkCredentials(values, problems);
  else if (context.requireCredentials !== false) {
    throw configError(MissingCredentials, listNames(missing.map((key) => envNames[key])), missing.join(", "));
  }

  // Checked even when other options failed, so one error lists every problem.
  const rawDate = (user as { dateFormat?: unknown }).dateFormat;
  const date: CommentsDateFormat =
    options?.dateFormat ?? (rawDate !== null && typeof rawDate === "object" ? (rawDate as CommentsDateFormat) : {});
  const dateFormat: DateFormat = {
    locale: date.locale ?? context.locale ?? "en",
    timeZone: date.timeZone ?? "UTC",
    dateStyle: options?.dateFormat.dateStyle ?? "medium",
    timeStyle: options?.dateFormat.timeStyle ?? "short",
  };
  try {
    new Intl.DateTimeFormat(dateFormat.locale, { timeZone: dateFormat.timeZone });
  } catch (error) {
    problems.push(
      `"dateFormat" is not usable: ${(error as Error).message} (locale ${JSON.stringify(dateFormat.locale)}, timeZone ${JSON.stringify(dateFormat.timeZone)})`,
    );
  }

  if (problems.length > 0 || options === undefined) {
    throw configError(InvalidOptions, problems);
  }
  const { domain: _domain, apiUrl: _apiUrl, apiToken: _apiToken, ...rest } = options;
  return { ...rest, credentials, dateFormat };
}
