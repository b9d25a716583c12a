// Generates src/generated/api-types.ts from json/index.schema.json.
// `--check` compares instead of writing and exits 1 when the committed file is stale.
import { readFile, writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { generateApiTypes, generatedTypesFile } from "./generate.ts";

const check = process.argv.includes("--check");
const fresh = await generateApiTypes();
const target = fileURLToPath(generatedTypesFile);

if (check) {
  const committed = await readFile(target, "utf8").catch(() => "");
  if (committed !== fresh) {
    process.stderr.write(
      `${target} is stale: the JSON Schema changed but the types were not regenerated. Run \`npm run generate\` and commit the result.\n`,
    );
    process.exit(1);
  }
  process.stdout.write("generated API types are up to date\n");
} else {
  await writeFile(target, fresh);
  process.stdout.write(`wrote ${target}\n`);
}
