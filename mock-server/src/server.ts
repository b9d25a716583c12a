// The mock's HTTP front: routing and faults the way a Laravel app behind a load balancer shows
// them, then the Prism pipeline, then PHP's JSON encoding. Listens on 127.0.0.1 by default.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { createAdminActions, type AdminActions } from "./admin-actions.ts";
import { ADMIN_PREFIX, handleAdmin } from "./admin-routes.ts";
import { initialComments } from "./comment-source.ts";
import { CommentStore } from "./dataset/comment-store.ts";
import type { MockDataSource } from "./data-file.ts";
import type { DatasetOptions, StoredComment } from "./dataset/generate-dataset.ts";
import { DEFAULT_MAX_PER_PAGE, DEFAULT_TOKEN } from "./defaults.ts";
import { FaultPlan, type FaultOptions } from "./faults.ts";
import { encodeCompact, jsonHeaders, send, sendText } from "./http-response.ts";
import { expectsJson } from "./laravel/expects-json.ts";
import { withPerPageAsGiven } from "./laravel/json-encoding.ts";
import { nonJsonAnswer } from "./laravel/non-json-answer.ts";
import { parsePhpQuery } from "./laravel/php-query.ts";
import { withLaravel8Preset } from "./laravel8-preset.ts";
import { isThisMachineOnly } from "./page/page-access.ts";
import { PAGE_PREFIX } from "./page/page-html.ts";
import { createPage, type PageServer } from "./page/page-routes.ts";
import { createPrismPipeline } from "./prism-pipeline.ts";
import { RequestLog } from "./request-log.ts";
import { Outage } from "./runtime-faults.ts";

export interface MockServerOptions {
  /** Port to listen on; 0 (the default) picks a free one. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** The only bearer token accepted. Default "mock-token". */
  token?: string;
  /**
   * The site's own domain, or several: the comments are served under it (each of them) and no other.
   * Without `data`, that is the generated dataset, example.com's showcase threads included; with
   * `dataset.paths` as the site's paths, every comment is on one of them.
   * @example
   * startMockServer({ domain: "my-site.test", dataset: { paths: ["/", "/posts/first-post"] } })
   */
  domain?: string | readonly string[];
  /**
   * Serve exactly the comments of a data file (as `comments-mock record` writes it), approved ones
   * only, instead of a generated dataset: its path (relative to the current folder), or its
   * content. Several files: each on its own domain. Loading fails with a MockDataError naming the
   * record and field that are wrong.
   * @example
   * startMockServer({ data: "test/fixtures/comments.json", domain: "my-site.test" })
   */
  data?: MockDataSource | readonly MockDataSource[];
  /** Dataset to generate (seed, size, paths), unless `data` or `comments` gives the comments. */
  dataset?: DatasetOptions;
  /** A ready-made dataset in the mock's own form, e.g. a test's own. */
  comments?: StoredComment[];
  /** The largest per_page served. Default 100. */
  maxPerPage?: number;
  /** A larger per_page: "cap" (default) serves maxPerPage; "reject" answers Laravel 8's 422. */
  perPageLimit?: "cap" | "reject";
  /** Send meta.per_page as a JSON string ("50"), as Laravel < 9.2 does with the raw query value. */
  stringNumbers?: boolean;
  /**
   * A real Laravel 8 app's quirks: perPageLimit "reject", stringNumbers, and dataset twins 3 with
   * wholeSecondTimestamps. Options given explicitly win.
   */
  laravel8?: boolean;
  /** Keep domain/path/per_page in pagination links (Laravel's withQueryString). The real service does not. */
  keepQueryInLinks?: boolean;
  faults?: FaultOptions;
  /**
   * Serve the page at /__mock/ (see, add and moderate comments, switch faults), reached through
   * `signInUrl()`. Default: on when `host` is this machine only (127.0.0.1, localhost, ::1), off
   * otherwise, since other machines could reach it.
   * @example
   * // A mock in a container, its page opened from the host's browser:
   * const mock = await startMockServer({ host: "0.0.0.0", ui: true });
   * console.log(mock.signInUrl());
   */
  ui?: boolean;
  /** Called after a comment is added or moderated at run time, like a service's moderation webhook. */
  onChange?: () => void;
  /** Told about every response that broke the contract (answered 500 instead). Default: stderr. */
  onViolation?: (detail: string) => void;
  /**
   * A request without `Accept: application/json` (Laravel's `expectsJson()` false): "warn" (the
   * default) answers as always and warns once through `onWarning`; "laravel" (the `laravel8`
   * preset's) answers its errors as a Laravel app does: a 401 with a redirect to /login, a 422
   * with a redirect back (Referer, else the root), any other error with an HTML page.
   * @example
   * // A client that forgets the header fails here as it would against the service.
   * startMockServer({ withoutAcceptJson: "laravel" })
   */
  withoutAcceptJson?: "warn" | "laravel";
  /** Told, once, that a request came without `Accept: application/json`. Default: stderr. */
  onWarning?: (detail: string) => void;
}

/**
 * A running mock. Its actions (addComment, approve, setOutage, ...) are also served over HTTP under /__admin/
 * (admin-routes.ts; `comments-mock admin` from a shell), for a mock in another process.
 */
export interface MockServer extends AdminActions {
  /** Base URL, e.g. http://127.0.0.1:4010 (the API is at /api/comments). */
  url: string;
  /** A new URL that opens the page signed in, valid once; undefined when the page is off (see `ui`). */
  signInUrl(): string | undefined;
  token: string;
  /** Domains in the dataset, with how many approved top-level comments each has now. */
  readonly domains: ReadonlyArray<{ domain: string; total: number }>;
  store: CommentStore;
  /** Requests received on /api/comments so far. */
  readonly requestCount: number;
  close(): Promise<void>;
}

function parsePrefer(header: string | undefined): { exampleKey?: string; code?: number } {
  const prefer: { exampleKey?: string; code?: number } = {};
  for (const part of (header ?? "").split(/[;,]/)) {
    const [name, value] = part.split("=").map((s) => s.trim());
    if (name === "example" && value) prefer.exampleKey = value;
    if (name === "code" && value && /^[1-5][0-9]{2}$/.test(value)) prefer.code = Number(value);
  }
  return prefer;
}

/**
 * Starts the comments API mock, listening on 127.0.0.1 on a free port unless told otherwise.
 * Always `close()` it, or the test run waits for it.
 * @example
 * // A site's vitest: its own domain and recorded comments, for a build against the mock.
 * const mock = await startMockServer({ domain: "my-site.test", data: "test/fixtures/comments.json" });
 * const env = { COMMENTS_API_URL: mock.url, COMMENTS_API_TOKEN: mock.token, COMMENTS_DOMAIN: "my-site.test" };
 * // ... build the site with `env`, then:
 * await mock.close();
 */
export async function startMockServer(given: MockServerOptions = {}): Promise<MockServer> {
  const options = withLaravel8Preset(given);
  const token = options.token ?? DEFAULT_TOKEN;
  const initial = initialComments(options);
  const store = new CommentStore(initial.comments, initial.domains);
  const pipeline = await createPrismPipeline(store, token, {
    maxPerPage: options.maxPerPage ?? DEFAULT_MAX_PER_PAGE,
    perPageLimit: options.perPageLimit ?? "cap",
    keepQueryInLinks: options.keepQueryInLinks ?? false,
  });
  const outage = new Outage();
  const faults = new FaultPlan(options.faults);
  const actions = createAdminActions({
    store,
    outage,
    faults,
    // Comments added at run time are stamped like the dataset's.
    wholeSeconds: options.dataset?.wholeSecondTimestamps ?? false,
    ...(options.onChange ? { onChange: options.onChange } : {}),
  });
  const approve = options.faults?.approveDuringCrawl;
  const onViolation =
    options.onViolation ?? ((detail: string) => process.stderr.write(`mock contract violation: ${detail}\n`));
  const onWarning = options.onWarning ?? ((detail: string) => process.stderr.write(`comments-mock: ${detail}\n`));
  const withoutAcceptJson = options.withoutAcceptJson ?? "warn";
  let warnedOfAccept = false;
  const log = new RequestLog(50);
  let page: PageServer | undefined;
  let requestCount = 0;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://mock.invalid");
    const route = url.pathname.replace(/\/+$/, "");
    const head = req.method === "HEAD";
    if (page && `${route}/`.startsWith(`${PAGE_PREFIX}/`)) {
      await page.handle(req, res, url);
      return;
    }
    log.watch(req, res);
    if (`${route}/`.startsWith(ADMIN_PREFIX)) {
      await handleAdmin(req, res, route, token, actions, page && (() => page!.signInUrl()));
      return;
    }
    if (route !== "/api/comments") {
      send(res, 404, { message: `The route ${url.pathname.replace(/^\/+/, "")} could not be found.` }, head);
      return;
    }
    if (req.method !== "GET" && !head) {
      send(
        res,
        405,
        { message: `The ${req.method} method is not supported for route api/comments. Supported methods: GET, HEAD.` },
        false,
        { allow: "GET, HEAD" },
      );
      return;
    }
    const host = req.headers.host ?? "127.0.0.1";
    const jsonWanted = expectsJson(req.headers);
    if (!jsonWanted && withoutAcceptJson === "warn" && !warnedOfAccept) {
      warnedOfAccept = true;
      onWarning(
        // The user agent names the client to fix; control characters are not written to a terminal.
        `a request to /api/comments without "Accept: application/json" (user-agent: ${(req.headers["user-agent"] ?? "none").replace(/[\u0000-\u001f\u007f]/g, "?")}). ` +
          "A Laravel service answers such a request's errors with a redirect or an HTML page, not JSON: send the header " +
          "(--without-accept-json laravel, part of --laravel8, answers as Laravel does). Said once.",
      );
    }
    /** The answer, or Laravel's redirect or HTML page for an error the request did not ask JSON for. */
    const reply = (status: number, body: unknown, headers: Record<string, string | number> = {}) => {
      if (jsonWanted || status < 400 || withoutAcceptJson === "warn") send(res, status, body, head, headers);
      else sendText(res, nonJsonAnswer(status, `http://${host}`, req.headers.referer, headers), head);
    };
    requestCount++;
    if (approve && requestCount === approve.afterRequests) store.approvePending(approve.count);
    if (outage.intercept(req, res, head)) return;

    const rawQuery = url.search.slice(1);
    const decision = faults.decide(`${req.headers.authorization ?? ""} ${rawQuery}`);
    if (decision.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, decision.delayMs));
    if (decision.kind === "drop" && !decision.midBody) {
      req.socket.destroy();
      return;
    }
    if (decision.kind === "error") {
      reply(decision.status, { message: decision.status === 500 ? "Server Error" : "Service Unavailable" });
      return;
    }

    const rateHeaders: Record<string, string | number> = {};
    const limiter = faults.limiter;
    if (limiter) {
      const verdict = limiter.hit(req.headers.authorization ?? req.socket.remoteAddress ?? "");
      if (!verdict.allowed) {
        reply(
          429,
          { message: "Too Many Attempts." },
          {
            "x-ratelimit-limit": limiter.limit,
            "x-ratelimit-remaining": 0,
            "retry-after": verdict.retryAfterSeconds,
            "x-ratelimit-reset": verdict.resetAt,
          },
        );
        return;
      }
      rateHeaders["x-ratelimit-limit"] = limiter.limit;
      rateHeaders["x-ratelimit-remaining"] = verdict.remaining;
    }

    const query = parsePhpQuery(rawQuery);
    const result = await pipeline.handle({
      query,
      authorization: req.headers.authorization,
      endpointUrl: `http://${host}/api/comments`,
      ...parsePrefer(typeof req.headers.prefer === "string" ? req.headers.prefer : undefined),
    });
    if (result.violations.length > 0) {
      const detail = `GET ${url.pathname}?${rawQuery} -> ${result.status}: ${result.violations.join("; ")}`;
      onViolation(detail);
      reply(500, { message: `Mock contract violation: ${result.violations.join("; ")}` });
      return;
    }
    const body =
      options.stringNumbers && result.status === 200
        ? withPerPageAsGiven(result.body, query.get("per_page"))
        : result.body;
    if (decision.kind === "drop") {
      // Headers and half the body, then the connection dies: a truncated response.
      const bytes = encodeCompact(body);
      res.writeHead(result.status, { ...jsonHeaders, "content-length": bytes.length });
      res.write(bytes.subarray(0, Math.floor(bytes.length / 2)), () => req.socket.destroy());
      return;
    }
    reply(result.status, body, result.status === 200 ? rateHeaders : {});
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      onViolation(`mock server failure: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      if (!res.headersSent) send(res, 500, { message: "Server Error" }, false);
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
  const bindHost = options.host ?? "127.0.0.1";
  if (options.ui ?? isThisMachineOnly(bindHost)) {
    // On a wildcard bind, the link names this machine's loopback, which a browser here reaches.
    const pageHost = bindHost === "0.0.0.0" ? "127.0.0.1" : bindHost === "::" ? "[::1]" : host;
    page = createPage({
      baseUrl: `http://${pageHost}:${address.port}`,
      bindHost,
      port: address.port,
      actions,
      store,
      log,
    });
  }

  return {
    ...actions,
    url: `http://${host}:${address.port}`,
    token,
    signInUrl: () => page?.signInUrl(),
    get domains() {
      return [...store.domains].sort().map((domain) => ({ domain, total: store.threads(domain).length }));
    },
    store,
    get requestCount() {
      return requestCount;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
