// Routes under /__admin/ that change the mock while it runs: add and moderate comments, switch an
// outage and faults, mint a sign-in URL of the page. Not part of the API contract, so neither in openapi.yaml nor through Prism.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AdminActions } from "./admin-actions.ts";
import type { FaultSettings } from "./faults.ts";
import { send } from "./http-response.ts";
import { InvalidInputError } from "./invalid-input.ts";
import type { NewComment } from "./new-comment.ts";
import type { OutageMode } from "./runtime-faults.ts";

export const ADMIN_PREFIX = "/__admin/";

const moderations = { approve: "approve", reject: "reject", delete: "remove" } as const;
const routes =
  "POST __admin/comments, POST __admin/comments/<id>/approve|reject|delete, POST __admin/outage, POST __admin/faults, POST __admin/sign-in";
// A comment is small; anything bigger is a mistake, not something to buffer.
const MAX_BODY_BYTES = 1 << 20;

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES)
      throw new InvalidInputError(
        `Cannot read the request: the body is over ${MAX_BODY_BYTES} bytes; send one small JSON object.`,
      );
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString("utf8"));
  } catch {
    throw new InvalidInputError("Cannot read the request: the body is not JSON; send a JSON object.");
  }
}

/**
 * Answers a request whose path (trailing slashes trimmed) starts with ADMIN_PREFIX. `signInUrl`
 * mints a one-time URL of the mock's page; undefined when the page is off.
 */
export async function handleAdmin(
  req: IncomingMessage,
  res: ServerResponse,
  route: string,
  token: string,
  actions: AdminActions,
  signInUrl: (() => string) | undefined,
): Promise<void> {
  if (req.headers.authorization !== `Bearer ${token}`) {
    send(res, 401, { message: "Unauthenticated." }, false);
    return;
  }
  // Browsers send Origin with every POST; the CLI, curl and tests do not. The default token is
  // public, so a web page (a DNS-rebound one included) must not drive these routes: the mock's
  // page has its own session instead.
  if (req.headers.origin !== undefined) {
    send(
      res,
      403,
      {
        message: `The admin routes do not take requests from web pages (Origin ${req.headers.origin}); use the mock's page at /__mock/, or send the request without an Origin header.`,
      },
      false,
    );
    return;
  }
  const moderation = /^\/__admin\/comments\/([1-9][0-9]{0,15})\/(approve|reject|delete)$/.exec(route);
  if (
    !["/__admin/comments", "/__admin/outage", "/__admin/faults", "/__admin/sign-in"].includes(route) &&
    moderation === null
  ) {
    send(res, 404, { message: `The route ${route.slice(1)} could not be found. Admin routes: ${routes}.` }, false);
    return;
  }
  if (req.method !== "POST") {
    send(
      res,
      405,
      { message: `The ${req.method} method is not supported for route ${route.slice(1)}. Supported methods: POST.` },
      false,
      { allow: "POST" },
    );
    return;
  }
  try {
    if (moderation) {
      const id = Number(moderation[1]);
      const verb = moderation[2] as keyof typeof moderations;
      const comment = actions[moderations[verb]](id);
      if (comment) send(res, 200, comment, false);
      else
        send(
          res,
          404,
          { message: `Cannot ${verb} comment ${id}: there is no such comment; use the id that adding it returned.` },
          false,
        );
      return;
    }
    if (route === "/__admin/sign-in") {
      if (signInUrl) send(res, 200, { url: signInUrl() }, false);
      else
        send(
          res,
          404,
          {
            message:
              "Cannot sign in to the page: it is off, as on any --host other than this machine's; start the mock with --ui to serve it anyway.",
          },
          false,
        );
      return;
    }
    const body = await readJson(req);
    if (route === "/__admin/comments") {
      send(res, 201, actions.addComment(body as NewComment), false);
      return;
    }
    if (route === "/__admin/faults") {
      send(res, 200, actions.setFaults(body as Partial<FaultSettings>), false);
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
