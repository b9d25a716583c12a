// The mock's side of what Schemathesis checks (`--checks all`, positive and negative data), by
// property: query parameters generated from the OpenAPI document's own schemas (read through
// Prism, as the mock reads them), and the answer compared with the contract both ways. Data the
// contract calls valid is accepted (200, or 403 for a domain the token does not cover: Schemathesis'
// positive_data_acceptance allows both); data it calls invalid is rejected with the documented
// error body (negative_data_rejection). With and without `Accept: application/json`.
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { openApiDocument, type SchemaName } from "@astro-comments/schema";
import type { IHttpOperation, IHttpQueryParam } from "@stoplight/types";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMockServer, type MockServer } from "../src/index.ts";
import { expectValid } from "./helpers.ts";

const require = createRequire(import.meta.url);
const prismHttp = require("@stoplight/prism-http") as typeof import("@stoplight/prism-http");

interface ParameterSchema {
  type: string;
  minimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  pattern?: string;
}

const [operation] = (await prismHttp.getHttpOperationsFromSpec(fileURLToPath(openApiDocument))) as IHttpOperation[];
const parameter = (name: string) => {
  const found = operation!.request?.query?.find((query: IHttpQueryParam) => query.name === name);
  if (!found) throw new Error(`the OpenAPI document has no query parameter ${name}`);
  return { required: found.required === true, schema: found.schema as ParameterSchema };
};
const domainParameter = parameter("domain");
const perPageParameter = parameter("per_page");
const pageParameter = parameter("page");

// The bounds as the document states them; 2^63 is a double, so BigInt reads it exactly.
const perPageMinimum = BigInt(perPageParameter.schema.minimum!);
const perPageBelow = BigInt(perPageParameter.schema.exclusiveMaximum!);
const domainPattern = new RegExp(domainParameter.schema.pattern!, "u");

/** Whether the contract calls this domain valid. */
const validDomain = (value: string) =>
  value.length >= (domainParameter.schema.minLength ?? 0) && domainPattern.test(value);

const TOKEN = "tok-properties";
const KNOWN_DOMAIN = "example.com";

/** One generated request: each part valid or not by the contract, and how the client asks. */
interface Case {
  domain: string | undefined;
  perPage: string | undefined;
  page: string | undefined;
  token: string | undefined;
  accept: string | undefined;
}

// Whitespace Laravel's TrimStrings removes, other Unicode spaces, and characters a trim may remove.
const blankCharacter = fc.constantFrom(
  " ",
  "\t",
  "\n",
  "\r",
  "\v",
  "\0",
  "\u00a0",
  "\u2003",
  "\u3000",
  "\u200b",
  "\ufeff",
);
const positiveDomain = fc.oneof(
  fc.constant(KNOWN_DOMAIN),
  fc
    .tuple(fc.string({ unit: blankCharacter, maxLength: 3 }), fc.string({ unit: blankCharacter, maxLength: 3 }))
    .map(([before, after]) => `${before}${KNOWN_DOMAIN}${after}`),
  fc.string({ unit: "grapheme", minLength: 1, maxLength: 20 }).filter(validDomain),
);
const negativeDomain = fc.oneof(
  fc.constant(undefined),
  fc.constant(""),
  fc.string({ unit: blankCharacter, minLength: 1, maxLength: 6 }),
);
const positivePerPage = fc.oneof(
  fc.bigInt({ min: perPageMinimum, max: 200n }),
  fc.bigInt({ min: perPageMinimum, max: perPageBelow - 1n }),
  fc.constant(perPageBelow - 1n),
);
const negativePerPage = fc.oneof(
  fc.bigInt({ min: -(2n ** 70n), max: perPageMinimum - 1n }).map(String),
  fc.bigInt({ min: perPageBelow, max: 2n ** 70n }).map(String),
  fc.constantFrom("1.5", "2.0", "1e3", "abc", "true", "0x10", "--1"),
  fc.string({ unit: "grapheme-ascii", minLength: 1, maxLength: 8 }).filter((value) => !/^\s*[+-]?\d+\s*$/.test(value)),
);

/** Accept headers Laravel treats as asking for JSON, and ones it does not. */
const acceptJson = fc.constantFrom(
  "application/json",
  "application/json, text/plain, */*",
  "text/html;q=0.9, application/json",
  "application/problem+json",
);
const acceptOther = fc.constantFrom(undefined, "*/*", "text/html", "text/html, application/json", "application/xml");

const caseOf = (
  domain: fc.Arbitrary<string | undefined>,
  perPage: fc.Arbitrary<string | undefined>,
  accept: fc.Arbitrary<string | undefined>,
): fc.Arbitrary<Case> =>
  fc.record({
    domain,
    perPage,
    page: fc.option(fc.string({ unit: "grapheme-ascii", maxLength: 6 }), { nil: undefined }),
    token: fc.constantFrom<string | undefined>(TOKEN, TOKEN, TOKEN, undefined, "wrong"),
    accept,
  });

const positiveCase = (accept: fc.Arbitrary<string | undefined>) =>
  caseOf(positiveDomain, fc.option(positivePerPage.map(String), { nil: undefined }), accept);
const negativeCase = (accept: fc.Arbitrary<string | undefined>) =>
  fc.oneof(
    caseOf(negativeDomain, fc.option(positivePerPage.map(String), { nil: undefined }), accept),
    caseOf(positiveDomain, negativePerPage, accept),
  );

function queryOf(request: Case): string {
  const pairs: Array<[string, string | undefined]> = [
    ["domain", request.domain],
    ["per_page", request.perPage],
    ["page", request.page],
  ];
  return pairs
    .filter((pair): pair is [string, string] => pair[1] !== undefined)
    .map(([name, value]) => `${name}=${encodeURIComponent(value)}`)
    .join("&");
}

/** What the contract says of a case: which parameters it breaks (domain, per_page). */
function brokenParameters(request: Case): string[] {
  const broken: string[] = [];
  if (request.domain === undefined ? domainParameter.required : !validDomain(request.domain)) broken.push("domain");
  if (request.perPage !== undefined) {
    const integer = /^-?\d+$/.test(request.perPage) ? BigInt(request.perPage) : undefined;
    if (integer === undefined || integer < perPageMinimum || integer >= perPageBelow) broken.push("per_page");
  }
  // page is any string: nothing breaks it.
  expect(pageParameter.schema.type).toBe("string");
  return broken;
}

const documentedBody: Readonly<Record<number, SchemaName>> = {
  200: "listResponse",
  401: "messageError",
  403: "messageError",
  422: "validationError",
};

/** A case as a client sends it: no Accept header unless the case has one, redirects not followed. */
async function send(mock: MockServer, request: Case, extra: Record<string, string> = {}) {
  const headers: Record<string, string> = { ...extra };
  if (request.accept !== undefined) headers.accept = request.accept;
  if (request.token !== undefined) headers.authorization = `Bearer ${request.token}`;
  const response = await fetch(`${mock.url}/api/comments?${queryOf(request)}`, { headers, redirect: "manual" });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

/** PHP's trim(), which Laravel's TrimStrings applies to every query string. */
const phpTrim = (value: string) => value.replace(/^[ \t\n\r\v\0]+|[ \t\n\r\v\0]+$/g, "");

let jsonMock: MockServer;
let laravelMock: MockServer;
const warnings: string[] = [];
beforeAll(async () => {
  jsonMock = await startMockServer({
    token: TOKEN,
    dataset: { seed: 3, size: 60 },
    onWarning: (w) => warnings.push(w),
  });
  laravelMock = await startMockServer({ token: TOKEN, dataset: { seed: 3, size: 60 }, withoutAcceptJson: "laravel" });
});
afterAll(async () => {
  await jsonMock.close();
  await laravelMock.close();
});

const runs = { seed: 42, numRuns: 150 };
// The default mock answers JSON either way: both must keep the contract.
const acceptVariants = [
  ["with Accept: application/json", acceptJson],
  ["without it", acceptOther],
] as const;

describe("the mock against the OpenAPI document, by property", () => {
  it("reads the limits from the document: per_page below 2^63, a domain that is not blank", () => {
    expect(perPageBelow).toBe(2n ** 63n);
    expect([" ", "\t\n", "\0", "\u00a0"].some(validDomain)).toBe(false);
    expect(validDomain(" example.com ")).toBe(true);
  });

  it.each(acceptVariants)("accepts every request the contract calls valid, %s", async (_, accept) => {
    await fc.assert(
      fc.asyncProperty(positiveCase(accept), async (request) => {
        expect(brokenParameters(request)).toEqual([]);
        const answer = await send(jsonMock, request);
        const expected = request.token !== TOKEN ? 401 : phpTrim(request.domain ?? "") === KNOWN_DOMAIN ? 200 : 403;
        expect(answer.status).toBe(expected);
        expect(answer.headers.get("content-type")).toBe("application/json");
        expectValid(documentedBody[expected]!, JSON.parse(answer.text));
      }),
      runs,
    );
  });

  it.each(acceptVariants)(
    "rejects every request the contract calls invalid with the documented error, %s",
    async (_, accept) => {
      await fc.assert(
        fc.asyncProperty(negativeCase(accept), async (request) => {
          const broken = brokenParameters(request);
          expect(broken.length).toBeGreaterThan(0);
          const answer = await send(jsonMock, request);
          const body = JSON.parse(answer.text) as { errors?: Record<string, string[]> };
          if (request.token !== TOKEN) {
            expect(answer.status).toBe(401);
            expectValid("messageError", body);
            return;
          }
          // A domain that only Unicode spaces make blank is kept by PHP's trim, so it is a domain the
          // token does not cover (403): a rejection too, with its own documented body.
          expect([403, 422]).toContain(answer.status);
          expectValid(documentedBody[answer.status]!, body);
          if (answer.status === 422) expect(broken.filter((name) => name in body.errors!).length).toBeGreaterThan(0);
          else expect(broken).toEqual(["domain"]);
        }),
        runs,
      );
    },
  );

  it("warns once, on its first request without Accept: application/json, and answers JSON", () => {
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^a request to \/api\/comments without "Accept: application\/json" .*send the header/);
  });
});

describe("withoutAcceptJson: laravel (the --laravel8 preset's)", () => {
  it("answers JSON to a request that asks for it, as the contract documents", async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(positiveCase(acceptJson), negativeCase(acceptJson)), async (request) => {
        const answer = await send(laravelMock, request);
        expect(answer.headers.get("content-type")).toBe("application/json");
        expectValid(documentedBody[answer.status]!, JSON.parse(answer.text));
      }),
      runs,
    );
  });

  it("answers a forgotten header as Laravel does: redirects and HTML pages, JSON only for a 200", async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(positiveCase(acceptOther), negativeCase(acceptOther)), async (request) => {
        const answer = await send(laravelMock, request);
        const type = answer.headers.get("content-type");
        if (request.token !== TOKEN) {
          expect([answer.status, answer.headers.get("location")]).toEqual([302, `${laravelMock.url}/login`]);
        } else if (brokenParameters(request).length > 0 && answer.status !== 403) {
          expect([answer.status, answer.headers.get("location")]).toEqual([302, laravelMock.url]);
        } else if (answer.status === 403) {
          expect(type).toBe("text/html; charset=UTF-8");
          expect(answer.text).toContain("403 | Forbidden");
        } else {
          expect(answer.status).toBe(200);
          expect(type).toBe("application/json");
          expectValid("listResponse", JSON.parse(answer.text));
        }
        if (answer.status !== 200) expect(type).toBe("text/html; charset=UTF-8");
      }),
      runs,
    );
  });

  it("sends a failed validation back to the Referer", async () => {
    const request = { domain: " ", perPage: undefined, page: undefined, token: TOKEN, accept: "text/html" };
    const answer = await send(laravelMock, request, { referer: "https://my-site.test/posts/first" });
    expect([answer.status, answer.headers.get("location")]).toEqual([302, "https://my-site.test/posts/first"]);
  });
});
