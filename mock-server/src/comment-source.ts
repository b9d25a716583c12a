// What the mock serves when it starts: a test's own comments, data files, or the generated
// dataset, on the example domains or on the site's own.
import { loadMockData, MockDataError, storedComments, type MockDataSource } from "./data-file.ts";
import { generateDataset, type DatasetOptions, type StoredComment } from "./dataset/generate-dataset.ts";
import { onDomains, siteDataset } from "./dataset/site-dataset.ts";

export interface CommentSource {
  comments?: StoredComment[] | undefined;
  data?: MockDataSource | readonly MockDataSource[] | undefined;
  domain?: string | readonly string[] | undefined;
  dataset?: DatasetOptions | undefined;
}

/** The comments to serve, and the domains they are on (a data file's domain counts even when it has none). */
export function initialComments({ comments, data, domain, dataset }: CommentSource): {
  comments: StoredComment[];
  domains: string[];
} {
  const site = domain === undefined ? [] : typeof domain === "string" ? [domain] : [...domain];
  if (comments)
    return site.length > 0 ? { comments: onDomains(comments, site), domains: site } : { comments, domains: [] };
  if (data === undefined)
    return site.length > 0
      ? { comments: siteDataset(site, dataset), domains: site }
      : { comments: generateDataset(dataset), domains: [] };

  const files = (Array.isArray(data) ? data : [data]) as readonly MockDataSource[];
  if (files.length > 1 && site.length > 0) {
    throw new MockDataError(
      "Cannot serve several data files under the given domain: each file is served under its own domain. Pass one data file with the domain, or leave the domain out.",
    );
  }
  const stored: StoredComment[] = [];
  const recorded: string[] = [];
  for (const file of files) {
    const loaded = loadMockData(file);
    recorded.push(loaded.domain);
    // One at a time: spreading a file of 200,000 replies into push() overflows the call stack.
    for (const comment of storedComments(loaded, loaded.domain, stored.length + 1)) stored.push(comment);
  }
  return site.length > 0
    ? { comments: onDomains(stored, site), domains: site }
    : { comments: stored, domains: recorded };
}
