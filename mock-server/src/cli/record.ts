// comments-mock record --out FILE: every approved comment of the site, with its replies, fetched
// from the real service with astro-comments' own client and saved in the --data format, so a
// developer can work offline with the site's real comments, or keep them as test fixtures.
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { parseArgs } from "node:util";
import { mockDataOf } from "../data-file.ts";
import { collectThreads, CommentsApiError, crawlComments, crawlDefaults } from "../service-client.ts";
import { CommandError, UsageError } from "./cli-errors.ts";
import { redactor, serviceCredentials, serviceFailure, stderrLogger } from "./service-env.ts";

const usage = `Usage: comments-mock record --out FILE

Saves every approved comment of your site, with its replies, from the comments service to FILE,
for \`comments-mock --data FILE\` (offline work, test fixtures). Reads COMMENTS_API_URL,
COMMENTS_DOMAIN and COMMENTS_API_TOKEN from the environment, or from the current folder's .env,
.env.local, .env.production and .env.production.local, as a production build does (the
environment wins). The token is sent in the Authorization header only, and written nowhere.

  --out FILE   where to write the comments (JSON, format comments-mock-data version 1)`;

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

export async function main(argv: string[]): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      options: { out: { type: "string" }, help: { type: "boolean" } },
    }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (values.help) {
    process.stdout.write(`${usage}\n`);
    return 0;
  }
  if (!values.out) throw new UsageError("record needs --out FILE: where to write the comments.");
  const out = resolve(values.out);
  const credentials = serviceCredentials("record your site's comments");
  const redact = redactor(credentials.apiToken);
  let crawl;
  try {
    crawl = await crawlComments(credentials, crawlDefaults, stderrLogger("record", redact), collectThreads, {
      audience: "request",
    });
  } catch (error) {
    if (error instanceof CommentsApiError)
      throw new CommandError(
        `Cannot record the comments of ${credentials.domain}: ${serviceFailure(error, redact)}`,
        1,
      );
    throw error;
  }
  const threads = crawl.result;
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, `${JSON.stringify(mockDataOf(credentials.domain, threads, new Date()), null, 2)}\n`);
  const replies = threads.reduce((sum, thread) => sum + thread.children.length, 0);
  const { pages, seconds } = crawl.summary;
  process.stdout.write(
    redact(
      `comments-mock record: saved ${plural(threads.length, "comment")} and ${plural(replies, "reply", "replies")} of ${credentials.domain} from ${credentials.endpoint.href} to ${out} (${plural(pages, "page")}, ${seconds.toFixed(1)} s). Serve them with: comments-mock --data ${values.out}\n`,
    ),
  );
  return 0;
}
