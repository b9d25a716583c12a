// Whether Laravel answers a request's errors in JSON: Request::expectsJson(). Everything else gets
// a redirect or an HTML page, so a client that forgets `Accept: application/json` breaks only
// against a real service, and only when something goes wrong.
import type { IncomingHttpHeaders } from "node:http";

/** The media types of an Accept header, highest quality first, in their order among equals (Symfony's AcceptHeader). */
function acceptableContentTypes(accept: string | undefined): string[] {
  if (!accept) return [];
  return accept
    .split(",")
    .map((item, index) => {
      const [type = "", ...parameters] = item.split(";").map((part) => part.trim());
      const q = parameters.find((parameter) => /^q=/i.test(parameter));
      return { type: type.toLowerCase(), quality: q === undefined ? 1 : Number(q.slice(2)) || 0, index };
    })
    .filter((item) => item.type !== "" && item.quality > 0)
    .sort((a, b) => b.quality - a.quality || a.index - b.index)
    .map((item) => item.type);
}

/**
 * Laravel's `expectsJson()`: an XMLHttpRequest (not PJAX) that accepts anything, or a request whose
 * preferred type is JSON (`wantsJson()`: "/json" or "+json").
 */
export function expectsJson(headers: IncomingHttpHeaders): boolean {
  const acceptable = acceptableContentTypes(headers.accept);
  const first = acceptable[0];
  const ajax = headers["x-requested-with"] === "XMLHttpRequest" && headers["x-pjax"] === undefined;
  const acceptsAnything = first === undefined || first === "*/*" || first === "*";
  return (ajax && acceptsAnything) || (first !== undefined && (first.includes("/json") || first.includes("+json")));
}
