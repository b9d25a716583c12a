// node scripts/bench-sanitizer.ts: the comment sanitizer against the sanitize-html configuration it
// replaced, on the mock's seeded dataset. Rounds interleave the two so machine noise hits both;
// medians and ranges are reported, every figure measured in this run. Memory is measured in a
// fresh process per sanitizer, since garbage one leaves behind would count against the other.
import { spawnSync } from "node:child_process";
import { cpus } from "node:os";
import { fileURLToPath } from "node:url";
import sanitizeHtml from "sanitize-html";
import { generateDataset } from "../mock-server/src/index.ts";
import { allowedAttributes, allowedElements, sanitizeCommentHtml } from "../packages/astro-comments/src/render/sanitize.ts";

// The baseline: the previous sanitizer's sanitize-html options, unchanged.
const LINK_REL = "nofollow ugc noopener";
const SAFE_HREF = /^(https?:\/\/|mailto:)[^\s\u0000-\u001f]*$/i;
const legacyOptions: sanitizeHtml.IOptions = {
  allowedTags: [...allowedElements],
  allowedAttributes: Object.fromEntries(Object.entries(allowedAttributes).map(([tag, attrs]) => [tag, [...attrs]])),
  allowedClasses: { code: ["language-*"] },
  allowedSchemes: ["http", "https", "mailto"],
  allowedSchemesAppliedToAttributes: ["href", "src", "cite"],
  allowProtocolRelative: false,
  disallowedTagsMode: "discard",
  nonTextTags: [
    "script", "style", "textarea", "option", "noscript", "template", "svg", "math", "iframe", "frame",
    "frameset", "object", "embed", "applet", "title", "xmp", "noembed", "noframes", "plaintext", "head", "select",
  ],
  parseStyleAttributes: false,
  transformTags: {
    h1: "p", h2: "p", h3: "p", h4: "p", h5: "p", h6: "p",
    a: (tagName, attribs) => {
      const { href, title } = attribs;
      const kept: Record<string, string> = {};
      if (href !== undefined && SAFE_HREF.test(href)) kept.href = href;
      if (title !== undefined) kept.title = title;
      return { tagName, attribs: { ...kept, rel: LINK_REL } };
    },
  },
  exclusiveFilter: (frame) => frame.tag === "a" && !frame.attribs.href && !frame.text.trim(),
};

type Sanitize = (html: string) => string;
const sanitizers: ReadonlyArray<readonly [string, Sanitize]> = [
  ["sanitize-html (before)", (html) => sanitizeHtml(html, legacyOptions)],
  ["streaming (now)", sanitizeCommentHtml],
];

const ROUNDS = 7;
const SAMPLE_MS = 150;
const MEMORY_PASSES = 10;

const dataset = { seed: 1, size: 3_000 };
const bodies = generateDataset(dataset).map((comment) => comment.html).filter((html) => html !== "");

let sink = 0;
function pass(sanitize: Sanitize, input: readonly string[]): void {
  for (const html of input) sink += sanitize(html).length;
}

interface MemoryUse {
  /** Peak RSS while sanitizing, over the RSS before, MiB. */
  peakRss: number;
  /** Heap still in use after a full collection, over the heap before, MiB. */
  retainedHeap: number;
}

/** Run in a child started with --expose-gc: what MEMORY_PASSES passes over the bodies cost in memory. */
function measureMemory(sanitize: Sanitize): MemoryUse {
  const collect = (globalThis as { gc?: () => void }).gc;
  if (collect === undefined) throw new Error("the memory probe needs node --expose-gc");
  collect();
  const before = process.memoryUsage();
  for (let i = 0; i < MEMORY_PASSES; i++) pass(sanitize, bodies);
  const peakRss = process.resourceUsage().maxRSS * 1024;
  collect();
  const after = process.memoryUsage();
  return { peakRss: (peakRss - before.rss) / 2 ** 20, retainedHeap: (after.heapUsed - before.heapUsed) / 2 ** 20 };
}

const probe = process.argv.indexOf("--memory-probe");
if (probe !== -1) {
  const sanitize = sanitizers[Number(process.argv[probe + 1])]?.[1];
  if (sanitize === undefined) throw new Error(`no sanitizer ${process.argv[probe + 1]}`);
  process.stdout.write(JSON.stringify(measureMemory(sanitize)));
} else {
  benchmark();
}

function benchmark(): void {
  // Plain paragraphs come back unchanged without parsing (the fast path); the rest are parsed.
  const isPlain = (html: string) => /^(?:<p>[^<>&]*<\/p>[^<>&]*)+$/.test(html);
  const groups: ReadonlyArray<readonly [string, readonly string[]]> = [
    ["all bodies", bodies],
    ["plain paragraphs", bodies.filter(isPlain)],
    ["other bodies (parsed)", bodies.filter((html) => !isPlain(html))],
  ];

  /** Bodies per second over `passes` passes. */
  const sample = (sanitize: Sanitize, input: readonly string[], passes: number): number => {
    const started = performance.now();
    for (let i = 0; i < passes; i++) pass(sanitize, input);
    return (input.length * passes) / ((performance.now() - started) / 1000);
  };

  const started = performance.now();
  // rates[group][sanitizer][round]
  const rates = groups.map(([, input]) => {
    // The warm-up pass also sizes the samples.
    const passes = sanitizers.map(([, sanitize]) => Math.max(1, Math.round((sample(sanitize, input, 1) * SAMPLE_MS) / 1000 / input.length)));
    const perSanitizer = sanitizers.map((): number[] => []);
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 === 0 ? [0, 1] : [1, 0];
      for (const index of order) perSanitizer[index]!.push(sample(sanitizers[index]![1], input, passes[index]!));
    }
    return perSanitizer;
  });
  const seconds = (performance.now() - started) / 1000;

  const memory = sanitizers.map((_, index): MemoryUse => {
    const child = spawnSync(process.execPath, ["--expose-gc", fileURLToPath(import.meta.url), "--memory-probe", String(index)], { encoding: "utf8" });
    if (child.status !== 0) throw new Error(`memory probe failed: ${child.stderr}`);
    return JSON.parse(child.stdout) as MemoryUse;
  });

  const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
  const thousands = (n: number) => Math.round(n).toLocaleString("en-US");
  const range = (values: readonly number[], format: (n: number) => string) => `${format(Math.min(...values))}–${format(Math.max(...values))}`;
  const row = (cells: readonly string[]) => `| ${cells.join(" | ")} |`;
  const differing = bodies.filter((html) => sanitizeCommentHtml(html) !== sanitizeHtml(html, legacyOptions)).length;
  const plainShare = (groups[1]![1].length / bodies.length) * 100;

  console.log(`\ncomment sanitizer benchmark — ${cpus().length} × ${cpus()[0]?.model.trim() ?? "cpu"}, Node ${process.version}, ${new Date().toISOString().slice(0, 10)}`);
  console.log(
    `${thousands(bodies.length)} non-empty bodies of generateDataset(${JSON.stringify(dataset)}), ${plainShare.toFixed(0)}% plain paragraphs, ` +
      `${differing} sanitized differently by the two; ${ROUNDS} interleaved rounds of ~${SAMPLE_MS} ms samples (${seconds.toFixed(1)} s)\n`,
  );
  console.log(row(["bodies", "sanitizer", "bodies/s, median", "range", "µs/body", "speed-up, median of rounds (range)"]));
  console.log(row(["---", "---", "---:", "---:", "---:", "---:"]));
  groups.forEach(([group, input], g) => {
    const [before = [], now = []] = rates[g]!;
    const ratios = now.map((rate, round) => rate / (before[round] ?? NaN));
    sanitizers.forEach(([name], s) => {
      const measured = rates[g]![s]!;
      const speedUp = s === 0 ? "1.0×" : `${median(ratios).toFixed(1)}× (${range(ratios, (n) => n.toFixed(1))})`;
      console.log(row([`${group} (${thousands(input.length)})`, name, thousands(median(measured)), range(measured, thousands), (1e6 / median(measured)).toFixed(1), speedUp]));
    });
  });
  console.log(`\n${row([`memory, ${MEMORY_PASSES} passes over all bodies in a fresh process`, "peak RSS over start, MiB", "heap retained after GC, MiB"])}`);
  console.log(row(["---", "---:", "---:"]));
  sanitizers.forEach(([name], s) => console.log(row([name, memory[s]!.peakRss.toFixed(1), memory[s]!.retainedHeap.toFixed(1)])));
  console.log(`\n(checksum ${sink})`);
}
