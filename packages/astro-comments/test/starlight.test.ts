// The Starlight recipe (docs/starlight.md): a Starlight site and the package, both by name from the
// run's registry, and a Footer override that renders <Comments /> above Starlight's own footer. The site is the
// fixture in fixtures/starlight-site/, which the guide shows file by file; built against the mock.
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startMockServer, type MockServer, type StoredComment } from "@astro-comments/mock-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { npm, run, type RunResult, storedComment } from "./helpers/pack-sites.ts";
import { spec } from "./helpers/registry.ts";

const fixture = fileURLToPath(new URL("./fixtures/starlight-site/", import.meta.url));
const stylesheet = fileURLToPath(new URL("../styles/comments.css", import.meta.url));
const TOKEN = "tok-starlight-7a31c0";

const comment = (id: number, fields: Partial<StoredComment>) =>
  storedComment(id, { created_at: `2026-02-0${id}T09:30:00.000000Z`, path: "/guides/example/", ...fields });
const comments: StoredComment[] = [
  comment(1, { name: "Ada Lovelace", html: "<p>Step 2 needed <code>npm run build</code> first.</p>" }),
  comment(2, { parentId: 1, name: "Grace Hopper", html: "<p>Fixed in the guide, thanks.</p>" }),
  comment(3, { status: "pending", name: "Not Yet Moderated", html: "<p>held</p>" }),
];

let mock: MockServer;
let work: string;
let site: string;
let install: RunResult;
let build: RunResult | undefined;
const page = (path: string) => readFileSync(join(site, "dist", path, "index.html"), "utf8");

beforeAll(async () => {
  mock = await startMockServer({ token: TOKEN, comments });
  work = mkdtempSync(join(tmpdir(), "astro-comments-starlight-"));
  site = join(work, "site");
  cpSync(fixture, site, { recursive: true });
  // The fixture's package.json pins Astro and Starlight; the package comes by name and version.
  install = await npm(["install", spec("packages/astro-comments")], site);
  if (install.code !== 0) return;
  const env = { COMMENTS_DOMAIN: "example.com", COMMENTS_API_URL: mock.url, COMMENTS_API_TOKEN: TOKEN };
  build = await run(process.execPath, [join(site, "node_modules/astro/bin/astro.mjs"), "build"], site, env);
}, 15 * 60_000);

afterAll(async () => {
  await mock?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe("a Starlight site with the Footer override", () => {
  it("installs Starlight and astro-comments side by side with a plain npm install", () => {
    expect(install.code, install.output).toBe(0);
    expect(install.output).not.toMatch(/ERESOLVE|conflicting peer/i);
    const version = (name: string) =>
      (JSON.parse(readFileSync(join(site, "node_modules", name, "package.json"), "utf8")) as { version: string })
        .version;
    expect(version("@astrojs/starlight")).toBe("0.42.4");
    expect(version("astro")).toBe("7.3.5");
  });

  it("builds, the comments fetched once for the whole site", () => {
    expect(build?.code, build?.output ?? install.output).toBe(0);
    expect(build!.output).toMatch(/\[astro-comments\] 2 comments on 1 page:/);
    expect(build!.output).not.toMatch(/\[WARN\] \[astro-comments\]/);
  });

  it("shows a docs page's comments inside the page, above Starlight's footer", () => {
    const html = page("guides/example");
    const section = html.search(/<section[^>]*data-comments/);
    expect(section, "no comments section on /guides/example/").toBeGreaterThan(html.indexOf("<main"));
    expect(section).toBeLessThan(html.indexOf("<footer", section));
    expect(html.indexOf("</main>")).toBeGreaterThan(section);
    expect(html).toMatch(/data-comment-author[^>]*>Ada Lovelace</);
    expect(html).toMatch(/<ol[^>]*data-comment-replies[^>]*>[\s\S]*data-comment-author[^>]*>Grace Hopper</);
    expect(html).toContain("<code>npm run build</code>");
    expect(html).not.toContain("Not Yet Moderated");
  });

  it("takes no colour from the system's scheme alone, and the override sets properties the stylesheet reads", () => {
    // A colour left to prefers-color-scheme would stay dark on a page the reader switched to light.
    const source = readFileSync(stylesheet, "utf8");
    const media = [...source.matchAll(/@media \(prefers-color-scheme: dark\)\s*\{([\s\S]*?)\n\}/g)]
      .map((match) => match[1]!)
      .join("\n");
    expect(media).not.toMatch(/--ac-|(^|[\s;{])(color|background|border-color)\s*:/);
    const read = new Set([...source.matchAll(/var\((--ac-[\w-]+)/g)].map((match) => match[1]!));
    const assets = join(site, "dist/_astro");
    const css = readdirSync(assets)
      .filter((file) => file.endsWith(".css"))
      .map((file) => readFileSync(join(assets, file), "utf8"))
      .join("\n");
    const override = /\.comments[^{]*\.astro-comments\s*\{([^}]*)\}/.exec(css)?.[1] ?? "";
    const set = [...override.matchAll(/(--ac-[\w-]+):\s*var\(--sl-/g)].map((match) => match[1]!);
    expect(set.length).toBeGreaterThan(5);
    expect(set.filter((name) => !read.has(name))).toEqual([]);
  });

  it("leaves splash pages (the home page, the 404 page) without a comments section", () => {
    expect(page("")).toContain("A Starlight site whose docs pages show their comments.");
    expect(page("")).not.toMatch(/data-comments/);
    expect(readFileSync(join(site, "dist/404.html"), "utf8")).not.toMatch(/data-comments/);
  });
});
