// COMMENTS_* as a build reads them, without loading Vite: the same files in the same order
// (.env, .env.local, .env.[mode], .env.[mode].local; later files win), parsed by the same
// util.parseEnv Vite uses, and the real environment over all of them. One difference: Vite also
// expands $VARIABLES inside values, which this does not.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseEnv } from "node:util";

const PREFIX = "COMMENTS_";

/** The COMMENTS_* variables of `envDir`'s .env files for `mode`, overridden by `env`. */
export function readCommentsEnv(
  envDir: string,
  mode: string,
  env: Readonly<Record<string, string | undefined>>,
): Record<string, string> {
  const values: Record<string, string> = {};
  for (const file of [".env", ".env.local", `.env.${mode}`, `.env.${mode}.local`]) {
    let text: string;
    try {
      text = readFileSync(join(envDir, file), "utf8");
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOENT" || code === "EISDIR") continue;
      throw error;
    }
    for (const [key, value] of Object.entries(parseEnv(text)))
      if (key.startsWith(PREFIX) && value !== undefined) values[key] = value;
  }
  for (const [key, value] of Object.entries(env))
    if (key.startsWith(PREFIX) && value !== undefined) values[key] = value;
  return values;
}
