// A vitest reporter for scripts/run-tests.ts: how long each test file took, written as JSON to the
// path in VITEST_FILE_TIMINGS. Vitest's JSON report times a file from its first test's start to its
// last test's end, which leaves out its beforeAll and afterAll hooks, where the slow files do most
// of their work (installing packages, building sites). Vitest's module diagnostics count them.
import { writeFileSync } from "node:fs";
import type { Reporter, TestModule } from "vitest/node";

/** One test file's time, in seconds: starting its environment, importing it, and its tests and hooks. */
export interface FileTiming {
  file: string;
  seconds: number;
}

export default class FileTimingsReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const output = process.env.VITEST_FILE_TIMINGS;
    if (!output) return;
    const timings: FileTiming[] = testModules.map((module) => {
      const time = module.diagnostic();
      const ms =
        time.environmentSetupDuration +
        time.prepareDuration +
        time.collectDuration +
        time.setupDuration +
        time.duration;
      return { file: module.moduleId, seconds: ms / 1000 };
    });
    writeFileSync(output, JSON.stringify(timings));
  }
}
