// The output floor's pages (bench/site/output): each post's comments section cut from a build of
// the comments variant, one file per post, which the floor's page reads as it renders. A build
// that puts these comments into these pages cannot write less than this.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const SECTION_START = '<section class="astro-comments"';
const SECTION_END = "</main>";

/** The file bench/site/output's page reads for the post at `path`. */
export const sectionFile = (dir: string, path: string) => join(dir, `${path.slice(1).replaceAll("/", "__")}.html`);

/** Cuts every post's comments section (up to the end of <main>) out of `dist` into `dir`. */
export function writeSections(dist: string, dir: string, paths: readonly string[]): number {
  mkdirSync(dir, { recursive: true });
  let bytes = 0;
  for (const path of paths) {
    const page = join(dist, path, "index.html");
    const html = readFileSync(page, "utf8");
    const start = html.indexOf(SECTION_START);
    const end = html.lastIndexOf(SECTION_END);
    if (start < 0 || end < start)
      throw new Error(`${page} has no comments section to cut for the output floor: did the comments build change?`);
    const section = html.slice(start, end);
    writeFileSync(sectionFile(dir, path), section);
    bytes += Buffer.byteLength(section);
  }
  return bytes;
}
