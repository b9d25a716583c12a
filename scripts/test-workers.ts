// How many test files run at once: one per core, at least two, not vitest's default of one fewer
// (a single file at a time on two cores). The slow files mostly wait on installs, the network and
// child processes. Every project takes it: vitest runs the files of a project that sets no
// maxWorkers of its own (a project in a file of its own inherits nothing from the root config)
// one at a time, after all others, and it refuses projects that run side by side with different counts.
import { availableParallelism } from "node:os";

export const testWorkers = Math.max(2, availableParallelism());
