// What the feed and counts routes need from the integration, served to them as the virtual module
// "feeds" (integration/virtual-modules.ts). Nothing secret: it ends up in the build's bundles.
import type { AstroConfig } from "astro";
import { configError } from "../errors.ts";
import { FeedNeedsSite } from "../errors-data.ts";
import type { ResolvedOptions } from "../integration/options.ts";
import { urlPath, urlsEndInSlash } from "../render/comment-pages.ts";

export interface FeedSettings {
  title: string;
  limit: number;
  /** Absolute URL of the site's Atom feed (feeds.atom); unused when only per-page feeds are on. */
  selfUrl: string;
  /** Absolute URL of the site's home page (with base). */
  siteUrl: string;
  /** The site's base, as Astro resolved it ("/" or "/docs/"). */
  base: string;
  /** feeds.pageAtom, the pattern of the per-page feeds, if there are any. */
  pagePattern: string | undefined;
  /** Whether the site's page URLs end in "/": a link to a comment on its post is written as the site's own links are. */
  trailingSlash: boolean;
}

/** A route pattern as served: below the site's base. */
function withBasePath(base: string, pattern: string): string {
  return `${base.replace(/\/+$/, "")}${pattern}`;
}

/** The feeds' settings; throws when the site has no `site` URL to make links absolute with. */
export function feedSettings(
  feeds: ResolvedOptions["feeds"],
  config: Pick<AstroConfig, "site" | "base" | "trailingSlash" | "build">,
): FeedSettings {
  if (!config.site) {
    const which = [feeds.atom && `feeds.atom "${feeds.atom}"`, feeds.pageAtom && `feeds.pageAtom "${feeds.pageAtom}"`]
      .filter(Boolean)
      .join(" and ");
    throw configError(FeedNeedsSite, which);
  }
  const url = (path: string) => new URL(withBasePath(config.base, path), config.site).href;
  return {
    title: feeds.title ?? `Comments on ${new URL(config.site).host}`,
    limit: feeds.limit,
    selfUrl: url(feeds.atom ?? "/"),
    siteUrl: url("/"),
    base: config.base,
    pagePattern: feeds.pageAtom,
    trailingSlash: urlsEndInSlash(config),
  };
}

/** The `[...page]` value of a page's own feed: its key below the base, "index" for the home page. */
export function pageFeedParam(key: string, base: string): string {
  const prefix = base.replace(/\/+$/, "");
  const local = prefix !== "" && (key === prefix || key.startsWith(`${prefix}/`)) ? key.slice(prefix.length) : key;
  return local.replace(/^\/+/, "") || "index";
}

/** Absolute URL of a page's own feed; the page's "#" or "?" is part of its path, never a fragment or a query. */
export function pageFeedUrl(settings: FeedSettings, param: string): string {
  const path = settings.pagePattern!.replace("[...page]", urlPath(param));
  return new URL(withBasePath(settings.base, path), settings.siteUrl).href;
}
