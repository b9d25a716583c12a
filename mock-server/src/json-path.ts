// Where a value sits in a JSON document, as a reader of a log or an editor names it.

/** A JSON Pointer (Ajv's instancePath, "/data/0/created_at") as a JSONPath: `$.data[0].created_at`. */
export function jsonPath(pointer: string): string {
  if (pointer === "") return "$";
  return `$${pointer
    .slice(1)
    .split("/")
    .map((token) => token.replaceAll("~1", "/").replaceAll("~0", "~"))
    .map((key) =>
      /^(0|[1-9][0-9]*)$/.test(key)
        ? `[${key}]`
        : /^[A-Za-z_$][\w$]*$/.test(key)
          ? `.${key}`
          : `[${JSON.stringify(key)}]`,
    )
    .join("")}`;
}

/** The value a JSON Pointer names in `document`, or undefined. */
export function valueAt(document: unknown, pointer: string): unknown {
  let value = document;
  for (const token of pointer === "" ? [] : pointer.slice(1).split("/")) {
    if (value === null || typeof value !== "object") return undefined;
    value = (value as Record<string, unknown>)[token.replaceAll("~1", "/").replaceAll("~0", "~")];
  }
  return value;
}
