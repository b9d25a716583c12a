// `instanceof` across copies of this package. The integration (loaded by Node for astro.config)
// and the loader (loaded by Vite) are two module instances in one process, with one rate-limit
// gate shared through globalThis: an error one copy throws is caught by the other, whose class is
// another object. A class that brands its instances with a registered symbol (Symbol.for, one per
// process) and answers `instanceof` by the brand is the same class in every copy, as undici's
// errors are.

/** Marks `instance` with `brand` (not enumerable, so it never shows in a printed error). */
export function brandedInstance(instance: object, brand: symbol): void {
  Object.defineProperty(instance, brand, { value: true });
}

/** True when `value` carries `brand`: what a branded class's `static [Symbol.hasInstance]` returns. */
export function hasBrand(value: unknown, brand: symbol): boolean {
  return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[brand] === true;
}
