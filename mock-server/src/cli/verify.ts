// comments-mock verify [--strict]: crawls the real service with astro-comments' own client and
// checks every response against the contract, for a site's nightly CI: exit 0 when a build would
// work (differences the client tolerates are listed), 1 on a breaking difference (or, with
// --strict, any difference), 2 when the service could not be checked at all.
import { parseArgs } from "node:util";
import { createContractValidator } from "@astro-comments/schema";
import { ContractReport, findingLine } from "../contract-report.ts";
import { CommentsApiError, crawlComments, crawlDefaults } from "../service-client.ts";
import { CommandError, UsageError } from "./cli-errors.ts";
import { redactor, serviceCredentials, serviceFailure, stderrLogger } from "./service-env.ts";

const usage = `Usage: comments-mock verify [--strict]

Crawls your site's comments on the comments service, as a build does, and checks every response
against the API contract. Reads COMMENTS_API_URL, COMMENTS_DOMAIN and COMMENTS_API_TOKEN from the
environment, or from the current folder's .env files as a production build does (the environment
wins). Prints one summary line,
then one line per finding: <page URL> <JSONPath>: <problem> (breaking | tolerated: why).

Exit code: 0 the service conforms (tolerated differences listed), 1 a breaking difference,
2 the service could not be checked (credentials, network, refusal).

  --strict     also fail on tolerated differences: fields the contract does not have, numbers
               sent as strings`;

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

export async function main(argv: string[]): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      options: { strict: { type: "boolean" }, help: { type: "boolean" } },
    }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (values.help) {
    process.stdout.write(`${usage}\n`);
    return 0;
  }
  const strict = values.strict ?? false;
  const credentials = serviceCredentials("verify the comments service");
  const redact = redactor(credentials.apiToken);
  const contract = createContractValidator();
  const report = new ContractReport();
  let comments = 0;
  try {
    const crawl = await crawlComments(
      credentials,
      crawlDefaults,
      stderrLogger("verify", redact),
      () => {
        let count = 0;
        return {
          add: (_, threads) => void (count += threads.reduce((sum, thread) => sum + 1 + thread.children.length, 0)),
          finish: () => count,
        };
      },
      {
        audience: "request",
        // Before the client reads decimal strings or drops unknown fields: the body as the service sent it.
        onBody: (url, body) => report.check(redact(url), body, contract.validate("listResponse", body)),
      },
    );
    comments = crawl.result;
  } catch (error) {
    if (!(error instanceof CommentsApiError)) throw error;
    if (error.failure !== "contract")
      throw new CommandError(
        `Cannot verify ${redact(credentials.endpoint.href)} for ${credentials.domain}: ${serviceFailure(error, redact)}`,
        2,
      );
    if (report.count("breaking") === 0) {
      // The client's words without the URL and advice it appends: the finding line names the URL.
      const message = serviceFailure(error, redact);
      const at = message.lastIndexOf(` (${redact(error.url)}`);
      report.fail(redact(error.url), at > 0 ? message.slice(0, at) : message);
    }
  }

  const breaking = report.count("breaking");
  const tolerated = report.count("tolerated");
  const failed = breaking > 0 || (strict && tolerated > 0);
  const endpoint = redact(credentials.endpoint.href);
  const checked = `${plural(report.bodies, "response")}${comments > 0 ? `, ${plural(comments, "comment")}` : ""} checked`;
  const summary = failed
    ? `comments-mock verify: FAIL: ${endpoint} for ${credentials.domain} ${breaking > 0 ? `breaks the contract: ${plural(breaking, "breaking difference")}, ${tolerated} tolerated` : `differs from the contract (--strict): ${plural(tolerated, "tolerated difference")}`} (${checked})`
    : `comments-mock verify: OK: ${endpoint} for ${credentials.domain} conforms to the contract: ${tolerated === 0 ? "no differences" : `${plural(tolerated, "tolerated difference")} (run with --strict to fail on them)`} (${checked})`;
  process.stdout.write(`${[summary, ...report.findings.map(findingLine)].join("\n")}\n`);
  return failed ? 1 : 0;
}
