// Imported first by the integration and the check, the two entry points that load undici (the
// build's crawl). On an older Node, undici fails while it loads with a TypeError that says nothing
// about versions; this module is evaluated before any other and fails first, in one line that
// does. The loaders do not import it: they send with the platform's fetch and also run in workerd,
// which reports the Node version its compatibility date implies (22.14.0 at 2025-03-01). It
// imports nothing, so its message is the one not in errors-data.ts.

/** The oldest Node that runs this package: undici 8's own minimum. package.json `engines` says the same (test/pack.test.ts checks). */
export const minimumNodeVersion = "22.19.0";

/** True when `version` (as in process.versions.node, "22.18.1") is older than the minimum. */
function isOlderNode(version: string): boolean {
  const have = version.split(".").map(Number);
  const need = minimumNodeVersion.split(".").map(Number);
  for (let i = 0; i < need.length; i++) {
    const difference = (have[i] ?? 0) - need[i]!;
    if (difference !== 0) return difference < 0;
  }
  return false;
}

if (isOlderNode(process.versions.node)) {
  const error = new Error(
    `astro-comments needs Node ${minimumNodeVersion} or newer, but this is Node ${process.versions.node}: upgrade Node (the current LTS works) and run the command again.`,
  );
  // Astro prints a stack when there is one, and this one would only point into this file.
  error.stack = "";
  throw error;
}
