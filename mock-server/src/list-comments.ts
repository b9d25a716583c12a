// GET /api/comments as the service answers it, minus authentication (Prism and the server do that).
import type { CommentListResponse, MessageError, ValidationError } from "@astro-comments/schema";
import type { CommentStore } from "./dataset/comment-store.ts";
import { resolvePageNumber } from "./laravel/page-number.ts";
import { paginationBlocks } from "./laravel/paginator.ts";
import type { PhpQuery, PhpQueryValue } from "./laravel/php-query.ts";
import { validateListQuery, validatePerPageMaximum } from "./laravel/validation.ts";

export interface ListCommentsSettings {
  /** The largest per_page served. */
  maxPerPage: number;
  /**
   * A per_page above maxPerPage: "cap" serves maxPerPage, as a server protecting itself would;
   * "reject" answers 422, as a Laravel 8 app validating `max:100` does.
   */
  perPageLimit: "cap" | "reject";
  /** Keep the request's query in links (Laravel's withQueryString); the real service does not. */
  keepQueryInLinks: boolean;
}

export type ListCommentsResult =
  | { status: 200; body: CommentListResponse }
  | { status: 403; body: MessageError }
  | { status: 422; body: ValidationError };

const DEFAULT_PER_PAGE = 50;

function keptPairs(query: PhpQuery): Array<[string, string]> {
  const pairs: Array<[string, string]> = [];
  const add = (name: string, value: PhpQueryValue) => {
    if (value === null) return;
    if (Array.isArray(value)) value.forEach((item, index) => add(`${name}[${index}]`, item));
    else pairs.push([name, value]);
  };
  for (const [name, value] of query) add(name, value);
  return pairs;
}

export function listComments(
  store: CommentStore,
  query: PhpQuery,
  endpointUrl: string,
  settings: ListCommentsSettings,
): ListCommentsResult {
  const invalid =
    validateListQuery(query) ??
    (settings.perPageLimit === "reject" ? validatePerPageMaximum(query, settings.maxPerPage) : undefined);
  if (invalid) return { status: 422, body: invalid };
  const domain = query.get("domain") as string;
  if (!store.domains.has(domain)) return { status: 403, body: { message: "This action is unauthorized." } };

  const requested = query.get("per_page");
  const perPage = typeof requested === "string" ? Math.min(Number(requested), settings.maxPerPage) : DEFAULT_PER_PAGE;
  const currentPage = resolvePageNumber(query.get("page"));
  const path = query.get("path");
  const { items, total } = store.page(
    domain,
    typeof path === "string" ? path : null,
    (currentPage - 1) * perPage,
    perPage,
  );
  const blocks = paginationBlocks({
    path: endpointUrl,
    currentPage,
    perPage,
    total,
    itemCount: items.length,
    keptQuery: settings.keepQueryInLinks ? keptPairs(query) : [],
  });
  return { status: 200, body: { data: items, ...blocks } };
}
