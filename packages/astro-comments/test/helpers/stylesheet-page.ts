// The package's stylesheet in Chromium, without a build: for tests of what the CSS alone does to a
// section marked up as <Comments> marks it.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll } from "vitest";
import { chromiumMissing, chromiumPath, chromiumRequired, launchChromium } from "./chromium.ts";

export const stylesheet = readFileSync(fileURLToPath(new URL("../../styles/comments.css", import.meta.url)), "utf8");

/** Skip where there is no Chromium, except in CI, where a missing Chromium fails instead. */
export const chromiumSkipped = chromiumMissing !== undefined && !chromiumRequired;

/**
 * One Chromium for the calling file: launched before its tests, closed after them. Called at the
 * top of the file, beside `describe.skipIf(chromiumSkipped)`: where that skips, it launches nothing.
 */
export function suiteChromium(): () => Browser {
  let browser: Browser | undefined;
  if (chromiumSkipped) return () => browser!;
  beforeAll(async () => {
    if (!chromiumPath) throw new Error(chromiumMissing);
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });
  return () => browser!;
}
