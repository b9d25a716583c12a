// How a contract breach reads in an error message. Self-contained (no imports) on purpose:
// scripts/generate.ts copies this file verbatim into astro-comments' precompiled contract, so the
// package and the schema's own validators describe a breach in the same words.

/** The parts of an Ajv error that a description uses (Ajv's ErrorObject has them all). */
export interface SchemaError {
  /** JSON Pointer to the offending value, "" for the document itself. */
  instancePath: string;
  keyword: string;
  params: Record<string, unknown>;
  message?: string;
}

/** One line per error, e.g. `/data/0/status must be equal to constant "approved"`. */
export function describeSchemaErrors(errors: readonly SchemaError[], limit = 5): string {
  const lines = errors.slice(0, limit).map((error) => {
    const where = error.instancePath || "(root)";
    const extra =
      error.keyword === "additionalProperties"
        ? ` (${String(error.params["additionalProperty"])})`
        : error.keyword === "const"
          ? ` ${JSON.stringify(error.params["allowedValue"])}`
          : "";
    return `${where} ${error.message ?? error.keyword}${extra}`;
  });
  if (errors.length > limit) lines.push(`... and ${errors.length - limit} more`);
  return lines.join("; ");
}
