// The integration (loaded by Node for astro.config) and the loader (loaded by Vite) are two
// instances of this package in one process, sharing the rate-limit gate through globalThis. Here
// the two are real: the built package, and a copy of it in another folder.
import { cpSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serve } from "./helpers/servers.ts";

type Errors = typeof import("../src/errors.ts");
type Client = typeof import("../src/api/http-client.ts");
type Gate = typeof import("../src/api/rate-limit-gate.ts");
type Refusals = typeof import("../src/api/refusals.ts");
interface Instance {
  errors: Errors;
  client: Client;
  gate: Gate;
  refusals: Refusals;
}

const packageDir = fileURLToPath(new URL("../", import.meta.url));
const copyDir = mkdtempSync(join(tmpdir(), "ac-second-copy-"));
const load = async (dist: string): Promise<Instance> => ({
  errors: (await import(pathToFileURL(join(dist, "errors.js")).href)) as Errors,
  client: (await import(pathToFileURL(join(dist, "api/http-client.js")).href)) as Client,
  gate: (await import(pathToFileURL(join(dist, "api/rate-limit-gate.js")).href)) as Gate,
  refusals: (await import(pathToFileURL(join(dist, "api/refusals.js")).href)) as Refusals,
});

let integration: Instance;
let loader: Instance;
beforeAll(async () => {
  cpSync(join(packageDir, "dist"), join(copyDir, "dist"), { recursive: true });
  writeFileSync(join(copyDir, "package.json"), '{ "type": "module" }\n');
  symlinkSync(join(packageDir, "../../node_modules"), join(copyDir, "node_modules"), "dir");
  integration = await load(join(packageDir, "dist"));
  loader = await load(join(copyDir, "dist"));
});
afterAll(() => rmSync(copyDir, { recursive: true, force: true }));

describe("errors across two instances of the package", () => {
  it("are two instances: the classes differ", () => {
    expect(loader.errors.CommentsApiError).not.toBe(integration.errors.CommentsApiError);
  });

  it("instanceof holds for each error class whichever copy threw it, and a subclass stays apart", () => {
    const apiError = new integration.errors.CommentsApiError({
      failure: "network",
      url: "https://api.example/api/comments",
      message: "down",
      action: "Wait.",
    });
    const configError = new integration.errors.CommentsConfigError("astro-comments: bad.", "Hint.");
    const perPage = new integration.refusals.PerPageRefused(
      { failure: "invalid-request", url: "https://api.example/api/comments", message: "no", action: "Lower it." },
      100,
    );
    expect(apiError).toBeInstanceOf(loader.errors.CommentsApiError);
    expect(configError).toBeInstanceOf(loader.errors.CommentsConfigError);
    expect(perPage).toBeInstanceOf(loader.refusals.PerPageRefused);
    expect(perPage).toBeInstanceOf(loader.errors.CommentsApiError);
    expect(apiError).not.toBeInstanceOf(loader.refusals.PerPageRefused);
    expect(configError).not.toBeInstanceOf(loader.errors.CommentsApiError);
    expect(new Error("x")).not.toBeInstanceOf(loader.errors.CommentsApiError);
    expect((null as unknown) instanceof loader.errors.CommentsApiError).toBe(false);
  });

  it("a rate-limit budget overrun at the gate one copy made gives the other copy's designed message, not the gate's raw one", async () => {
    const server = await serve((_req, res) =>
      res
        .writeHead(429, { "content-type": "application/json", "retry-after": "3600" })
        .end('{"message":"Too Many Attempts."}'),
    );
    try {
      // As in a dev refresh: the integration's early fetch made the shared gate, the loader's client passes it.
      const clock = { now: () => performance.now(), sleep: async () => undefined, random: () => 0.5 };
      const gate = integration.gate.sharedGate(`${server.url} two-instances`, clock);
      expect(loader.gate.sharedGate(`${server.url} two-instances`, clock)).toBe(gate);
      const client = loader.client.createCommentsClient({
        endpoint: new URL("/api/comments", server.url),
        token: "tok-two-instances",
        domain: "example.com",
        timeoutMs: 30_000,
        connections: 1,
        maxResponseBytes: 1_000_000,
        gate,
        rateLimitBudget: { limitMs: 60_000, waitedMs: 0 },
        ...clock,
      });
      const error = await client.fetchPage(1, 10).then(
        () => undefined,
        (caught: unknown) => caught as Error,
      );
      await client.close();
      expect(error).toBeInstanceOf(integration.errors.CommentsApiError);
      expect(error).toMatchObject({ failure: "rate-limited", status: 429 });
      expect(error!.message).toMatch(
        /^astro-comments: the comments service's rate limit asks to wait 3600 s \(Retry-After\), more than the 60 s left of rateLimitWait .*Raise the rateLimitWait option/,
      );
      expect(error!.message).not.toContain("rate-limit wait budget exceeded");
    } finally {
      await server.close();
    }
  });
});
