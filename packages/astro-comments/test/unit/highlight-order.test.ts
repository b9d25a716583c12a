// A body's highlighting depends on the body alone, not on what other comments made PrismJS load
// before it. PrismJS's grammars change each other as they load (CSS and JavaScript add HTML's style
// and script tags, JSDoc and the template-literal languages extend JavaScript, TypeScript copies
// JavaScript as it is when TypeScript loads, Markdown highlights a fence only in a loaded language),
// and the render cache keeps the first rendering of a body for every later build. PrismJS is one
// global per process, so each order is highlighted in a Node process of its own.
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import componentsJson from "prismjs/components.json" with { type: "json" };
import { describe, expect, it } from "vitest";
import { grammarsToLoad } from "../../src/render/prism-load-order.ts";

const block = (language: string, code: string) =>
  `<pre><code class="language-${language}">${code.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;")}</code></pre>`;

/** Bodies as the sanitizer leaves them, each in a language another one changes or reads. */
const bodies: Record<string, string> = {
  html: block(
    "html",
    '<style>a { color: red }</style>\n<script>const x = `<b>${1}</b>`;</script>\n<p onclick="go()">Hi</p>',
  ),
  markdown: block("md", "# Title\n\n```ts\nconst n: number = 1;\n```\n\n```python\nprint('x')\n```\n"),
  typescript: block("ts", "/** @param {string} a */\nfunction f(a: string) { return html`<p>${a}</p>`; }"),
  javascript: block(
    "js",
    "/**\n * @returns {number}\n */\nconst sum = (a, b) => a + b; // sum\nconst q = sql`SELECT 1`;",
  ),
  jsx: block("jsx", "const el = <div className={`x ${y}`}>{/** doc */ z}</div>;"),
  php: block("php", "<?php /** @var int $x */ $x = 1; ?>"),
  csharp: block("csharp", "/// <summary>Sums.</summary>\nint Sum(int a) => a;"),
  graphql: block("graphql", "query { user(id: 1) { name } }"),
  python: block("python", "def f():\n    return 1"),
  css: block("css", "a { color: red; }"),
  java: block("java", "/** @return the sum */\nint sum() { return 1; }"),
  // A block that opens with a fence, and the names PrismJS's Markdown rewrites (c# is csharp).
  fences: block("md", "```python\nprint('x')\n```\n```c#\nvar x = 1;\n```\n```c++\nint y;\n```\n```{r}\nx <- 1\n```\n"),
  // Textile copies HTML, whose script tags hold JavaScript as JSDoc leaves it.
  textile: block("textile", "<script>/** @param {string} a */ var x;</script>"),
  // Cilk inserts its keywords into C's grammar without saying so in components.json.
  c: block("c", "int x = cilk_spawn f();"),
  cilkc: block("cilkc", "cilk_sync;"),
  cpp: block("cpp", "int y;"),
  r: block("r", "x <- 1"),
};
const names = Object.keys(bodies);

const highlightModule = fileURLToPath(new URL("../../src/render/highlight.ts", import.meta.url));

/** Each body's highlighted HTML when the bodies are loaded and highlighted one at a time, in `order`. */
function highlightInOrder(order: string[]): Promise<Record<string, string>> {
  const script = `
    const { loadLanguagesOf, highlightCodeBlocks } = await import(${JSON.stringify(highlightModule)});
    const bodies = ${JSON.stringify(bodies)};
    const out = {};
    for (const name of ${JSON.stringify(order)}) {
      await loadLanguagesOf([bodies[name]]);
      out[name] = highlightCodeBlocks(bodies[name]).html;
    }
    process.stdout.write(JSON.stringify(out));
  `;
  return new Promise((resolve, reject) =>
    execFile(
      process.execPath,
      ["--input-type=module", "-e", script],
      { cwd: fileURLToPath(new URL("../..", import.meta.url)), maxBuffer: 16 * 1_048_576 },
      (error, stdout, stderr) =>
        error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(JSON.parse(stdout)),
    ),
  );
}

describe("highlighting in any order", () => {
  it("gives every body the same HTML whichever bodies were highlighted before it", async () => {
    const orders = [names, [...names].reverse(), [...names.slice(8), ...names.slice(0, 8)]];
    const [first, ...others] = await Promise.all([
      // Each body alone, in a process of its own: the reference.
      Promise.all(names.map((name) => highlightInOrder([name]))).then((alone) => Object.assign({}, ...alone)),
      ...orders.map(highlightInOrder),
    ]);
    for (const other of others) for (const name of names) expect(other[name], name).toBe(first[name]);
    // And the highlighting is there: the script tag's code is JavaScript, Markdown's fences are highlighted.
    expect(first.html).toContain('class="token keyword">const</span>');
    expect(first.markdown).toContain('class="token keyword">print</span>');
    expect(first.fences).toContain('class="token keyword">print</span>');
    expect(first.fences).toContain('class="token keyword">var</span>');
    expect(first.c).toContain('class="token parallel-keyword keyword">cilk_spawn</span>');
  }, 120_000);
});

describe("the order grammars load in", () => {
  const entries = Object.entries(componentsJson.languages).filter(([id]) => id !== "meta") as [
    string,
    { require?: string | string[]; optional?: string | string[]; modify?: string | string[] },
  ][];
  const all = grammarsToLoad(
    entries.map(([id]) => id),
    () => false,
  );
  const at = (id: string) => all.indexOf(id);

  it("loads every grammar once, after what it builds on, reads and changes (PrismJS's rules)", () => {
    expect(new Set(all).size).toBe(entries.length);
    for (const [id, entry] of entries) {
      for (const first of [entry.require ?? [], entry.optional ?? [], entry.modify ?? []].flat()) {
        if (at(first) >= 0) expect(at(first), `${first} before ${id}`).toBeLessThan(at(id));
      }
    }
  });

  it("loads what changes JavaScript before TypeScript copies it, unless it needs TypeScript first", () => {
    for (const changer of ["js-templates", "javadoclike"]) expect(at(changer)).toBeLessThan(at("typescript"));
    expect(at("jsdoc")).toBeGreaterThan(at("typescript"));
  });

  it("loads a grammar with what changes it and what it changes: JavaScript brings JSDoc, HTML brings ActionScript", () => {
    expect(grammarsToLoad(["javascript"], (id) => id === "javascript")).toEqual(
      expect.arrayContaining(["jsdoc", "js-extras", "js-templates", "typescript"]),
    );
    expect(grammarsToLoad(["markup"], () => false)).toEqual(
      expect.arrayContaining(["css", "javascript", "actionscript"]),
    );
    expect(grammarsToLoad(["python"], () => false)).toEqual(["python"]);
  });
});
