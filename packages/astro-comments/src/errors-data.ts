// Every error astro-comments raises, in one place to read them all, in the shape of Astro's
// core/errors/errors-data.ts: a name, a title, the message (a string, or a function of what
// varies) and our own hint. Throw sites build their errors from these entries and keep no wording
// of their own. No Astro import and no I/O: the API client (api/) uses it in plain Node bins too.
// One error is not here: utils/node-version.ts keeps its own message, because it runs before
// anything else in the integration and the check, and imports nothing.
//
// Config entries' messages are the whole first line a user reads, "astro-comments: " included.
// API entries are worded in parts that CommentsApiError puts together as
// "astro-comments: <message> (<url>, HTTP <status>). <action>", with the hint of their failure kind.
// What the service said reaches these builders already redacted and quoted (api/refusals.ts).

/** An error of the package. Unlike Astro's, a hint never varies: it says where to look, not what went wrong. */
export interface ErrorData {
  name: string;
  title: string;
  message: string | ((...params: never[]) => string);
  hint?: string;
}

/** A request or crawl that failed for good: a CommentsApiError. Its hint is its failure kind's, in `apiFailureHints`. */
export interface ApiErrorData {
  name: string;
  title: string;
  failure: CommentsApiFailure;
  message: string | ((params: never) => string);
  /** What to do about it: the message's last sentence, and CommentsApiError's `action`. */
  action: string | ((params: never) => string);
}

// ---------------------------------------------------------------------------------------------
// Setup and options: CommentsConfigError, raised before any request (or while writing modules).
// ---------------------------------------------------------------------------------------------

/** `comments()` was given something other than an options object. */
export const OptionsNotAnObject = {
  name: "OptionsNotAnObject",
  title: "The options are not an object.",
  message: 'astro-comments: comments() takes an options object, e.g. comments({ domain: "example.com" }).',
  hint: "Every option is optional; comments() alone reads the COMMENTS_* variables.",
} satisfies ErrorData;

/** A command that fetches found no domain, API URL or token, neither in the options nor in COMMENTS_*. */
export const MissingCredentials = {
  name: "MissingCredentials",
  title: "Where to fetch comments from is not set.",
  /** `variables`: "COMMENTS_DOMAIN and COMMENTS_API_TOKEN"; `options`: "domain, apiToken". */
  message: (variables: string, options: string) =>
    `astro-comments: set ${variables} (in the environment or .env), or pass ${options} to comments({ … }) in astro.config.`,
  hint: "Without them there is nowhere to fetch comments from. For local development, `npx comments-mock` (package @astro-comments/mock-server) serves a mock API and prints the values to use: https://github.com/astro-comments/astro-comments/blob/main/docs/mock-and-ci.md#work-offline-against-your-own-domain",
} satisfies ErrorData;

/** One or more options are wrong: every problem, in one error. */
export const InvalidOptions = {
  name: "InvalidOptions",
  title: "Invalid options.",
  message: (problems: readonly string[]) => `astro-comments: invalid options: ${problems.join("; ")}.`,
  hint: "See the options table in the astro-comments README.",
} satisfies ErrorData;

/** The integration is in astro.config, but no content collection uses commentsLoader(). */
export const MissingCollection = {
  name: "MissingCollection",
  title: "No collection uses commentsLoader().",
  message:
    "astro-comments: no collection uses commentsLoader(); add it to src/content.config.ts (the file that exports `collections`).",
  hint: 'Add these lines to src/content.config.ts:\n  import { defineCollection } from "astro:content";\n  import { commentsLoader } from "astro-comments/loader";\n  export const collections = { comments: defineCollection({ loader: commentsLoader() }) };\n(keep your other collections in the same object).',
} satisfies ErrorData;

/** commentsLoader() runs in a site whose astro.config has no comments() integration. */
export const LoaderWithoutIntegration = {
  name: "LoaderWithoutIntegration",
  title: "commentsLoader() found no comments() integration.",
  message:
    "astro-comments: commentsLoader() found no comments() integration; add it to the integrations in astro.config.",
  hint: 'import comments from "astro-comments"; then integrations: [comments()] in astro.config.mjs. The loader takes its settings from there.',
} satisfies ErrorData;

/** With `orphans: "fail"`, a build left comments that no built page shows (`report` lists them). */
export const OrphanComments = {
  name: "OrphanComments",
  title: "Comments no page shows.",
  message: (report: string) => `astro-comments: ${report}`,
  hint: 'The pages are written; set orphans: "warn" to let such builds pass.',
} satisfies ErrorData;

/** An Atom feed is configured but astro.config has no `site` to make its links absolute. */
export const FeedNeedsSite = {
  name: "FeedNeedsSite",
  title: "The Atom feed needs the site's URL.",
  /** `feeds`: which feeds, e.g. `feeds.atom "/comments.xml"`. */
  message: (feeds: string) =>
    `astro-comments: the Atom feed (${feeds}) needs the site's URL; set \`site\` in astro.config, or remove the feed.`,
  hint: 'Feed readers need absolute links, e.g. defineConfig({ site: "https://example.com", … }).',
} satisfies ErrorData;

/** `<CommentsIsland cache={…}>` holds a value that is not a whole number of seconds, 0 or more. */
export const IslandCacheInvalid = {
  name: "IslandCacheInvalid",
  title: "Invalid island cache settings.",
  /** `settings`: each bad one with its value, e.g. "maxAge (-1)". */
  message: (settings: string) =>
    `astro-comments: <CommentsIsland cache={…}> needs whole numbers of seconds, 0 or more: ${settings}.`,
  hint: "For example cache={{ maxAge: 60, staleWhileRevalidate: 600 }}.",
} satisfies ErrorData;

/** Windows: the cacheDir is on another drive than the project, so content modules have no relative path. */
export const CacheDirOnOtherDrive = {
  name: "CacheDirOnOtherDrive",
  title: "The cacheDir is on another drive.",
  message: (cacheDir: string, root: string) =>
    `astro-comments: the cacheDir (${cacheDir}) is on another drive than the project (${root}); set cacheDir in astro.config to a folder on the project's drive.`,
  hint: "The comments are content modules in the cacheDir, and Astro finds content modules by a path relative to the project.",
} satisfies ErrorData;

/** pages.layout names no file. */
export const LayoutNotFound = {
  name: "LayoutNotFound",
  title: "The comment pages' layout was not found.",
  message: (layout: string, path: string) =>
    `astro-comments: pages.layout "${layout}" is not a file (looked for ${path}); give a path from the site's root, such as "./src/layouts/Base.astro", or leave layout out for the integration's own page.`,
  hint: "Comment pages render inside this component, with their title as a prop and the comments in its default slot.",
} satisfies ErrorData;

/** Writing a comments module into the cacheDir failed (a read-only folder, a full disk). */
export const ModulesNotWritable = {
  name: "ModulesNotWritable",
  title: "The comments modules could not be written.",
  message: (dir: string, reason: string) =>
    `astro-comments: could not write the comments to ${dir}: ${reason}. Check that the folder is writable and the disk has space.`,
  hint: "The comments are kept as modules in Astro's cacheDir (astro.config cacheDir, default node_modules/.astro).",
} satisfies ErrorData;

/** The build must write the comments into the cacheDir and cannot (a read-only mount, a folder of another user). */
export const CacheNotWritable = {
  name: "CacheNotWritable",
  title: "The cache folder cannot be written.",
  message: (dir: string, code: string) =>
    `astro-comments: cannot write to the cache folder ${dir} (${code}), where this build must save the comments; make it writable by the user running the build, or set cacheDir in astro.config to a folder that is.`,
  hint: "The comments are kept as modules in Astro's cacheDir (default node_modules/.astro). A CI cache restored read-only or owned by another user cannot take them: https://github.com/astro-comments/astro-comments/blob/main/docs/outages.md#the-cache-folder-on-ci",
} satisfies ErrorData;

// ---------------------------------------------------------------------------------------------
// Render time and the runtime: plain Errors (CommentsConfigError would pull Astro into them).
// ---------------------------------------------------------------------------------------------

/** A page's comments module failed to load, or its saved comments changed on disk after the sync. */
export const CommentsNotLoaded = {
  name: "CommentsNotLoaded",
  title: "A page's comments could not be loaded.",
  /** `module`: the entry's module file, or "its content module". */
  message: (page: string, module: string) =>
    `astro-comments: the comments of ${page} could not be loaded from ${module} (the module failed to load, and Astro logged why above, or its saved comments changed on disk since the sync checked them). Build again; if it persists, delete Astro's cacheDir (node_modules/.astro unless set) so the comments are fetched anew.`,
  hint: "Each page's comments live in a generated module in the cacheDir, named in its content entry.",
} satisfies ErrorData;

/** A body was rendered before the PrismJS grammar of one of its fences was loaded (a bug of ours). */
export const GrammarNotLoaded = {
  name: "GrammarNotLoaded",
  title: "A PrismJS grammar is not loaded.",
  message: (grammar: string) =>
    `astro-comments: the PrismJS grammar "${grammar}" is not loaded; await loadLanguagesOf(bodies) before rendering them.`,
} satisfies ErrorData;

// ---------------------------------------------------------------------------------------------
// Tools that read only the environment (the check, the mock's record and verify): plain Errors,
// whose message the tool puts into its own line.
// ---------------------------------------------------------------------------------------------

/** COMMENTS_DOMAIN, COMMENTS_API_URL or COMMENTS_API_TOKEN is missing. */
export const EnvCredentialsMissing = {
  name: "EnvCredentialsMissing",
  title: "Credentials missing from the environment.",
  message: (variables: string) => `set ${variables} (in the environment or .env)`,
} satisfies ErrorData;

/** A COMMENTS_* variable holds a value that cannot be used: every problem, by variable. */
export const EnvCredentialsInvalid = {
  name: "EnvCredentialsInvalid",
  title: "Invalid credentials in the environment.",
  message: (problems: readonly string[]) => problems.join("; "),
} satisfies ErrorData;

/** `astro-comments check`: a numeric flag out of its range. */
export const CheckFlagNotWholeNumber = {
  name: "CheckFlagNotWholeNumber",
  title: "A flag of the check is not a whole number in range.",
  message: (flag: string, min: number, max: number, given: string) =>
    `--${flag} must be a whole number from ${min} to ${max}, not "${given}"`,
} satisfies ErrorData;

/** `astro-comments check`: neither --state nor COMMENTS_STATE_URL says where the deployed state is. */
export const CheckStateMissing = {
  name: "CheckStateMissing",
  title: "The check does not know where the deployed state is.",
  message: (variable: string) =>
    `set ${variable} (in the environment or .env) or pass --state, the URL of the deployed build's feeds.state`,
} satisfies ErrorData;

// ---------------------------------------------------------------------------------------------
// The deployed state (`astro-comments check`): StateUnusable, whose message the check prints
// after "cannot tell whether the comments changed: ", and then builds. No hint: the advice is
// always to build.
// ---------------------------------------------------------------------------------------------

/** How fetching the deployed state failed: a timeout, or what the network said. */
type StateFetchFailure = { timedOutAfterMs: number } | { reason: string };

/** --state or COMMENTS_STATE_URL starts like a URL but is none. */
export const StateUrlInvalid = {
  name: "StateUrlInvalid",
  title: "The deployed state's URL is not a URL.",
  message: (location: string) => `the deployed state's URL "${location}" is not a URL`,
} satisfies ErrorData;

/** The deployed state's URL gave no answer (DNS, refused, timeout). */
export const StateUnreachable = {
  name: "StateUnreachable",
  title: "The deployed state could not be fetched.",
  message: (where: string, failure: StateFetchFailure) =>
    `could not fetch the deployed state from ${where} (${"reason" in failure ? failure.reason : `no answer within ${failure.timedOutAfterMs / 1000} s`})`,
} satisfies ErrorData;

/** The deployed state's URL answered 404: a first deploy, or a build without feeds.state. */
export const StateNotFound = {
  name: "StateNotFound",
  title: "There is no deployed state.",
  message: (where: string) =>
    `there is no deployed state at ${where} (HTTP 404): a first deploy, or a build without feeds.state`,
} satisfies ErrorData;

/** The deployed state's URL answered another error status. */
export const StateHttpError = {
  name: "StateHttpError",
  title: "The deployed state's URL answered an error.",
  message: (where: string, status: number) => `the deployed state at ${where} answered HTTP ${status}`,
} satisfies ErrorData;

/** The answer grew past any real state's size (a wrong URL's answer). */
export const StateTooLarge = {
  name: "StateTooLarge",
  title: "The deployed state is too large to be one.",
  message: (where: string, maxBytes: number) =>
    `the deployed state at ${where} is over ${maxBytes / 1024 / 1024} MiB, so it is not one`,
} satisfies ErrorData;

/** The deployed state's body broke off, or did not arrive in time. */
export const StateDownloadBroken = {
  name: "StateDownloadBroken",
  title: "The deployed state broke off while downloading.",
  message: (where: string, failure: StateFetchFailure) =>
    `the deployed state at ${where} broke off while downloading (${"reason" in failure ? failure.reason : `not complete within ${failure.timedOutAfterMs / 1000} s`})`,
} satisfies ErrorData;

/** --state names a file that does not exist. */
export const StateFileMissing = {
  name: "StateFileMissing",
  title: "There is no deployed state file.",
  message: (path: string) => `there is no deployed state at ${path} (no such file)`,
} satisfies ErrorData;

/** --state names a file that cannot be read. */
export const StateFileUnreadable = {
  name: "StateFileUnreadable",
  title: "The deployed state file cannot be read.",
  message: (path: string, reason: string) => `could not read the deployed state at ${path} (${reason})`,
} satisfies ErrorData;

/** The deployed state is not JSON. */
export const StateNotJson = {
  name: "StateNotJson",
  title: "The deployed state is not JSON.",
  message: (where: string) => `the deployed state at ${where} is not JSON`,
} satisfies ErrorData;

/** The JSON at the state's location is not an astro-comments state. */
export const NotAState = {
  name: "NotAState",
  title: "No astro-comments state.",
  message: (where: string) => `${where} holds no astro-comments state`,
} satisfies ErrorData;

/** The deployed state was written by a version of astro-comments with another state format. */
export const StateFormatOther = {
  name: "StateFormatOther",
  title: "The deployed state has another format.",
  message: (where: string, format: unknown, readable: number) =>
    `the deployed state at ${where} has format ${JSON.stringify(format)}, and this astro-comments reads format ${readable} (the site was built with another version)`,
} satisfies ErrorData;

/** The deployed state names no domain. */
export const StateWithoutDomain = {
  name: "StateWithoutDomain",
  title: "The deployed state names no domain.",
  message: (where: string) => `the deployed state at ${where} names no domain`,
} satisfies ErrorData;

/** A complete deployed state lacks a field, or holds a malformed one. */
export const StateDamaged = {
  name: "StateDamaged",
  title: "The deployed state is damaged.",
  message: (where: string) => `the deployed state at ${where} is damaged (a field is missing or malformed)`,
} satisfies ErrorData;

/** The deployed state is of another domain than the one the check crawls. */
export const StateOfOtherDomain = {
  name: "StateOfOtherDomain",
  title: "The deployed state is of another domain.",
  message: (where: string, stateDomain: string, domain: string) =>
    `the deployed state at ${where} is of ${stateDomain}, not ${domain}`,
} satisfies ErrorData;

/** The deployed build's own fetch failed and it showed an earlier fetch's comments (`asOf`: when, if known). */
export const StateFromEarlierFetch = {
  name: "StateFromEarlierFetch",
  title: "The deployed build showed an earlier fetch's comments.",
  message: (asOf: string | undefined) =>
    `the deployed build showed an earlier fetch's comments${asOf ? ` (as of ${asOf})` : ""} because its own fetch failed, so it may lack approved comments`,
} satisfies ErrorData;

// ---------------------------------------------------------------------------------------------
// The comments API: CommentsApiError, after any retries.
// ---------------------------------------------------------------------------------------------

/**
 * Our own hint for each failure kind, so Astro never adds a generic one of its own. The kinds are
 * what callers branch on (`error.failure`).
 */
export const apiFailureHints = {
  unauthorized:
    "The token is read from COMMENTS_API_TOKEN or the apiToken option; it is sent only in the Authorization header and never printed.",
  forbidden: "The domain is read from COMMENTS_DOMAIN or the domain option and must match the account's site exactly.",
  "invalid-request": "The service validated the request and refused it; the message quotes what it said.",
  redirected:
    "The API token travels with every request, so a redirect is never followed: the client only talks to the address you configured.",
  "not-found": "The endpoint is COMMENTS_API_URL (or apiUrl) followed by /api/comments.",
  "rate-limited":
    "Waits for the service's rate limit count against the rateLimitWait option (default 10 minutes), not against giveUpAfter.",
  "server-error": 'With onError: "last-good" (the default), a build keeps the comments of its last complete fetch.',
  network: 'With onError: "last-good" (the default), a build keeps the comments of its last complete fetch.',
  timeout: "The timeout option bounds one attempt; giveUpAfter bounds all attempts of one request.",
  "too-large": "maxResponseBytes guards memory; perPage sets how many comments one response holds.",
  malformed: "Nothing was rendered from this response; the last good comments are kept where possible.",
  contract:
    "The contract is the JSON Schema in @astro-comments/schema; fields it does not know are tolerated, changed ones are not.",
  drift: "The crawl starts over when the total or the paging changes under it; it gives up after three crawls.",
  runtime:
    "The live loader and the server island send with the platform's standard fetch(), tested on Node and on Cloudflare Workers; the build's crawl sends with undici and runs on Node.",
} as const satisfies Record<string, string>;

export type CommentsApiFailure = keyof typeof apiFailureHints;

/** Who waits for the answer: a build, or a reader of an on-demand page. Words the advice. */
export type Audience = "build" | "request" | undefined;

const again = (audience: Audience) => (audience === "request" ? "try again later" : "build again later");

/** A duration as messages show it: "2.5 s". */
export const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;

/** "3 attempts over 12.5 s". */
const spent = (attempts: number, elapsedMs: number) =>
  `${attempts} attempt${attempts === 1 ? "" : "s"} over ${seconds(elapsedMs)}`;

/** The service answered 401: the token is wrong or revoked. */
export const TokenRejected = {
  name: "TokenRejected",
  title: "The API token was rejected.",
  failure: "unauthorized",
  message: "the comments API rejected the API token",
  action:
    "Check COMMENTS_API_TOKEN (or the apiToken option): it must be a current token from your comments account's admin area.",
} satisfies ApiErrorData;

/** The service answered 403: the token may not read this domain's comments. */
export const DomainForbidden = {
  name: "DomainForbidden",
  title: "The token may not read this domain.",
  failure: "forbidden",
  message: ({ domain }: { domain: string }) => `the API token may not read comments of "${domain}"`,
  action:
    "Check COMMENTS_DOMAIN (or the domain option): it must be the site's domain exactly as configured in your comments account, and the token must belong to that account.",
} satisfies ApiErrorData;

/** The service answered 404: COMMENTS_API_URL does not lead to the API. */
export const EndpointNotFound = {
  name: "EndpointNotFound",
  title: "The API endpoint was not found.",
  failure: "not-found",
  message: "the comments API endpoint was not found",
  action:
    "Check COMMENTS_API_URL (or the apiUrl option): it should be the service's base URL, e.g. https://go.jamcomments.com.",
} satisfies ApiErrorData;

/** The service answered 422 for per_page (the crawl retries lower when the service names its maximum). */
export const PerPageRejected = {
  name: "PerPageRejected",
  title: "The service refused the page size.",
  failure: "invalid-request",
  /** `said`: the service's words, quoted. */
  message: ({ perPage, said }: { perPage: number; said: string }) =>
    `the comments API refused per_page=${perPage} (${said})`,
  /** `limit`: the largest per_page the service named, if it named one. */
  action: ({ limit }: { limit: string | undefined }) =>
    limit
      ? `Set the perPage option to ${limit} or less.`
      : "Set the perPage option lower (50 is accepted by every version of the service).",
} satisfies ApiErrorData;

/** The service refused the request with any other 4xx. */
export const RequestRefused = {
  name: "RequestRefused",
  title: "The service refused the request.",
  failure: "invalid-request",
  /** `said`: the service's validation errors, quoted ('""' when it sent none). */
  message: ({ said }: { said: string }) => `the comments API refused the request${said !== '""' ? ` (${said})` : ""}`,
  action: "Check the domain option. If it looks right, the API may have changed: please report it with this message.",
} satisfies ApiErrorData;

/** The service answered with a redirect, which is never followed (the token would go along). */
export const Redirected = {
  name: "Redirected",
  title: "The service redirected the request.",
  failure: "redirected",
  /** `target`: where it pointed, quoted; undefined without a Location header. */
  message: ({ target }: { target: string | undefined }) =>
    target
      ? `the comments API redirected the request to ${target}, and redirects are not followed (the API token would go with them)`
      : "the comments API answered with a redirect without a target, and redirects are not followed",
  /** `apiUrl`: the base URL to configure instead, when the target is a plain http(s) URL. */
  action: ({ apiUrl }: { apiUrl: string | undefined }) =>
    apiUrl
      ? `Set COMMENTS_API_URL (or the apiUrl option) to the final address, ${apiUrl}, if you trust it.`
      : "Set COMMENTS_API_URL (or the apiUrl option) to the service's final address.",
} satisfies ApiErrorData;

/** The service kept answering 5xx (or 408) until the request's retries or giveUpAfter ran out. */
export const ServerKeptFailing = {
  name: "ServerKeptFailing",
  title: "The service kept failing.",
  failure: "server-error",
  message: ({ attempts, elapsedMs }: { attempts: number; elapsedMs: number }) =>
    `the comments API kept failing (${spent(attempts, elapsedMs)})`,
  action: ({ audience }: { audience: Audience }) => `The service is having trouble; ${again(audience)}.`,
} satisfies ApiErrorData;

const didNotAnswer = ({ reason, attempts, elapsedMs }: { reason: string; attempts: number; elapsedMs: number }) =>
  `the comments API did not answer: ${reason}; gave up after ${spent(attempts, elapsedMs)}`;

/** The last attempt timed out (no headers, or a body still arriving), and no retry was left. */
export const ApiTimedOut = {
  name: "ApiTimedOut",
  title: "The service did not answer in time.",
  failure: "timeout",
  /** `reason`: how the last attempt failed, redacted. */
  message: didNotAnswer,
  action: ({ audience }: { audience: Audience }) =>
    `The service is hung or overloaded: ${again(audience)}, or raise the timeout option.`,
} satisfies ApiErrorData;

/** The last attempt's connection failed (refused, reset, DNS), and no retry was left. */
export const ApiUnreachable = {
  name: "ApiUnreachable",
  title: "The service could not be reached.",
  failure: "network",
  /** `reason`: how the last attempt failed, redacted. */
  message: didNotAnswer,
  action: ({ audience }: { audience: Audience }) => {
    const text = again(audience);
    return `Check COMMENTS_API_URL and the network; the service may be down. ${text[0]!.toUpperCase()}${text.slice(1)}.`;
  },
} satisfies ApiErrorData;

/** What a runtime lacks that sending needs, and what to do about it, for RuntimeCannotSend. */
export interface RuntimeLimit {
  reason: string;
  advice: string;
}

export const runtimeLimits = {
  noFetch: {
    reason: "it has no global fetch()",
    advice: "run it where fetch() is global: Node 18 or later, Deno, Bun or workerd",
  },
  noWasm: {
    reason: "it forbids compiling WebAssembly at run time, which undici's HTTP parser needs (as Cloudflare Workers do)",
    advice: "send with the platform's fetch(), as the live loader and the server island do",
  },
  /** `why`: the import's own words. */
  noUndici: (why: string): RuntimeLimit => ({
    reason: `undici, the HTTP client the build sends with, cannot be loaded (${why})`,
    advice: "install the site's dependencies again (npm ci, pnpm install): astro-comments depends on undici",
  }),
} as const satisfies Record<string, RuntimeLimit | ((why: string) => RuntimeLimit)>;

/**
 * The runtime refused to send at all (no global fetch, no WebAssembly for undici, undici not
 * installed): the API was never asked, so no retry can help and the URL is not to blame.
 */
export const RuntimeCannotSend = {
  name: "RuntimeCannotSend",
  title: "This runtime cannot send the request.",
  failure: "runtime",
  message: ({ reason }: RuntimeLimit) => `this runtime cannot send requests to the comments API: ${reason}`,
  action: ({ advice }: RuntimeLimit) =>
    `Nothing reached the API, so the URL and the network are not to blame: ${advice}.`,
} satisfies ApiErrorData;

/**
 * The service's rate limit asks for a longer pause than the rateLimitWait budget has left. A
 * build's advice is the budget it would have needed, rounded up to a minute.
 */
export const RateLimitWaitExceeded = {
  name: "RateLimitWaitExceeded",
  title: "The rate limit asks for a longer wait than rateLimitWait allows.",
  failure: "rate-limited",
  /** `limit`: the limit as the service announced it ("60 requests a minute"), or ""; `need`: what the crawl needs, if known. */
  message: ({
    limit,
    waitMs,
    retryAfter,
    leftMs,
    budgetMs,
    need,
  }: {
    limit: string;
    waitMs: number;
    retryAfter: number | undefined;
    leftMs: number;
    budgetMs: number;
    need: string | undefined;
  }) =>
    `the comments service's rate limit${limit ? ` (${limit})` : ""} asks to wait ${retryAfter === undefined ? seconds(waitMs) : `${retryAfter} s (Retry-After)`}, more than the ${seconds(leftMs)} left of rateLimitWait (${seconds(budgetMs)})${need ? `; ${need}` : ""}`,
  /** `neededMs`: the waits so far plus this one. */
  action: ({ audience, neededMs }: { audience: Audience; neededMs: number }) =>
    audience === "request"
      ? "Try again later."
      : `Raise the rateLimitWait option to at least ${Math.ceil(neededMs / 60_000) * 60_000} (milliseconds) so the crawl waits the limit out, or ask the service for a higher limit.`,
} satisfies ApiErrorData;

/** A response grew past maxResponseBytes; it was cut off rather than exhaust memory. */
export const ResponseTooLarge = {
  name: "ResponseTooLarge",
  title: "A response was too large.",
  failure: "too-large",
  message: ({ maxBytes }: { maxBytes: number }) => `a response was larger than ${maxBytes} bytes`,
  action: "Lower the perPage option, or raise maxResponseBytes if pages of this size are expected.",
} satisfies ApiErrorData;

/** A 2xx answer with a content type that is not JSON (a web page, a proxy's error page). */
export const NotJsonContentType = {
  name: "NotJsonContentType",
  title: "The response is not JSON.",
  failure: "malformed",
  /** `contentType` and `start` (the body's first characters): quoted. */
  message: ({ contentType, start }: { contentType: string; start: string }) =>
    `expected JSON but the response is ${contentType} (starts ${start})`,
  action: "COMMENTS_API_URL may point at a web page or a proxy's error page rather than the comments API.",
} satisfies ApiErrorData;

/** A 2xx JSON answer whose body does not parse. */
export const InvalidJson = {
  name: "InvalidJson",
  title: "The response is not valid JSON.",
  failure: "malformed",
  /** `reason`: the parser's, escaped; `start`: the body's first characters, quoted. */
  message: ({ reason, start }: { reason: string; start: string }) =>
    `the response is not valid JSON (${reason}; starts ${start})`,
  action: "The comments API sent a broken body; try again, and report it to the service if it persists.",
} satisfies ApiErrorData;

/** A 2xx JSON answer that breaks the API contract (the JSON Schema in @astro-comments/schema). */
export const ContractBroken = {
  name: "ContractBroken",
  title: "The response does not match the API contract.",
  failure: "contract",
  message: ({ problems }: { problems: string }) =>
    `the response does not match the comments API contract (${problems})`,
  action:
    "The service changed its response shape, or COMMENTS_API_URL points at another API; nothing was rendered from it.",
} satisfies ApiErrorData;

/** Page 1's meta does not add up: last_page is not what total and per_page make. */
export const InconsistentMeta = {
  name: "InconsistentMeta",
  title: "The pagination does not add up.",
  failure: "contract",
  message: ({ total, perPage, lastPage }: { total: number; perPage: number; lastPage: number }) =>
    `meta is inconsistent (total ${total}, per_page ${perPage}, last_page ${lastPage})`,
  action: "The service's pagination looks broken; try again later.",
} satisfies ApiErrorData;

/** The service answered another page than the one asked for. */
export const WrongPage = {
  name: "WrongPage",
  title: "The service ignored the page parameter.",
  failure: "contract",
  message: ({ asked, got }: { asked: number; got: number }) => `asked for page ${asked} but got page ${got}`,
  action: "The service ignored the page parameter, so nothing can be crawled reliably; check COMMENTS_API_URL.",
} satisfies ApiErrorData;

/** Why a crawl starts over: the list changed under it (logged, and quoted when the crawl gives up). */
export const listChanges = {
  total: (from: number, to: number) => `the total went from ${from} to ${to}`,
  paging: (perPage: number, newPerPage: number, lastPage: number, newLastPage: number) =>
    `pagination changed (per_page ${perPage}→${newPerPage}, last_page ${lastPage}→${newLastPage})`,
  pageSize: (page: number, held: number, expected: number) =>
    `page ${page} held ${held} comments where ${expected} were expected`,
};

/** The list kept changing during every crawl allowed (comments being moderated right then). */
export const ListKeptChanging = {
  name: "ListKeptChanging",
  title: "The comments kept changing during the crawl.",
  failure: "drift",
  /** `change`: the last crawl's, from `listChanges`. */
  message: ({ crawls, change }: { crawls: number; change: string }) =>
    `the comments kept changing during ${crawls} crawls (${change})`,
  action: "Comments are being moderated right now; try again in a minute.",
} satisfies ApiErrorData;

/** The live loader failed with something other than our own errors (a bug, or the runtime's). */
export const LiveLoadFailed = {
  name: "LiveLoadFailed",
  title: "The live comments could not be loaded.",
  failure: "network",
  message: ({ reason }: { reason: string }) => `the live comments could not be loaded: ${reason}`,
  action: "See the server log.",
} satisfies ApiErrorData;
