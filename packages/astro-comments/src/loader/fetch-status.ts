// Where the comments a build shows come from: a fetch just now, or an earlier one kept because
// the latest fetch failed.

export interface FetchStatus {
  /** ISO 8601 time of the complete fetch whose comments the site shows; null when there is none. */
  fetchedAt: string | null;
  /** True when the latest fetch failed and the site shows comments of an earlier one (or none). */
  stale: boolean;
  /** First line of the latest fetch's error, when it failed. */
  error?: string;
}
