// Raw material for generated comments: names, prose, code and hostile markup.

/** Names a comments section must print as text: many scripts, right-to-left, and markup-looking ones. */
export const authorNames: readonly string[] = [
  "Jane Doe",
  "John Smith",
  "Zoë Ångström",
  "José Núñez",
  "Siobhán O'Connor",
  "李小龙",
  "山田太郎",
  "김민준",
  "Ольга Петрова",
  "محمد الأحمد",
  "שרה כהן",
  "Ελένη Παπαδοπούλου",
  "अनन्या शर्मा",
  "Tom & Jerry",
  'Robert "Bobby" Tables',
  "<b>Bold</b> Name",
  '<script>alert("name")</script>',
  "<img src=x onerror=alert(1)>",
  "😀 Emoji Fan",
  "Nguyễn Văn An",
  "Ada Lovelace",
  "Grace Hopper",
  "Linus",
  "Margaret H.",
  "dev_guy_42",
  "Ayşe Yılmaz",
  "Łukasz Żółć",
  "Mārtiņš Bērziņš",
];

const words = (
  "the a this that build static site comments page render code test fast slow cache server client " +
  "request response error retry markup style theme light dark reader writer post blog thanks great " +
  "question answer idea bug fix works breaks again nicely clearly really maybe always never because"
).split(" ");

/** A code sample per language; the last entry uses a language PrismJS does not know. */
export const codeSamples: ReadonlyArray<{ language: string; code: string }> = [
  { language: "js", code: 'const greet = (name) => `Hello, ${name}!`;\nconsole.log(greet("world") < 3 && true);' },
  {
    language: "ts",
    code: "interface Comment {\n  name: string;\n  replies: Comment[];\n}\nexport const count = (c: Comment): number => 1 + c.replies.length;",
  },
  {
    language: "python",
    code: 'def fib(n: int) -> int:\n    """Return the n-th Fibonacci number."""\n    return n if n < 2 else fib(n - 1) + fib(n - 2)',
  },
  {
    language: "rust",
    code: 'fn main() {\n    let v: Vec<u32> = (1..=3).collect();\n    println!("{:?} & done", v);\n}',
  },
  { language: "bash", code: 'for f in *.md; do\n  echo "converting $f" && pandoc "$f" -o "${f%.md}.html"\ndone' },
  { language: "css", code: ".comment > .body {\n  color: var(--text, #222);\n  /* keep <b> readable */\n}" },
  {
    language: "html",
    code: '<button onclick="alert(1)">Not run: this is code</button>\n<script>alert("also just code")</script>',
  },
  { language: "go", code: 'package main\n\nimport "fmt"\n\nfunc main() {\n\tfmt.Println("hi & bye")\n}' },
  { language: "json", code: '{"name": "Jane", "tags": ["a", "b"], "ok": true}' },
  { language: "sql", code: "SELECT name, COUNT(*) FROM comments WHERE status = 'approved' GROUP BY name;" },
  { language: "brainfuck-dialect", code: "++++[>++++<-]>. <not a tag> & such" },
];

/** Hostile comment bodies: what a consumer must neutralise before it prints `html`. */
export const hostileBodies: readonly string[] = [
  '<p>Nice post</p><script>alert("xss")</script>',
  '<p><img src="x" onerror="alert(1)"> look</p>',
  '<p><a href="javascript:alert(1)">click me</a></p>',
  '<p><a href="JaVaScRiPt:alert(1)">mixed case</a> and <a href="&#106;avascript:alert(1)">entity</a></p>',
  '<svg onload="alert(1)"><circle r="10"></circle></svg>',
  "<math><mtext><table><mglyph><style><img src=x onerror=alert(1)></style></mglyph></table></mtext></math>",
  '<iframe src="https://evil.example/"></iframe><p>framed</p>',
  '<form action="https://evil.example/"><input name="q"><button>Go</button></form>',
  '<p style="background:url(javascript:alert(1))">styled</p>',
  '<noscript><p title="</noscript><img src=x onerror=alert(1)>"></p></noscript>',
  "<template><script>alert(1)</script></template><p>templated</p>",
  "<style>body { display: none }</style><p>hidden page?</p>",
  '<p onclick="alert(1)" onmouseover="alert(2)">hover me</p>',
  '<object data="javascript:alert(1)"></object><embed src="javascript:alert(1)">',
  '<meta http-equiv="refresh" content="0;url=javascript:alert(1)"><base href="https://evil.example/">',
  '<details open ontoggle="alert(1)"><summary>toggle</summary></details>',
];

export function sentence(pick: <T>(items: readonly T[]) => T, length: number): string {
  const parts = Array.from({ length }, () => pick(words));
  const text = parts.join(" ");
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
}

export function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

/** A comment's rendering when none is given: its text, escaped, as one paragraph (as the service renders plain text). */
export function paragraphHtml(text: string): string {
  return `<p>${escapeHtml(text)}</p>\n`;
}
