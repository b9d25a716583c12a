import { compileFromFile } from "json-schema-to-typescript";
import { fileURLToPath } from "node:url";

export const generatedTypesFile = new URL("../src/generated/api-types.ts", import.meta.url);
const entrySchema = new URL("../json/index.schema.json", import.meta.url);

const banner = `/* eslint-disable */
/**
 * Generated from schema/json/*.schema.json by json-schema-to-typescript.
 * Do not edit: change the schema and run \`npm run generate\`.
 */`;

/** Compiles the whole schema set into one TypeScript module, each named shape declared once. */
export async function generateApiTypes(): Promise<string> {
  return compileFromFile(fileURLToPath(entrySchema), {
    cwd: fileURLToPath(new URL("../json/", import.meta.url)),
    bannerComment: banner,
    unreachableDefinitions: true,
    additionalProperties: false,
    strictIndexSignatures: true,
    ignoreMinAndMaxItems: true,
    style: { singleQuote: false, printWidth: 100 },
  });
}
