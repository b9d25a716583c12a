// Writes every file generated from json/ (see generate.ts): the schema's types and astro-comments'
// bundled contract (its types and precompiled validator).
// `--check` compares instead of writing and exits 1 when any committed file is stale.
import { readFile, writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { generatedFiles } from "./generate.ts";

const check = process.argv.includes("--check");
const stale: string[] = [];

for (const { file, generate } of generatedFiles) {
  const fresh = await generate();
  const target = fileURLToPath(file);
  if (!check) {
    await writeFile(target, fresh);
    process.stdout.write(`wrote ${target}\n`);
  } else if ((await readFile(target, "utf8").catch(() => "")) !== fresh) {
    stale.push(target);
  }
}

if (stale.length > 0) {
  process.stderr.write(
    `stale generated files (the JSON Schema or the generator changed but they were not regenerated): ${stale.join(", ")}. Run \`npm run generate\` and commit the result.\n`,
  );
  process.exit(1);
}
if (check) process.stdout.write("generated files are up to date\n");
