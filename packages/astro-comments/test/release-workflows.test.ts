// The GitHub Actions workflows and the Changesets setup, as far as they can be checked without
// GitHub or an npm account (CONTRIBUTING.md#releasing): the YAML parses, every command a workflow
// runs is an npm script this repository has, every program those scripts call is installed by a
// dependency, the Node they set up satisfies every package's engines, each action is pinned; and
// `changeset version`, run for real on a copy of the manifests, bumps and writes changelogs as the
// release pull request would.
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { parseDocument } from "yaml";

const repoRoot = fileURLToPath(new URL("../../../", import.meta.url));

interface Step {
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
  env?: Record<string, unknown>;
}
interface Workflow {
  on: Record<string, unknown>;
  permissions?: Record<string, string>;
  env?: Record<string, unknown>;
  jobs: Record<
    string,
    {
      if?: string;
      "runs-on": string;
      permissions?: Record<string, string>;
      env?: Record<string, unknown>;
      steps: Step[];
    }
  >;
}
interface Manifest {
  name: string;
  version: string;
  private?: boolean;
  workspaces?: string[];
  scripts?: Record<string, string>;
  bin?: string | Record<string, string>;
  devDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  engines?: { node?: string };
  dependencies?: Record<string, string>;
  repository?: { url: string };
}

const readJson = <T>(path: string) => JSON.parse(readFileSync(join(repoRoot, path), "utf8")) as T;
const rootManifest = readJson<Manifest>("package.json");
const workspaces = rootManifest.workspaces ?? [];

function readWorkflow(name: string): { text: string; workflow: Workflow } {
  const text = readFileSync(join(repoRoot, ".github/workflows", name), "utf8");
  const document = parseDocument(text, { prettyErrors: false });
  if (document.errors.length > 0) throw new Error(`${name}: ${document.errors.map(String).join("; ")}`);
  return { text, workflow: document.toJS() as Workflow };
}

const workflows = ["ci.yml", "release.yml"].map((name) => ({ name, ...readWorkflow(name) }));
const steps = (workflow: Workflow) => Object.values(workflow.jobs).flatMap((job) => job.steps);

/** The shell commands a workflow runs: each `run:` line, and changesets/action's version and publish commands. */
function commandsOf(workflow: Workflow): string[] {
  return steps(workflow)
    .flatMap((step) => [
      step.run,
      ...(step.uses?.startsWith("changesets/action@") ? [step.with?.version, step.with?.publish] : []),
    ])
    .filter((command): command is string => typeof command === "string")
    .flatMap((command) => command.split(/\n|&&|;/))
    .map((command) => command.trim())
    .filter(Boolean);
}

/** The npm script a command runs (`npm test`, `npm run x`), or undefined when it runs none. */
function scriptOf(command: string): string | undefined {
  const match = /^npm (?:run(?:-script)? (\S+)|(test|start|stop|restart))\b/.exec(command);
  return match ? (match[1] ?? match[2]) : undefined;
}

/** The programs the root devDependencies and optionalDependencies put in node_modules/.bin. */
function installedBins(): Set<string> {
  const names = Object.keys({ ...rootManifest.devDependencies, ...rootManifest.optionalDependencies });
  return new Set(
    names.flatMap((name) => {
      const path = join(repoRoot, "node_modules", name, "package.json");
      if (!existsSync(path)) return [];
      const { bin } = JSON.parse(readFileSync(path, "utf8")) as Manifest;
      return typeof bin === "string" ? [name.split("/").pop()!] : Object.keys(bin ?? {});
    }),
  );
}

/** "a.b.c" as numbers, for a version or the bound of an engines range written ">=a.b.c". */
function versionParts(version: string): number[] {
  const match = /^(?:>=)?(\d+)\.(\d+)\.(\d+)$/.exec(String(version).trim());
  if (!match) throw new Error(`expected a version a.b.c or a range >=a.b.c, got ${version}`);
  return match.slice(1).map(Number);
}
const atLeast = (version: string, minimum: string) => {
  const [have, need] = [versionParts(version), versionParts(minimum)];
  const index = have.findIndex((part, i) => part !== need[i]);
  return index === -1 || have[index]! > need[index]!;
};

describe.each(workflows)("the workflow $name", ({ text, workflow }) => {
  it("runs only npm scripts this repository has, and programs the runner or a path provides", () => {
    const commands = commandsOf(workflow);
    expect(commands.length).toBeGreaterThan(0);
    const unknown = commands.filter((command) => {
      if (command === "npm ci" || command.startsWith("npm ci ")) return false;
      const script = scriptOf(command);
      if (script !== undefined) return !(script in (rootManifest.scripts ?? {}));
      // Anything else is a program of the runner's image, named by its absolute path.
      return !command.startsWith("/");
    });
    expect(unknown).toEqual([]);
  });

  it("calls, through those scripts, only programs that a dependency installs, and files that exist", () => {
    const bins = installedBins();
    const problems: string[] = [];
    const seen = new Set<string>();
    const visit = (script: string) => {
      if (seen.has(script)) return;
      seen.add(script);
      for (const command of (rootManifest.scripts?.[script] ?? "").split(/&&|;|\|\|/).map((part) => part.trim())) {
        const [program, first] = command.split(/\s+/);
        if (program === "npm") {
          const called = scriptOf(command);
          if (called === undefined) continue;
          if (called in (rootManifest.scripts ?? {})) visit(called);
          else problems.push(`${script}: npm script ${called} does not exist`);
        } else if (program === "bash" || program === "node") {
          if (first && !first.startsWith("-") && !existsSync(join(repoRoot, first)))
            problems.push(`${script}: ${first} does not exist`);
          if (program === "node" && !bins.has("node")) problems.push(`${script}: no dependency installs node`);
        } else if (!bins.has(program!)) problems.push(`${script}: no root dependency installs ${program}`);
      }
    };
    for (const command of commandsOf(workflow)) {
      const script = scriptOf(command);
      if (script) visit(script);
    }
    expect(seen.size).toBeGreaterThan(0);
    expect(problems).toEqual([]);
  });

  it("sets up a Node that every package's engines accept", () => {
    const nodes = steps(workflow)
      .filter((step) => step.uses?.startsWith("actions/setup-node@"))
      .map((step) => String(step.with?.["node-version"]));
    expect(nodes.length).toBeGreaterThan(0);
    const engines = [".", ...workspaces]
      .map((dir) => readJson<Manifest>(join(dir, "package.json")).engines?.node)
      .filter((range): range is string => range !== undefined);
    expect(engines.length).toBeGreaterThan(1);
    for (const node of nodes) for (const range of engines) expect(atLeast(node, range), `${node} ${range}`).toBe(true);
  });

  it("pins each action to a commit, with the version it is in a comment", () => {
    const uses = text.split("\n").filter((line) => /^\s*-?\s*uses:/.test(line));
    expect(uses.length).toBeGreaterThan(0);
    expect(uses.filter((line) => !/uses: [\w.-]+\/[\w.-]+@[0-9a-f]{40} # v\d+\.\d+\.\d+$/.test(line))).toEqual([]);
  });
});

describe("the CI workflow", () => {
  const { workflow } = workflows[0]!;

  it("runs the README's test command on pushes and pull requests, with a browser the tests must use", () => {
    expect(Object.keys(workflow.on).sort()).toEqual(["pull_request", "push"]);
    expect(commandsOf(workflow).at(-1)).toBe("npm test");
    expect(readFileSync(join(repoRoot, "README.md"), "utf8")).toMatch(/^npm test\b/m);
    // CI=true makes a missing browser fail the browser tests instead of skipping them.
    expect(workflow.env).toMatchObject({ CI: true, CHROMIUM_PATH: expect.stringMatching(/^\//) });
    expect(workflow.permissions).toEqual({ contents: "read" });
  });
});

describe("the release workflow", () => {
  const { workflow } = workflows[1]!;
  const [job] = Object.values(workflow.jobs);

  it("versions and publishes with Changesets, with npm provenance, from this repository only", () => {
    expect(Object.keys(workflow.on)).toEqual(["push"]);
    expect(workflow.permissions).toEqual({});
    expect(job!.permissions).toEqual({ contents: "write", "pull-requests": "write", "id-token": "write" });
    const action = job!.steps.find((step) => step.uses?.startsWith("changesets/action@"));
    expect(action?.with).toMatchObject({ version: "npm run release:version", publish: "npm run release:publish" });
    expect(action?.env).toMatchObject({ NPM_CONFIG_PROVENANCE: true });
    // Changesets reads the history to tell which commit added each changeset.
    expect(job!.steps.find((step) => step.uses?.startsWith("actions/checkout@"))?.with).toMatchObject({
      "fetch-depth": 0,
    });
    const repository = readJson<Manifest>("packages/astro-comments/package.json").repository?.url;
    expect(job!.if).toBe(
      `\${{ github.repository == '${/github\.com\/([^/]+\/[^/.]+)/.exec(repository ?? "")?.[1]}' }}`,
    );
  });
});

describe("Changesets", () => {
  const config = readJson<{
    $schema: string;
    changelog: string;
    access: string;
    baseBranch: string;
    privatePackages: { version: boolean; tag: boolean };
  }>(".changeset/config.json");
  const work = mkdtempSync(join(tmpdir(), "astro-comments-changesets-"));
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it("has a config for the installed Changesets, with its changelog generator, for public packages on main", () => {
    const installed = readJson<Manifest>("node_modules/@changesets/config/package.json").version;
    expect(config.$schema).toBe(`https://unpkg.com/@changesets/config@${installed}/schema.json`);
    expect(() => createRequire(join(repoRoot, ".changeset/config.json")).resolve(config.changelog)).not.toThrow();
    expect(config).toMatchObject({
      access: "public",
      baseBranch: "main",
      privatePackages: { version: false, tag: false },
    });
  });

  it("`changeset version` bumps a package, what depends on it at an exact version, and writes their changelogs", () => {
    // The manifests, changelogs and config in a directory of their own, as the release pull request
    // sees them; the installed node_modules is shared, read only.
    // (The lockfile tells Changesets that npm manages the workspaces.)
    for (const file of [
      "package.json",
      "package-lock.json",
      ".changeset/config.json",
      ...workspaces.flatMap((dir) => [join(dir, "package.json"), join(dir, "CHANGELOG.md")]),
    ]) {
      if (!existsSync(join(repoRoot, file))) continue;
      mkdirSync(dirname(join(work, file)), { recursive: true });
      cpSync(join(repoRoot, file), join(work, file));
    }
    symlinkSync(join(repoRoot, "node_modules"), join(work, "node_modules"), "junction");
    writeFileSync(
      join(work, ".changeset/schema-fix.md"),
      '---\n"@astro-comments/schema": patch\n---\n\nThe pagination schema accepts a `null` link.\n',
    );
    const before = (dir: string) => readJson<Manifest>(join(dir, "package.json"));
    const after = (dir: string) => JSON.parse(readFileSync(join(work, dir, "package.json"), "utf8")) as Manifest;
    const bump = (version: string) => version.replace(/\d+$/, (patch) => String(Number(patch) + 1));

    const run = spawnSync(join(repoRoot, "node_modules/.bin/changeset"), ["version"], { cwd: work, encoding: "utf8" });
    expect(run.status, run.stderr + run.stdout).toBe(0);

    const schema = bump(before("schema").version);
    expect(after("schema").version).toBe(schema);
    // The mock names the schema at an exact version: it follows, with a patch of its own.
    expect(after("mock-server").dependencies?.["@astro-comments/schema"]).toBe(schema);
    expect(after("mock-server").version).toBe(bump(before("mock-server").version));
    expect(after("packages/astro-comments").version).toBe(before("packages/astro-comments").version);
    expect(after("examples/site")).toEqual(before("examples/site"));

    const changelog = readFileSync(join(work, "schema/CHANGELOG.md"), "utf8");
    expect(changelog.startsWith(`# @astro-comments/schema\n\n## ${schema}\n`)).toBe(true);
    expect(changelog).toContain("- The pagination schema accepts a `null` link.");
    expect(changelog).toContain(`## ${before("schema").version}`);
    expect(readFileSync(join(work, "mock-server/CHANGELOG.md"), "utf8")).toContain(`@astro-comments/schema@${schema}`);
    expect(existsSync(join(work, ".changeset/schema-fix.md"))).toBe(false);
  });
});
