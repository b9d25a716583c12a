// Laravel's page resolution: FILTER_VALIDATE_INT, then >= 1, else page 1. Never an error.
const INT64_MAX = 9223372036854775807n;
const PHP_INT = /^[ \t\n\r\v]*([+-]?)(0|[1-9][0-9]*)[ \t\n\r\v]*$/;

/** PHP's FILTER_VALIDATE_INT: the integer, or undefined when PHP would return false. */
export function phpValidateInt(value: unknown): bigint | undefined {
  if (typeof value !== "string") return undefined;
  const match = PHP_INT.exec(value);
  if (!match) return undefined;
  const parsed = BigInt(`${match[1] === "-" ? "-" : ""}${match[2]}`);
  if (parsed > INT64_MAX || parsed < -INT64_MAX - 1n) return undefined;
  return parsed;
}

/**
 * The page a Laravel paginator serves for a raw `page` input. Values beyond 2^53 are valid in PHP
 * but make its offset arithmetic overflow; the mock treats them as page 1 rather than echo an
 * imprecise number.
 */
export function resolvePageNumber(raw: unknown): number {
  const parsed = phpValidateInt(raw);
  if (parsed === undefined || parsed < 1n || parsed > BigInt(Number.MAX_SAFE_INTEGER)) return 1;
  return Number(parsed);
}
