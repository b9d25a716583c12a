// astro dev as a user runs it: comments at start, new approvals through the refresh endpoint
// without a restart, and a start while the API is down.
import { showcasePaths, startMockServer, type MockServer } from "@astro-comments/mock-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { astroDev } from "./helpers/astro-dev.ts";
import { copySite, type SiteCopy } from "./helpers/site-copy.ts";

let mock: MockServer;
let site: SiteCopy;
beforeAll(async () => {
  mock = await startMockServer();
  site = copySite("dev");
});
afterAll(async () => {
  await mock.close();
  site.remove();
});

const env = () => ({ COMMENTS_DOMAIN: "example.com", COMMENTS_API_URL: mock.url, COMMENTS_API_TOKEN: mock.token });
const articles = (html: string) => (html.match(/<article[^>]*data-comment[\s>]/g) ?? []).length;

describe("astro dev", () => {
  it("serves the comments fetched at start, and a newly approved one after a refresh, without a restart", async () => {
    const dev = await astroDev(site.dir, env());
    try {
      await dev.waitFor(/\[astro-comments\] [\d,]+ comments on \d+ pages/);
      const page = () => fetch(`${dev.url}${showcasePaths.hello}/`).then((response) => response.text());
      const before = await page();
      expect(articles(before), before.slice(0, 2000)).toBeGreaterThan(0);
      expect(before).not.toContain("Approved while the dev server ran");

      mock.addComment({
        domain: "example.com",
        path: `${showcasePaths.hello}/`,
        name: "Late Reader",
        content: "Approved while the dev server ran.",
      });
      expect((await fetch(`${dev.url}/_astro-comments/refresh`)).status).toBe(405);
      const refreshed = await fetch(`${dev.url}/_astro-comments/refresh`, { method: "POST" });
      expect(refreshed.status).toBe(200);
      expect(await refreshed.json()).toMatchObject({ stale: false });

      const after = await page();
      expect(after).toContain("Approved while the dev server ran.");
      expect(articles(after)).toBe(articles(before) + 1);
      expect(dev.log()).toMatch(/1 rendered, \d+ unchanged, 0 removed/);
      expect(dev.log()).not.toContain(mock.token);
    } finally {
      await dev.stop();
    }
  });

  it("starts from the earlier comments, with a warning, while the API is down", async () => {
    mock.setOutage("down");
    const dev = await astroDev(site.dir, env());
    try {
      await dev.waitFor(/\[WARN\] \[astro-comments\] showing the comments as of/);
      const html = await fetch(`${dev.url}${showcasePaths.hello}/`).then((response) => response.text());
      expect(html).toContain("Approved while the dev server ran.");
      expect(dev.log()).not.toMatch(/Stack trace|error/i);
    } finally {
      mock.setOutage("off");
      await dev.stop();
    }
  });
});
