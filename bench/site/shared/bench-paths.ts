import { readFileSync } from "node:fs";

/** The 2,000 pages, from the list scripts/bench.ts writes (BENCH_PATHS_FILE). */
export function benchStaticPaths() {
  const paths: string[] = JSON.parse(readFileSync(process.env.BENCH_PATHS_FILE!, "utf8"));
  return paths.map((path) => ({ params: { slug: path.replace(/^\/|\/$/g, "") || undefined }, props: { path } }));
}
