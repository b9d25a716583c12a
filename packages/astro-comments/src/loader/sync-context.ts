// What a sync and its fallback share: the part of Astro's loader context they use, the status they
// publish to the integration, and the counts of what the store holds after them.
import type { LoaderContext } from "astro/loaders";
import type { SiteHandoff } from "../site-registry.ts";
import type { PageEntryData } from "./entry-schema.ts";
import type { FetchStatus } from "./fetch-status.ts";

export type SyncContext = Pick<LoaderContext, "collection" | "store" | "meta" | "logger" | "config" | "generateDigest">;

/** Hands the status to the integration, and to the dev server when it is listening. */
export function publish(site: SiteHandoff, status: FetchStatus): void {
  site.status = status;
  site.onStatus?.(status);
}

/** Page key → comments stored for it, as the orphan report reads them. */
export function storedCounts(context: SyncContext): Map<string, number> {
  return new Map(context.store.entries().map(([id, entry]) => [id, (entry.data as PageEntryData).count]));
}
