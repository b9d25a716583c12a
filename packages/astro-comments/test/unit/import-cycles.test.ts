// No module of src/ imports itself through others. A circle ties modules that should not know each
// other (the build's fetch to the live page's module), makes the order in which they are evaluated
// matter, and keeps a bundler from leaving one out. Type imports count: they are the edges a
// refactor turns into value imports without anyone noticing.
import { readdirSync, readFileSync } from "node:fs";
import { join, posix } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const srcDir = fileURLToPath(new URL("../../src/", import.meta.url));

/** Module → the modules of the same graph it imports (relative specifiers only). */
type ImportGraph = Map<string, string[]>;

function srcImportGraph(): ImportGraph {
  const files = readdirSync(srcDir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(".ts"))
    .map((entry) => posix.join(posix.relative(srcDir, entry.parentPath).split("\\").join("/"), entry.name));
  return new Map(
    files.map((file) => {
      const specifiers = ts
        .preProcessFile(readFileSync(join(srcDir, file), "utf8"), true, true)
        .importedFiles.map((imported) => imported.fileName)
        .filter((specifier) => specifier.startsWith("."));
      return [file, specifiers.map((specifier) => posix.join(posix.dirname(file), specifier))];
    }),
  );
}

/**
 * The modules that import each other in a circle, one sorted group per circle or knot of circles
 * (the graph's strongly connected components with more than one module, or a module importing
 * itself), by Tarjan's algorithm.
 */
function importCircles(graph: ImportGraph): string[][] {
  const index = new Map<string, number>();
  const lowest = new Map<string, number>();
  const stack: string[] = [];
  const circles: string[][] = [];
  const visit = (module: string) => {
    index.set(module, index.size);
    lowest.set(module, index.get(module)!);
    stack.push(module);
    for (const next of graph.get(module) ?? []) {
      if (!index.has(next)) {
        visit(next);
        lowest.set(module, Math.min(lowest.get(module)!, lowest.get(next)!));
      } else if (stack.includes(next)) lowest.set(module, Math.min(lowest.get(module)!, index.get(next)!));
    }
    if (lowest.get(module) !== index.get(module)) return;
    const group = stack.splice(stack.indexOf(module));
    if (group.length > 1 || graph.get(module)?.includes(module)) circles.push(group.sort());
  };
  for (const module of graph.keys()) if (!index.has(module)) visit(module);
  return circles.sort((a, b) => a[0]!.localeCompare(b[0]!));
}

describe("src/ imports", () => {
  it("form no circle", () => {
    expect(importCircles(srcImportGraph())).toEqual([]);
  });

  it("are read: the graph has the entry points' edges, and a circle is found when there is one", () => {
    const graph = srcImportGraph();
    expect(graph.get("loader.ts")).toContain("site-registry.ts");
    expect(graph.get("site-registry.ts")).toContain("loader/fetch-status.ts");
    const circle: ImportGraph = new Map([
      ["a.ts", ["b.ts"]],
      ["b.ts", ["c.ts", "d.ts"]],
      ["c.ts", ["a.ts"]],
      ["d.ts", ["d.ts"]],
    ]);
    expect(importCircles(circle)).toEqual([["a.ts", "b.ts", "c.ts"], ["d.ts"]]);
    expect(
      importCircles(
        new Map([
          ["a.ts", ["b.ts"]],
          ["b.ts", []],
        ]),
      ),
    ).toEqual([]);
  });
});
