import { hostileBodies, xssBodies, xssNames } from "@astro-comments/mock-server";
import { describe, expect, it } from "vitest";
import { highlightCodeBlocks, loadLanguagesOf } from "../../src/render/highlight.ts";
import { escapeHtml, sanitizeCommentHtml } from "../../src/render/sanitize.ts";
import { auditMarkup, disallowedMarkup } from "../helpers/html-audit.ts";

const REL = 'rel="nofollow ugc noopener"';
const linkProtocols = ["http:", "https:", "mailto:"];

describe("the XSS corpus", () => {
  it.each([...hostileBodies, ...xssBodies, ...xssNames].map((body) => [body]))(
    "%s: allow-listed markup only, idempotent, safe hrefs",
    (body) => {
      const clean = sanitizeCommentHtml(body);
      expect(disallowedMarkup(clean)).toEqual([]);
      expect(sanitizeCommentHtml(clean)).toBe(clean);
      for (const href of auditMarkup(clean).hrefs) expect(linkProtocols).toContain(URL.parse(href)?.protocol);
    },
  );
});

describe("elements", () => {
  it("keeps allowed elements and unwraps the others, keeping their text", () => {
    expect(
      sanitizeCommentHtml(
        "<div><font color=red>red</font> <x-foo>custom</x-foo></div><blockquote><p>q</p></blockquote>",
      ),
    ).toBe("red custom<blockquote><p>q</p></blockquote>");
    expect(
      sanitizeCommentHtml(
        "<table><caption>c</caption><thead><tr><th>h</th></tr></thead><tbody><tr><td>d</td></tr></tbody></table>",
      ),
    ).toBe("<table><caption>c</caption><thead><tr><th>h</th></tr></thead><tbody><tr><td>d</td></tr></tbody></table>");
  });

  it.each(["h1", "h2", "h3", "h4", "h5", "h6"])("turns %s into a paragraph", (heading) => {
    expect(sanitizeCommentHtml(`<${heading} id="x">Title</${heading}>text`)).toBe("<p>Title</p>text");
  });

  it.each([
    "script",
    "style",
    "textarea",
    "option",
    "noscript",
    "template",
    "svg",
    "math",
    "iframe",
    "frameset",
    "object",
    "applet",
    "title",
    "xmp",
    "noembed",
    "noframes",
    "head",
    "select",
  ])("drops <%s> with everything inside it", (tag) => {
    expect(
      sanitizeCommentHtml(
        `<p>before</p><${tag}><b>inside</b> text &amp; <img src=x onerror=alert(1)></${tag}><p>after</p>`,
      ),
    ).toBe("<p>before</p><p>after</p>");
  });

  it("drops the void <frame> and <embed>, which have no content to drop", () => {
    expect(sanitizeCommentHtml('<p>a<embed src="x.swf">b<frame src="x">c</p>')).toBe("<p>abc</p>");
  });

  it("drops everything after <plaintext>, which never ends", () => {
    expect(sanitizeCommentHtml("<p>before</p><plaintext><b>x</b></plaintext><p>after</p>")).toBe("<p>before</p>");
  });

  it("counts nested dropped elements, so an inner end tag does not end the outer one", () => {
    expect(sanitizeCommentHtml("<svg><svg></svg><img src=x onerror=alert(1)><b>still svg</b></svg><p>after</p>")).toBe(
      "<p>after</p>",
    );
    expect(sanitizeCommentHtml("<template><template></template><b>still template</b></template>after")).toBe("after");
    expect(sanitizeCommentHtml("<math><mi><math></math>x</mi></math>after")).toBe("after");
  });

  it("keeps raw-text content as text of the dropped element, even when it looks like markup", () => {
    expect(sanitizeCommentHtml("<script><b>x</b></script>ok")).toBe("ok");
    expect(sanitizeCommentHtml("<textarea></textarea><b>ok</b>")).toBe("<b>ok</b>");
    expect(sanitizeCommentHtml('<title><p title="</title><b>ok</b>">')).toBe('<b>ok</b>"&gt;');
  });

  it("keeps out what a browser still reads as <noscript> text after htmlparser2 has closed it", () => {
    expect(sanitizeCommentHtml("<b><noscript></b><i>hidden</noscript>shown</i>")).toBe("<b></b>shown");
    expect(
      sanitizeCommentHtml("<b><noscript></b>one</noscript>a<b><noscript></b>two</noscript>b<b><noscript></b>three"),
    ).toBe("<b></b>a<b></b>b<b></b>");
  });

  it("writes br and hr as void tags", () => {
    expect(sanitizeCommentHtml("a<br/>b<BR>c</br><hr />d")).toBe("a<br>b<br>c<br><hr>d");
  });

  it("ignores stray end tags and closes open elements at the end", () => {
    expect(sanitizeCommentHtml("</b>x</div><b><i>y")).toBe("x<b><i>y</i></b>");
    expect(sanitizeCommentHtml("<ul><li>a<li>b")).toBe("<ul><li>a</li><li>b</li></ul>");
  });

  it("ignores a start tag cut off by the end of the input", () => {
    expect(sanitizeCommentHtml('<b>x</b><i class="y')).toBe("<b>x</b>");
    expect(sanitizeCommentHtml("<p>x<p class")).toBe("<p>x</p>");
  });

  it("drops comments, doctypes, processing instructions and CDATA", () => {
    expect(sanitizeCommentHtml("a<!-- c -->b<!doctype html><?php x ?><![CDATA[y]]>c")).toBe("abc");
  });

  it("closes what a parser would close implicitly, so unwrapping cannot nest paragraphs or items", () => {
    expect(sanitizeCommentHtml("<p>a<x-foo><p>b</p></x-foo>c</p>")).toBe("<p>a</p><p>b</p>c");
    expect(sanitizeCommentHtml("<ul><li>a<x-foo><li>b</li></x-foo></li></ul>")).toBe("<ul><li>a</li><li>b</li></ul>");
    expect(sanitizeCommentHtml("<p>a<span2><h2>b</h2></span2></p>")).toBe("<p>a</p><p>b</p>");
    expect(sanitizeCommentHtml("<p>a<div>b</div>c</p>")).toBe("<p>a</p>bc<p></p>");
  });
});

describe("attributes", () => {
  it("keeps only allow-listed attributes, in allow-list order", () => {
    expect(
      sanitizeCommentHtml(
        '<th scope="col" rowspan="2" colspan="3" style="x" onclick="y">h</th><td rowspan=1 colspan=2>d</td>',
      ),
    ).toBe('<th colspan="3" rowspan="2" scope="col">h</th><td colspan="2" rowspan="1">d</td>');
    expect(sanitizeCommentHtml('<ol reversed start="3" type="a"><li>x</li></ol><ol reversed="reversed"></ol>')).toBe(
      '<ol start="3" reversed><li>x</li></ol><ol reversed></ol>',
    );
    expect(
      sanitizeCommentHtml('<abbr title="HyperText" class="x">HTML</abbr><p class="language-js" id="p">p</p>'),
    ).toBe('<abbr title="HyperText">HTML</abbr><p>p</p>');
  });

  it("drops empty values, which say nothing", () => {
    expect(sanitizeCommentHtml('<abbr title="">x</abbr><td colspan="">y</td><ol start="">')).toBe(
      "<abbr>x</abbr><td>y</td><ol></ol>",
    );
  });

  it("keeps the first language-* class of code, for highlighting, and nothing else", () => {
    expect(
      sanitizeCommentHtml('<pre class="language-js"><code class="x language-c++ language-ts">a</code></pre>'),
    ).toBe('<pre><code class="language-c++">a</code></pre>');
    for (const value of ["language-", "LANGUAGE-js", 'language-a"b', "lang-js", "language-js\u00a0x"]) {
      expect(sanitizeCommentHtml(`<code class="${escapeHtml(value)}">a</code>`), value).toBe("<code>a</code>");
    }
  });

  it("writes code blocks in the form highlighting finds", async () => {
    const body = '<PRE><code class="note language-ts" data-x>let x: number = 1;</code></PRE>';
    await loadLanguagesOf([body]);
    const { html, unknownLanguages } = highlightCodeBlocks(sanitizeCommentHtml(body));
    expect(unknownLanguages).toEqual([]);
    expect(html).toMatch(
      /^<pre class="language-typescript"><code class="language-typescript"><span class="token keyword">let<\/span>/,
    );
  });

  it("escapes every value, quotes and apostrophes included", () => {
    expect(sanitizeCommentHtml(`<abbr title="a &quot;b&quot; 'c' <d> &amp;">x</abbr>`)).toBe(
      '<abbr title="a &quot;b&quot; &#39;c&#39; &lt;d&gt; &amp;">x</abbr>',
    );
  });
});

describe("text", () => {
  it("escapes &, < and > and decodes entities once", () => {
    expect(sanitizeCommentHtml(`<p>a &lt; b &amp;&amp;&nbsp;c > d "q" 'a' &copy &#x1F600;</p>`)).toBe(
      `<p>a &lt; b &amp;&amp;\u00a0c &gt; d "q" 'a' © 😀</p>`,
    );
  });

  it("returns plain paragraphs as they are", () => {
    for (const body of [
      "<p>Plain text, with \"quotes\" and 'apostrophes'.</p>\n",
      "<p></p>",
      "<p>Zoë 李小龙 😀</p>\r\n\n",
      "<p>one</p>\n<p>two</p>\n",
    ]) {
      expect(sanitizeCommentHtml(body)).toBe(body);
    }
    expect(sanitizeCommentHtml("<p>one</p><p>two")).toBe("<p>one</p><p>two</p>");
    expect(sanitizeCommentHtml("<p>one<p>two</p>")).toBe("<p>one</p><p>two</p>");
    expect(sanitizeCommentHtml("<p>a &amp; b</p>")).toBe("<p>a &amp; b</p>");
    expect(sanitizeCommentHtml("<p>a > b</p>")).toBe("<p>a &gt; b</p>");
  });
});

describe("links", () => {
  it("keep href, title and a fixed rel, in that order", () => {
    expect(
      sanitizeCommentHtml(
        '<a rel="opener" target="_blank" title="T" href="https://x.example/a?b=1&amp;c=2" onclick="x()">t</a>',
      ),
    ).toBe(`<a href="https://x.example/a?b=1&amp;c=2" title="T" ${REL}>t</a>`);
  });

  it.each([
    ["https://x.example/a?b=1&c=2#d", "https://x.example/a?b=1&amp;c=2#d"],
    ["http://x.example", "http://x.example/"],
    ["HTTPS://Example.COM/Path", "https://example.com/Path"],
    [" https://x.example/a b\n", "https://x.example/a%20b"],
    ["https://x.example/&quot;&gt;&lt;script&gt;", "https://x.example/%22%3E%3Cscript%3E"],
    ["https://bücher.example/ä", "https://xn--bcher-kva.example/%C3%A4"],
    ["mailto:someone@example.com", "mailto:someone@example.com"],
    ["&#104;ttps://x.example/", "https://x.example/"],
  ])("keep the serialization of an absolute http(s) or mailto URL: %s", (href, written) => {
    expect(sanitizeCommentHtml(`<a href="${href}">x</a>`)).toBe(`<a href="${written}" ${REL}>x</a>`);
  });

  it.each([
    "http://host:ha.example\\",
    "http://",
    "https://[::1",
    "javascript:alert(1)",
    " javascript:alert(1)",
    "java\tscript:alert(1)",
    "&#xA0;https://x.example/",
    "data:text/html,x",
    "ftp://x.example/",
    "tel:+1",
    "//x.example/",
    "/relative",
    "relative",
    "#top",
    "?q",
    "",
  ])("drop an href that is not an absolute http(s) or mailto URL: %j", (href) => {
    expect(sanitizeCommentHtml(`<a href="${href}">x</a>`)).toBe(`<a ${REL}>x</a>`);
  });

  it("drop a link with neither href nor text, with whatever it holds", () => {
    expect(sanitizeCommentHtml('<p>x<a name="y"></a>y<a> \n</a><a href="javascript:x"><b></b><br> </a></p>')).toBe(
      "<p>xy</p>",
    );
    expect(sanitizeCommentHtml('<p><a href="https://x.example/"></a></p>')).toBe(
      `<p><a href="https://x.example/" ${REL}></a></p>`,
    );
    expect(sanitizeCommentHtml("<a><b>t</b></a>")).toBe(`<a ${REL}><b>t</b></a>`);
  });
});

describe("escapeHtml", () => {
  it("escapes the five characters markup gives meaning to", () => {
    expect(escapeHtml(`<a href="x">Tom & 'Jerry'</a>`)).toBe(
      "&lt;a href=&quot;x&quot;&gt;Tom &amp; &#39;Jerry&#39;&lt;/a&gt;",
    );
  });
});
