// The integration's options: what a user may pass, the environment fallbacks, and validation
// up front with one readable sentence per problem.
import { existsSync, readFileSync } from "node:fs";
import { parseEnv } from "node:util";
import type { CommentOrder } from "./render/comment-tree.ts";
import { CommentsConfigError } from "./errors.ts";

export interface CommentsDateFormat {
  /** BCP 47 locale for dates, e.g. "en-GB". Default: the site's `i18n.defaultLocale`, else "en". */
  locale?: string;
  /** IANA time zone the dates are shown in, e.g. "Europe/Berlin". Default "UTC" (builds must not depend on the build machine's zone). */
  timeZone?: string;
  /** Intl date style. Default "medium". */
  dateStyle?: "full" | "long" | "medium" | "short";
  /** Intl time style, or false for no time. Default "short". */
  timeStyle?: "full" | "long" | "medium" | "short" | false;
}

export interface CommentsOptions {
  /** The site's domain as configured in the comments account. Falls back to COMMENTS_DOMAIN. */
  domain?: string;
  /** Base URL of the comments service, e.g. "https://go.jamcomments.com" (a URL ending in /api/comments works too). Falls back to COMMENTS_API_URL. */
  apiUrl?: string;
  /** API token from the account's admin area. Falls back to COMMENTS_API_TOKEN. Never logged, never written to output. */
  apiToken?: string;
  /** Top-level comments asked for per request (1–1000, default 50). The server may use fewer; the crawl follows what it reports. */
  perPage?: number;
  /** Requests in flight at once once page 1 is in (1–32, default 6). */
  concurrency?: number;
  /** Per-request timeout in ms (default 15000). */
  timeout?: number;
  /** Retries per request on network errors, timeouts and 5xx (0–10, default 4). 429 waits for Retry-After separately. */
  retries?: number;
  /** Responses larger than this many bytes fail the build (default 50 MiB). */
  maxResponseBytes?: number;
  /** What a failed fetch does: "fail" (default) stops the build; "warn" logs and renders no comments. */
  onError?: "fail" | "warn";
  /** Order of top-level comments on a page (replies are always oldest first). Default "oldest-first". */
  order?: CommentOrder;
  /** How dates are shown. */
  dateFormat?: CommentsDateFormat;
  /** Heading of the comments section. Default "Comments". */
  heading?: string;
  /** Text shown when a page has no comments. Default "No comments yet." */
  emptyText?: string;
  /** Add the default stylesheet (light/dark custom properties and a PrismJS theme) to every page. Default false. */
  injectStyles?: boolean;
}

export interface ResolvedOptions {
  domain: string;
  endpoint: URL;
  apiToken: string;
  perPage: number;
  concurrency: number;
  timeout: number;
  retries: number;
  maxResponseBytes: number;
  onError: "fail" | "warn";
  order: CommentOrder;
  dateFormat: Required<Omit<CommentsDateFormat, "timeStyle">> & { timeStyle: CommentsDateFormat["timeStyle"] };
  heading: string;
  emptyText: string;
  injectStyles: boolean;
}

/** The render settings components receive: nothing secret, safe to serialise into the build. */
export type RenderSettings = Pick<ResolvedOptions, "order" | "dateFormat" | "heading" | "emptyText">;

export const envNames = { domain: "COMMENTS_DOMAIN", apiUrl: "COMMENTS_API_URL", apiToken: "COMMENTS_API_TOKEN" } as const;

/**
 * COMMENTS_* variables from the process environment and the project's .env files, in Vite's order
 * (.env, .env.local, .env.[mode], .env.[mode].local; later files win; the real environment wins over all).
 */
export function readCommentsEnv(root: URL, mode: string, processEnv: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const merged: Record<string, string> = {};
  for (const file of [".env", ".env.local", `.env.${mode}`, `.env.${mode}.local`]) {
    const url = new URL(file, root);
    if (existsSync(url)) Object.assign(merged, parseEnv(readFileSync(url, "utf8")));
  }
  for (const [name, value] of Object.entries(processEnv)) if (value !== undefined) merged[name] = value;
  return Object.fromEntries(Object.entries(merged).filter(([name]) => name.startsWith("COMMENTS_")));
}

const styles = ["full", "long", "medium", "short"] as const;

function isIntIn(value: unknown, min: number, max: number): value is number {
  return typeof value === "number" && Number.isInteger(value) && value >= min && value <= max;
}

/**
 * Resolves options against the environment. Throws CommentsConfigError listing every problem.
 * `requireCredentials: false` (astro sync/check/preview, which fetch nothing) still validates
 * what is given but lets domain, apiUrl and apiToken be missing.
 */
export function resolveOptions(user: CommentsOptions, env: Record<string, string>, defaults: { locale?: string; requireCredentials?: boolean } = {}): ResolvedOptions {
  if (user === null || typeof user !== "object" || Array.isArray(user)) {
    throw new CommentsConfigError("astro-comments: comments() takes an options object, e.g. comments({ domain: \"example.com\" }).");
  }
  const problems: string[] = [];
  const known = new Set(["domain", "apiUrl", "apiToken", "perPage", "concurrency", "timeout", "retries", "maxResponseBytes", "onError", "order", "dateFormat", "heading", "emptyText", "injectStyles"]);
  for (const key of Object.keys(user)) if (!known.has(key)) problems.push(`"${key}" is not an option of astro-comments`);

  const pick = (key: "domain" | "apiUrl" | "apiToken") => {
    const value = user[key] ?? env[envNames[key]];
    if (value !== undefined && typeof value !== "string") problems.push(`"${key}" must be a string`);
    return typeof value === "string" ? value.trim() : "";
  };
  const domain = pick("domain");
  const apiUrl = pick("apiUrl");
  const apiToken = pick("apiToken");
  const missing = (["domain", "apiUrl", "apiToken"] as const).filter((key) => ({ domain, apiUrl, apiToken })[key] === "");
  if (missing.length > 0 && defaults.requireCredentials === false) {
    return resolveOptions(user, { ...env, COMMENTS_DOMAIN: domain || "unset.invalid", COMMENTS_API_URL: apiUrl || "https://unset.invalid", COMMENTS_API_TOKEN: apiToken || "unset" }, defaults);
  }
  if (missing.length > 0) {
    const names = missing.map((key) => envNames[key]);
    const list = names.length === 1 ? names[0] : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
    throw new CommentsConfigError(
      `astro-comments: set ${list} (in the environment or .env), or pass ${missing.join(", ")} to comments({ … }) in astro.config.`,
      "Without them there is nowhere to fetch comments from. For local development, `npm run mock` serves a mock API and prints the values to use.",
    );
  }

  if (/[\s/]/.test(domain) || domain.includes("://")) problems.push(`"domain" must be a bare domain like "example.com", not "${domain}"`);
  if (/[\s\u0000-\u001f\u007f]/.test(apiToken)) problems.push(`"apiToken" contains whitespace or control characters; copy the token again`);

  let endpoint: URL | undefined;
  try {
    const base = new URL(apiUrl);
    if (base.protocol !== "https:" && base.protocol !== "http:") problems.push(`"apiUrl" must be an http(s) URL, got ${base.protocol}`);
    if (base.username || base.password) problems.push(`"apiUrl" must not carry credentials; use apiToken`);
    base.search = "";
    base.hash = "";
    const path = base.pathname.replace(/\/+$/, "");
    base.pathname = path.endsWith("/api/comments") ? path : `${path}/api/comments`;
    endpoint = base;
  } catch {
    problems.push(`"apiUrl" must be an absolute URL like "https://go.jamcomments.com", got "${apiUrl}"`);
  }

  const int = (key: "perPage" | "concurrency" | "timeout" | "retries" | "maxResponseBytes", fallback: number, min: number, max: number) => {
    const value = user[key] ?? fallback;
    if (!isIntIn(value, min, max)) problems.push(`"${key}" must be a whole number from ${min} to ${max}, got ${JSON.stringify(value)}`);
    return value;
  };
  const oneOf = <T extends string>(key: string, value: unknown, allowed: readonly T[], fallback: T): T => {
    if (value === undefined) return fallback;
    if (!allowed.includes(value as T)) problems.push(`"${key}" must be one of ${allowed.map((a) => JSON.stringify(a)).join(", ")}, got ${JSON.stringify(value)}`);
    return value as T;
  };
  const text = (key: "heading" | "emptyText", fallback: string) => {
    const value = user[key] ?? fallback;
    if (typeof value !== "string") problems.push(`"${key}" must be a string`);
    return String(value);
  };

  const date = user.dateFormat ?? {};
  if (typeof date !== "object" || date === null) problems.push(`"dateFormat" must be an object`);
  const locale = date.locale ?? defaults.locale ?? "en";
  const timeZone = date.timeZone ?? "UTC";
  try {
    new Intl.DateTimeFormat(locale, { timeZone });
  } catch (error) {
    problems.push(`"dateFormat" is not usable: ${(error as Error).message} (locale ${JSON.stringify(locale)}, timeZone ${JSON.stringify(timeZone)})`);
  }
  const resolved: ResolvedOptions = {
    domain,
    endpoint: endpoint ?? new URL("http://invalid.invalid"),
    apiToken,
    perPage: int("perPage", 50, 1, 1000),
    concurrency: int("concurrency", 6, 1, 32),
    timeout: int("timeout", 15_000, 100, 600_000),
    retries: int("retries", 4, 0, 10),
    maxResponseBytes: int("maxResponseBytes", 50 * 1024 * 1024, 1024, 2 ** 31),
    onError: oneOf("onError", user.onError, ["fail", "warn"] as const, "fail"),
    order: oneOf("order", user.order, ["oldest-first", "newest-first"] as const, "oldest-first"),
    dateFormat: {
      locale,
      timeZone,
      dateStyle: oneOf("dateFormat.dateStyle", date.dateStyle, styles, "medium"),
      timeStyle: date.timeStyle === false ? false : oneOf("dateFormat.timeStyle", date.timeStyle, styles, "short"),
    },
    heading: text("heading", "Comments"),
    emptyText: text("emptyText", "No comments yet."),
    injectStyles: user.injectStyles ?? false,
  };
  if (typeof resolved.injectStyles !== "boolean") problems.push(`"injectStyles" must be true or false`);

  if (problems.length > 0) {
    throw new CommentsConfigError(
      `astro-comments: invalid options: ${problems.join("; ")}.`,
      "See the options table in the astro-comments README.",
    );
  }
  return resolved;
}
