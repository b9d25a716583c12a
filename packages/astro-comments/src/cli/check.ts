// `astro-comments check`: did the approved comments change since the deployed build? It crawls the
// service with the integration's own client (retries, rate-limit gate, contract check) into
// digests only, reads the state the deployed build published, and prints one line. Exit 0: nothing
// changed, the build can be skipped. Exit 1: the comments changed, or anything went wrong; the
// host builds, because a build that cannot be proven useless is never skipped.
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { crawlComments, crawlDefaults, type CrawlLogger, type CrawlSettings } from "../api/crawl-comments.ts";
import { undiciTransport } from "../api/undici-transport.ts";
import { credentialsFromEnv, envNames, type Credentials } from "../api/credentials.ts";
import { escapeControlCharacters } from "../api/service-text.ts";
import { CheckFlagNotWholeNumber, CheckStateMissing } from "../errors-data.ts";
import type { CompleteFreshnessState } from "../freshness/freshness-state.ts";
import { compareStates, StateUnusable, usableState } from "../freshness/compare-states.ts";
import { readDeployedState } from "../freshness/deployed-state.ts";
import { CheckCrawlWriter, checkCrawlFile, removeCheckCrawl } from "../freshness/check-crawl.ts";
import { siteCacheDir } from "./cache-dir.ts";
import { readCommentsEnv } from "./read-env.ts";

/** Where the deployed state is, when --state is not given. */
const STATE_ENV = "COMMENTS_STATE_URL";

/**
 * The check's own budget for rate-limit pauses, not the build's ten minutes: a host's ignore step
 * should answer in about a minute, and when the service's limit asks for longer, building is the
 * safe answer (the build then waits as long as its rateLimitWait allows).
 */
const CHECK_RATE_LIMIT_WAIT = 60_000;

const checkUsage = `Usage: npx --no astro-comments check [options]

Did the approved comments change since the deployed build? Prints one line; exits 0 when nothing
changed (a host's ignore step then skips the build) and 1 when they changed or the answer is not
certain (the host builds). Reads COMMENTS_DOMAIN, COMMENTS_API_URL, COMMENTS_API_TOKEN and
COMMENTS_STATE_URL from the environment or the site's .env files, as the build does. After a
complete crawl it leaves what it fetched in the site's cache folder, and a build within
reuseCheckMinutes uses it instead of crawling again.

  --state URL|FILE         the deployed build's state (feeds.state), e.g.
                           https://example.com/comments/state.json (default: $${STATE_ENV})
  --domain D, --api-url U  instead of COMMENTS_DOMAIN, COMMENTS_API_URL (the token is only read
                           from the environment, never from the command line)
  --mode M                 which .env.[mode] files to read (default production)
  --root DIR               the site's folder (default: the current folder)
  --env-dir DIR            where the .env files are (default: the site's folder)
  --cache-dir DIR          where the crawl is left for the build (default: astro.config's
                           cacheDir when it is a plain string, else node_modules/.astro)
  --per-page N             comments per request, 1-100 (default 100, or what the service accepts)
  --concurrency N          requests in flight, 1-32 (default ${crawlDefaults.concurrency})
  --timeout MS             one attempt, and the state's download (default ${crawlDefaults.timeout})
  --retries N              retries of a failed request, 0-10 (default ${crawlDefaults.retries})
  --give-up-after MS       all attempts of one request (default ${crawlDefaults.giveUpAfter})
  --rate-limit-wait MS     pauses for the service's rate limit in all (default ${CHECK_RATE_LIMIT_WAIT})
  --verbose                progress and retries on stderr
`;

export interface CheckIo {
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  /** The one line of the answer. */
  print(line: string): void;
  /** Progress with --verbose. */
  log(line: string): void;
}

/** Thrown for anything the user must fix in the command or the environment. */
class CheckConfigError extends Error {}

const options = {
  state: { type: "string" },
  domain: { type: "string" },
  "api-url": { type: "string" },
  mode: { type: "string", default: "production" },
  root: { type: "string", default: "." },
  "env-dir": { type: "string" },
  "cache-dir": { type: "string" },
  "per-page": { type: "string" },
  concurrency: { type: "string" },
  timeout: { type: "string" },
  retries: { type: "string" },
  "give-up-after": { type: "string" },
  "rate-limit-wait": { type: "string" },
  verbose: { type: "boolean", default: false },
  help: { type: "boolean", default: false },
} as const;

type Flags = ReturnType<typeof parseArgs<{ options: typeof options }>>["values"];

function wholeNumber(
  flags: Flags,
  name: "per-page" | "concurrency" | "timeout" | "retries" | "give-up-after" | "rate-limit-wait",
  min: number,
  max: number,
): number | undefined {
  const text = flags[name];
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < min || value > max)
    throw new CheckConfigError(CheckFlagNotWholeNumber.message(name, min, max, text));
  return value;
}

function settingsFrom(flags: Flags): CrawlSettings {
  return {
    perPage: wholeNumber(flags, "per-page", 1, 100),
    concurrency: wholeNumber(flags, "concurrency", 1, 32) ?? crawlDefaults.concurrency,
    timeout: wholeNumber(flags, "timeout", 100, 120_000) ?? crawlDefaults.timeout,
    retries: wholeNumber(flags, "retries", 0, 10) ?? crawlDefaults.retries,
    giveUpAfter: wholeNumber(flags, "give-up-after", 1_000, 600_000) ?? crawlDefaults.giveUpAfter,
    rateLimitWait: wholeNumber(flags, "rate-limit-wait", 0, 3_600_000) ?? CHECK_RATE_LIMIT_WAIT,
    maxResponseBytes: crawlDefaults.maxResponseBytes,
  };
}

function credentialsFrom(flags: Flags, env: Record<string, string>): Credentials {
  const given = { ...env };
  if (flags.domain !== undefined) given[envNames.domain] = flags.domain;
  if (flags["api-url"] !== undefined) given[envNames.apiUrl] = flags["api-url"];
  try {
    return credentialsFromEnv(given);
  } catch (error) {
    throw new CheckConfigError((error as Error).message);
  }
}

/**
 * The first line of an error's message, without our prefix and without a CommentsApiError's
 * closing advice (the check's own advice is "build").
 */
function firstLine(error: Error): string {
  const line = error.message.split("\n")[0]!.replace(/^astro-comments: /, "");
  const action = (error as { action?: unknown }).action;
  return typeof action === "string" && action !== "" && line.endsWith(` ${action}`)
    ? line.slice(0, -action.length - 1).replace(/\.$/, "")
    : line;
}

/**
 * Runs the check and resolves to its exit code once it printed its line and, after a complete
 * crawl, left the crawl for the build. An unusable deployed state is answered at once, and the
 * crawl still finishes: the build that follows reuses it.
 */
export async function check(argv: readonly string[], io: CheckIo): Promise<0 | 1> {
  let token: string | undefined;
  // The line is the only output; no token gets into it, even inside a quoted service message, and
  // it stays one line, inert in a terminal, whatever the service or the deployed state said.
  const clean = (line: string) => escapeControlCharacters(token ? line.replaceAll(token, "[token]") : line);
  const say = (line: string) => io.print(clean(line));
  const unsure = (why: string) => {
    say(`astro-comments: cannot tell whether the comments changed: ${why}; build.`);
    return 1 as const;
  };
  let flags: Flags;
  try {
    flags = parseArgs({ args: [...argv], options, strict: true, allowPositionals: false }).values;
  } catch (error) {
    return unsure(
      `${(error as Error).message.split("\n")[0]} (npx --no astro-comments check --help lists the options)`,
    );
  }
  if (flags.help) {
    io.print(checkUsage);
    return 1;
  }

  const root = resolve(io.cwd, flags.root);
  const cacheDir = flags["cache-dir"] === undefined ? siteCacheDir(root) : resolve(io.cwd, flags["cache-dir"]);
  const crawlFile = checkCrawlFile(cacheDir);
  // Whatever this check ends in, an earlier check's crawl must not outlive it looking fresh: only a
  // complete crawl puts a file back.
  await removeCheckCrawl(crawlFile).catch(() => undefined);

  let credentials: Credentials;
  let settings: CrawlSettings;
  let location: string;
  try {
    const envDir = flags["env-dir"] === undefined ? root : resolve(io.cwd, flags["env-dir"]);
    const env = readCommentsEnv(envDir, flags.mode, io.env);
    token = env[envNames.apiToken]?.trim() || undefined;
    credentials = credentialsFrom(flags, env);
    settings = settingsFrom(flags);
    const state = flags.state ?? env[STATE_ENV];
    if (state === undefined || state.trim() === "") throw new CheckConfigError(CheckStateMissing.message(STATE_ENV));
    location = state.trim();
  } catch (error) {
    if (error instanceof CheckConfigError) return unsure(error.message);
    return unsure(`could not read the settings (${firstLine(error as Error)})`);
  }

  const quiet = () => undefined;
  const log = (line: string) => io.log(clean(line));
  const logger: CrawlLogger = flags.verbose
    ? { info: log, warn: log, debug: quiet }
    : { info: quiet, warn: quiet, debug: quiet };
  const handover = new CheckCrawlWriter(crawlFile, credentials, new Date().toISOString());
  await handover.prepare().catch(quiet);
  // A cancelled CI job sends SIGTERM: the half-written crawl goes before the check does, and the
  // signal is raised again so the check ends as killed by it, as it would have without us.
  const cancel = (signal: NodeJS.Signals) => {
    handover.abandonNow();
    process.kill(process.pid, signal);
  };
  process.once("SIGTERM", cancel).once("SIGINT", cancel);
  const crawling = crawlComments(credentials, settings, logger, () => handover.collect(), {
    transport: undiciTransport,
  });
  // Awaited below; handled here so an early answer from the state leaves no unhandled rejection.
  crawling.catch(quiet);
  // The crawl is left for the build whatever the answer: a host may build anyway, and a check that
  // answers early (no usable deployed state) is followed by a build for sure.
  const leaving = crawling.then(
    ({ result, summary }) =>
      handover
        .commit(result, summary)
        .catch((error: Error) =>
          logger.warn(`could not leave the crawl for the build in ${crawlFile}: ${error.message}`),
        ),
    () => handover.abandon().catch(quiet),
  );
  const answer = async (code: 0 | 1) => {
    await leaving;
    process.off("SIGTERM", cancel).off("SIGINT", cancel);
    return code;
  };

  let deployed: CompleteFreshnessState;
  try {
    const { state, where } = await readDeployedState(location, io.cwd, settings.timeout);
    deployed = usableState(state, credentials.domain, where);
  } catch (error) {
    return answer(
      unsure(
        error instanceof StateUnusable
          ? error.message
          : `could not read the deployed state (${firstLine(error as Error)})`,
      ),
    );
  }
  let current: CompleteFreshnessState;
  try {
    const { result, summary } = await crawling;
    logger.info(`crawled ${summary.requests} requests of ${summary.perPage} in ${summary.seconds.toFixed(1)} s`);
    current = result;
  } catch (error) {
    // The shared client names the integration's option; here it is a flag.
    return answer(unsure(firstLine(error as Error).replace("rateLimitWait", "--rate-limit-wait")));
  }
  const verdict = compareStates(deployed, current);
  say(verdict.line);
  return answer(verdict.changed ? 1 : 0);
}
