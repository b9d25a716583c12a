// ASTRO_KEY and <CommentsIsland>, as docs/server-island.md states it (Astro 7.3.5, Node adapter):
// the key that counts is the build's. `astro build` encrypts the island's props with ASTRO_KEY (or a
// new key when it is unset) and writes that key into the server bundle; the server decrypts with
// it and never reads ASTRO_KEY. So a server answers its own build's island whatever key it is
// started with, and a page from one build works against another build's server only when both
// builds had the same ASTRO_KEY.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startMockServer, type MockServer } from "@astro-comments/mock-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { astroBuild, listFiles } from "./helpers/astro-cli.ts";
import { startNodeServer, type NodeServer } from "./helpers/processes.ts";
import { copySite, type SiteCopy } from "./helpers/site-copy.ts";

const DOMAIN = "empty.example";
const TOKEN = "tok-island-key-5b81d0";
const PAGE = "/posts/island/";
const fixture = fileURLToPath(new URL("./fixtures/island-site/", import.meta.url));
// Two AES-256 keys as `astro create-key` prints them (base64 of 32 bytes).
const KEY = Buffer.alloc(32, 7).toString("base64");
const OTHER_KEY = Buffer.alloc(32, 9).toString("base64");

let mock: MockServer;
let site: SiteCopy;
const env = () => ({ COMMENTS_DOMAIN: DOMAIN, COMMENTS_API_URL: mock.url, COMMENTS_API_TOKEN: TOKEN });
/** Each build's output folder: two deploys with ASTRO_KEY, one without. */
const builds: Record<"keyed" | "keyedAgain" | "unkeyed", string> = { keyed: "", keyedAgain: "", unkeyed: "" };
const servers: NodeServer[] = [];

async function build(name: keyof typeof builds, key: string): Promise<void> {
  const result = await astroBuild({ ...env(), ASTRO_KEY: key }, join(site.dir, `dist-${name}`), site.dir);
  if (result.code !== 0) throw new Error(`the build failed:\n${result.log}`);
  builds[name] = result.out;
}

/** A build's server, started with ASTRO_KEY set to `key` ("" for none). */
async function serve(name: keyof typeof builds, key: string): Promise<NodeServer> {
  const { ASTRO_KEY: _ignored, ...rest } = process.env;
  const server = await startNodeServer(join(builds[name], "server", "entry.mjs"), {
    ...rest,
    ...env(),
    ...(key ? { ASTRO_KEY: key } : {}),
  });
  servers.push(server);
  return server;
}

/** The island URL in a build's prerendered page (a GET: the props fit in the URL). */
function islandUrl(name: keyof typeof builds): string {
  const html = readFileSync(join(builds[name], "client", "posts", "island", "index.html"), "utf8");
  return /<link rel="preload" as="fetch" href="([^"]+)"/.exec(html)![1]!.replaceAll("&amp;", "&");
}

async function islandStatus(server: NodeServer, url: string): Promise<number> {
  const response = await fetch(new URL(url, server.url));
  await response.arrayBuffer();
  return response.status;
}

describe("ASTRO_KEY and the server island (Node adapter)", () => {
  beforeAll(async () => {
    mock = await startMockServer({ token: TOKEN, dataset: { seed: 26, size: 5 } });
    mock.addComment({ domain: DOMAIN, path: PAGE, name: "Before Build", content: "Here at build time" });
    site = copySite("island-key", fixture);
    await build("keyed", KEY);
    await build("keyedAgain", KEY);
    await build("unkeyed", "");
  }, 600_000);

  afterAll(async () => {
    await Promise.all(servers.map((server) => server.close()));
    await mock?.close();
    site?.remove();
  });

  it("writes the build's key into the server bundle, and no other", () => {
    const bundle = (name: keyof typeof builds) =>
      listFiles(join(builds[name], "server"))
        .filter((file) => file.endsWith(".mjs"))
        .map((file) => readFileSync(file, "utf8"))
        .join("\n");
    expect(bundle("keyed")).toContain(KEY);
    expect(bundle("unkeyed")).not.toContain(KEY);
    // The client side never gets it.
    for (const file of listFiles(join(builds.keyed, "client")))
      expect(readFileSync(file, "latin1"), file).not.toContain(KEY);
  });

  it("a server answers its own build's island whatever ASTRO_KEY it is started with: the same, another, none", async () => {
    const url = islandUrl("keyed");
    for (const key of [KEY, OTHER_KEY, ""]) expect(await islandStatus(await serve("keyed", key), url), key).toBe(200);
    // A build without ASTRO_KEY: a server started with one answers too.
    expect(await islandStatus(await serve("unkeyed", KEY), islandUrl("unkeyed"))).toBe(200);
  });

  it("a page from one build works against another build's server only when both builds had the same ASTRO_KEY", async () => {
    const page = islandUrl("keyed");
    // The second deploy's server, started without any key: what counts is its build's.
    expect(await islandStatus(await serve("keyedAgain", ""), page)).toBe(200);
    // Same key, yet another island URL: Astro encrypts with a new IV each build.
    expect(islandUrl("keyedAgain")).not.toBe(page);
    // A build without ASTRO_KEY made its own key: the older page's island is refused, even with
    // ASTRO_KEY set for its server.
    expect(await islandStatus(await serve("unkeyed", KEY), page)).toBe(400);
    expect(await islandStatus(await serve("keyed", ""), islandUrl("unkeyed"))).toBe(400);
  });
});
