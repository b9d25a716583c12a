// Vitest's global setup: one real npm registry (Verdaccio) for the whole run, on 127.0.0.1, with
// the three workspace packages published to it the way a release publishes them (`npm publish`,
// their prepack building from sources) and every other package proxied from the registry this
// machine's npm uses. The tests that install our packages install them by name and version from it
// (packages/astro-comments/test/helpers/registry.ts); it is given to them through `provide`.
// A run that queues no test file importing that helper starts no registry.
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { runServer } from "verdaccio";
import type { TestProject } from "vitest/node";

const root = fileURLToPath(new URL("..", import.meta.url));
const workspaces = ["schema", "mock-server", "packages/astro-comments"] as const;

/** What a published package looks like to the tests. */
export interface PublishedPackage {
  name: string;
  version: string;
  /** Paths inside the package, as npm publish listed them, sorted. */
  files: string[];
  /** The tarball's file name as `npm pack` of the same package writes it. */
  filename: string;
  /** The tarball's SHA-512, as npm reports it: equal for equal contents (npm fixes the dates). */
  integrity: string;
}

export interface TestRegistry {
  /** The registry's URL, ending in "/". */
  url: string;
  /** Where it proxies every package that is not ours. */
  upstream: string;
  /**
   * A folder of this run for the caches of package managers that key what they cache by name and
   * version (Yarn, Bun): a package of ours republished with other contents keeps its version.
   */
  cacheDir: string;
  published: Record<(typeof workspaces)[number], PublishedPackage>;
}

declare module "vitest" {
  export interface ProvidedContext {
    registry: TestRegistry | undefined;
  }
}

/** The environment of npm here: none of an enclosing `npm test`'s npm_* variables. */
function cleanEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key)));
}

function exec(command: string, args: string[], cwd: string): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile(command, args, { cwd, env: cleanEnv(), maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${command} ${args.join(" ")} in ${cwd} failed:\n${stdout}\n${stderr}`));
      else resolve(stdout);
    }),
  );
}

/** Whether a test file imports the helper that installs from the registry. */
export function installsFromRegistry(file: string): boolean {
  return /helpers\/registry\.ts["']/.test(readFileSync(file, "utf8"));
}

/** Whether a queued test file installs from the registry. */
function wanted(project: TestProject): boolean {
  const files = project.vitest.state.getPaths();
  return files.length === 0 || files.some(installsFromRegistry);
}

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  if (!wanted(project)) {
    project.provide("registry", undefined);
    return undefined;
  }
  const upstream = (await exec("npm", ["config", "get", "registry"], root)).trim();
  const dir = mkdtempSync(join(tmpdir(), "astro-comments-registry-"));
  const server = (await runServer({
    self_path: dir,
    storage: join(dir, "storage"),
    auth: { htpasswd: { file: join(dir, "htpasswd"), max_users: 1 } },
    // Metadata fetched once per run; tarballs are not kept, since every client caches them itself.
    uplinks: { upstream: { url: upstream, maxage: "60m", timeout: "120s", cache: false } },
    packages: {
      // Ours: never looked up upstream, only what this run published.
      "astro-comments": { access: "$all", publish: "$authenticated" },
      "@astro-comments/*": { access: "$all", publish: "$authenticated" },
      "**": { access: "$all", proxy: "upstream" },
    },
    max_body_size: "100mb",
    web: { enable: false },
    log: { type: "stdout", format: "pretty", level: "error" },
  })) as Server;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  const close = async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  };

  try {
    // A user of this registry only, whose token lives in a temporary .npmrc outside the repository.
    const user = await fetch(`${url}-/user/org.couchdb.user:release`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: "release", password: "release-only-for-this-run" }),
    });
    const { token } = (await user.json()) as { token?: string };
    if (!user.ok || !token) throw new Error(`the test registry refused to add a user (${user.status})`);
    const npmrc = join(dir, "publish.npmrc");
    writeFileSync(npmrc, `//${new URL(url).host}/:_authToken=${token}\n`);

    // `npm test` (scripts/run-tests.ts) has just built every package, and says so: their prepack
    // would only build the same dist again from clean, so the publish takes that build as it is.
    // tarball.test.ts packs each package from sources with its real prepack and checks that the
    // registry serves those very bytes.
    const reuseBuild = process.env.ASTRO_COMMENTS_PACKAGES_BUILT === "1";
    const publish = async (workspace: (typeof workspaces)[number]) => {
      const out = await exec(
        "npm",
        [
          "publish",
          "--json",
          ...(reuseBuild ? ["--ignore-scripts"] : []),
          // Provenance needs the OIDC token of a CI provider, which this machine is not.
          "--provenance=false",
          "--registry",
          url,
          "--userconfig",
          npmrc,
          "--no-update-notifier",
        ],
        join(root, workspace),
      );
      type Report = Omit<PublishedPackage, "files"> & { files: Array<{ path: string }> };
      // The prepack build may print before npm's JSON report.
      const json = JSON.parse(out.slice(out.search(/^\{/m))) as Report | Record<string, Report>;
      // npm 11 keys the report by the package's name when it publishes from inside a workspace.
      const report = "files" in json ? (json as Report) : Object.values(json as Record<string, Report>)[0]!;
      return [
        workspace,
        {
          name: report.name,
          version: report.version,
          filename: report.filename,
          integrity: report.integrity,
          files: report.files.map((file) => file.path).sort(),
        },
      ] as const;
    };
    // The mock's prepack typechecks against the schema's dist, which the schema's own prepack cleans
    // and rebuilds: without npm test's build the schema goes first. With it, all three at once.
    const first = reuseBuild ? [] : [await publish("schema")];
    const rest = await Promise.all(
      workspaces.filter((workspace) => !first.some(([done]) => done === workspace)).map(publish),
    );
    const published = Object.fromEntries([...first, ...rest]) as TestRegistry["published"];
    project.provide("registry", { url, upstream, cacheDir: join(dir, "caches"), published });
  } catch (error) {
    await close();
    throw error;
  }
  return close;
}
