// Laravel's LengthAwarePaginator as a paginated API resource serializes it (links + meta),
// including the UrlWindow page-link list. Pure: no I/O.
import type { PaginationLinks, PaginationMeta, PaginationMetaLink } from "@astro-comments/schema";
import { buildQuery } from "./query-encoding.ts";

export interface PaginatorInput {
  /** Endpoint URL without query, trailing slash trimmed (Request::url()). */
  path: string;
  currentPage: number;
  perPage: number;
  total: number;
  /** How many items the current page actually holds. */
  itemCount: number;
  /**
   * Query parameters kept in every link (withQueryString). Laravel's default keeps none,
   * which is what the real service does: its links lose `domain`.
   */
  keptQuery?: ReadonlyArray<readonly [string, string]>;
  /** Pages on each side of the current one in meta.links (Laravel's default is 3). */
  onEachSide?: number;
}

export interface PaginationBlocks {
  links: PaginationLinks;
  meta: PaginationMeta;
}

function lastPageOf(total: number, perPage: number): number {
  return Math.max(Math.ceil(total / Math.max(perPage, 1)), 1);
}

/** The page numbers of Laravel's UrlWindow, with null marking an ellipsis. */
export function pageWindow(currentPage: number, lastPage: number, onEachSide = 3): Array<number | null> {
  const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
  const window = onEachSide + 4;
  if (lastPage < onEachSide * 2 + 8) return range(1, lastPage);
  if (currentPage <= window) return [...range(1, window + onEachSide), null, lastPage - 1, lastPage];
  if (currentPage > lastPage - window) return [1, 2, null, ...range(lastPage - (window + onEachSide - 1), lastPage)];
  return [1, 2, null, ...range(currentPage - onEachSide, currentPage + onEachSide), null, lastPage - 1, lastPage];
}

export function paginationBlocks(input: PaginatorInput): PaginationBlocks {
  const { path, currentPage, perPage, total, itemCount } = input;
  const kept = (input.keptQuery ?? []).filter(([name]) => name !== "page");
  const url = (page: number) =>
    `${path}${path.includes("?") ? "&" : "?"}${buildQuery([...kept, ["page", String(Math.max(page, 1))]])}`;
  const lastPage = lastPageOf(total, perPage);
  const hasPrev = currentPage > 1;
  const hasNext = currentPage < lastPage;
  const from = itemCount > 0 ? (currentPage - 1) * perPage + 1 : null;
  const to = from === null ? null : from + itemCount - 1;

  const metaLinks: PaginationMetaLink[] = [
    {
      url: hasPrev ? url(currentPage - 1) : null,
      label: "&laquo; Previous",
      page: hasPrev ? currentPage - 1 : null,
      active: false,
    },
    ...pageWindow(currentPage, lastPage, input.onEachSide).map(
      (page): PaginationMetaLink =>
        page === null
          ? { url: null, label: "...", active: false }
          : { url: url(page), label: String(page), page, active: page === currentPage },
    ),
    {
      url: hasNext ? url(currentPage + 1) : null,
      label: "Next &raquo;",
      page: hasNext ? currentPage + 1 : null,
      active: false,
    },
  ];

  return {
    links: {
      first: url(1),
      last: url(lastPage),
      prev: hasPrev ? url(currentPage - 1) : null,
      next: hasNext ? url(currentPage + 1) : null,
    },
    // Key order as Laravel sends it.
    meta: {
      current_page: currentPage,
      from,
      last_page: lastPage,
      links: metaLinks,
      path,
      per_page: perPage,
      to,
      total,
    },
  };
}
