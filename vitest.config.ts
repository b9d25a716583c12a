import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    projects: [
      { test: { name: "schema", root: "schema", include: ["test/**/*.test.ts"], environment: "node" } },
      { test: { name: "mock-server", root: "mock-server", include: ["test/**/*.test.ts"], environment: "node", testTimeout: 30_000 } },
      "packages/astro-comments/vitest.config.ts",
    ],
  },
});
