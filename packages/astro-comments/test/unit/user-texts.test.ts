// What a site's own build, dev server or check prints names only what that site has: `npx
// comments-mock` or a guide's URL, never a script of this repository (`npm run mock`), which no
// site has.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import * as errorsData from "../../src/errors-data.ts";

const repositoryOnly = /\bnpm (run|start|test)\b|\bscripts\/|\bbootstrap\.sh\b/;
const src = fileURLToPath(new URL("../../src/", import.meta.url));

/** An entry's text as users read it: its strings, and its builders called with stand-in values. */
function renderedTexts(entry: Record<string, unknown>): string[] {
  const texts: string[] = [];
  for (const value of Object.values(entry)) {
    if (typeof value === "string") texts.push(value);
    if (typeof value !== "function") continue;
    // A stand-in that reads as text, joins as a list and has any field a builder destructures.
    const standIn = new Proxy(["x"], {
      get: (target, key) => (typeof key === "symbol" || key in target ? Reflect.get(target, key) : "x"),
    });
    texts.push(String((value as (...args: unknown[]) => unknown)(...Array(Math.max(1, value.length)).fill(standIn))));
  }
  return texts;
}

/** Every string and template literal in a source file, comments left out. */
function literals(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isStringLiteralLike(node) || ts.isTemplateLiteralToken(node)) found.push(node.text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe("texts users read", () => {
  it("every error, hint and action in errors-data.ts, rendered, names no repository script", () => {
    const entries = Object.entries(errorsData).filter(([, value]) => typeof value === "object" && value !== null);
    expect(entries.length).toBeGreaterThan(40);
    const offending = entries.flatMap(([name, entry]) =>
      renderedTexts(entry as Record<string, unknown>)
        .filter((text) => repositoryOnly.test(text))
        .map((text) => `${name}: ${text}`),
    );
    expect(offending).toEqual([]);
    expect(errorsData.MissingCredentials.hint).toContain("npx comments-mock");
  });

  it("no string in the package's source (log lines, warnings, messages) names one", () => {
    const files = readdirSync(src, { recursive: true, encoding: "utf8" })
      .filter((path) => path.endsWith(".ts") && !path.includes("generated"))
      .map((path) => join(src, path));
    expect(files.length).toBeGreaterThan(50);
    const offending = files.flatMap((file) =>
      literals(file)
        .filter((text) => repositoryOnly.test(text))
        .map((text) => `${file.slice(src.length)}: ${text}`),
    );
    expect(offending).toEqual([]);
  });
});
