import { defineProject } from "vitest/config";
import { testWorkers } from "../../scripts/test-workers.ts";

export default defineProject({
  test: {
    name: "astro-comments",
    include: ["test/**/*.test.ts"],
    environment: "node",
    // As many files at once as the other projects, so that they all share the workers.
    maxWorkers: testWorkers,
    // Far above what any test needs on a loaded machine: they only catch a test that hangs (see
    // the root vitest.config.ts). One astro build fits (BUILD_TIMEOUT_MS in test/helpers/astro-cli.ts);
    // tests that build more, or install, set their own.
    testTimeout: 300_000,
    hookTimeout: 300_000,
  },
});
