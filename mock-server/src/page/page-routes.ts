// The page's routes under /__mock/: GET views, POST actions that redirect back (303). Every route
// checks the Host first (DNS rebinding), then the session cookie; every POST also the Origin. The
// actions are the admin routes' own (admin-actions.ts), fed from form fields.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AdminActions } from "../admin-actions.ts";
import type { CommentStore } from "../dataset/comment-store.ts";
import { InvalidInputError } from "../invalid-input.ts";
import type { NewComment } from "../new-comment.ts";
import type { RequestLog } from "../request-log.ts";
import type { OutageMode } from "../runtime-faults.ts";
import { PageAccess, type PageSession } from "./page-access.ts";
import { contentSecurityPolicy, overviewHtml, PAGE_PREFIX, pageHtml, signInHtml } from "./page-html.ts";

const MAX_FORM_BYTES = 1 << 20;

const securityHeaders = {
  "content-security-policy": contentSecurityPolicy,
  "x-frame-options": "DENY",
  "x-content-type-options": "nosniff",
  // Not no-referrer: under it, browsers send "Origin: null" on form posts, which the Origin check refuses.
  "referrer-policy": "same-origin",
  "cache-control": "no-store",
};

function html(res: ServerResponse, status: number, body: string, head: boolean): void {
  const bytes = Buffer.from(body);
  res.writeHead(status, {
    ...securityHeaders,
    "content-type": "text/html; charset=utf-8",
    "content-length": bytes.length,
  });
  res.end(head ? undefined : bytes);
}

function plain(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { ...securityHeaders, "content-type": "text/plain; charset=utf-8" });
  res.end(`${text}\n`);
}

function redirect(res: ServerResponse, location: string, cookie?: string): void {
  res.writeHead(303, { ...securityHeaders, location, ...(cookie ? { "set-cookie": cookie } : {}) });
  res.end();
}

async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  let text = "";
  for await (const chunk of req as AsyncIterable<Buffer>) {
    text += chunk.toString("utf8");
    if (text.length > MAX_FORM_BYTES) throw new InvalidInputError(`the form is over ${MAX_FORM_BYTES} bytes.`);
  }
  return new URLSearchParams(text);
}

/** Where a form asked to come back to: one of the page's own views, never another site. */
const backOf = (form: URLSearchParams) => {
  const back = form.get("back") ?? "";
  // Printable ASCII only: a Location header cannot carry anything else.
  return back.startsWith(`${PAGE_PREFIX}/`) && /^[\x21-\x7e]+$/.test(back) && !back.includes("\\")
    ? back
    : `${PAGE_PREFIX}/`;
};

const optional = (form: URLSearchParams, name: string) => {
  const value = form.get(name)?.trim();
  return value === undefined || value === "" ? undefined : value;
};

/** A form number as the actions take it: empty is undefined, anything else must be a number. */
function numberField(form: URLSearchParams, name: string, label: string): number | undefined {
  const value = optional(form, name);
  if (value === undefined) return undefined;
  const parsed = Number(value);
  if (!Number.isFinite(parsed)) throw new InvalidInputError(`${label} must be a number, not "${value}".`);
  return parsed;
}

// Browsers send a textarea's line breaks as CRLF; what was typed is LF.
const text = (form: URLSearchParams, name: string) => (form.get(name) ?? "").replaceAll("\r\n", "\n");

function newCommentOf(form: URLSearchParams): NewComment {
  const replyTo = numberField(form, "replyTo", "Reply to");
  return {
    ...(replyTo === undefined ? { domain: optional(form, "domain"), path: optional(form, "path") } : { replyTo }),
    name: form.get("name") ?? "",
    content: text(form, "content"),
    // Raw html is kept as typed (hostile markup tests need its whitespace); empty means derived.
    ...(form.get("html") ? { html: text(form, "html") } : {}),
    status: (form.get("status") ?? "approved") as NewComment["status"],
  };
}

/** Runs one posted action; the message for the next view. */
function act(route: string, form: URLSearchParams, actions: AdminActions): string {
  const moderation = /^\/__mock\/comments\/([1-9][0-9]{0,15})\/(approve|reject|delete)$/.exec(route);
  if (moderation) {
    const id = Number(moderation[1]);
    const verb = moderation[2] as "approve" | "reject" | "delete";
    const comment =
      verb === "approve" ? actions.approve(id) : verb === "reject" ? actions.reject(id) : actions.remove(id);
    if (comment === undefined) throw new InvalidInputError(`there is no comment ${id} (deleted already?).`);
    return `${verb === "delete" ? "deleted" : verb === "approve" ? "approved" : "rejected"} comment ${id} by ${comment.name}.`;
  }
  switch (route) {
    case "/__mock/comments": {
      const comment = actions.addComment(newCommentOf(form));
      return `added comment ${comment.id} by ${comment.name} on ${comment.domain} ${comment.path} (${comment.status}).`;
    }
    case "/__mock/outage": {
      const mode = form.get("mode") as OutageMode;
      actions.setOutage(mode);
      return mode === "off"
        ? "the API serves normally again."
        : `outage "${mode}": every /api/comments request meets it until switched off.`;
    }
    case "/__mock/faults": {
      const limit = numberField(form, "rateLimit", "Rate limit");
      const faults = actions.setFaults({
        latencyMs: numberField(form, "latencyMs", "Latency") ?? 0,
        errorRate: numberField(form, "errorRate", "Error rate") ?? 0,
        dropRate: numberField(form, "dropRate", "Drop rate") ?? 0,
        rateLimit:
          limit === undefined
            ? null
            : { limit, windowMs: numberField(form, "rateWindowMs", "Rate limit period") ?? 60_000 },
      });
      return `faults now: latency ${faults.latencyMs} ms, error rate ${faults.errorRate}, drop rate ${faults.dropRate}, ${faults.rateLimit ? `rate limit ${faults.rateLimit.limit} per ${faults.rateLimit.windowMs} ms` : "no rate limit"}.`;
    }
    default:
      throw new InvalidInputError(`there is no action ${route}.`);
  }
}

export interface PageServer {
  /** A URL that opens the page signed in, once. */
  signInUrl(): string;
  handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void>;
}

export function createPage({
  baseUrl,
  bindHost,
  port,
  actions,
  store,
  log,
}: {
  baseUrl: string;
  bindHost: string;
  port: number;
  actions: AdminActions;
  store: CommentStore;
  log: RequestLog;
}): PageServer {
  const access = new PageAccess(bindHost, port);

  function view(res: ServerResponse, url: URL, route: string, session: PageSession, head: boolean): void {
    const flash = session.flash;
    session.flash = undefined;
    const domains = [...store.domains].sort();
    if (route === `${PAGE_PREFIX}/requests`) {
      const bytes = Buffer.from(JSON.stringify(log.entries()));
      res.writeHead(200, { ...securityHeaders, "content-type": "application/json", "content-length": bytes.length });
      res.end(head ? undefined : bytes);
      return;
    }
    if (route === `${PAGE_PREFIX}/page`) {
      const domain = url.searchParams.get("domain") ?? "";
      const path = url.searchParams.get("path") ?? "";
      const threads = store.commentsOn(domain, path);
      const replyTo = Number(url.searchParams.get("replyTo") ?? Number.NaN);
      html(
        res,
        200,
        pageHtml(
          domain,
          path,
          threads,
          store.page(domain, path, 0, 0).total,
          Number.isSafeInteger(replyTo) ? replyTo : undefined,
          flash,
          domains,
        ),
        head,
      );
      return;
    }
    if (route === PAGE_PREFIX) {
      html(
        res,
        200,
        overviewHtml({
          domains: domains.map((domain) => ({ domain, pages: store.pagesOf(domain) })),
          outage: actions.outageMode(),
          faults: actions.faultSettings(),
          requests: log.entries(),
          ...(flash ? { flash } : {}),
        }),
        head,
      );
      return;
    }
    plain(res, 404, `There is no page ${url.pathname}; the mock's page is ${PAGE_PREFIX}/.`);
  }

  return {
    signInUrl: () => `${baseUrl}${PAGE_PREFIX}/?key=${access.mintKey()}`,
    async handle(req, res, url) {
      if (!access.isOwnHost(req)) {
        plain(
          res,
          421,
          `Refused: the page answers only to this machine's own address (such as http://127.0.0.1:${port}), not to Host ${JSON.stringify(req.headers.host ?? "")}.`,
        );
        return;
      }
      const route = url.pathname.replace(/\/+$/, "");
      const head = req.method === "HEAD";
      if (req.method === "GET" || head) {
        const key = url.searchParams.get("key");
        if (key !== null && route === PAGE_PREFIX) {
          const session = access.redeem(key);
          // Redirected either way, so the key leaves the address bar and the history.
          if (session) redirect(res, `${PAGE_PREFIX}/`, access.sessionCookie(session));
          else html(res, 403, signInHtml(), head);
          return;
        }
        const session = access.session(req);
        if (session === undefined) html(res, 401, signInHtml(), head);
        else view(res, url, route, session, head);
        return;
      }
      if (req.method !== "POST") {
        res.writeHead(405, { ...securityHeaders, allow: "GET, HEAD, POST" }).end();
        return;
      }
      const session = access.session(req);
      if (!access.isSameOrigin(req) || session === undefined) {
        plain(
          res,
          403,
          `Refused: a change needs the page's session and a request from the page itself (Origin ${req.headers.origin ?? "missing"}). Open the link the mock printed.`,
        );
        return;
      }
      let form: URLSearchParams | undefined;
      try {
        form = await readForm(req);
        session.flash = { text: act(route, form, actions), failed: false };
      } catch (error) {
        if (!(error instanceof InvalidInputError)) throw error;
        session.flash = { text: error.message, failed: true };
      }
      redirect(res, backOf(form ?? new URLSearchParams()));
    },
  };
}
