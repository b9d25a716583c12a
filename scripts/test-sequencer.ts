// The order in which vitest starts test files: the longest first, whatever their project, so that
// the run does not end on one long file while the other workers idle. Vitest's own order runs the
// projects one after another (alphabetically), which left the mock's two installing files, among
// the longest of the run, for its end. Without times of an earlier run (a fresh clone has none),
// the files that install from the registry go first, the slowest of the suite by far, then the
// largest files.
import { statSync } from "node:fs";
import { BaseSequencer, type TestSpecification } from "vitest/node";
import { installsFromRegistry } from "./test-registry.ts";

export default class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const results = files.map((spec) => this.ctx.cache.getTestSpecificationResult(spec));
    if (results.every((result) => result !== undefined)) {
      const duration = new Map(files.map((spec, index) => [spec, results[index]!.duration ?? 0]));
      return [...files].sort((a, b) => duration.get(b)! - duration.get(a)!);
    }
    const rank = new Map(
      files.map((spec) => [
        spec,
        { installs: installsFromRegistry(spec.moduleId), size: statSync(spec.moduleId).size },
      ]),
    );
    return [...files].sort((a, b) => {
      const [x, y] = [rank.get(a)!, rank.get(b)!];
      return Number(y.installs) - Number(x.installs) || y.size - x.size;
    });
  }
}
