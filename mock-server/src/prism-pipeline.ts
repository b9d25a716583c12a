// Every /api/comments request goes through Stoplight Prism, loaded from schema/openapi.yaml:
// routing, bearer security and parameter validation before our mock component, and validation of
// the response it produces after. The mock component only supplies realistic data.
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { openApiDocument } from "@astro-comments/schema";
import type { IHttpOperation } from "@stoplight/types";
import type { IHttpRequest } from "@stoplight/prism-http";
import type { CommentStore } from "./dataset/comment-store.ts";
import { listComments, type ListCommentsSettings } from "./list-comments.ts";
import type { PhpQuery } from "./laravel/php-query.ts";
import { toPrismQuery } from "./laravel/php-query.ts";

// Prism and fp-ts are CommonJS; their type declarations are used, their values come from require.
const require = createRequire(import.meta.url);
const prismHttp = require("@stoplight/prism-http") as typeof import("@stoplight/prism-http");
const either = require("fp-ts/Either") as typeof import("fp-ts/Either");
const defaultMock = (require("@stoplight/prism-http/dist/mocker") as { default: PrismMock }).default;
const { createLogger } = require("@stoplight/prism-core") as typeof import("@stoplight/prism-core");

type PrismMock = import("@stoplight/prism-http").PrismHttpComponents["mock"];

interface PipelineRequest {
  query: PhpQuery;
  authorization: string | undefined;
  endpointUrl: string;
  /** From a Prefer header: serve a named example of the OpenAPI document instead of the dataset. */
  exampleKey?: string;
  code?: number;
}

interface PipelineResponse {
  status: number;
  body: unknown;
  /** Contract breaches Prism found in the response; a non-empty list means the mock is wrong. */
  violations: string[];
}

export interface PrismPipeline {
  handle(request: PipelineRequest): Promise<PipelineResponse>;
}

export async function createPrismPipeline(
  store: CommentStore,
  token: string,
  settings: ListCommentsSettings,
): Promise<PrismPipeline> {
  const operations: IHttpOperation[] = await prismHttp.getHttpOperationsFromSpec(fileURLToPath(openApiDocument));
  const unauthenticated = {
    statusCode: 401,
    headers: { "content-type": "application/json" },
    body: { message: "Unauthenticated." },
  };

  const mock: PrismMock = (options) => (logger) => {
    const { config, input } = options;
    if (config.exampleKey || config.code) return defaultMock(options)(logger);
    const request = input.data as unknown as { headers?: Record<string, string>; __php: PipelineRequest };
    // Prism's bearer check only looks at the scheme; the service also checks the token itself.
    const securityFailed = input.validations.some((v) => v.code === 401);
    if (securityFailed || request.__php.authorization !== `Bearer ${token}`) return either.right(unauthenticated);
    const result = listComments(store, request.__php.query, request.__php.endpointUrl, settings);
    return either.right({
      statusCode: result.status,
      headers: { "content-type": "application/json" },
      body: result.body,
    });
  };

  const prism = prismHttp.createInstance(
    {
      checkSecurity: true,
      validateRequest: true,
      validateResponse: true,
      errors: false,
      isProxy: false,
      upstreamProxy: undefined,
      mock: { dynamic: false },
    },
    { logger: createLogger("mock", { level: "silent" }), mock },
  );

  return {
    async handle(request) {
      const input = {
        method: "get" as const,
        url: { path: "/api/comments", query: toPrismQuery(request.query) },
        headers:
          request.authorization === undefined
            ? {}
            : ({ authorization: request.authorization } as Record<string, string>),
        // Carried through Prism untouched to our mock component.
        __php: request,
      };
      const config =
        request.exampleKey || request.code
          ? {
              mock: {
                dynamic: false,
                ...(request.exampleKey ? { exampleKey: request.exampleKey } : {}),
                ...(request.code ? { code: request.code } : {}),
              },
            }
          : undefined;
      const outcome = await prism.request(input as IHttpRequest, operations, config as never)();
      if (either.isLeft(outcome)) {
        const error = outcome.left as Error & { status?: number; detail?: string };
        return { status: error.status ?? 500, body: { message: error.detail ?? error.message }, violations: [] };
      }
      const { output, validations } = outcome.right;
      const violations = validations.output
        .filter((v) => v.severity === 0)
        .map((v) => `${(v.path ?? []).join(".")}: ${v.message}`);
      return { status: output.statusCode, body: output.body, violations };
    },
  };
}
