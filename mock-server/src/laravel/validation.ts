// The list endpoint's validation rules, with Laravel's English messages and 422 body.
import type { ValidationError } from "@astro-comments/schema";
import type { PhpQuery } from "./php-query.ts";
import { phpValidateInt } from "./page-number.ts";

type Rule = (value: PhpQuery extends Map<string, infer V> ? V | undefined : never, label: string) => string | undefined;

const required: Rule = (value, label) =>
  value === undefined || value === null ? `The ${label} field is required.` : undefined;
const string: Rule = (value, label) =>
  value !== undefined && value !== null && typeof value !== "string"
    ? `The ${label} field must be a string.`
    : undefined;
const integer: Rule = (value, label) =>
  value !== undefined && value !== null && phpValidateInt(value) === undefined
    ? `The ${label} field must be an integer.`
    : undefined;
// PHP is_numeric(): decimal or exponent notation, surrounding whitespace allowed.
const PHP_NUMERIC = /^[ \t\n\r\v\f]*[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?[ \t\n\r\v\f]*$/;
// Laravel's size of a value under a numeric rule: the number when numeric, else the string length.
const min =
  (minimum: number): Rule =>
  (value, label) => {
    if (typeof value !== "string") return undefined;
    const size = PHP_NUMERIC.test(value) ? Number(value) : [...value].length;
    return size < minimum ? `The ${label} field must be at least ${minimum}.` : undefined;
  };

// Rule order is field order in the 422 body; `bail` is not used, so every failing rule is listed.
const rules: ReadonlyArray<readonly [string, readonly Rule[]]> = [
  ["domain", [required, string]],
  ["path", [string]],
  ["per_page", [integer, min(1)]],
];

/** The 422 body for this query, or undefined when it passes. */
export function validateListQuery(query: PhpQuery): ValidationError | undefined {
  const errors: Record<string, [string, ...string[]]> = {};
  for (const [field, fieldRules] of rules) {
    const label = field.replace(/_/g, " ");
    const value = query.get(field);
    for (const rule of fieldRules) {
      const message = rule(value, label);
      if (message === undefined) continue;
      const list = errors[field];
      if (list) list.push(message);
      else errors[field] = [message];
      // Laravel stops at a failed `required`: there is no value to check further.
      if (rule === required) break;
    }
  }
  const messages = Object.values(errors).flatMap((list) => list ?? []);
  const first = messages[0];
  if (first === undefined) return undefined;
  const more = messages.length - 1;
  return { message: more === 0 ? first : `${first} (and ${more} more error${more === 1 ? "" : "s"})`, errors };
}

/**
 * The 422 of a Laravel 8 app that validates per_page with `max`, for a query that passed the rules
 * above: 8.x always says "The given data was invalid." and words the rule "may not be greater than".
 */
export function validatePerPageMaximum(query: PhpQuery, maximum: number): ValidationError | undefined {
  const value = query.get("per_page");
  if (typeof value !== "string" || Number(value) <= maximum) return undefined;
  return {
    message: "The given data was invalid.",
    errors: { per_page: [`The per page may not be greater than ${maximum}.`] },
  };
}
