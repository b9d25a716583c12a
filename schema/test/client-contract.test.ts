// astro-comments ships a precompiled copy of the tolerant validator (scripts/generate.ts). It must
// judge every document exactly as the runtime validator does: the same errors, in the same words,
// and the same unknown properties removed.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createContractValidator as compiledContractValidator } from "../../packages/astro-comments/src/api/generated/list-response-contract.ts";
import { createContractValidator, describeSchemaErrors } from "../src/index.ts";
import apiMdExample from "./fixtures/api-md-example.json" with { type: "json" };

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Mutation =
  | { kind: "set"; path: string[]; value: Json }
  | { kind: "delete"; path: string[] }
  | { kind: "add"; path: string[]; key: string; value: Json };

const runtime = createContractValidator({ tolerateUnknownProperties: true });
const compiled = compiledContractValidator({ tolerateUnknownProperties: true });

/** Every path into the example, the document itself included. */
function pathsOf(value: Json, path: string[] = []): string[][] {
  const children =
    value !== null && typeof value === "object"
      ? Object.entries(value).flatMap(([key, child]) => pathsOf(child, [...path, key]))
      : [];
  return [path, ...children];
}

function apply(document: Json, mutation: Mutation): void {
  const parentPath = mutation.kind === "add" ? mutation.path : mutation.path.slice(0, -1);
  let target: Json | undefined = document;
  for (const key of parentPath)
    target = target !== null && typeof target === "object" ? (target as Record<string, Json>)[key] : undefined;
  if (target === null || typeof target !== "object") return;
  const record = target as Record<string, Json>;
  if (mutation.kind === "add") record[mutation.key] = mutation.value;
  else if (mutation.path.length === 0) return;
  else if (mutation.kind === "delete") delete record[mutation.path.at(-1)!];
  else record[mutation.path.at(-1)!] = mutation.value;
}

const example = apiMdExample as Json;
const path = fc.constantFrom(...pathsOf(example));
const value = fc.oneof(
  fc.jsonValue() as fc.Arbitrary<Json>,
  fc.constantFrom<Json>(
    "2024-02-30T00:00:00.000000Z",
    "2024-02-29T23:59:60.000000Z",
    "not a url",
    "approved",
    "pending",
    0,
    -1,
    "50",
  ),
);
const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant("set" as const), path, value }),
  fc.record({ kind: fc.constant("delete" as const), path }),
  fc.record({
    kind: fc.constant("add" as const),
    path,
    key: fc.constantFrom("id", "avatar", "children", "meta", "extra"),
    value,
  }),
);

describe("the precompiled client validator", () => {
  it("gives the runtime validator's errors and strips the same properties, on documents mutated at random", () => {
    fc.assert(
      fc.property(fc.array(mutation, { minLength: 1, maxLength: 4 }), (mutations) => {
        const expected = structuredClone(example);
        for (const each of mutations) apply(expected, each);
        const actual = structuredClone(expected);
        const expectedErrors = runtime.validate("listResponse", expected);
        expect(compiled.validate("listResponse", actual)).toEqual(expectedErrors);
        expect(actual).toEqual(expected);
      }),
      { seed: 20261123, numRuns: 400 },
    );
  });

  it("checks the date-time format, not only the pattern", () => {
    const page = structuredClone(apiMdExample);
    page.data[0]!.created_at = "2023-02-30T06:30:07.000000Z";
    expect(describeSchemaErrors(compiled.validate("listResponse", page))).toBe(
      '/data/0/created_at must match format "date-time"',
    );
  });
});
