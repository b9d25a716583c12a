// An on-demand page with live comments, end to end: a site with the Node adapter (standalone) is
// built, its server started on 127.0.0.1, and a comment approved after the build shows on the page.
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startMockServer, type MockServer } from "@astro-comments/mock-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { astroBuild } from "./helpers/astro-cli.ts";
import { copySite, type SiteCopy } from "./helpers/site-copy.ts";
import { startNodeServer, type NodeServer } from "./helpers/processes.ts";

const DOMAIN = "empty.example";
const fixture = fileURLToPath(new URL("./fixtures/live-site/", import.meta.url));

let mock: MockServer;
let site: SiteCopy;
let server: NodeServer | undefined;
let base: string;
let buildLog: string;

beforeAll(async () => {
  mock = await startMockServer({ dataset: { seed: 6, size: 10 } });
  mock.addComment({
    domain: DOMAIN,
    path: "/posts/live/",
    name: "Before Build",
    content: "Here at build time",
    created_at: "2026-04-01T10:00:00.000000Z",
  });
  // A path only the on-demand route renders: never reported as an orphan.
  mock.addComment({
    domain: DOMAIN,
    path: "/live/elsewhere",
    name: "On Demand",
    content: "Rendered per request",
    created_at: "2026-04-02T10:00:00.000000Z",
  });
  site = copySite("live", fixture);
  const env = { COMMENTS_DOMAIN: DOMAIN, COMMENTS_API_URL: mock.url, COMMENTS_API_TOKEN: mock.token };
  const build = await astroBuild(env, join(site.dir, "dist"), site.dir);
  if (build.code !== 0) throw new Error(`the build failed:\n${build.log}`);
  buildLog = build.log;
  server = await startNodeServer(join(build.out, "server", "entry.mjs"), { ...process.env, ...env });
  base = server.url;
}, 180_000);

afterAll(async () => {
  await server?.close();
  await mock?.close();
  site?.remove();
});

describe("live comments on an on-demand page", () => {
  it("counts paths that on-demand routes render as shown, not as orphans", () => {
    expect(buildLog).toContain("  /posts/live (1 comment): nearest built page /");
    expect(buildLog).not.toContain("/live/elsewhere (");
  });

  it("shows the comments the API has now, including one approved after the build", async () => {
    const before = await (await fetch(`${base}/live/posts/live`)).text();
    expect(before).toContain("Here at build time");
    expect(before).toContain("data-comments-total>(1)<");

    mock.addComment({ domain: DOMAIN, path: "/posts/live", name: "After Build", content: "Approved after the build" });
    const response = await fetch(`${base}/live/posts/live`);
    expect(response.status).toBe(200);
    const after = await response.text();
    expect(after).toContain("Approved after the build");
    expect(after).toContain("data-comments-total>(2)<");
    expect(after).toMatch(/<article[^>]*data-comment[^>]*>[\s\S]*After Build/);
  });
});
