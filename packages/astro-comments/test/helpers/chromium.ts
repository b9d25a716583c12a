// The Chromium the browser test drives, found the same way on every machine, and the one line
// both the test and scripts/run-tests.ts print when there is none.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { type Browser, chromium } from "playwright-core";

const { CHROMIUM_PATH, CI, PROGRAMFILES } = process.env;

const usualPaths = [
  "/usr/bin/chromium", // Debian (`apt-get install chromium`, what .ci/run installs)
  "/usr/bin/chromium-browser", // Ubuntu, Fedora
  "/usr/bin/google-chrome",
  "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
  "/Applications/Chromium.app/Contents/MacOS/Chromium",
  ...(PROGRAMFILES ? [join(PROGRAMFILES, "Google", "Chrome", "Application", "chrome.exe")] : []),
];

/** CI must not lose the browser test silently; elsewhere a missing Chromium only skips it. */
export const chromiumRequired = CI === "true" || CI === "1";

/**
 * CHROMIUM_PATH if set, else the first usual install path that exists. A CHROMIUM_PATH that does
 * not exist is not replaced by a usual path: the developer asked for that browser.
 */
export const chromiumPath: string | undefined = CHROMIUM_PATH
  ? existsSync(CHROMIUM_PATH)
    ? CHROMIUM_PATH
    : undefined
  : usualPaths.find((path) => existsSync(path));

/** Why the browser test cannot run and how to fix it, in one line; undefined when Chromium is there. */
export const chromiumMissing: string | undefined = chromiumPath
  ? undefined
  : `browser test ${chromiumRequired ? "failed (CI=true requires it)" : "skipped"}: ${CHROMIUM_PATH ? `CHROMIUM_PATH=${CHROMIUM_PATH} does not exist` : "no Chromium found"}; install it with \`apt-get install chromium\` or set CHROMIUM_PATH to a Chromium or Chrome executable`;

/**
 * The Chromium every browser test drives: headless, without the sandbox (containers run as root)
 * or a GPU, and with no network traffic of its own (no updates, no first-run pages).
 */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--no-first-run",
    ],
  });
}
