// Routes under /__admin/ that change the mock while it runs: add and approve comments, switch an
// outage on and off. Not part of the API contract, so neither in openapi.yaml nor through Prism.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { StoredComment } from "./dataset/generate-dataset.ts";
import { send } from "./http-response.ts";
import { InvalidInputError } from "./invalid-input.ts";
import type { NewComment } from "./new-comment.ts";
import type { OutageMode } from "./runtime-faults.ts";

export const ADMIN_PREFIX = "/__admin/";

export interface AdminActions {
  addComment(input: NewComment): StoredComment;
  /** The approved comment, or undefined when there is no comment with this id. */
  approve(id: number): StoredComment | undefined;
  setOutage(mode: OutageMode): void;
}

// A comment is small; anything bigger is a mistake, not something to buffer.
const MAX_BODY_BYTES = 1 << 20;

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new InvalidInputError(`Cannot read the request: the body is over ${MAX_BODY_BYTES} bytes; send one small JSON object.`);
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString("utf8"));
  } catch {
    throw new InvalidInputError("Cannot read the request: the body is not JSON; send a JSON object.");
  }
}

/** Answers a request whose path (trailing slashes trimmed) starts with ADMIN_PREFIX. */
export async function handleAdmin(req: IncomingMessage, res: ServerResponse, route: string, token: string, actions: AdminActions): Promise<void> {
  if (req.headers.authorization !== `Bearer ${token}`) {
    send(res, 401, { message: "Unauthenticated." }, false);
    return;
  }
  const approval = /^\/__admin\/comments\/([1-9][0-9]{0,15})\/approve$/.exec(route);
  if (route !== "/__admin/comments" && route !== "/__admin/outage" && approval === null) {
    send(res, 404, { message: `The route ${route.slice(1)} could not be found. Admin routes: POST __admin/comments, POST __admin/comments/<id>/approve, POST __admin/outage.` }, false);
    return;
  }
  if (req.method !== "POST") {
    send(res, 405, { message: `The ${req.method} method is not supported for route ${route.slice(1)}. Supported methods: POST.` }, false, { allow: "POST" });
    return;
  }
  try {
    if (approval) {
      const id = Number(approval[1]);
      const comment = actions.approve(id);
      if (comment) send(res, 200, comment, false);
      else send(res, 404, { message: `Cannot approve comment ${id}: there is no such comment; use the id that adding it returned.` }, false);
      return;
    }
    const body = await readJson(req);
    if (route === "/__admin/comments") {
      send(res, 201, actions.addComment(body as NewComment), false);
      return;
    }
    const mode = typeof body === "object" && body !== null ? (body as { mode?: unknown }).mode : undefined;
    actions.setOutage(mode as OutageMode);
    send(res, 200, { mode }, false);
  } catch (error) {
    if (!(error instanceof InvalidInputError)) throw error;
    send(res, 422, { message: error.message }, false);
  }
}
