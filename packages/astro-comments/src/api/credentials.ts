// Where to fetch comments from and as whom: checked the same way for the integration and for the
// bins (freshness check, the mock's record and verify), which read only the environment.
import { EnvCredentialsInvalid, EnvCredentialsMissing } from "../errors-data.ts";

export interface Credentials {
  domain: string;
  /** The list endpoint, e.g. https://go.jamcomments.com/api/comments. */
  endpoint: URL;
  apiToken: string;
}

export const envNames = {
  domain: "COMMENTS_DOMAIN",
  apiUrl: "COMMENTS_API_URL",
  apiToken: "COMMENTS_API_TOKEN",
} as const;

/**
 * Checks the three values and finds the endpoint: the service's base URL, or a URL already ending
 * in /api/comments. Problems are added to `problems`, worded by option name; the token is never
 * quoted.
 */
export function checkCredentials(
  values: { domain: string; apiUrl: string; apiToken: string },
  problems: string[],
): Credentials {
  const { domain, apiUrl, apiToken } = values;
  if (/[\s/]/.test(domain) || domain.includes("://"))
    problems.push(`"domain" must be a bare domain like "example.com", not "${domain}"`);
  if (/[\s\u0000-\u001f\u007f]/.test(apiToken))
    problems.push(`"apiToken" contains whitespace or control characters; copy the token again`);
  let endpoint = new URL("http://invalid.invalid");
  try {
    const base = new URL(apiUrl);
    if (base.protocol !== "https:" && base.protocol !== "http:")
      problems.push(`"apiUrl" must be an http(s) URL, got ${base.protocol}`);
    if (base.username || base.password) problems.push(`"apiUrl" must not carry credentials; use apiToken`);
    base.search = "";
    base.hash = "";
    const path = base.pathname.replace(/\/+$/, "");
    base.pathname = path.endsWith("/api/comments") ? path : `${path}/api/comments`;
    endpoint = base;
  } catch {
    problems.push(`"apiUrl" must be an absolute URL like "https://go.jamcomments.com", got "${apiUrl}"`);
  }
  return { domain, endpoint, apiToken };
}

/** "A, B and C". */
export function listNames(names: readonly string[]): string {
  return names.length === 1 ? names[0]! : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
}

/**
 * The credentials in COMMENTS_DOMAIN, COMMENTS_API_URL and COMMENTS_API_TOKEN, for tools that run
 * without astro.config. Throws one error naming every missing or bad variable.
 */
export function credentialsFromEnv(env: Record<string, string | undefined>): Credentials {
  const values = {
    domain: env[envNames.domain]?.trim() ?? "",
    apiUrl: env[envNames.apiUrl]?.trim() ?? "",
    apiToken: env[envNames.apiToken]?.trim() ?? "",
  };
  const missing = (Object.keys(values) as Array<keyof typeof values>)
    .filter((key) => values[key] === "")
    .map((key) => envNames[key]);
  if (missing.length > 0) throw new Error(EnvCredentialsMissing.message(listNames(missing)));
  const problems: string[] = [];
  const credentials = checkCredentials(values, problems);
  if (problems.length > 0) {
    const byVariable = problems.map((problem) =>
      problem.replace(/^"(domain|apiUrl|apiToken)"/, (_, key: keyof typeof envNames) => envNames[key]),
    );
    throw new Error(EnvCredentialsInvalid.message(byVariable));
  }
  return credentials;
}
