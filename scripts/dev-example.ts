// npm run dev: the example site in `astro dev` against the mock API, with the mock's moderation
// wired to the dev server's refresh endpoint. Approve a comment from another shell:
//   npm run mock:admin -- add --domain example.com --path /posts/hello-world --name Ann --content "Hi"
// or from the mock's page (the second line printed), and the page shows it on the next reload,
// without a restart.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { DEFAULT_PORT, startMockServer } from "../mock-server/src/index.ts";

const site = fileURLToPath(new URL("../examples/site/", import.meta.url));
const devPort = 4321;
const devUrl = `http://127.0.0.1:${devPort}`;

const mock = await startMockServer({
  port: DEFAULT_PORT,
  onChange: () => {
    fetch(`${devUrl}/_astro-comments/refresh`, { method: "POST" }).catch((error: Error) => {
      process.stderr.write(`could not ask the dev server to refresh: ${error.message}\n`);
    });
  },
});
process.stdout.write(`mock comments API on ${mock.url} (domain example.com, token ${mock.token}); admin: npm run mock:admin -- --help
its page, signed in (the link works once): ${mock.signInUrl()}\n`);

const child = spawn("astro", ["dev", "--host", "127.0.0.1", "--port", String(devPort), ...process.argv.slice(2)], {
  cwd: site,
  stdio: "inherit",
  env: {
    ...process.env,
    ASTRO_TELEMETRY_DISABLED: "1",
    COMMENTS_DOMAIN: "example.com",
    COMMENTS_API_URL: mock.url,
    COMMENTS_API_TOKEN: mock.token,
  },
});
const stop = () => child.kill("SIGTERM");
process.once("SIGINT", stop);
process.once("SIGTERM", stop);
child.once("exit", async (code) => {
  await mock.close();
  process.exit(code ?? 0);
});
