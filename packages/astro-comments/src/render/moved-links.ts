// Links shared before a comment moved (the `pages.movedLinks` option): a fragment never reaches a
// server, so no static redirect can follow `#comment-…` to the page that now holds the comment.
// A post's comment pages get a small JSON file (page URL → the ids on it) and an inline script
// that reads it only when the page lacks the id the hash names. Pure: the file's URL and
// contents, and the script's text.
import { commentHrefs, postParam, urlPath, type PagesSettings, type PostPagination } from "./comment-pages.ts";

/** The route parameter of a post's moved-links file: its path below the base, as the comment pages'. */
export const movedLinksParam = postParam;

/** The URL of a post's moved-links file: "/comments/posts/x.json". */
export function movedLinksUrl(key: string, settings: Pick<PagesSettings, "base" | "route">): string {
  return `${settings.base.replace(/\/+$/, "")}${urlPath(`${settings.route}/${postParam(key, settings.base)}`)}.json`;
}

/** Page URL → the ids of the comments it holds: what the script looks an id up in. */
export function commentIdsByPage(pagination: PostPagination): Record<string, string[]> {
  const pages: Record<string, string[]> = {};
  for (const [id, href] of commentHrefs(pagination)) (pages[href.slice(0, href.indexOf("#"))] ??= []).push(id);
  return pages;
}

/**
 * The inline script: when the hash names a comment this page lacks, it fetches `url` and replaces
 * the location with the page that holds the comment (replace: Back returns to where the reader
 * came from, not to a page without the comment). Nothing happens on any failure.
 */
export function movedLinksScript(url: string): string {
  const json = JSON.stringify(url).replaceAll("<", "\\u003c");
  return `(()=>{var h=location.hash.slice(1);h.startsWith("comment-")&&!document.getElementById(h)&&fetch(${json}).then(r=>r.json()).then(m=>{for(var p in m)m[p].includes(h)&&p!=location.pathname&&location.replace(p+"#"+h)}).catch(()=>{})})()`;
}
