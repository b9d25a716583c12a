// What a Laravel app sends instead of a JSON error to a request that does not expect JSON
// (Illuminate\Foundation\Exceptions\Handler): the login redirect for a 401, a redirect back for a
// 422, an HTML error page for the rest. A 200 is JSON either way (an API resource is always JSON).

export interface NonJsonAnswer {
  status: number;
  headers: Record<string, string | number>;
  body: string;
}

const titles: Readonly<Record<number, string>> = {
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  429: "Too Many Requests",
  500: "Server Error",
  503: "Service Unavailable",
};

const html = { "content-type": "text/html; charset=UTF-8", "cache-control": "no-cache, private" };

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#039;" })[c]!);

/** Symfony's RedirectResponse: a 302 with a page that names the target. */
function redirect(target: string): NonJsonAnswer {
  const url = escapeHtml(target);
  return {
    status: 302,
    headers: { ...html, location: target },
    body:
      `<!DOCTYPE html>\n<html>\n    <head>\n        <meta charset="UTF-8" />\n` +
      `        <meta http-equiv="refresh" content="0;url='${url}'" />\n\n        <title>Redirecting to ${url}</title>\n` +
      `    </head>\n    <body>\n        Redirecting to <a href="${url}">${url}</a>.\n    </body>\n</html>`,
  };
}

/**
 * Laravel's answer to a request that does not expect JSON, for an error `status` the JSON answer
 * would have had. `origin` is the app's URL ("http://127.0.0.1:4010"); `referer` the request's.
 */
export function nonJsonAnswer(
  status: number,
  origin: string,
  referer: string | undefined,
  headers: Record<string, string | number> = {},
): NonJsonAnswer {
  // The Authenticate middleware sends a guest to route('login'); a service has a login page.
  if (status === 401) return redirect(`${origin}/login`);
  // A ValidationException goes back where the request came from: url()->previous(), else the root.
  if (status === 422) return redirect(referer ?? origin);
  const title = titles[status] ?? "Error";
  return {
    status,
    headers: { ...headers, ...html },
    body:
      `<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>${title}</title>\n</head>\n` +
      `<body>\n<div>${status} | ${title}</div>\n</body>\n</html>\n`,
  };
}
