// What the benchmarks in this folder share for reporting: the machine line, medians
// and ranges over interleaved runs, number formats and markdown tables.
import { cpus, totalmem } from "node:os";

/** CPU model, cores, RAM, Node and the date and time: every report starts with it, as figures only mean something on a named machine. */
export function machineLine(date = new Date()): string {
  const cores = cpus();
  const model = cores[0]?.model.trim() ?? "unknown CPU";
  return `${model}, ${cores.length} cores, ${(totalmem() / 2 ** 30).toFixed(0)} GiB RAM, Node ${process.version}, ${date.toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

/** Median and range of several runs of one measurement. */
export interface Spread {
  median: number;
  min: number;
  max: number;
  runs: number;
}

export function spread(values: readonly number[]): Spread {
  if (values.length === 0) return { median: Number.NaN, min: Number.NaN, max: Number.NaN, runs: 0 };
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  // An even number of runs has no middle run; the mean of the two middle ones is the usual median.
  const median = sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
  return { median, min: sorted[0]!, max: sorted.at(-1)!, runs: sorted.length };
}

export const median = (values: readonly number[]): number => spread(values).median;

/** 12,345 (rounded), or the given number of decimals with thousands separators. */
export function formatNumber(value: number, decimals = 0): string {
  if (!Number.isFinite(value)) return "?";
  return value.toLocaleString("en-US", { minimumFractionDigits: decimals, maximumFractionDigits: decimals });
}

/** "3.1–4.0" (the unit, if any, is the caller's). */
export function formatRange(value: Spread, decimals = 0): string {
  return `${formatNumber(value.min, decimals)}–${formatNumber(value.max, decimals)}`;
}

/** +12.3% */
export function formatPercent(ratio: number, decimals = 0): string {
  if (!Number.isFinite(ratio)) return "?";
  const percent = ratio * 100;
  return `${percent >= 0 ? "+" : "−"}${formatNumber(Math.abs(percent), decimals)}%`;
}

export type Alignment = "left" | "right";

/** A GitHub-flavoured markdown table; a pipe inside a cell is escaped so it cannot split the cell. */
export function markdownTable(
  header: readonly string[],
  alignments: readonly Alignment[],
  rows: ReadonlyArray<readonly string[]>,
): string {
  const line = (cells: readonly string[]) => `| ${cells.map((cell) => cell.replaceAll("|", "\\|")).join(" | ")} |`;
  const rule = header.map((_, i) => (alignments[i] === "right" ? "---:" : "---"));
  return [line(header), `| ${rule.join(" | ")} |`, ...rows.map(line)].join("\n");
}
