// The real service's credentials for `record` and `verify`, read as a site's build reads them:
// COMMENTS_API_URL, COMMENTS_DOMAIN and COMMENTS_API_TOKEN from the environment, or from .env in
// the current folder; a variable set in the environment wins over the file, as with Vite's loadEnv.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseEnv } from "node:util";
import { CommandError } from "./cli-errors.ts";
import { credentialsFromEnv, type Credentials, type CrawlLogger } from "./service-client.ts";

/** The environment with .env (if the folder has one) underneath it. */
export function environment(folder = process.cwd(), env: NodeJS.ProcessEnv = process.env): Record<string, string | undefined> {
  let text: string;
  try {
    text = readFileSync(join(folder, ".env"), "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { ...env };
    throw new CommandError(`Cannot read ${join(folder, ".env")}: ${(error as Error).message}. Fix its permissions, or set the variables in the environment.`);
  }
  return { ...parseEnv(text), ...env };
}

/** The credentials, or a CommandError naming every variable that is missing or wrong (never the token's value). */
export function serviceCredentials(command: string, env = environment()): Credentials {
  try {
    return credentialsFromEnv(env);
  } catch (error) {
    throw new CommandError(`Cannot ${command}: ${(error as Error).message}. COMMENTS_API_URL is the service's URL, COMMENTS_DOMAIN your site's domain there, COMMENTS_API_TOKEN its API token.`);
  }
}

/**
 * Replaces every copy of the token in `text`: it only travels in a header, but nothing printed may
 * ever carry it. Tokens too short to be real are left alone (as the client does), or every "t"
 * of a message could go.
 */
export function redactor(token: string): (text: string) => string {
  return (text) => (token.length < 8 ? text : text.split(token).join("[token]"));
}

/** The crawl's progress and warnings, on stderr, token-free; its debug lines are dropped. */
export function stderrLogger(command: string, redact: (text: string) => string): CrawlLogger {
  const write = (message: string) => void process.stderr.write(`comments-mock ${command}: ${redact(message)}\n`);
  return { info: write, warn: write, debug: () => {} };
}

/** A client error's message in the mock's words: without the integration's name in front. */
export function serviceFailure(error: Error, redact: (text: string) => string): string {
  return redact(error.message.replace(/^astro-comments: /, ""));
}
