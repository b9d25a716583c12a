// Where the site's comments come from, for pages that want to say so:
//   import { commentsStatus } from "astro-comments/status";
// Its own entry point: the status carries the fetch time, which changes with every build, and a
// page that imports it is rendered again by every incremental build.
import status from "virtual:astro-comments/status";

export type { FetchStatus } from "./loader/fetch-status.ts";

/** When the comments were fetched, and whether the latest fetch failed (they are then older). */
export const commentsStatus = status;
