// Installable by a site: the mock and the schema as `npm publish` put them on the run's registry
// (their prepack building from sources, see scripts/test-registry.ts), checked with publint and
// arethetypeswrong on the tarballs the registry serves, installed by name with a plain
// `npm install` into an empty folder (the footprint) and into a fresh Astro site with
// astro-comments from the same registry. There, every command of docs/mock-and-ci.md runs as the guide shows it, read
// from the guide itself (only a port changes, to a free one): the mock with the site's domain and
// a build and `astro dev` against it, both first-line readers, `record` and `verify` against a
// stand-in for the real service (a second mock with its own token), `--data`, the data file, the
// vitest test and both jobs of the CI workflow.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { CommentListResponse, CommentThread } from "@astro-comments/schema";
import { parse as parseYaml } from "yaml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  documentedSetup,
  footprint,
  npm,
  repoTool,
  run,
  writeSite,
  type Footprint,
  type RunResult,
  storedComment,
} from "../../packages/astro-comments/test/helpers/pack-sites.ts";
import { registry, spec, type PublishedPackage } from "../../packages/astro-comments/test/helpers/registry.ts";
import { loadMockData, startMockServer, type MockServer, type StoredComment } from "../src/index.ts";
import { freePort, start, type Started } from "./pack-helpers.ts";

const guidePath = fileURLToPath(new URL("../../docs/mock-and-ci.md", import.meta.url));
const guide = readFileSync(guidePath, "utf8");
const readme = readFileSync(fileURLToPath(new URL("../README.md", import.meta.url)), "utf8");
/** The stand-in for the real service: its domain and a token that must never show up. */
const REAL = { domain: "my-site.com", token: "tok-real-9c41e2d07a55" };
const SITE = "my-site.test";
/** What a plain install of the mock may add to an empty folder (Prism is most of it). */
const footprintBudget = { packages: 170, bytes: 55_000_000 };

/** The body of the guide's code block marked `<!-- test: name -->`. */
function block(name: string): string {
  const match = new RegExp(`^<!-- test: ${name} -->\\n\`\`\`[^\\n]*\\n([\\s\\S]*?)^\`\`\`$`, "m").exec(guide);
  if (!match) throw new Error(`docs/mock-and-ci.md has no code block marked <!-- test: ${name} -->`);
  return match[1]!;
}

const comment = (id: number, fields: Partial<StoredComment>) =>
  storedComment(id, { domain: REAL.domain, created_at: `2026-11-2${id}T10:00:00.000000Z`, ...fields });
const realComments: StoredComment[] = [
  comment(1, {
    name: "Ada Lovelace",
    content: "Thanks",
    html: '<p>Thanks, <strong>this helped</strong>.</p>\n<pre><code class="language-js">const answer = 42;</code></pre>',
  }),
  comment(2, { parentId: 1, name: "Grace Hopper", content: "Agreed", html: "<p>Agreed.</p>" }),
  comment(3, { status: "pending", name: "Not Yet", content: "held", html: "<p>held</p>" }),
  comment(4, { name: "Alan Turing", content: "Elsewhere", html: "<p>Elsewhere</p>", path: "/posts/other" }),
];

let real: MockServer;
let work: string;
let site: string;
let empty: string;
/** What was published, and the tarballs the registry serves (`npm pack <name>@<version>` builds nothing). */
let published: Record<"schema" | "mock", PublishedPackage & { tarball: string }>;
const installs: RunResult[] = [];
let prismBeforeTheMock: boolean;
let installed: Footprint;
const running = new Set<Started>();

/** Starts a command in the site (or `cwd`), stopped at the latest after all tests. */
function launch(command: string, args: string[], env: Record<string, string> = {}, cwd = site): Started {
  const started = start(command, args, cwd, env);
  running.add(started);
  return started;
}

async function stop(started: Started): Promise<void> {
  running.delete(started);
  await started.stop();
}

/** Runs a shell script of the guide in the site to its end, then stops what it left in the background. */
async function shell(
  script: string,
  env: Record<string, string> = {},
): Promise<{ code: number; output: string; stdout: string }> {
  const bash = launch("bash", ["-e", "-c", script], env);
  const code = await bash.exited;
  await stop(bash);
  return { code, output: bash.output(), stdout: bash.stdout() };
}

const firstLine = /^Comments API mock listening on (?<url>\S+) token=(?<token>\S+) domains=(?<domains>\S+)$/m;

async function threadsOf(url: string, token: string, domain: string): Promise<CommentThread[]> {
  const response = await fetch(`${url}/api/comments?domain=${domain}&per_page=100`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as CommentListResponse).data;
}

beforeAll(async () => {
  real = await startMockServer({ token: REAL.token, comments: realComments });
  work = mkdtempSync(join(tmpdir(), "comments-mock-pack-"));
  const fetched = await npm(["pack", spec("schema"), spec("mock-server")], work);
  if (fetched.code !== 0) throw new Error(`npm pack from the registry failed:\n${fetched.output}`);
  const { schema, "mock-server": mockServer } = registry().published;
  published = {
    schema: { ...schema, tarball: join(work, schema.filename) },
    mock: { ...mockServer, tarball: join(work, mockServer.filename) },
  };
  // The mock alone, as a plain `npm install` of its name brings it (the schema as its dependency).
  empty = join(work, "empty");
  writeSite(empty, { "package.json": `${JSON.stringify({ name: "empty", private: true }, null, 2)}\n` });
  installs.push(await npm(["install", spec("mock-server")], empty));
  installed = await footprint(empty);
  // A fresh Astro site with astro-comments, then the mock as the guide installs it from a registry.
  site = join(work, "site");
  writeSite(site, documentedSetup);
  installs.push(await npm(["install", "astro@7", spec("packages/astro-comments")], site));
  prismBeforeTheMock = existsSync(join(site, "node_modules/@stoplight"));
  installs.push(await npm(["install", "--save-dev", spec("mock-server")], site));
}, 20 * 60_000);

afterAll(async () => {
  await Promise.all([...running].map((started) => started.stop()));
  await real?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe("the published packages", () => {
  const manifest = (name: string) =>
    JSON.parse(readFileSync(join(empty, "node_modules", name, "package.json"), "utf8")) as Record<string, unknown> & {
      dependencies: Record<string, string>;
      bin?: Record<string, string>;
    };

  it("install by name with a plain npm install, no flags, the mock bringing the schema it names", () => {
    for (const install of installs) expect(install.code, install.output).toBe(0);
    expect(manifest("@astro-comments/mock-server").dependencies["@astro-comments/schema"]).toBe(
      published.schema.version,
    );
    expect(manifest("@astro-comments/schema").version).toBe(published.schema.version);
  });

  it("hold the built code, types, README and LICENSE, and nothing else", () => {
    expect(
      published.mock.files.filter((file) => !/^(dist\/.+\.(js|d\.ts)|README\.md|LICENSE|package\.json)$/.test(file)),
    ).toEqual([]);
    expect(
      published.schema.files.filter(
        (file) =>
          !/^(dist\/.+\.(js|d\.ts)|json\/[^/]+\.schema\.json|openapi\.yaml|README\.md|LICENSE|package\.json)$/.test(
            file,
          ),
      ),
    ).toEqual([]);
    for (const file of ["dist/index.js", "dist/index.d.ts", "dist/cli/comments-mock.js", "README.md", "LICENSE"])
      expect(published.mock.files).toContain(file);
    expect(published.schema.files).toContain("json/comments-mock-data.schema.json");
  });

  it("give the mock a comments-mock bin and no dependency on astro-comments or Astro", () => {
    const mock = manifest("@astro-comments/mock-server");
    expect(mock.bin).toEqual({ "comments-mock": "dist/cli/comments-mock.js" });
    expect(
      readFileSync(join(empty, "node_modules/@astro-comments/mock-server/dist/cli/comments-mock.js"), "utf8"),
    ).toMatch(/^#!\/usr\/bin\/env node\n/);
    expect(Object.keys(mock.dependencies).sort()).toEqual([
      "@astro-comments/schema",
      "@stoplight/prism-core",
      "@stoplight/prism-http",
      "fp-ts",
      "undici",
    ]);
    expect(existsSync(join(empty, "node_modules/astro"))).toBe(false);
    expect(existsSync(join(empty, "node_modules/astro-comments"))).toBe(false);
  });

  it("stay out of a site that only builds: astro-comments brings no Prism", () => {
    expect(prismBeforeTheMock).toBe(false);
  });

  it.each(["mock", "schema"] as const)("%s passes publint --strict", async (name) => {
    const result = await run(process.execPath, [repoTool("publint"), "run", published[name].tarball, "--strict"], work);
    expect(result.code, result.output).toBe(0);
    expect(result.output).toContain("All good!");
  });

  it("mock passes arethetypeswrong (esm-only)", async () => {
    const result = await run(
      process.execPath,
      [repoTool("@arethetypeswrong/cli"), published.mock.tarball, "--profile", "esm-only", "--format", "ascii"],
      work,
    );
    expect(result.code, result.output).toBe(0);
  });

  it("schema passes arethetypeswrong (esm-only) for its code entry points", async () => {
    // ./types has types and no code (import type only); the JSON and YAML entries are data files.
    const result = await run(
      process.execPath,
      [
        repoTool("@arethetypeswrong/cli"),
        published.schema.tarball,
        "--profile",
        "esm-only",
        "--exclude-entrypoints",
        "./types",
        "./openapi.yaml",
        "--format",
        "ascii",
      ],
      work,
    );
    expect(result.code, result.output).toBe(0);
  });

  it(`add at most ${footprintBudget.packages} packages and ${footprintBudget.bytes / 1e6} MB to an empty folder`, () => {
    const report = `the mock's install: ${installed.packages.size} packages, ${(installed.bytes / 1e6).toFixed(1)} MB in node_modules`;
    console.log(report);
    expect(installed.packages.size, report).toBeLessThanOrEqual(footprintBudget.packages);
    expect(installed.bytes, report).toBeLessThanOrEqual(footprintBudget.bytes);
  });
});

describe("the guide's commands, in a fresh Astro site", () => {
  it("marks every code block but sample output, so that each one is run here (Schemathesis's is parsed: schemathesis-recipe.test.ts)", () => {
    const blocks = [...guide.matchAll(/^(<!-- test: [\w-]+ -->\n)?```(\w*)\n[\s\S]*?^```$/gm)];
    expect(blocks.filter(([, marker, language]) => !marker && language !== "text").map(([text]) => text)).toEqual([]);
    expect(blocks.filter(([, marker]) => marker)).toHaveLength(16);
  });

  it("installs as the guide says for the registry: the mock as a development dependency", () => {
    // The tarball path of the guide's install block is tarball.test.ts's.
    expect(guide).toContain("`npm install --save-dev @astro-comments/mock-server` is all it");
    const { devDependencies } = JSON.parse(readFileSync(join(site, "package.json"), "utf8")) as {
      devDependencies: Record<string, string>;
    };
    expect(Object.keys(devDependencies)).toEqual(["@astro-comments/mock-server"]);
    expect(existsSync(join(site, "node_modules/@astro-comments/schema/package.json"))).toBe(true);
  });

  it("serves the site's own domain, and the site builds and runs `astro dev` against it", {
    timeout: 300_000,
  }, async () => {
    const port = String(await freePort());
    const [command, ...args] = block("serve").trim().replaceAll("4010", port).split(" ") as [string, ...string[]];
    const mock = launch(command, args);
    try {
      const [line] = await mock.waitFor(firstLine);
      expect(guide).toContain(`\`\`\`text\n${line.replaceAll(port, "4010")}\n\`\`\``);

      const build = await shell(block("build").replaceAll("4010", port));
      expect(build.code, build.output).toBe(0);
      expect(build.output).toMatch(/\[astro-comments\] [\d,]+ comments/);
      const html = readFileSync(join(site, "dist/posts/hello-world/index.html"), "utf8");
      expect(html).toMatch(/data-comment-author[^>]*>Jane Doe</);

      writeFileSync(join(site, ".env.development"), block("env-development").replaceAll("4010", port));
      // On a port of its own: Astro's default may be taken on this machine, on one of 127.0.0.1 and ::1.
      const [devCommand, ...devArgs] = `${block("dev").trim()} --port ${await freePort()}`.split(" ") as [
        string,
        ...string[],
      ];
      const dev = launch(devCommand, devArgs);
      try {
        const [, local] = await dev.waitFor(/Local\s+(http:\/\/\S+)/);
        const page = await (await fetch(new URL("/posts/hello-world", local))).text();
        expect(page).toMatch(/data-comment-author[^>]*>Jane Doe</);
      } finally {
        await stop(dev);
        rmSync(join(site, ".env.development"));
      }
    } finally {
      await stop(mock);
    }
  });

  it("reads the first line from a shell script, builds against the mock and stops it, whatever log an earlier run left", {
    timeout: 300_000,
  }, async () => {
    rmSync(join(site, "dist"), { recursive: true, force: true });
    // An earlier run's log, naming a mock that is gone: it must not pass for this run's.
    const stale = "Comments API mock listening on http://127.0.0.1:9 token=stale-token domains=stale.test\n";
    writeFileSync(join(site, "mock.log"), stale);
    const bash = launch("bash", ["-e", "-c", block("first-line-shell")]);
    expect(await bash.exited, bash.output()).toBe(0);
    // Its output ends only when the mock, which shares it, has stopped too.
    await bash.closed;
    running.delete(bash);
    const [line] = readFileSync(join(site, "mock.log"), "utf8").split("\n");
    const url = firstLine.exec(line!)?.groups?.url;
    expect(url, line).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(url).not.toBe("http://127.0.0.1:9");
    expect(bash.output()).toContain(`[astro-comments] fetching comments of my-site.test from ${url}/api/comments`);
    expect(readFileSync(join(site, "dist/posts/hello-world/index.html"), "utf8")).toMatch(
      /data-comment-author[^>]*>Jane Doe</,
    );
  });

  it("reads the first line from Node, and stops the mock", { timeout: 120_000 }, async () => {
    const script = block("first-line-node");
    writeFileSync(join(site, script.split("\n")[0]!.replace("// ", "")), script);
    const node = launch("node", ["start-mock.mjs"]);
    expect(await node.exited, node.output()).toBe(0);
    await node.closed;
    running.delete(node);
    expect(node.stdout()).toMatch(
      /^COMMENTS_API_URL=http:\/\/127\.0\.0\.1:\d+ COMMENTS_API_TOKEN=mock-token COMMENTS_DOMAIN=my-site\.test\n$/,
    );
  });

  it("records the real comments with the credentials in .env, the token nowhere", { timeout: 120_000 }, async () => {
    const env = block("env").replace("https://go.jamcomments.com", real.url).replace("your-api-token", REAL.token);
    expect(env).toContain(`COMMENTS_DOMAIN=${REAL.domain}`);
    writeFileSync(join(site, ".env"), env);
    const { code, output } = await shell(block("record"));
    expect(code, output).toBe(0);
    expect(output).toMatch(
      /^comments-mock record: saved 2 comments and 1 reply of my-site\.com from http:\/\/127\.0\.0\.1:\d+\/api\/comments to .*fixtures\/comments\.json/m,
    );
    expect(output).not.toContain(REAL.token);
    const file = readFileSync(join(site, "fixtures/comments.json"), "utf8");
    expect(file).not.toContain(REAL.token);
    expect((JSON.parse(file) as { comments: CommentThread[] }).comments).toEqual(real.store.threads(REAL.domain));
  });

  it("serves the recording under the site's domain", { timeout: 120_000 }, async () => {
    const port = String(await freePort());
    const [command, ...args] = block("serve-data").trim().replaceAll("4010", port).split(" ") as [string, ...string[]];
    const mock = launch(command, args);
    try {
      const match = await mock.waitFor(firstLine);
      expect(match.groups!.domains).toBe(SITE);
      expect(await threadsOf(match.groups!.url!, match.groups!.token!, SITE)).toEqual(real.store.threads(REAL.domain));
    } finally {
      await stop(mock);
    }
  });

  it("loads and serves the data file shown, approved comments only", async () => {
    const data = loadMockData(JSON.parse(block("data-file")) as never);
    const mock = await startMockServer({ data });
    try {
      const threads = await threadsOf(mock.url, mock.token, data.domain);
      expect(threads.map((thread) => [thread.name, thread.children.map((reply) => reply.name)])).toEqual([
        ["Ada Lovelace", ["Grace Hopper"]],
      ]);
    } finally {
      await mock.close();
    }
    // The package README shows the same format.
    const readmeData = /^```json\n([\s\S]*?)^```$/m.exec(readme)![1]!;
    expect(() => loadMockData(JSON.parse(readmeData) as never)).not.toThrow();
  });

  it("runs the vitest test shown (and the README's) against the recording", { timeout: 600_000 }, async () => {
    const test = block("vitest");
    mkdirSync(join(site, "test"), { recursive: true });
    writeFileSync(join(site, test.split("\n")[0]!.replace("// ", "")), test);
    writeFileSync(join(site, "test/api.test.ts"), /^```ts\n([\s\S]*?)^```$/m.exec(readme)![1]!);
    const { code, output } = await shell(block("vitest-run"));
    expect(code, output).toBe(0);
    expect(output).toMatch(/Tests\s+2 passed \(2\)/);
  });

  it("runs the workflow: the pull-request job against the mock, the nightly job against the service", {
    timeout: 600_000,
  }, async () => {
    const workflow = parseYaml(block("workflow")) as {
      on: Record<string, unknown>;
      jobs: Record<string, { if: string; steps: Array<{ uses?: string; run?: string; env?: Record<string, string> }> }>;
    };
    expect(Object.keys(workflow.on).sort()).toEqual(["pull_request", "push", "schedule", "workflow_dispatch"]);
    const { build, contract } = workflow.jobs as Record<"build" | "contract", (typeof workflow.jobs)[string]>;
    expect(build.if).toBe("github.event_name != 'schedule'");
    expect(contract.if).toBe("github.event_name == 'schedule' || github.event_name == 'workflow_dispatch'");
    // Pull requests from forks get no secrets: the job they run must need none.
    expect(JSON.stringify(build)).not.toMatch(/secrets\./);
    for (const job of [build, contract])
      expect(job.steps.slice(0, 3).map((step) => step.uses ?? step.run)).toEqual([
        "actions/checkout@v4",
        "actions/setup-node@v4",
        "npm ci",
      ]);

    // The steps after checkout, Node and `npm ci` (the site is installed), each in a subshell with its env, as Actions runs them.
    const script = (job: (typeof workflow.jobs)[string], values: Record<string, string>) =>
      job.steps
        .slice(3)
        .map(({ run: command, env = {} }) => {
          const exports = Object.entries(env).map(
            ([name, value]) =>
              `export ${name}='${value.replace(/\$\{\{ (\w+\.\w+) \}\}/g, (_, key: string) => values[key]!)}'`,
          );
          return `(\n${[...exports, command!].join("\n")}\n)`;
        })
        .join("\n");

    rmSync(join(site, "dist"), { recursive: true, force: true });
    const port = String(await freePort());
    const pullRequest = await shell(script(build, {}).replaceAll("4010", port));
    expect(pullRequest.code, pullRequest.output).toBe(0);
    expect(pullRequest.output).toMatch(
      new RegExp(
        `^Comments API mock listening on http://127\\.0\\.0\\.1:${port} token=mock-token domains=my-site\\.test$`,
        "m",
      ),
    );
    expect(pullRequest.output).toMatch(/Tests\s+2 passed \(2\)/);
    expect(readFileSync(join(site, "dist/posts/hello-world/index.html"), "utf8")).toMatch(
      /data-comment-author[^>]*>Ada Lovelace</,
    );

    const values = {
      "vars.COMMENTS_API_URL": real.url,
      "vars.COMMENTS_DOMAIN": REAL.domain,
      "secrets.COMMENTS_API_TOKEN": REAL.token,
    };
    const nightly = await shell(script(contract, values));
    expect(nightly.code, nightly.output).toBe(0);
    expect(nightly.output).toMatch(
      /^comments-mock verify: OK: .* for my-site\.com conforms to the contract: no differences \(1 response, 3 comments checked\)$/m,
    );
    expect(nightly.output).not.toContain(REAL.token);
  });

  it("verifies the real service with the credentials in .env", { timeout: 120_000 }, async () => {
    const { code, stdout, output } = await shell(block("verify"));
    expect(code, output).toBe(0);
    expect(stdout).toBe(
      `comments-mock verify: OK: ${real.url}/api/comments for my-site.com conforms to the contract: no differences (1 response, 3 comments checked)\n`,
    );
    expect(output).not.toContain(REAL.token);
  });

  it("shows in the package README only commands the guide runs", () => {
    const commands = [...readme.matchAll(/^```sh\n([\s\S]*?)^```$/gm)]
      .flatMap((match) => match[1]!.trim().split("\n"))
      // A shell comment says which command is for when; it runs nothing.
      .filter((line) => !line.startsWith("#"));
    expect(commands.length).toBeGreaterThan(3);
    // A command of the guide's, or a prefix of one (the guide adds --port), or quoted in its prose.
    expect(commands.filter((command) => !guide.includes(command))).toEqual([]);
  });
});
