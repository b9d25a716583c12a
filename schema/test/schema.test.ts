import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import {
  createContractValidator,
  describeSchemaErrors,
  openApiDocument,
  type CommentListResponse,
  type SchemaName,
} from "../src/index.ts";
import { generatedFiles } from "../scripts/generate.ts";
import apiMdExample from "./fixtures/api-md-example.json" with { type: "json" };

const strict = createContractValidator();
// The example from api.md is typed against the generated types too (tsc checks this line).
const example: CommentListResponse = apiMdExample as CommentListResponse;
const clone = (): CommentListResponse => structuredClone(example);
const errorsOf = (name: SchemaName, value: unknown) => describeSchemaErrors(strict.validate(name, value));

describe("the contract accepts the service's documented response", () => {
  it("validates the api.md example", () => {
    expect(strict.validate("listResponse", example)).toEqual([]);
  });
  it("accepts an empty page with from/to null and html that is empty or ends in a newline", () => {
    const page = clone();
    page.data = [];
    page.meta = { ...page.meta, from: null, to: null, total: 0 };
    expect(strict.validate("listResponse", page)).toEqual([]);
    const withHtml = clone();
    withHtml.data[0]!.html = "";
    expect(strict.validate("listResponse", withHtml)).toEqual([]);
  });
  it("accepts meta without links and path, and link entries without page (Laravel before 12.23)", () => {
    const page = clone();
    delete page.meta.links;
    delete page.meta.path;
    expect(strict.validate("listResponse", page)).toEqual([]);
    const old = clone();
    old.meta.links = old.meta.links!.map(({ url, label, active }) => ({ url, label, active }));
    expect(strict.validate("listResponse", old)).toEqual([]);
  });
});

describe("the contract rejects documents that break it", () => {
  const cases: Array<[string, (page: CommentListResponse & Record<string, unknown>) => void, RegExp]> = [
    [
      "a reply carrying children",
      (p) => Object.assign(p.data[0]!.children[0]!, { children: [] }),
      /children boolean schema is false/,
    ],
    [
      "a pending status",
      (p) => Object.assign(p.data[0]!, { status: "pending" }),
      /status must be equal to constant "approved"/,
    ],
    [
      "created_at without microseconds",
      (p) => (p.data[0]!.created_at = "2023-11-26T06:30:07Z"),
      /created_at must match pattern/,
    ],
    [
      "created_at with milliseconds",
      (p) => (p.data[0]!.created_at = "2023-11-26T06:30:07.000Z"),
      /created_at must match pattern/,
    ],
    [
      "created_at with an offset",
      (p) => (p.data[0]!.created_at = "2023-11-26T06:30:07.000000+01:00"),
      /created_at must match pattern/,
    ],
    [
      "a missing meta.total",
      (p) => delete (p.meta as Partial<typeof p.meta>).total,
      /must have required property 'total'/,
    ],
    [
      "a missing links.next",
      (p) => delete (p.links as Partial<typeof p.links>).next,
      /must have required property 'next'/,
    ],
    [
      "a top-level comment without children",
      (p) => delete (p.data[0] as Partial<(typeof p.data)[0]>).children,
      /must have required property 'children'/,
    ],
    [
      "a missing name",
      (p) => delete (p.data[0] as Partial<(typeof p.data)[0]>).name,
      /must have required property 'name'/,
    ],
    [
      "an unknown field (strict mode)",
      (p) => Object.assign(p.data[0]!, { id: 5 }),
      /must NOT have additional properties \(id\)/,
    ],
    ["current_page 0", (p) => (p.meta.current_page = 0), /current_page must be >= 1/],
    ["a non-URL link", (p) => (p.links.first = "not a url"), /first must match format "uri"/],
    ["a string per_page", (p) => Object.assign(p.meta, { per_page: "50" }), /per_page must be integer/],
    ["data that is an object", (p) => Object.assign(p, { data: {} }), /data must be array/],
  ];
  it.each(cases)("rejects %s", (_, mutate, message) => {
    const page = clone() as CommentListResponse & Record<string, unknown>;
    mutate(page);
    expect(errorsOf("listResponse", page)).toMatch(message);
  });
});

describe("tolerant mode (what a client uses)", () => {
  it("drops unknown fields but still rejects what the schema forbids", () => {
    const tolerant = createContractValidator({ tolerateUnknownProperties: true });
    const page = clone() as CommentListResponse & Record<string, unknown>;
    Object.assign(page.data[0]!, { id: 9, avatar: "x" });
    Object.assign(page, { extra: true });
    expect(tolerant.validate("listResponse", page)).toEqual([]);
    expect(page.data[0]).not.toHaveProperty("id");
    expect(page).not.toHaveProperty("extra");
    const nested = clone();
    Object.assign(nested.data[0]!.children[0]!, { children: [] });
    expect(describeSchemaErrors(tolerant.validate("listResponse", nested))).toMatch(/children boolean schema is false/);
  });
});

describe("the error bodies", () => {
  it("accept Laravel's shapes and reject others", () => {
    expect(strict.validate("messageError", { message: "Unauthenticated." })).toEqual([]);
    expect(
      strict.validate("validationError", {
        message: "The domain field is required.",
        errors: { domain: ["The domain field is required."] },
      }),
    ).toEqual([]);
    expect(errorsOf("validationError", { message: "x", errors: { domain: "not a list" } })).toMatch(/must be array/);
    expect(errorsOf("validationError", { message: "x", errors: {} })).toMatch(/must NOT have fewer than 1 properties/);
  });
});

describe("the OpenAPI document", () => {
  it("has every named example valid against the schema of its response", async () => {
    const require = createRequire(import.meta.url);
    const { getHttpOperationsFromSpec } = require("@stoplight/prism-http") as typeof import("@stoplight/prism-http");
    const [operation] = await getHttpOperationsFromSpec(fileURLToPath(openApiDocument));
    const byStatus: Record<string, SchemaName> = { "200": "listResponse", "422": "validationError" };
    let checked = 0;
    for (const response of operation!.responses) {
      for (const content of response.contents ?? []) {
        for (const named of content.examples ?? []) {
          const value = (named as { value?: unknown }).value;
          expect(errorsOf(byStatus[response.code] ?? "messageError", value), `${response.code} ${named.key}`).toBe("");
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThanOrEqual(4);
  });

  it("declares the 2020-12 dialect and no schema file carries an $id (Prism would stop validating)", async () => {
    const text = await readFile(openApiDocument, "utf8");
    expect(text).toMatch(/^jsonSchemaDialect: https:\/\/json-schema\.org\/draft\/2020-12\/schema$/m);
    const { loadSchemaDocuments } = await import("../src/index.ts");
    for (const [file, document] of loadSchemaDocuments()) expect(document, file).not.toHaveProperty("$id");
  });
});

describe("generated files", () => {
  it.each(
    generatedFiles.map(({ file, generate }) => [file.pathname.split("/").slice(-4).join("/"), file, generate] as const),
  )("%s is up to date with the schema (run `npm run generate` when this fails)", async (_, file, generate) => {
    expect(await readFile(file, "utf8")).toBe(await generate());
  });
});
