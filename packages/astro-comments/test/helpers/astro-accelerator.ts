// Astro Accelerator (https://github.com/Steve-Fenton/astro-accelerator), a whole public Astro 5
// starter site that its author publishes to the npm registry: the one registry the tests reach.
// Its styles follow the reader's system (`prefers-color-scheme` in public/css/vars.css) with no
// toggle. These functions take it as published and apply the README's setup steps 2 and 3 to it,
// as a site owner would edit the files by hand; step 1 (installing the tarball) is the test's.
import { cpSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { npm, run, type RunResult } from "./pack-sites.ts";

/** Pinned: 7.x needs an astro-accelerator-utils the registry does not have. */
const acceleratorSpec = "astro-accelerator@5.10.19";

/** The sample post the theme ships, and its home page, which uses the same article layout. */
export const acceleratorPaths = ["/articles/2022/09/sample-post-1/", "/"] as const;

/** Replaces exactly one occurrence, so a theme that changed shape fails here, not in a later assertion. */
function edit(file: string, find: string, replace: (found: string) => string): void {
  const text = readFileSync(file, "utf8");
  const at = text.indexOf(find);
  if (at < 0 || text.indexOf(find, at + 1) >= 0)
    throw new Error(
      `${file}: expected exactly one "${find}" to edit; the theme changed, update test/helpers/astro-accelerator.ts`,
    );
  writeFileSync(file, text.slice(0, at) + replace(find) + text.slice(at + find.length));
}

/**
 * `npm pack`s the theme from the registry into `work` and unpacks it as the site at
 * `<work>/package`, with the sample pages the theme ships for a new site copied into src.
 */
export async function fetchAccelerator(work: string): Promise<{ dir: string; result: RunResult }> {
  mkdirSync(work, { recursive: true });
  const result = await npm(["pack", acceleratorSpec, "--prefer-offline"], work);
  const dir = join(work, "package");
  if (result.code !== 0) return { dir, result };
  const unpacked = await run("tar", ["-xzf", `${acceleratorSpec.replace("@", "-")}.tgz`], work);
  if (unpacked.code !== 0) return { dir, result: unpacked };
  cpSync(join(dir, "sample", "src"), join(dir, "src"), { recursive: true });
  return { dir, result };
}

/** README steps 2 and 3: the integration, the `comments` collection, and the components in the article layout. */
export function addComments(dir: string): void {
  edit(
    join(dir, "astro.config.mjs"),
    "import { defineConfig } from 'astro/config';",
    (line) => `${line}\nimport comments from 'astro-comments';`,
  );
  edit(
    join(dir, "astro.config.mjs"),
    "integrations: [mdx()]",
    () => "integrations: [mdx(), comments({ injectStyles: true })]",
  );
  // The theme has no content collections, so no content config: step 2 creates one.
  writeFileSync(
    join(dir, "src", "content.config.ts"),
    'import { defineCollection } from "astro:content";\nimport { commentsLoader } from "astro-comments/loader";\n\nexport const collections = { comments: defineCollection({ loader: commentsLoader() }) };\n',
  );
  const layout = join(dir, "src", "themes", "accelerator", "layouts", "Default.astro");
  edit(
    layout,
    "import Related from '@components/Related.astro';",
    (line) => `${line}\nimport { CommentCount, Comments } from 'astro-comments/components';`,
  );
  edit(layout, "</h1>", (end) => `${end}\n                        <p><CommentCount /></p>`);
  edit(layout, "</article>", (end) => `${end}\n                <Comments />`);
}
