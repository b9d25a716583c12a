// npm run bench:sanitizer: the comment sanitizer against the sanitize-html configuration it
// replaced, on the mock's seeded dataset. Rounds interleave the two so machine noise hits both;
// medians and ranges are reported, every figure measured in this run. Memory is measured in a
// fresh process per sanitizer, since garbage one leaves behind would count against the other.
// bench/run.ts imports measureSanitizerRates and sanitizerBodies.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { generateDataset } from "../mock-server/src/index.ts";
import { sanitizeCommentHtml } from "../packages/astro-comments/src/render/sanitize.ts";
import { legacySanitize } from "../packages/astro-comments/test/helpers/legacy-sanitizer.ts";
import { formatNumber, formatRange, machineLine, markdownTable, spread } from "./report.ts";

type Sanitize = (html: string) => string;
export const sanitizers: ReadonlyArray<readonly [string, Sanitize]> = [
  ["sanitize-html (before)", legacySanitize],
  ["streaming (now)", sanitizeCommentHtml],
];

const ROUNDS = 7;
const SAMPLE_MS = 150;
const MEMORY_PASSES = 10;

const sanitizerDataset = { seed: 1, size: 3_000 };
let cachedBodies: string[] | undefined;
/** The non-empty comment bodies of generateDataset(sanitizerDataset), generated on first use. */
export function sanitizerBodies(): readonly string[] {
  cachedBodies ??= generateDataset(sanitizerDataset)
    .map((comment) => comment.html)
    .filter((html) => html !== "");
  return cachedBodies;
}

// Summed output lengths, printed at the end, so no engine can drop the work as unused.
let sink = 0;
function pass(sanitize: Sanitize, input: readonly string[]): void {
  for (const html of input) sink += sanitize(html).length;
}

/** Bodies per second over `passes` passes. */
function sample(sanitize: Sanitize, input: readonly string[], passes: number): number {
  const started = performance.now();
  for (let i = 0; i < passes; i++) pass(sanitize, input);
  return (input.length * passes) / ((performance.now() - started) / 1000);
}

/**
 * Bodies per second of each sanitizer (in the order of `sanitizers`), one sample of about
 * `sampleMs` per round; rounds alternate which sanitizer goes first. Returns rates[sanitizer][round].
 */
export function measureSanitizerRates(
  input: readonly string[],
  { rounds = ROUNDS, sampleMs = SAMPLE_MS } = {},
): number[][] {
  // The warm-up pass also sizes the samples.
  const passes = sanitizers.map(([, sanitize]) =>
    Math.max(1, Math.round((sample(sanitize, input, 1) * sampleMs) / 1000 / input.length)),
  );
  const rates = sanitizers.map((): number[] => []);
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? [0, 1] : [1, 0];
    for (const index of order) rates[index]!.push(sample(sanitizers[index]![1], input, passes[index]!));
  }
  return rates;
}

/** What a memory probe child reports. */
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
  const bodies = sanitizerBodies();
  collect();
  const before = process.memoryUsage();
  for (let i = 0; i < MEMORY_PASSES; i++) pass(sanitize, bodies);
  const peakRss = process.resourceUsage().maxRSS * 1024;
  collect();
  const after = process.memoryUsage();
  return { peakRss: (peakRss - before.rss) / 2 ** 20, retainedHeap: (after.heapUsed - before.heapUsed) / 2 ** 20 };
}

if (import.meta.main) {
  const probe = process.argv.indexOf("--memory-probe");
  if (probe !== -1) {
    const sanitize = sanitizers[Number(process.argv[probe + 1])]?.[1];
    if (sanitize === undefined) throw new Error(`no sanitizer ${process.argv[probe + 1]}`);
    process.stdout.write(JSON.stringify(measureMemory(sanitize)));
  } else {
    benchmark();
  }
}

function benchmark(): void {
  const bodies = sanitizerBodies();
  // Plain paragraphs come back unchanged without parsing (the fast path); the rest are parsed.
  const isPlain = (html: string) => /^(?:<p>[^<>&]*<\/p>[^<>&]*)+$/.test(html);
  const groups: ReadonlyArray<readonly [string, readonly string[]]> = [
    ["all bodies", bodies],
    ["plain paragraphs", bodies.filter(isPlain)],
    ["other bodies (parsed)", bodies.filter((html) => !isPlain(html))],
  ];

  const started = performance.now();
  // rates[group][sanitizer][round]
  const rates = groups.map(([, input]) => measureSanitizerRates(input));
  const seconds = (performance.now() - started) / 1000;

  const memory = sanitizers.map((_, index): MemoryUse => {
    const child = spawnSync(
      process.execPath,
      ["--expose-gc", fileURLToPath(import.meta.url), "--memory-probe", String(index)],
      { encoding: "utf8" },
    );
    if (child.status !== 0) throw new Error(`memory probe failed: ${child.stderr}`);
    return JSON.parse(child.stdout) as MemoryUse;
  });

  const differing = bodies.filter((html) => sanitizeCommentHtml(html) !== legacySanitize(html)).length;
  const plainShare = (groups[1]![1].length / bodies.length) * 100;

  console.log(`\ncomment sanitizer benchmark — ${machineLine()}`);
  console.log(
    `${formatNumber(bodies.length)} non-empty bodies of generateDataset(${JSON.stringify(sanitizerDataset)}), ${plainShare.toFixed(0)}% plain paragraphs, ` +
      `${differing} sanitized differently by the two; ${ROUNDS} interleaved rounds of ~${SAMPLE_MS} ms samples (${seconds.toFixed(1)} s)\n`,
  );
  const rows = groups.flatMap(([group, input], g) => {
    const [before = [], now = []] = rates[g]!;
    const ratios = spread(now.map((rate, round) => rate / (before[round] ?? Number.NaN)));
    return sanitizers.map(([name], s) => {
      const measured = spread(rates[g]![s]!);
      const speedUp = s === 0 ? "1.0×" : `${ratios.median.toFixed(1)}× (${formatRange(ratios, 1)})`;
      return [
        `${group} (${formatNumber(input.length)})`,
        name,
        formatNumber(measured.median),
        formatRange(measured),
        (1e6 / measured.median).toFixed(1),
        speedUp,
      ];
    });
  });
  console.log(
    markdownTable(
      ["bodies", "sanitizer", "bodies/s, median", "range", "µs/body", "speed-up, median of rounds (range)"],
      ["left", "left", "right", "right", "right", "right"],
      rows,
    ),
  );
  console.log(
    `\n${markdownTable(
      [
        `memory, ${MEMORY_PASSES} passes over all bodies in a fresh process`,
        "peak RSS over start, MiB",
        "heap retained after GC, MiB",
      ],
      ["left", "right", "right"],
      sanitizers.map(([name], s) => [name, memory[s]!.peakRss.toFixed(1), memory[s]!.retainedHeap.toFixed(1)]),
    )}`,
  );
  console.log(`\n(checksum ${sink})`);
}
