// The page's HTML: pure functions from the mock's state to markup, no I/O. Plain forms that POST
// and are redirected back, so everything works without JavaScript; one inline script refreshes
// the request log. Comments' html is shown as source, never as markup: it may be hostile on purpose.
import { createHash } from "node:crypto";
import type { PageCounts } from "../dataset/comment-store.ts";
import type { StoredComment } from "../dataset/generate-dataset.ts";
import type { FaultSettings } from "../faults.ts";
import type { LoggedRequest } from "../request-log.ts";
import { outageModes, type OutageMode } from "../runtime-faults.ts";

export const PAGE_PREFIX = "/__mock";

const css = `:root{color-scheme:light dark;background:Canvas;color:CanvasText;font:16px/1.5 system-ui,sans-serif}
a{color:#0645ad}@media (prefers-color-scheme:dark){a{color:#8ab4f8}}
body{margin:0 auto;max-width:60rem;padding:0 1rem 3rem}
h1{font-size:1.5rem}h2{font-size:1.25rem;margin-top:2rem}h3{font-size:1.1rem}
table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.25rem .5rem;border-bottom:1px solid GrayText;vertical-align:top;overflow-wrap:anywhere}
label{display:block;margin-top:.75rem;font-weight:600}input:not([type=radio]),select,textarea{display:block;box-sizing:border-box;width:100%;font:inherit;padding:.3rem}
textarea{min-height:5rem}fieldset{margin-top:1rem}fieldset label{display:inline-block;margin:0 1rem 0 .25rem;font-weight:400}
button{font:inherit;margin-top:.75rem;padding:.3rem .9rem}.actions{display:flex;flex-wrap:wrap;gap:.5rem}.actions form button{margin-top:.25rem}
.note{border:2px solid;padding:.5rem 1rem}.failed{border-style:dashed}
.comment{border-left:4px solid GrayText;padding:.25rem 0 .25rem .75rem;margin:1rem 0}.reply{margin-left:1.5rem}
pre{white-space:pre-wrap;overflow-wrap:anywhere;margin:.25rem 0}.hint{font-weight:400;display:block}`;

const script = `(()=>{const body=document.getElementById("requests");if(!body)return;
const cell=(row,text)=>{const td=document.createElement("td");td.textContent=String(text);row.append(td)};
setInterval(async()=>{if(document.hidden)return;try{const r=await fetch("${PAGE_PREFIX}/requests",{credentials:"same-origin"});if(!r.ok)return;
const rows=(await r.json()).map(e=>{const row=document.createElement("tr");[e.at.slice(11,23),e.method,e.target,e.status,e.ms+" ms"].forEach(t=>cell(row,t));return row});
body.replaceChildren(...rows)}catch{}},2000)})();`;

const hash = (text: string) => `'sha256-${createHash("sha256").update(text).digest("base64")}'`;

/** Only the page's own style and script run; forms post only to the mock; no framing. */
export const contentSecurityPolicy = `default-src 'none'; style-src ${hash(css)}; script-src ${hash(script)}; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`;

const entities: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
/** Escapes text for HTML content and quoted attribute values. */
const escape = (value: unknown) => String(value).replace(/[&<>"']/g, (c) => entities[c]!);

const pageLink = (domain: string, path: string) => `${PAGE_PREFIX}/page?${new URLSearchParams({ domain, path })}`;

export interface Flash {
  text: string;
  failed: boolean;
}

function layout(title: string, flash: Flash | undefined, main: string): string {
  const note = flash
    ? `<p class="note${flash.failed ? " failed" : ""}" role="${flash.failed ? "alert" : "status"}">${flash.failed ? "Not done: " : "Done: "}${escape(flash.text)}</p>`
    : "";
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escape(title)} · comments mock</title><style>${css}</style></head>
<body><header><p><a href="${PAGE_PREFIX}/">Comments mock</a></p></header><main><h1>${escape(title)}</h1>${note}${main}</main><script>${script}</script></body></html>`;
}

/** A button that posts one action, with where to come back to. */
const actionButton = (action: string, label: string, back: string, name: string) =>
  `<form method="post" action="${PAGE_PREFIX}${action}"><input type="hidden" name="back" value="${escape(back)}"><button aria-label="${escape(`${label} ${name}`)}">${escape(label)}</button></form>`;

/** The form that adds a comment; on a page's view, it may reply to one of the page's threads. */
function commentForm(
  back: string,
  domains: readonly string[],
  fields: { domain?: string; path?: string; threads?: readonly StoredComment[]; replyTo?: number },
): string {
  const replies =
    fields.threads === undefined
      ? ""
      : `<label for="replyTo">Reply to <span class="hint">a thread of this page, or none for a new thread</span></label><select id="replyTo" name="replyTo"><option value="">none: a new thread</option>${fields.threads.map((c) => `<option value="${c.id}"${c.id === fields.replyTo ? " selected" : ""}>${escape(`${c.id}: ${c.name}`)}</option>`).join("")}</select>`;
  return `<form method="post" action="${PAGE_PREFIX}/comments" id="add"><input type="hidden" name="back" value="${escape(back)}">
<label for="domain">Domain</label><select id="domain" name="domain">${domains.map((d) => `<option${d === fields.domain ? " selected" : ""}>${escape(d)}</option>`).join("")}</select>
<label for="path">Path <span class="hint">the page, such as /posts/hello-world</span></label><input id="path" name="path" required value="${escape(fields.path ?? "")}">${replies}
<label for="name">Name</label><input id="name" name="name" required autocomplete="off">
<label for="content">Content</label><textarea id="content" name="content" required></textarea>
<label for="html">Raw html <span class="hint">optional: served as given, to test hostile markup; empty: derived from the content as the mock does</span></label><textarea id="html" name="html"></textarea>
<fieldset><legend>Status</legend><input type="radio" id="approved" name="status" value="approved" checked><label for="approved">approved</label><input type="radio" id="pending" name="status" value="pending"><label for="pending">pending</label></fieldset>
<button>Add the comment</button></form>`;
}

export interface OverviewState {
  domains: ReadonlyArray<{ domain: string; pages: readonly PageCounts[] }>;
  outage: OutageMode;
  faults: FaultSettings;
  requests: readonly LoggedRequest[];
  flash?: Flash;
}

function requestRows(requests: readonly LoggedRequest[]): string {
  return requests
    .map(
      (r) =>
        `<tr><td>${escape(r.at.slice(11, 23))}</td><td>${escape(r.method)}</td><td>${escape(r.target)}</td><td>${escape(r.status)}</td><td>${r.ms} ms</td></tr>`,
    )
    .join("");
}

function faultsForm(faults: FaultSettings, back: string): string {
  const input = (name: string, label: string, value: number | string, hint: string) =>
    `<label for="${name}">${label} <span class="hint">${hint}</span></label><input id="${name}" name="${name}" inputmode="decimal" value="${escape(value)}">`;
  return `<form method="post" action="${PAGE_PREFIX}/faults"><input type="hidden" name="back" value="${escape(back)}">
${input("latencyMs", "Latency", faults.latencyMs, "milliseconds added to every response")}
${input("errorRate", "Error rate", faults.errorRate, "share of requests answered 500 or 503, 0 to 1")}
${input("dropRate", "Drop rate", faults.dropRate, "share of connections dropped, 0 to 1")}
${input("rateLimit", "Rate limit", faults.rateLimit?.limit ?? "", "requests per period per token, then 429; empty: none")}
${input("rateWindowMs", "Rate limit period", faults.rateLimit?.windowMs ?? 60000, "milliseconds")}
<button>Switch the faults</button></form>`;
}

export function overviewHtml(state: OverviewState): string {
  const back = `${PAGE_PREFIX}/`;
  const domains = state.domains
    .map(
      ({ domain, pages }) =>
        `<h3>${escape(domain)}</h3>${pages.length === 0 ? "<p>No comments yet.</p>" : `<table><caption>Pages of ${escape(domain)} with comments</caption><thead><tr><th scope="col">Page</th><th scope="col">Approved</th><th scope="col">Pending</th><th scope="col">Pending replies</th></tr></thead><tbody>${pages.map((p) => `<tr><td><a href="${escape(pageLink(domain, p.path))}">${escape(p.path)}</a></td><td>${p.approved}</td><td>${p.pending}</td><td>${p.pendingReplies}</td></tr>`).join("")}</tbody></table>`}`,
    )
    .join("");
  const outage = `<form method="post" action="${PAGE_PREFIX}/outage"><input type="hidden" name="back" value="${back}"><fieldset><legend>Every /api/comments request (now: ${escape(state.outage)})</legend>${outageModes.map((mode) => `<input type="radio" id="outage-${mode}" name="mode" value="${mode}"${mode === state.outage ? " checked" : ""}><label for="outage-${mode}">${mode}</label>`).join("")}</fieldset><button>Switch the outage</button></form>
<p class="hint">down: connection dropped; hang: never answered; trickle: a body that never ends; 500: Server Error; off: served normally.</p>`;
  return layout(
    "Comments mock",
    state.flash,
    `<p>What the mock serves, changed here, is served by <code>GET /api/comments</code> at once. Nothing here is written to a <code>--data</code> file.</p>
<h2>Domains and pages</h2>${domains}
<h2>Add a comment</h2>${commentForm(
      back,
      state.domains.map((d) => d.domain),
      { domain: state.domains[0]?.domain },
    )}
<h2>Outage</h2>${outage}
<h2>Faults</h2>${faultsForm(state.faults, back)}
<h2>Last requests</h2><table><caption>The mock's last answers, newest first (the page's own requests left out)</caption><thead><tr><th scope="col">Time (UTC)</th><th scope="col">Method</th><th scope="col">Path and query</th><th scope="col">Status</th><th scope="col">Took</th></tr></thead><tbody id="requests">${requestRows(state.requests)}</tbody></table>`,
  );
}

export interface ThreadView {
  comment: StoredComment;
  replies: readonly StoredComment[];
}

function commentHtml(comment: StoredComment, back: string, reply: boolean): string {
  const who = `comment ${comment.id} by ${comment.name}`;
  const moderation = [
    comment.status === "approved" ? "" : actionButton(`/comments/${comment.id}/approve`, "Approve", back, who),
    comment.status === "spam" ? "" : actionButton(`/comments/${comment.id}/reject`, "Reject", back, who),
    actionButton(`/comments/${comment.id}/delete`, "Delete", back, who),
  ].join("");
  return `<article class="comment${reply ? " reply" : ""}" aria-label="${escape(who)}"><p><strong>${escape(comment.name)}</strong> · id ${comment.id} · <span>${comment.status === "spam" ? "rejected (spam)" : escape(comment.status)}</span> · <time datetime="${escape(comment.created_at)}">${escape(comment.created_at)}</time></p>
<pre>${escape(comment.content)}</pre><details><summary>html as served</summary><pre><code>${escape(comment.html)}</code></pre></details><div class="actions">${moderation}</div></article>`;
}

export function pageHtml(
  domain: string,
  path: string,
  threads: readonly ThreadView[],
  served: number,
  replyTo: number | undefined,
  flash: Flash | undefined,
  domains: readonly string[],
): string {
  const back = pageLink(domain, path);
  const replyLink = (c: StoredComment) =>
    `<p><a href="${escape(`${back}&replyTo=${c.id}#add`)}" aria-label="${escape(`Reply to ${c.name}`)}">Reply</a></p>`;
  const list = threads
    .map(
      ({ comment, replies }) =>
        `${commentHtml(comment, back, false)}${replies.map((r) => commentHtml(r, back, true)).join("")}${comment.status === "approved" ? replyLink(comment) : ""}`,
    )
    .join("");
  const open = threads.map((t) => t.comment).filter((c) => c.status === "approved");
  return layout(
    `${domain} ${path}`,
    flash,
    `<p>The API serves ${served} thread${served === 1 ? "" : "s"} here (<code>GET /api/comments?domain=${escape(domain)}&amp;path=${escape(path)}</code>), oldest first; pending and rejected comments are listed too, as they are stored.</p>
${list || "<p>No comments on this page.</p>"}
<h2>Add a comment or a reply here</h2>${commentForm(back, domains, { domain, path, threads: open, ...(replyTo === undefined ? {} : { replyTo }) })}`,
  );
}

export function signInHtml(): string {
  return layout(
    "Sign in to the comments mock",
    undefined,
    `<p>Open the page with the link the mock printed when it started (<code>…/__mock/?key=…</code>); each link works once. For a new one, run <code>npx comments-mock admin sign-in</code>, or restart the mock.</p>`,
  );
}
