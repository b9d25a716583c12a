// The README's main command: build examples/site against the embedded mock API. Starts the mock
// on a free port, runs `astro build` with COMMENTS_* pointing at it, stops the mock, and says
// where the output is. Set COMMENTS_API_URL yourself to build against the real service instead.
import { spawn } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startMockServer } from "../mock-server/src/index.ts";

const site = fileURLToPath(new URL("../examples/site/", import.meta.url));
const useRealService = Boolean(process.env.COMMENTS_API_URL);
const mock = useRealService ? undefined : await startMockServer();
const env = {
  ...process.env,
  ASTRO_TELEMETRY_DISABLED: "1",
  ...(mock ? { COMMENTS_DOMAIN: "example.com", COMMENTS_API_URL: mock.url, COMMENTS_API_TOKEN: mock.token } : {}),
};
process.stdout.write(
  mock
    ? `mock comments API on ${mock.url} (domain example.com)\n`
    : `using the comments API at ${process.env.COMMENTS_API_URL}\n`,
);

let code: number;
try {
  code = await new Promise<number>((resolve, reject) => {
    const child = spawn("astro", ["build"], { cwd: site, env, stdio: "inherit" });
    child.once("error", reject);
    child.once("exit", (status, signal) => resolve(status ?? (signal ? 1 : 0)));
  });
} finally {
  await mock?.close();
}
if (code === 0) {
  process.stdout.write(`\nThe example site is built: ${join(site, "dist")}\nPreview it with: npm run preview\n`);
}
process.exit(code);
