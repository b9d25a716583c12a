// The real service's credentials for `record` and `verify`, read as a site's production build
// reads them: COMMENTS_API_URL, COMMENTS_DOMAIN and COMMENTS_API_TOKEN from the environment, or
// from the current folder's .env files in Vite's order (the same reader as `astro-comments check`).
import {
  credentialsFromEnv,
  escapeControlCharacters,
  readCommentsEnv,
  type Credentials,
  type CrawlLogger,
} from "../service-client.ts";
import { CommandError } from "./cli-errors.ts";

/** The COMMENTS_* variables: the environment over .env, .env.local, .env.production and .env.production.local. */
function environment(folder = process.cwd(), env: NodeJS.ProcessEnv = process.env): Record<string, string | undefined> {
  try {
    return readCommentsEnv(folder, "production", env);
  } catch (error) {
    throw new CommandError(
      `Cannot read the .env files in ${folder}: ${(error as Error).message}. Fix their permissions, or set the variables in the environment.`,
    );
  }
}

/** The credentials, or a CommandError naming every variable that is missing or wrong (never the token's value). */
export function serviceCredentials(command: string, env = environment()): Credentials {
  try {
    return credentialsFromEnv(env);
  } catch (error) {
    throw new CommandError(
      `Cannot ${command}: ${(error as Error).message}. COMMENTS_API_URL is the service's URL, COMMENTS_DOMAIN your site's domain there, COMMENTS_API_TOKEN its API token.`,
    );
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

/** The crawl's progress and warnings, on stderr, token-free and inert in a terminal; its debug lines are dropped. */
export function stderrLogger(command: string, redact: (text: string) => string): CrawlLogger {
  const write = (message: string) =>
    void process.stderr.write(`comments-mock ${command}: ${escapeControlCharacters(redact(message))}\n`);
  return { info: write, warn: write, debug: () => {} };
}

/** A client error's message in the mock's words: without the integration's name in front. */
export function serviceFailure(error: Error, redact: (text: string) => string): string {
  return redact(error.message.replace(/^astro-comments: /, ""));
}
