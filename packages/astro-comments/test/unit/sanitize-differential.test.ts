// The streaming sanitizer against the sanitize-html configuration it replaced, on bodies where the
// two are meant to agree, and on real comment exports.
import { readdirSync, readFileSync } from "node:fs";
import { codeSamples, generateDataset, hostileBodies, xssBodies, xssNames } from "@astro-comments/mock-server";
import { Parser } from "htmlparser2";
import { describe, expect, it } from "vitest";
import { escapeHtml, sanitizeCommentHtml } from "../../src/render/sanitize.ts";
import { auditMarkup, disallowedMarkup } from "../helpers/html-audit.ts";
import { legacySanitize } from "../helpers/legacy-sanitizer.ts";

/**
 * Markup written in one form for both sanitizers, so that only the documented differences are
 * normalized away: `<br />` against `<br>`, attribute order, `'` escaped in values or not, and an
 * href as given against its URL serialization.
 */
function canonical(html: string): string {
  let out = "";
  const parser = new Parser({
    onopentag(name, attributes) {
      const written = Object.entries(attributes)
        .map(([attr, value]) => [attr, attr === "href" ? (URL.parse(value)?.href ?? value) : value] as const)
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([attr, value]) => ` ${attr}="${escapeHtml(value)}"`);
      out += `<${name}${written.join("")}>`;
    },
    ontext(data) {
      out += escapeHtml(data);
    },
    onclosetag(name) {
      if (name !== "br" && name !== "hr") out += `</${name}>`;
    },
  });
  parser.write(html);
  parser.end();
  return out;
}

describe("against sanitize-html", () => {
  const hostile = new Set([...hostileBodies, ...xssBodies, ...xssNames]);

  it("writes exactly what it wrote for every non-hostile body of the mock's dataset", () => {
    const bodies = [...new Set(generateDataset({ seed: 3, size: 2000 }).map((comment) => comment.html))].filter(
      (html) => !hostile.has(html),
    );
    expect(bodies.length).toBeGreaterThan(1000);
    const differing = bodies.filter((html) => sanitizeCommentHtml(html) !== legacySanitize(html));
    expect(differing).toEqual([]);
  });

  it("writes exactly what it wrote for every code sample", () => {
    for (const { language, code } of codeSamples) {
      const html = `<p>Look:</p><pre><code class="language-${language}">${escapeHtml(code)}\n</code></pre>\n`;
      expect(sanitizeCommentHtml(html)).toBe(legacySanitize(html));
    }
  });

  // Only the first language-* class survives now, and only with a name highlighting can match.
  const documentedDifferences = new Set([
    '<code class="language-&quot;&gt;&lt;img src=x onerror=alert(1)&gt;">x</code>',
  ]);

  it("agrees on the XSS corpus up to the documented differences", () => {
    const differing = [...hostile].filter(
      (html) => canonical(sanitizeCommentHtml(html)) !== canonical(legacySanitize(html)),
    );
    expect(new Set(differing)).toEqual(documentedDifferences);
  });
});

// Comment exports from other projects' test data (Disqus and WordPress XML, Commento and Isso
// JSON), kept next to the repository rather than in it.
const importsDirectory = new URL("../fixtures/imports/", import.meta.url);

function exportedBodies(file: string, source: string): string[] {
  if (file.endsWith(".json")) {
    const bodies: string[] = [];
    const visit = (value: unknown): void => {
      if (Array.isArray(value)) value.forEach(visit);
      else if (typeof value === "object" && value !== null) {
        for (const [key, field] of Object.entries(value)) {
          if (typeof field === "string" && ["html", "text", "markdown"].includes(key) && field !== "")
            bodies.push(field);
          else visit(field);
        }
      }
    };
    visit(JSON.parse(source));
    return bodies;
  }
  const bodies: string[] = [];
  let current: string | undefined;
  const parser = new Parser(
    {
      onopentag(name) {
        if (name === "message" || name === "wp:comment_content") current = "";
      },
      ontext(data) {
        if (current !== undefined) current += data;
      },
      onclosetag(name) {
        if ((name === "message" || name === "wp:comment_content") && current !== undefined) {
          if (current.trim() !== "") bodies.push(current.trim());
          current = undefined;
        }
      },
    },
    { xmlMode: true },
  );
  parser.write(source);
  parser.end();
  return bodies;
}

describe("real comment exports", () => {
  const bodies = readdirSync(importsDirectory)
    .filter((file) => file.endsWith(".xml") || file.endsWith(".json"))
    .flatMap((file) =>
      exportedBodies(file, readFileSync(new URL(file, importsDirectory), "utf8")).map((body) => [file, body] as const),
    );

  it("has comment bodies with markup in it", () => {
    expect(bodies.length).toBeGreaterThan(15);
    expect(bodies.filter(([, body]) => body.includes("<a ")).length).toBeGreaterThan(1);
  });

  it.each(bodies)("%s, body %#: allowed markup only, idempotent, as sanitize-html wrote it", (_file, body) => {
    const clean = sanitizeCommentHtml(body);
    expect(disallowedMarkup(clean)).toEqual([]);
    for (const href of auditMarkup(clean).hrefs)
      expect(["http:", "https:", "mailto:"]).toContain(URL.parse(href)?.protocol);
    expect(sanitizeCommentHtml(clean)).toBe(clean);
    expect(canonical(clean)).toBe(canonical(legacySanitize(body)));
  });
});
