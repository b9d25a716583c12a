import { codeSamples, hostileBodies, xssBodies, xssNames } from "@astro-comments/mock-server";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { colorSchemeAttribute, customColorSchemeCss } from "../../src/render/color-scheme.ts";
import { groupThreadsByPage, renderPageComments, sortPageThreads } from "../../src/render/comment-tree.ts";
import { commentItemsHtml, machineDate } from "../../src/render/comment-markup.ts";
import { commentsJsonLd, serializeJsonLd } from "../../src/render/json-ld.ts";
import { highlightCodeBlocks, loadLanguagesOf, resolveLanguage } from "../../src/render/highlight.ts";
import { pathKey } from "../../src/render/path-key.ts";
import { grammars } from "../../src/render/prism-grammars.ts";
import { renderCommentBody } from "../../src/render/render-body.ts";
import { sanitizeCommentHtml } from "../../src/render/sanitize.ts";
import { disallowedMarkup } from "../helpers/html-audit.ts";

describe("path matching", () => {
  it.each([
    ["/posts/x/", "/posts/x"],
    ["/posts/x", "/posts/x"],
    ["posts/x", "/posts/x"],
    ["//posts//x//", "/posts/x"],
    ["/posts/x/index.html", "/posts/x"],
    ["/posts/x.html", "/posts/x"],
    ["/", "/"],
    ["", "/"],
    ["/index.html", "/"],
    ["https://example.com/posts/x/?utm=1#c", "/posts/x"],
    ["/posts/caf%C3%A9", "/posts/café"],
    ["/posts/cafe\u0301", "/posts/café"],
    ["/posts/100%", "/posts/100%"],
    ["/Posts/X", "/Posts/X"],
  ])("%j → %j", (input, key) => {
    expect(pathKey(input)).toBe(key);
  });
});

describe("sanitizing", () => {
  it.each([...hostileBodies, ...xssBodies, ...xssNames].map((body) => [body]))(
    "leaves only allow-listed markup in %s",
    (body) => {
      const clean = sanitizeCommentHtml(body);
      expect(disallowedMarkup(clean)).toEqual([]);
      // Words like "onerror" may survive as escaped text; markup may not.
      expect(clean).not.toMatch(/<(script|svg|math|iframe|style|img|object|embed|form|base|meta|template)/i);
      expect(sanitizeCommentHtml(clean)).toBe(clean);
    },
  );

  it("keeps formatting, lists, quotes and code, and marks links nofollow ugc noopener", () => {
    const html =
      '<p>Hi <strong>there</strong> <a href="https://x.example/a?b=1&amp;c=2" target="_blank" onclick="x()">link</a></p><ul><li>one</li></ul><blockquote><p>q</p></blockquote><pre><code class="language-js extra">a &lt; b</code></pre>';
    expect(sanitizeCommentHtml(html)).toBe(
      '<p>Hi <strong>there</strong> <a href="https://x.example/a?b=1&amp;c=2" rel="nofollow ugc noopener">link</a></p><ul><li>one</li></ul><blockquote><p>q</p></blockquote><pre><code class="language-js">a &lt; b</code></pre>',
    );
  });

  it("drops dangerous URL schemes however they are spelled", () => {
    for (const href of [
      "javascript:alert(1)",
      "JaVaScRiPt:alert(1)",
      "&#106;avascript:alert(1)",
      " javascript:alert(1)",
      "java\tscript:alert(1)",
      "data:text/html,<script>alert(1)</script>",
      "vbscript:x",
      "//evil.example/",
      "#top",
      "/relative",
      "&#xA0;javascript:alert(1)",
    ]) {
      const clean = sanitizeCommentHtml(`<a href="${href}">x</a>`);
      expect(clean, href).not.toContain("href");
    }
  });

  it("turns headings into paragraphs so comments cannot break the page outline", () => {
    expect(sanitizeCommentHtml("<h1>Big</h1>")).toBe("<p>Big</p>");
  });
});

describe("highlighting", () => {
  it("tokenizes every sample language PrismJS knows, resolving aliases", async () => {
    const bodies = codeSamples.map(
      (sample) =>
        `<pre><code class="language-${sample.language}">${sample.code.replace(/&/g, "&amp;").replace(/</g, "&lt;")}</code></pre>`,
    );
    await loadLanguagesOf([...bodies, ...["py", "sh"].map((language) => `<code class="language-${language}">`)]);
    for (const [i, sample] of codeSamples.entries()) {
      const html = sanitizeCommentHtml(bodies[i]!);
      const { html: out, unknownLanguages } = highlightCodeBlocks(html);
      if (sample.language === "brainfuck-dialect") {
        expect(unknownLanguages).toEqual(["brainfuck-dialect"]);
        expect(out).toBe(html);
        expect(out).toContain("&lt;not a tag&gt;");
      } else {
        expect(unknownLanguages, sample.language).toEqual([]);
        expect(out, sample.language).toMatch(/<span class="token [a-z-]+/);
        expect(disallowedMarkup(out)).toEqual([]);
      }
    }
    expect([resolveLanguage("ts"), resolveLanguage("py"), resolveLanguage("sh"), resolveLanguage("html")]).toEqual([
      "typescript",
      "python",
      "bash",
      "markup",
    ]);
  });

  it("refuses to highlight with a grammar nobody loaded, rather than leave the code plain without a word", () => {
    expect(() => highlightCodeBlocks('<pre><code class="language-cobol">DISPLAY "X".</code></pre>')).toThrow(
      /grammar "cobol" is not loaded; await loadLanguagesOf/,
    );
  });

  it("highlights a block whose class is written with character references, rather than stop the build", async () => {
    // The parser decodes attributes: "language&#45;haskell" is "language-haskell" to the sanitizer.
    const [comment] = (
      await renderPageComments("/p", [
        {
          created_at: "2026-01-01T00:00:00.000000Z",
          content: "code",
          html: '<pre><code class="language&#45;hask&#x65;ll">main = putStrLn "hi"</code></pre>',
          status: "approved",
          name: "Ann",
          path: "/p",
          children: [],
        },
      ])
    ).comments;
    expect(comment!.html).toMatch(/<pre tabindex="0" class="language-haskell">[\s\S]*<span class="token /);
  });

  it("shows plain a block named after a PrismJS component that is no language, rather than stop the build", async () => {
    // js-extras, css-extras, php-extras and xml-doc only change other grammars: no language of their own.
    const bodies = ["js-extras", "css-extras", "php-extras", "xml-doc"].map(
      (name) => `<pre><code class="language-${name}">const a = 1;</code></pre>`,
    );
    await loadLanguagesOf(bodies);
    for (const body of bodies) {
      const { html, unknownLanguages } = highlightCodeBlocks(body);
      expect(html).toBe(body);
      expect(unknownLanguages).toHaveLength(1);
    }
  });

  it("loads a grammar with what it builds on, by its alias", async () => {
    const body = '<pre><code class="language-tsx">const x = &lt;b&gt;{1 as number}&lt;/b&gt;;</code></pre>';
    await loadLanguagesOf([body]);
    expect(highlightCodeBlocks(body).html).toMatch(
      /<pre class="language-tsx">[\s\S]*<span class="token tag">[\s\S]*<span class="token keyword">as<\/span>/,
    );
  });

  it("can load every grammar the installed PrismJS has (else: node scripts/generate-prism-grammars.ts)", () => {
    const components = JSON.parse(
      readFileSync(fileURLToPath(import.meta.resolve("prismjs/components.json")), "utf8"),
    ) as { languages: Record<string, unknown> };
    expect(Object.keys(grammars).sort()).toEqual(
      Object.keys(components.languages)
        .filter((id) => id !== "meta")
        .sort(),
    );
  });

  it("keeps markup inside code as text", () => {
    const { html } = highlightCodeBlocks(
      sanitizeCommentHtml('<pre><code class="language-html">&lt;script&gt;alert(1)&lt;/script&gt;</code></pre>'),
    );
    expect(html).not.toContain("<script");
    expect(html).toContain("&lt;");
    expect(html).toContain('<pre class="language-markup"><code class="language-markup">');
  });
});

describe("comment bodies", () => {
  it("fall back to the escaped content when html is empty or sanitizes to nothing", () => {
    expect(renderCommentBody("", "a <b> & c\n\nsecond").html).toBe("<p>a &lt;b&gt; &amp; c</p><p>second</p>");
    expect(renderCommentBody("<script>alert(1)</script>", "plain text").html).toBe("<p>plain text</p>");
  });

  it("make every code block focusable, highlighted or not, so a keyboard can scroll it on a narrow screen", async () => {
    await loadLanguagesOf(['<code class="language-js">']);
    const html = renderCommentBody(
      '<pre><code class="language-js">let a = 1;</code></pre><pre>plain</pre><pre tabindex="-1">x</pre>',
      "",
    ).html;
    expect(html.match(/<pre[^>]*>/g)).toEqual([
      '<pre tabindex="0" class="language-javascript">',
      '<pre tabindex="0">',
      '<pre tabindex="0">',
    ]);
  });
});

describe("comment tree", () => {
  const thread = (path: string, created: string, children = 0) => ({
    created_at: created,
    content: "c",
    html: "<p>c</p>\n",
    status: "approved" as const,
    name: "n",
    path,
    children: Array.from({ length: children }, (_, i) => ({
      created_at: created.replace("00.000000", `0${i + 1}.000000`),
      content: "r",
      html: "<p>r</p>",
      status: "approved" as const,
      name: "r",
      path,
    })),
  });
  const buildPages = async (threads: ReturnType<typeof thread>[]) =>
    new Map(
      await Promise.all(
        [...groupThreadsByPage(threads)].map(
          async ([key, page]) => [key, await renderPageComments(key, sortPageThreads(page))] as const,
        ),
      ),
    );
  it("merges spellings of one path, counts replies, and orders oldest first", async () => {
    const threads = [
      thread("/a/", "2024-01-03T00:00:00.000000Z", 1),
      thread("/a", "2024-01-01T00:00:00.000000Z", 2),
      thread("/b", "2024-01-02T00:00:00.000000Z"),
    ];
    const pages = await buildPages(threads);
    expect(pages.get("/a")?.count).toBe(5);
    expect(pages.get("/a")?.comments.map((c) => c.createdAt)).toEqual([
      "2024-01-01T00:00:00.000000Z",
      "2024-01-03T00:00:00.000000Z",
    ]);
    expect(pages.get("/a")?.comments[0]?.replies).toHaveLength(2);
    expect(pages.get("/b")?.count).toBe(1);
  });

  it("orders tied timestamps the same way whatever order the service paged them in, and keeps identical twins", async () => {
    const tie = "2024-01-01T00:00:00.000000Z";
    const a = { ...thread("/a", tie), name: "Ann", content: "first" };
    const b = { ...thread("/a", tie), name: "Bob", content: "second" };
    const twin = { ...thread("/a", tie), name: "Ann", content: "first" };
    const one = (await buildPages([a, b, twin])).get("/a");
    const other = (await buildPages([b, twin, a])).get("/a");
    expect(one).toEqual(other);
    expect(one?.comments.map((c) => c.author)).toEqual(["Ann", "Ann", "Bob"]);
    expect(one?.count).toBe(3);
  });
});

describe("comment markup", () => {
  it("nests replies inside their article, links each comment to itself, and escapes everything but the sanitized body", async () => {
    const { commentItemsHtml } = await import("../../src/render/comment-markup.ts");
    const reply = {
      id: "comment-00000002",
      author: "<b>R</b>",
      createdAt: "2024-01-02T03:04:05.123456Z",
      html: "<p>reply</p>",
      path: "/a",
    };
    const view = {
      formatDate: (d: string) => `<${d}>`,
      messages: { replies: "Replies to {author}", permalink: "{date}, comment by {author}" },
    };
    const html = commentItemsHtml(
      [
        {
          id: "comment-00000001",
          author: 'A & "B"',
          createdAt: "2024-01-01T00:00:00.000000Z",
          html: "<p>top</p>",
          path: "/a",
          replies: [reply],
        },
      ],
      view,
    );
    expect(html).toBe(
      '<li class="astro-comments__item"><article class="astro-comments__comment" aria-labelledby="comment-00000001-author comment-00000001-time" data-comment id="comment-00000001"><header class="astro-comments__meta" data-pagefind-ignore><span class="astro-comments__author" id="comment-00000001-author" dir="auto" data-comment-author>A &amp; &quot;B&quot;</span> ' +
        '<a class="astro-comments__permalink" data-comment-permalink href="#comment-00000001" aria-label="&lt;2024-01-01T00:00:00.000000Z&gt;, comment by A &amp; &quot;B&quot;"><time class="astro-comments__time" id="comment-00000001-time" datetime="2024-01-01T00:00:00.000Z">&lt;2024-01-01T00:00:00.000000Z&gt;</time></a></header><div class="astro-comments__body" dir="auto" data-comment-body><p>top</p></div>' +
        '<ol class="astro-comments__replies" data-comment-replies aria-label="Replies to A &amp; &quot;B&quot;"><li class="astro-comments__item"><article class="astro-comments__comment" aria-labelledby="comment-00000002-author comment-00000002-time" data-comment id="comment-00000002"><header class="astro-comments__meta" data-pagefind-ignore><span class="astro-comments__author" id="comment-00000002-author" dir="auto" data-comment-author>&lt;b&gt;R&lt;/b&gt;</span> ' +
        '<a class="astro-comments__permalink" data-comment-permalink href="#comment-00000002" aria-label="&lt;2024-01-02T03:04:05.123456Z&gt;, comment by &lt;b&gt;R&lt;/b&gt;"><time class="astro-comments__time" id="comment-00000002-time" datetime="2024-01-02T03:04:05.123Z">&lt;2024-01-02T03:04:05.123456Z&gt;</time></a></header><div class="astro-comments__body" dir="auto" data-comment-body><p>reply</p></div></article></li></ol></article></li>',
    );
  });
});

describe("machineDate", () => {
  it("gives what Date gives, with at most three fractional digits, for Laravel's timestamps and others", () => {
    const stamps = [
      "2026-01-01T00:00:00.000000Z",
      "2024-02-29T23:59:59.999999Z",
      "1999-12-31T12:34:56.123456Z",
      "2026-05-05T05:05:05Z",
      "2026-05-05T05:05:05.5+02:00",
    ];
    for (const stamp of stamps) expect(machineDate(stamp)).toBe(new Date(stamp).toISOString());
    expect(machineDate("2024-02-29T23:59:59.999999Z")).toBe("2024-02-29T23:59:59.999Z");
  });
});

describe("color scheme of the section", () => {
  it("marks the section for the stylesheet's own modes, and writes one rule per selector of a site's toggle", () => {
    expect([
      colorSchemeAttribute("auto"),
      colorSchemeAttribute("media"),
      colorSchemeAttribute(false),
      colorSchemeAttribute({ dark: ".night" }),
    ]).toEqual(["auto", "media", undefined, "custom"]);
    expect(customColorSchemeCss("auto")).toBe("");
    expect(customColorSchemeCss({ dark: "body.mode-dark", light: "body.mode-light" })).toBe(
      ':where(body.mode-dark) :where([data-comments-scheme="custom"]){color-scheme:dark}:where(body.mode-light) :where([data-comments-scheme="custom"]){color-scheme:light}',
    );
  });
});

describe("characters HTML does not allow", () => {
  // NUL, backspace, a terminal title command, C1 NEL and a lone surrogate: in a name, a body's
  // text, a character reference and the plain content.
  const hostile = "\u0000\u0008\u001b]0;PWNED\u0007\u0085\ud800";
  const thread = (html: string, content: string) =>
    ({
      created_at: "2024-01-01T00:00:00.000000Z",
      content,
      html,
      status: "approved",
      name: `Ann${hostile}`,
      path: "/p",
      children: [],
    }) as unknown as Parameters<typeof renderPageComments>[1][number];
  const notInHtml = /[\u0000-\u0008\u000b\u000e-\u001f\u007f-\u009f]|\p{Cs}/u;

  it("never reach the markup, the JSON-LD or the stored name, and the name still reads", async () => {
    const data = await renderPageComments("/p", [
      thread(`<p>a${hostile}b&#1;&#0;c</p>`, ""),
      thread("", `plain${hostile}`),
    ]);
    expect(data.comments[0]!.author).toBe("Ann]0;PWNED");
    const markup = commentItemsHtml(data.comments, {
      formatDate: (iso) => iso,
      messages: { replies: "Replies to {author}", permalink: "{date} by {author}" },
    });
    expect(markup).not.toMatch(notInHtml);
    expect(markup).toContain(">Ann]0;PWNED</span>");
    const jsonLd = serializeJsonLd(
      commentsJsonLd({ comments: data.comments, count: 2, pageUrl: "https://example.com/p" }),
    );
    expect(jsonLd).not.toMatch(notInHtml);
    expect(JSON.stringify(JSON.parse(jsonLd))).not.toMatch(/\\u0000/);
  });
});
