// What a client meets from a real Laravel 8 app serving this API (the Addendum of the project's
// laravel-behaviour notes), as one switch. Options given explicitly win over the preset.
import type { MockServerOptions } from "./server.ts";

export function withLaravel8Preset(options: MockServerOptions): MockServerOptions {
  if (!options.laravel8) return options;
  return {
    ...options,
    perPageLimit: options.perPageLimit ?? "reject",
    stringNumbers: options.stringNumbers ?? true,
    withoutAcceptJson: options.withoutAcceptJson ?? "laravel",
    dataset: {
      ...options.dataset,
      twins: options.dataset?.twins ?? 3,
      wholeSecondTimestamps: options.dataset?.wholeSecondTimestamps ?? true,
    },
  };
}
