// astro dev: fetch again without a restart. A POST to the refresh endpoint (a webhook, a script,
// the mock's admin CLI) or an optional poll runs the loader again through Astro's refreshContent;
// Astro then reloads what the new entries change.
import type { BaseIntegrationHooks } from "astro";
import type { FetchStatus } from "../loader/fetch-status.ts";
import { escapeControlCharacters } from "../api/service-text.ts";
import { LOADER_NAME } from "../constants.ts";
import { resolvedVirtualModuleIds } from "./virtual-modules.ts";

type ServerSetup = Parameters<BaseIntegrationHooks["astro:server:setup"]>[0];

/** Dev-only endpoint; answers POST with the fetch status as JSON. */
const REFRESH_PATH = "/_astro-comments/refresh";

export interface DevRefreshOptions {
  pollSeconds: number;
  status: () => FetchStatus | undefined;
}

export function setupDevRefresh(
  { server, refreshContent, logger }: Pick<ServerSetup, "server" | "refreshContent" | "logger">,
  options: DevRefreshOptions,
): (status: FetchStatus) => void {
  // One refresh at a time: a webhook storm or a slow API must not stack up fetches.
  let running: Promise<void> | undefined;
  const refresh = (reason: string) => {
    running ??= (async () => {
      try {
        await refreshContent?.({ loaders: [LOADER_NAME], context: { reason } });
      } finally {
        running = undefined;
      }
    })();
    return running;
  };

  server.middlewares.use(REFRESH_PATH, (req, res) => {
    if (req.method !== "POST") {
      res.writeHead(405, { allow: "POST", "content-type": "text/plain" }).end("POST to refresh the comments.\n");
      return;
    }
    refresh("endpoint").then(
      () => res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(options.status() ?? null)),
      (error: Error) =>
        res
          .writeHead(502, { "content-type": "application/json" })
          .end(JSON.stringify({ error: error.message.split("\n")[0] })),
    );
  });

  if (options.pollSeconds > 0) {
    const timer = setInterval(() => {
      refresh("poll").catch((error: Error) =>
        logger.warn(`polling for comments failed: ${escapeControlCharacters(error.message.split("\n")[0]!)}`),
      );
    }, options.pollSeconds * 1000);
    timer.unref();
    server.httpServer?.once("close", () => clearInterval(timer));
  }

  // The status and state modules are baked into the pages and routes; after a sync they must load again.
  return () => {
    for (const environment of Object.values(server.environments)) {
      for (const id of resolvedVirtualModuleIds) {
        const module = environment.moduleGraph.getModuleById(id);
        if (module) environment.moduleGraph.invalidateModule(module);
      }
    }
  };
}
