// Prism's packages depend on @scarf/scarf, whose postinstall script reports every install of the
// mock. The README and the guide say how to turn it off; here each documented switch is used on a
// real install of the mock from the test run's registry, and the report is caught, on this
// machine: SCARF_LOCAL_PORT points the script at a server of ours on loopback (plain HTTP to
// localhost, the script's own test hook), so nothing leaves the machine either way. A plain
// install shows that the script would report; each switch, that it then does not.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { run, writeSite } from "../../packages/astro-comments/test/helpers/pack-sites.ts";
import { spec } from "../../packages/astro-comments/test/helpers/registry.ts";

const readme = readFileSync(fileURLToPath(new URL("../README.md", import.meta.url)), "utf8");
const guide = readFileSync(fileURLToPath(new URL("../../docs/mock-and-ci.md", import.meta.url)), "utf8");

/** Report bodies received, in order: the installs run one after another. */
const reports: string[] = [];
let server: Server;
let port: number;
let work: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString()));
    req.on("end", () => {
      if (req.method === "POST" && req.url === "/package-event/install") reports.push(body);
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
  work = mkdtempSync(join(tmpdir(), "comments-mock-scarf-"));
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  if (work) rmSync(work, { recursive: true, force: true });
});

/**
 * Installs the mock by name into a new folder named `name`, with `env` and npm `flags`; returns the
 * reports that install sent. `skipTraversal` makes the script report without first running
 * `npm ls` under its 3-second timeout, which a busy machine can miss: the opt-out it checks next
 * is the same either way.
 */
async function install(name: string, env: Record<string, string>, flags: string[] = []): Promise<string[]> {
  const folder = join(work, name);
  writeSite(folder, {
    "package.json": `${JSON.stringify({ name, private: true, scarfSettings: { skipTraversal: true } }, null, 2)}\n`,
  });
  const before = reports.length;
  const result = await run(
    "npm",
    [
      "--no-audit",
      "--no-fund",
      "--no-update-notifier",
      "--prefer-offline",
      "install",
      "--save-dev",
      ...flags,
      spec("mock-server"),
    ],
    folder,
    // No opt-out inherited from this machine: the documented switch is the only one.
    { SCARF_ANALYTICS: "", SCARF_NO_ANALYTICS: "", DO_NOT_TRACK: "", SCARF_LOCAL_PORT: String(port), ...env },
  );
  expect(result.code, result.output).toBe(0);
  return reports.slice(before);
}

describe("the analytics @scarf/scarf sends on install", () => {
  it("are documented, with both switches, in the README and the guide", () => {
    for (const text of [readme, guide]) {
      expect(text).toContain("@scarf/scarf");
      expect(text).toContain("SCARF_ANALYTICS=false");
      expect(text).toContain("--ignore-scripts");
    }
  });

  it("are sent by a plain install of the mock", { timeout: 600_000 }, async () => {
    const sent = await install("scarf-plain", {});
    expect(sent).toHaveLength(1);
    expect(JSON.parse(sent[0]!)).toMatchObject({
      libraryType: "npm",
      dependencyInfo: { parent: { name: "scarf-plain" } },
    });
  });

  it("are not sent with SCARF_ANALYTICS=false", { timeout: 600_000 }, async () => {
    expect(await install("scarf-opted-out", { SCARF_ANALYTICS: "false" })).toEqual([]);
  });

  it("are not sent with npm's --ignore-scripts, which runs no install script", { timeout: 600_000 }, async () => {
    expect(await install("scarf-no-scripts", {}, ["--ignore-scripts"])).toEqual([]);
  });
});
