// The deployed state, checked, and compared with a fresh crawl's: the one line the check prints.
// Pure: reading the state from a URL or file is deployed-state.ts's business.
import { STATE_FORMAT, type FreshnessState, type CompleteFreshnessState, type PageState } from "./freshness-state.ts";
import {
  NotAState,
  StateDamaged,
  StateFormatOther,
  StateFromEarlierFetch,
  StateNotJson,
  StateOfOtherDomain,
  StateWithoutDomain,
} from "../errors-data.ts";
import { count, plural } from "../utils/counting.ts";

/** The deployed state cannot be compared: the line says why. The site must be built. */
export class StateUnusable extends Error {
  override name = "StateUnusable";
}

export interface Verdict {
  changed: boolean;
  /** One line for the host's log, prefixed "astro-comments: ". */
  line: string;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const isPageState = (value: unknown): value is PageState =>
  isRecord(value) &&
  Number.isSafeInteger(value.count) &&
  (value.count as number) > 0 &&
  typeof value.digest === "string" &&
  /^[0-9a-f]{64}$/.test(value.digest);

/** The state in `text` (from `where`, a URL or file), or StateUnusable saying what is wrong with it. */
export function parseState(text: string, where: string): FreshnessState {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new StateUnusable(StateNotJson.message(where));
  }
  if (!isRecord(value) || value.generator !== "astro-comments") throw new StateUnusable(NotAState.message(where));
  if (value.format !== STATE_FORMAT) {
    throw new StateUnusable(StateFormatOther.message(where, value.format, STATE_FORMAT));
  }
  if (typeof value.domain !== "string") throw new StateUnusable(StateWithoutDomain.message(where));
  if (value.complete === false) return value as unknown as FreshnessState;
  const complete =
    value.complete === true &&
    typeof value.crawledAt === "string" &&
    Number.isSafeInteger(value.comments) &&
    typeof value.digest === "string" &&
    isRecord(value.pages);
  if (!complete || !Object.values(value.pages as object).every(isPageState))
    throw new StateUnusable(StateDamaged.message(where));
  return value as unknown as CompleteFreshnessState;
}

// Thousands separators by hand: toLocaleString would page Intl's locale data (8 MB of RSS) into a
// process whose memory is part of its promise.
const formatTime = (iso: string) => `${iso.slice(0, 16).replace("T", " ")} UTC`;

/**
 * The deployed state as one that can be compared with a crawl of `domain`; StateUnusable when it
 * is of another domain or from a build that fell back to earlier comments.
 */
export function usableState(state: FreshnessState, domain: string, where: string): CompleteFreshnessState {
  if (state.domain !== domain) throw new StateUnusable(StateOfOtherDomain.message(where, state.domain, domain));
  if (!state.complete) {
    throw new StateUnusable(StateFromEarlierFetch.message(state.crawledAt ? formatTime(state.crawledAt) : undefined));
  }
  return state;
}

interface PageChange {
  key: string;
  before: number;
  after: number;
}

const LISTED = 10;

const describeChange = ({ before, after }: PageChange) =>
  after > before ? `+${after - before}` : after < before ? `-${before - after}` : "changed";

/**
 * Whether the comments changed between the deployed build's crawl and this one, in one line. Pages
 * are compared one by one (the site digest is for people and other tools), so a page is named
 * whenever its count or digest differs.
 */
export function compareStates(deployed: CompleteFreshnessState, current: CompleteFreshnessState): Verdict {
  const changes: PageChange[] = [];
  const keys = new Set([...Object.keys(deployed.pages), ...Object.keys(current.pages)]);
  for (const key of [...keys].sort((a, b) => (a < b ? -1 : 1))) {
    const before = deployed.pages[key];
    const after = current.pages[key];
    if (before?.digest !== after?.digest || before?.count !== after?.count)
      changes.push({ key, before: before?.count ?? 0, after: after?.count ?? 0 });
  }
  const since = `since the deployed build's crawl at ${formatTime(deployed.crawledAt)}`;
  if (changes.length === 0) {
    return {
      changed: false,
      line: `astro-comments: no approved comment changed ${since} (${plural(current.comments, "comment")} on ${plural(Object.keys(current.pages).length, "page")}); nothing to build.`,
    };
  }
  const listed = changes.slice(0, LISTED).map((change) => `${change.key} (${describeChange(change)})`);
  if (changes.length > LISTED) listed.push(`and ${count(changes.length - LISTED)} more`);
  const onlyNew = changes.every((change) => change.after > change.before);
  const head = onlyNew
    ? `${plural(changes.length, "page")} ${changes.length === 1 ? "has" : "have"} new comments`
    : `the comments of ${plural(changes.length, "page")} changed`;
  return { changed: true, line: `astro-comments: ${head} ${since}: ${listed.join(", ")}; build.` };
}
