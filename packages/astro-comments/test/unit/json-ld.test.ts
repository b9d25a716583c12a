// Structured data: the JSON parses back to exactly the comments, however hostile their names and
// bodies, and nothing in it can end the <script> that holds it.
import { xssBodies, xssNames } from "@astro-comments/mock-server";
import { describe, expect, it } from "vitest";
import type { StoredComment } from "../../src/loader/entry-schema.ts";
import { commentsJsonLd, serializeJsonLd } from "../../src/render/json-ld.ts";
import { htmlToText } from "../../src/render/plain-text.ts";
import { renderCommentBody } from "../../src/render/render-body.ts";

const at = (i: number) => new Date(Date.UTC(2024, 0, 1, 0, 0, i)).toISOString().replace("Z", "000Z");

describe("plain text of a body", () => {
  it("decodes entities, keeps paragraphs, lines and code, and drops the markup", () => {
    expect(htmlToText("<p>Hi <strong>there</strong> &amp; you</p>\n<p>second\nline</p>")).toBe(
      "Hi there & you\n\nsecond line",
    );
    expect(htmlToText("<ul><li>one</li><li>two</li></ul><p>x<br>y</p>")).toBe("one\ntwo\n\nx\ny");
    expect(
      htmlToText(
        '<pre class="language-js"><code class="language-js"><span class="token keyword">const</span> a = 1;\n  b &lt; 2</code></pre>',
      ),
    ).toBe("const a = 1;\n  b < 2");
  });
});

describe("comments as JSON-LD", () => {
  const reply = {
    id: "comment-0000000b",
    author: "Bob",
    createdAt: "2024-01-02T00:00:00.000000Z",
    html: "<p>Thanks &lt;3</p>",
    path: "/posts/x",
  };
  const top: StoredComment = {
    id: "comment-0000000a",
    author: "Ann",
    createdAt: "2024-01-01T12:30:00.123456Z",
    html: "<p>Hello <em>world</em></p>",
    path: "/posts/x",
    replies: [reply],
  };

  it("describes each comment, nests replies under their parent, and links each to its anchor", () => {
    expect(commentsJsonLd({ comments: [top], count: 2, pageUrl: "https://example.com/posts/x/" })).toEqual({
      "@context": "https://schema.org",
      "@type": "WebPage",
      "@id": "https://example.com/posts/x/",
      url: "https://example.com/posts/x/",
      commentCount: 2,
      comment: [
        {
          "@type": "Comment",
          "@id": "https://example.com/posts/x/#comment-0000000a",
          url: "https://example.com/posts/x/#comment-0000000a",
          author: { "@type": "Person", name: "Ann" },
          dateCreated: "2024-01-01T12:30:00.123Z",
          text: "Hello world",
          comment: [
            {
              "@type": "Comment",
              "@id": "https://example.com/posts/x/#comment-0000000b",
              url: "https://example.com/posts/x/#comment-0000000b",
              author: { "@type": "Person", name: "Bob" },
              dateCreated: "2024-01-02T00:00:00.000Z",
              text: "Thanks <3",
            },
          ],
        },
      ],
    });
  });

  it("attaches the comments to the page's own article, and leaves out URLs it does not know", () => {
    const article = { "@type": "BlogPosting", headline: "X", author: { "@type": "Person", name: "Me" } };
    const data = commentsJsonLd({ comments: [top], count: 2, article });
    expect(data).toMatchObject({ "@context": "https://schema.org", ...article, commentCount: 2 });
    const [first] = data["comment"] as Array<Record<string, unknown>>;
    expect(first).not.toHaveProperty("url");
    expect(first).not.toHaveProperty("@id");
    expect(commentsJsonLd({ comments: [], count: 0 })).toEqual({
      "@context": "https://schema.org",
      "@type": "WebPage",
      commentCount: 0,
    });
  });

  it("parses back to the same data for every hostile name and body, with no <, > or & in the script", () => {
    const comments: StoredComment[] = xssBodies.map((body, i) => ({
      id: `comment-${i.toString(16).padStart(8, "0")}`,
      author: xssNames[i % xssNames.length]!,
      createdAt: at(i),
      html: renderCommentBody(body, body).html,
      path: "/posts/xss-corpus",
      replies: [
        {
          id: `comment-r${i}`,
          author: `${xssNames[(i + 1) % xssNames.length]!}</script><!--`,
          createdAt: at(i + 1),
          html: renderCommentBody(body, "").html,
          path: "/posts/xss-corpus",
        },
      ],
    }));
    const data = commentsJsonLd({
      comments,
      count: comments.length * 2,
      pageUrl: "https://example.com/posts/xss-corpus/",
      article: { "@type": "BlogPosting", headline: "</script><script>alert(1)</script>" },
    });
    const json = serializeJsonLd(data);
    expect(json).not.toMatch(/[<>&\u2028\u2029]/);
    expect(JSON.parse(json)).toEqual(data);
    const parsed = JSON.parse(json) as {
      comment: Array<{ author: { name: string }; text: string; comment: Array<{ author: { name: string } }> }>;
    };
    expect(parsed.comment.map((c) => c.author.name)).toEqual(comments.map((c) => c.author));
    expect(parsed.comment.map((c) => c.text)).toEqual(comments.map((c) => htmlToText(c.html)));
    expect(parsed.comment[0]!.comment[0]!.author.name).toMatch(/<\/script><!--$/);
  });

  it("escapes line and paragraph separators too", () => {
    expect(serializeJsonLd({ a: "\u2028\u2029<&>" })).toBe('{"a":"\\u2028\\u2029\\u003c\\u0026\\u003e"}');
  });
});
