import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    // One npm registry for the whole run, our packages published to it (scripts/test-registry.ts).
    globalSetup: ["scripts/test-registry.ts"],
    // A file per core, not vitest's default of one fewer (a single file at a time on two cores):
    // the slow files mostly wait on installs, the network and child processes. Measured on
    // 2026-11-27 on this 2-core machine (load 1-5): the eight files that install took 274 s with
    // two at a time against 434 s one at a time.
    maxWorkers: Math.max(2, availableParallelism()),
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
