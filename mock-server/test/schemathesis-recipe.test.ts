// The guide's Schemathesis recipe, checked without Schemathesis (it comes from PyPI, which this
// project's machines cannot reach): its `st run` line parses against the options of Schemathesis
// 4's CLI reference (docs/reference/cli.md, "run"), names the contract the mock ships, and sends
// the headers the contract asks for; the mock it starts, started with the same command, answers
// those headers with a 200. What Schemathesis would find is covered by contract-properties.test.ts.
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync, readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const guide = readFileSync(fileURLToPath(new URL("../../docs/mock-and-ci.md", import.meta.url)), "utf8");
const recipe = /^<!-- test: schemathesis -->\n```sh\n([\s\S]*?)^```$/m.exec(guide)?.[1] ?? "";

const checks = [
  "not_a_server_error",
  "status_code_conformance",
  "content_type_conformance",
  "response_headers_conformance",
  "response_schema_conformance",
  "negative_data_rejection",
  "positive_data_acceptance",
  "missing_required_header",
  "unsupported_method",
  "use_after_free",
  "ensure_resource_availability",
  "ignored_auth",
  "all",
];

type OptionValue = (value: string) => boolean;
const any: OptionValue = () => true;
const integer =
  (min: number): OptionValue =>
  (value) =>
    /^\d+$/.test(value) && Number(value) >= min;
const oneOf =
  (values: string[]): OptionValue =>
  (value) =>
    value.split(",").every((item) => values.includes(item));

/** `st run`'s options that take a value, from Schemathesis 4's CLI reference, with what each value must be. */
const valueOptions: Record<string, OptionValue> = {
  "--url": (value) => URL.canParse(value),
  "--workers": (value) => value === "auto" || integer(1)(value),
  "--phases": oneOf(["examples", "coverage", "fuzzing", "stateful"]),
  "--suppress-health-check": oneOf(["data_too_large", "filter_too_much", "too_slow", "large_base_example", "all"]),
  "--wait-for-schema": (value) => Number(value) >= 1,
  "--warnings": any,
  "--checks": oneOf(checks),
  "--exclude-checks": oneOf(checks),
  "--max-failures": integer(1),
  "--max-response-time": (value) => Number(value) > 0,
  "--header": (value) => /^[!#$%&'*+.^_`|~\w-]+:\s*\S/.test(value),
  "--auth": (value) => value.includes(":"),
  "--proxy": (value) => URL.canParse(value),
  "--tls-verify": any,
  "--rate-limit": (value) => /^(\d+|auto)\/\d*[smh]$/.test(value),
  "--max-redirects": integer(0),
  "--request-timeout": (value) => Number(value) > 0,
  "--request-retries": integer(0),
  "--request-cert": any,
  "--request-cert-key": any,
  "--report": oneOf(["junit", "vcr", "har", "ndjson"]),
  "--report-dir": any,
  "--report-junit-path": any,
  "--report-vcr-path": any,
  "--report-har-path": any,
  "--report-ndjson-path": any,
  "--output-sanitize": oneOf(["true", "false"]),
  "--output-truncate": oneOf(["true", "false"]),
  "--mode": oneOf(["positive", "negative", "all"]),
  "--max-examples": integer(1),
  "--seed": (value) => /^-?\d+$/.test(value),
  "--generation-allow-x00": oneOf(["true", "false"]),
  "--generation-codec": any,
  "--generation-database": any,
  "--generation-with-security-parameters": oneOf(["true", "false"]),
};
/** Its options that take no value. */
const flagOptions = new Set([
  "--continue-on-failure",
  "--exclude-deprecated",
  "--no-shrink",
  "--generation-deterministic",
  "--generation-unique-inputs",
  "--no-color",
  "--force-color",
]);
const shortOptions: Record<string, string> = {
  "-u": "--url",
  "-w": "--workers",
  "-c": "--checks",
  "-H": "--header",
  "-a": "--auth",
  "-m": "--mode",
  "-n": "--max-examples",
};

/** A shell line's words, as sh splits them (quotes and backslashes, no expansion): enough for a recipe. */
function shellWords(line: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (/\s/.test(c)) {
      if (word !== undefined) words.push(word);
      word = undefined;
      continue;
    }
    word ??= "";
    if (c === "'" || c === '"') {
      let j = i + 1;
      for (; j < line.length && line[j] !== c; j++) word += c === '"' && line[j] === "\\" ? line[++j] : line[j];
      if (j >= line.length) throw new Error(`an unclosed quote in: ${line}`);
      i = j;
    } else word += c === "\\" ? (line[++i] ?? "") : c;
  }
  if (word !== undefined) words.push(word);
  return words;
}

interface StRun {
  schema: string;
  options: Array<[string, string | true]>;
}

/** `st run` parsed as Schemathesis 4 would: every option known, every value of the right form. */
function parseStRun(words: string[]): StRun {
  expect(words.slice(0, 2)).toEqual(["st", "run"]);
  const options: Array<[string, string | true]> = [];
  const positional: string[] = [];
  for (let i = 2; i < words.length; i++) {
    const word = words[i]!;
    if (!word.startsWith("-")) {
      positional.push(word);
      continue;
    }
    const [given, inline] = word.startsWith("--") ? (word.split(/=(.*)/s, 2) as [string, string?]) : [word, undefined];
    const name = shortOptions[given] ?? given;
    if (flagOptions.has(name)) {
      options.push([name, true]);
      continue;
    }
    const check = valueOptions[name];
    if (!check) throw new Error(`st run has no option ${given}`);
    const value = inline ?? words[++i];
    if (value === undefined || !check(value)) throw new Error(`st run ${given} does not take ${JSON.stringify(value)}`);
    options.push([name, value]);
  }
  expect(positional, "st run takes one SCHEMA").toHaveLength(1);
  return { schema: positional[0]!, options };
}

const lines = recipe.split("\n").filter((line) => line.trim() !== "");
const stLine = lines.find((line) => line.startsWith("st run "));
const mockLine = lines.find((line) => line.startsWith("npx comments-mock "));
let mock: ChildProcess | undefined;
afterAll(async () => {
  if (mock && mock.exitCode === null) {
    mock.kill();
    await once(mock, "exit");
  }
});

describe("the guide's Schemathesis recipe", () => {
  it("installs Schemathesis, starts the mock and runs `st run` with every check", () => {
    expect(lines[0]).toBe("pip install schemathesis");
    expect(mockLine).toBeDefined();
    expect(stLine).toBeDefined();
  });

  it("parses against Schemathesis 4's `st run` options, and fails on one it does not have", () => {
    const run = parseStRun(shellWords(stLine!));
    const option = (name: string) => run.options.filter(([given]) => given === name).map(([, value]) => value);
    expect(option("--checks")).toEqual(["all"]);
    expect(option("--mode")).toEqual(["all"]);
    expect(option("--seed")).toHaveLength(1);
    expect(option("--url")).toEqual(["http://127.0.0.1:4010"]);
    expect(option("--header")).toEqual(["Authorization: Bearer mock-token", "Accept: application/json"]);
    // The schema the recipe names is the one the mock's dependency publishes.
    expect(run.schema).toBe("node_modules/@astro-comments/schema/openapi.yaml");
    const published = JSON.parse(readFileSync(new URL("../../schema/package.json", import.meta.url), "utf8")) as {
      files: string[];
    };
    expect(published.files).toContain("openapi.yaml");
    expect(existsSync(new URL("../../schema/openapi.yaml", import.meta.url))).toBe(true);

    expect(() => parseStRun(shellWords("st run openapi.yaml --hypothesis-max-examples 300"))).toThrow(/no option/);
    expect(() => parseStRun(shellWords("st run openapi.yaml --checks all,not_a_check"))).toThrow(/does not take/);
    expect(() => parseStRun(shellWords("st run openapi.yaml -H 'Accept'"))).toThrow(/does not take/);
    expect(shellWords(`st run a.yaml -H "X: a b" --seed=1`)).toEqual([
      "st",
      "run",
      "a.yaml",
      "-H",
      "X: a b",
      "--seed=1",
    ]);
  });

  it("starts a mock, with the recipe's own options, that answers the recipe's headers with a 200", async () => {
    const args = shellWords(mockLine!.replace(/\s*>.*$/, "")).slice(2);
    expect(args).toContain("--port");
    // Any free port instead of 4010, as a test must; the recipe's URL is checked above.
    args[args.indexOf("--port") + 1] = "0";
    mock = spawn(process.execPath, [fileURLToPath(new URL("../src/cli/comments-mock.ts", import.meta.url)), ...args], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    const [first] = (await once(createInterface({ input: mock.stdout! }), "line")) as [string];
    const url = /listening on (\S+)/.exec(first)?.[1];
    const domain = /domains=(\S+)/.exec(first)?.[1];
    expect(url).toBeDefined();
    const headers = Object.fromEntries(
      parseStRun(shellWords(stLine!))
        .options.filter(([name]) => name === "--header")
        .map(([, value]) => (value as string).split(/:\s*(.*)/s, 2) as [string, string]),
    );
    const answer = await fetch(`${url}/api/comments?domain=${domain}`, { headers });
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toBe("application/json");
  });
});
