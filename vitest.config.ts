import { defineConfig } from "vitest/config";
import LongestFirstSequencer from "./scripts/test-sequencer.ts";
import { testWorkers } from "./scripts/test-workers.ts";

export default defineConfig({
  test: {
    // One temporary folder for the whole run, removed at its end (scripts/test-tmpdir.ts); one npm
    // registry, our packages published to it (scripts/test-registry.ts).
    globalSetup: ["scripts/test-tmpdir.ts", "scripts/test-registry.ts"],
    // Files per core (scripts/test-workers.ts), longest first (scripts/test-sequencer.ts). Measured
    // on 2026-11-27 on this 2-core machine: the vitest run took 586 s when the astro-comments
    // project ran its files one at a time after the others, 450 s with all of them sharing two
    // workers, longest first.
    maxWorkers: testWorkers,
    sequence: { sequencer: LongestFirstSequencer },
    projects: [
      // Timeouts only catch a test that hangs, so they are far above what any test needs on a
      // loaded machine (a CI runner shared with other jobs, both cores busy): a slow machine must
      // never fail a test. Hooks start and stop servers and child processes, which a loaded machine
      // slows most (and stopping one may wait out a SIGTERM grace period before SIGKILL).
      {
        test: {
          name: "schema",
          root: "schema",
          include: ["test/**/*.test.ts"],
          environment: "node",
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: "mock-server",
          root: "mock-server",
          include: ["test/**/*.test.ts"],
          environment: "node",
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
      "packages/astro-comments/vitest.config.ts",
    ],
  },
});
