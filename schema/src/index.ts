// Runtime entry of the contract: the schema documents and Ajv validators built from them.
// Validators are keyed by file name, so the files need no $id (Prism's validation breaks on $id).
import { readFileSync, readdirSync } from "node:fs";
import { Ajv2020, type CodeOptions, type ErrorObject, type ValidateFunction } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";

export type * from "./generated/api-types.ts";
export { describeSchemaErrors, type SchemaError } from "./schema-errors.ts";

/** Folder holding the *.schema.json files. */
export const schemaDirectory = new URL("../json/", import.meta.url);
/** The OpenAPI 3.1 document that references the schema files. */
export const openApiDocument = new URL("../openapi.yaml", import.meta.url);

/** The shapes a caller can validate, named by their schema file. */
export const schemaIds = {
  listResponse: "comment-list-response.schema.json",
  thread: "comment-thread.schema.json",
  reply: "comment-reply.schema.json",
  query: "list-comments-query.schema.json",
  messageError: "error-responses.schema.json#/$defs/MessageError",
  validationError: "error-responses.schema.json#/$defs/ValidationError",
  paginationMeta: "pagination.schema.json#/$defs/PaginationMeta",
} as const;
export type SchemaName = keyof typeof schemaIds;

/** Every schema document, keyed by file name. */
export function loadSchemaDocuments(): Map<string, Record<string, unknown>> {
  const documents = new Map<string, Record<string, unknown>>();
  for (const file of readdirSync(schemaDirectory)
    .filter((name) => name.endsWith(".schema.json"))
    .sort()) {
    documents.set(file, JSON.parse(readFileSync(new URL(file, schemaDirectory), "utf8")) as Record<string, unknown>);
  }
  return documents;
}

export interface ContractValidatorOptions {
  /**
   * Strict (the default) rejects any property the schema does not name: right for the mock and the
   * contract tests. Tolerant drops unknown properties instead, so a client keeps working when the
   * service adds a field; everything the schema does name is still checked exactly.
   */
  tolerateUnknownProperties?: boolean;
}

export interface ContractValidator {
  /** Validates (and, when tolerant, strips unknown properties from) `value`; returns the errors or []. */
  validate(name: SchemaName, value: unknown): ErrorObject[];
}

// ajv-formats is CommonJS; its default export arrives wrapped depending on the loader.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ??
  addFormatsModule) as unknown as (ajv: Ajv2020) => Ajv2020;

/**
 * The Ajv instance behind every validator: each schema file added under its file name, formats on.
 * `code` passes Ajv's code-generation options through: scripts/generate.ts compiles astro-comments'
 * standalone validator from this same instance, so both check exactly the same contract.
 */
export function createContractAjv(options: ContractValidatorOptions = {}, code?: CodeOptions): Ajv2020 {
  const ajv = new Ajv2020({
    allErrors: true,
    strict: true,
    removeAdditional: options.tolerateUnknownProperties ? true : false,
    ...(code ? { code } : {}),
  });
  addFormats(ajv);
  for (const [file, document] of loadSchemaDocuments()) ajv.addSchema(document, file);
  return ajv;
}

export function createContractValidator(options: ContractValidatorOptions = {}): ContractValidator {
  const ajv = createContractAjv(options);
  const compiled = new Map<SchemaName, ValidateFunction>();
  return {
    validate(name, value) {
      let validate = compiled.get(name);
      if (!validate) {
        const found = ajv.getSchema(schemaIds[name]);
        if (!found) throw new Error(`schema ${schemaIds[name]} is not in ${schemaDirectory.pathname}`);
        validate = found;
        compiled.set(name, validate);
      }
      return validate(value) ? [] : [...(validate.errors ?? [])];
    },
  };
}
