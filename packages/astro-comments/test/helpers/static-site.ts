import { readFile, stat } from "node:fs/promises";
import { extname, join, normalize } from "node:path";
import { serve } from "./servers.ts";

const types: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".css": "text/css",
  ".js": "text/javascript",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".wasm": "application/wasm",
  ".json": "application/json",
};

/** Serves a built site folder on 127.0.0.1 (directory URLs → index.html), like a static host. */
export function serveStatic(root: string) {
  return serve(async (req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname)).replace(
      /^(\.\.[/\\])+/,
      "",
    );
    let file = join(root, path);
    try {
      if ((await stat(file)).isDirectory()) file = join(file, "index.html");
      const body = await readFile(file);
      res.writeHead(200, { "content-type": types[extname(file)] ?? "application/octet-stream" }).end(body);
    } catch {
      res.writeHead(404, { "content-type": "text/plain" }).end("not found");
    }
  });
}
