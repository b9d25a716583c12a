// What `comments-mock verify` found in the service's responses, checked with the contract's strict
// validator: each difference is breaking (the client refuses the response, so a build fails) or
// tolerated (the client copes: a field the contract does not know, which it drops, or a number
// sent as a decimal string, which it reads as the number, as Laravel before 9.2 does). The same
// difference on many comments and pages is one finding, with a count.
import type { SchemaError } from "@astro-comments/schema";
import { jsonPath, valueAt } from "./json-path.ts";
import { escapeControlCharacters, isDecimalString, metaNumbers } from "./service-client.ts";

export type Verdict = "breaking" | "tolerated";

export interface Finding {
  verdict: Verdict;
  /** The first page where it was seen (token-free). */
  url: string;
  /** Its JSONPath there, e.g. $.data[3].created_at. */
  path: string;
  problem: string;
  /** Why the client copes, for a tolerated finding. */
  tolerance?: string;
  occurrences: number;
  pages: Set<string>;
}

// The meta numbers the client reads from decimal strings, by the client's own rule.
const metaNumber = new RegExp(`^/meta/(${metaNumbers.join("|")})$`);

const shown = (value: unknown) => {
  const text = value === undefined ? "nothing" : JSON.stringify(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
};
const article = (type: string) => (/^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`);

export class ContractReport {
  readonly #findings = new Map<string, Finding>();
  /** Response bodies checked. */
  bodies = 0;

  /** Records the differences Ajv found in one response body (the strict validator's errors). */
  check(url: string, body: unknown, errors: readonly SchemaError[]): void {
    this.bodies++;
    // One finding per value: Ajv reports a value once per rule it breaks (anyOf branches, format and pattern).
    const byValue = new Map<string, SchemaError[]>();
    for (const error of errors) {
      const pointer =
        error.keyword === "additionalProperties"
          ? `${error.instancePath}/${String(error.params.additionalProperty)}`
          : error.keyword === "required"
            ? `${error.instancePath}/${String(error.params.missingProperty)}`
            : error.instancePath;
      byValue.set(pointer, [...(byValue.get(pointer) ?? []), error]);
    }
    for (const [pointer, found] of byValue) this.#add(url, pointer, classify(pointer, found, valueAt(body, pointer)));
  }

  /** A breaking difference the client found beyond the schema (e.g. pagination that does not add up). */
  fail(url: string, problem: string): void {
    this.#add(url, "", { verdict: "breaking", problem, kind: problem });
  }

  get findings(): Finding[] {
    return [...this.#findings.values()].sort((a, b) =>
      a.verdict === b.verdict ? 0 : a.verdict === "breaking" ? -1 : 1,
    );
  }

  count(verdict: Verdict): number {
    return this.findings.filter((finding) => finding.verdict === verdict).length;
  }

  #add(url: string, pointer: string, found: Classified): void {
    // The same difference at the same place of every comment, on every page: one finding.
    const key = `${found.verdict} ${pointer.replace(/\/[0-9]+(?=\/|$)/g, "/*")} ${found.kind}`;
    const finding = this.#findings.get(key);
    if (finding) {
      finding.occurrences++;
      finding.pages.add(url);
      return;
    }
    this.#findings.set(key, {
      verdict: found.verdict,
      url,
      path: jsonPath(pointer),
      problem: found.problem,
      ...(found.tolerance ? { tolerance: found.tolerance } : {}),
      occurrences: 1,
      pages: new Set([url]),
    });
  }
}

interface Classified {
  verdict: Verdict;
  problem: string;
  tolerance?: string;
  /** What makes two occurrences the same finding, apart from where they are. */
  kind: string;
}

function classify(pointer: string, errors: readonly SchemaError[], value: unknown): Classified {
  const [first] = errors as [SchemaError];
  if (first.keyword === "additionalProperties") {
    const field = String(first.params.additionalProperty);
    return {
      verdict: "tolerated",
      problem: `a field the contract does not have ("${field}")`,
      tolerance: "the client drops it",
      kind: "unknown",
    };
  }
  if (metaNumber.test(pointer) && isDecimalString(value)) {
    return {
      verdict: "tolerated",
      problem: `a number sent as a string (${shown(value)})`,
      tolerance: "the client reads it as the number",
      kind: "decimal-string",
    };
  }
  if (first.keyword === "required") return { verdict: "breaking", problem: "missing", kind: "required" };
  const types = errors.filter((error) => error.keyword === "type").map((error) => String(error.params.type));
  if (types.length > 0) {
    return {
      verdict: "breaking",
      problem: `must be ${types.map(article).join(" or ")}, not ${shown(value)}`,
      kind: `type ${typeof value}`,
    };
  }
  const rule = errors.find((error) => error.keyword !== "anyOf") ?? first;
  if (rule.keyword === "const")
    return {
      verdict: "breaking",
      problem: `must be ${shown(rule.params.allowedValue)}, not ${shown(value)}`,
      kind: "const",
    };
  return {
    verdict: "breaking",
    problem: `${rule.message ?? `breaks the ${rule.keyword} rule`}, not ${shown(value)}`,
    kind: rule.keyword,
  };
}

/** One line of the report: `<page URL> <JSONPath>: <problem> (<verdict>[; repeats])`. */
export function findingLine(finding: Finding): string {
  const more =
    finding.occurrences > 1
      ? `; ${finding.occurrences} times on ${finding.pages.size} page${finding.pages.size === 1 ? "" : "s"}`
      : "";
  const verdict =
    finding.verdict === "breaking" ? "breaking: the client refuses this response" : `tolerated: ${finding.tolerance}`;
  // A path names the service's own keys, a problem may quote its values: one line, inert in a terminal.
  return escapeControlCharacters(`${finding.url} ${finding.path}: ${finding.problem} (${verdict}${more})`);
}
