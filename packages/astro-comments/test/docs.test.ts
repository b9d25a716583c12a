// The Markdown a user reads. Every relative link in the repository's Markdown points at a file
// that exists, and every #anchor at a heading that exists, in the same file or another
// (remark-validate-links, offline). The package README, which npm shows without the repository
// around it, links only to absolute URLs, and not to the repository (whose address is still a
// placeholder: publish-files.test.ts checks the manifests that name it). Both options tables name
// every option, and the Starlight guide shows the very files the Starlight test builds.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { remark } from "remark";
import remarkValidateLinks from "remark-validate-links";
import { engine } from "unified-engine";
import type { VFile } from "vfile";
import { afterAll, describe, expect, it } from "vitest";
import { optionsSchema } from "../src/integration/options.ts";

const repoRoot = fileURLToPath(new URL("../../../", import.meta.url));
const rootReadme = join(repoRoot, "README.md");
const packageReadme = join(repoRoot, "packages/astro-comments/README.md");
const starlightGuide = join(repoRoot, "docs/starlight.md");
const starlightFixture = fileURLToPath(new URL("./fixtures/starlight-site/", import.meta.url));

/** The repository's Markdown files (tracked, or new and not ignored), relative to its root. */
function markdownFiles(): string[] {
  const listing = spawnSync("git", ["ls-files", "--cached", "--others", "--exclude-standard", "--", "*.md"], {
    cwd: repoRoot,
    encoding: "utf8",
  });
  if (listing.status !== 0) throw new Error(`git ls-files failed in ${repoRoot}: ${listing.stderr}`);
  return listing.stdout.split("\n").filter(Boolean);
}

/**
 * Each problem remark-validate-links finds, as "file:line: message". Run through unified-engine,
 * as its CLI does: only then does it check headings in other files, not just that they exist.
 */
function brokenLinks(cwd: string, files: readonly string[]): Promise<string[]> {
  return new Promise((resolve, reject) => {
    engine(
      {
        processor: remark(),
        cwd,
        files: [...files],
        // No Git remote is needed: links are checked as files of this checkout. (A preset, whose
        // plugin list unified types loosely enough for the plugin's own options type.)
        plugins: [{ plugins: [[remarkValidateLinks, { repository: false, root: cwd }]] }],
        detectConfig: false,
        detectIgnore: false,
        output: false,
        out: false,
        silent: true,
        reporter: () => "",
      },
      (error, _code, context) => {
        if (error) return reject(error);
        const files = (context?.files ?? []) as VFile[];
        resolve(
          files.flatMap((file) =>
            file.messages.map((message) => `${relative(cwd, file.path)}:${message.line ?? "?"}: ${message.reason}`),
          ),
        );
      },
    );
  });
}

/** The text of every fenced code block in a Markdown file. */
function codeBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/^```[^\n]*\n([\s\S]*?)^```$/gm)].map((match) => match[1]!);
}

/** Option names in the first column of a Markdown table (`name` or `a`, `b`), in order. */
function optionsTableNames(markdown: string): string[] {
  const section = /^#+ Options\n([\s\S]*?)(?=^#+ |(?![\s\S]))/m.exec(markdown)?.[1] ?? "";
  return section
    .split("\n")
    .filter((line) => /^\| `/.test(line))
    .flatMap((line) => [...line.split("|")[1]!.matchAll(/`([A-Za-z]+)`/g)].map((match) => match[1]!));
}

describe("links in the repository's Markdown", () => {
  const work = mkdtempSync(join(tmpdir(), "astro-comments-docs-"));
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it("resolve: every relative link names a file that exists, every anchor a heading", async () => {
    const files = markdownFiles();
    expect(files).toContain("README.md");
    expect(files).toContain("docs/README.md");
    expect(await brokenLinks(repoRoot, files)).toEqual([]);
  });

  it("are checked for real: a missing file, a missing heading here and one in another file are each reported", async () => {
    const write = (path: string, text: string) => {
      mkdirSync(dirname(join(work, path)), { recursive: true });
      writeFileSync(join(work, path), text);
    };
    write(
      "README.md",
      "# Home\n\n[ok](docs/guide.md#setup) [gone](docs/missing.md) [here](#nowhere) [there](docs/guide.md#no-such-heading)\n",
    );
    write("docs/guide.md", "# Guide\n\n## Setup\n\n[back](../README.md#home)\n");
    const problems = await brokenLinks(work, ["README.md", "docs/guide.md"]);
    expect(problems).toHaveLength(3);
    expect(problems.join("\n")).toMatch(/missing\.md/);
    expect(problems.join("\n")).toMatch(/nowhere/);
    expect(problems.join("\n")).toMatch(/no-such-heading/);
  });

  it("in the package README (the npm page) are absolute: npm shows it without the repository", () => {
    const links = [...readFileSync(packageReadme, "utf8").matchAll(/\]\(([^)\s]+)/g)].map((match) => match[1]!);
    expect(links.length).toBeGreaterThan(0);
    expect(links.filter((link) => !/^https:\/\//.test(link))).toEqual([]);
    expect(links.filter((link) => link.includes("github.com/astro-comments"))).toEqual([]);
  });
});

describe("commands in the user docs", () => {
  // The guides other issues own say for themselves which test runs their commands.
  const guides = () =>
    markdownFiles().filter(
      (file) =>
        file === "README.md" ||
        file === "CONTRIBUTING.md" ||
        (file.startsWith("docs/") && !["docs/mock-and-ci.md", "docs/rebuild-on-change.md"].includes(file)),
    );

  it("name only npm scripts this repository has", () => {
    const { scripts } = JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")) as {
      scripts: Record<string, string>;
    };
    const named = guides().flatMap((file) =>
      [...readFileSync(join(repoRoot, file), "utf8").matchAll(/\bnpm (?:run (\S+)|(start|test)\b)/g)].map((match) => ({
        file,
        script: (match[1] ?? match[2])!.replace(/[`'",.;:)]+$/, ""),
      })),
    );
    expect(named.map(({ script }) => script)).toContain("bench");
    expect(named.filter(({ script }) => !(script in scripts))).toEqual([]);
  });
});

describe("the options tables", () => {
  const options = Object.keys(optionsSchema.shape).sort();

  it.each([
    ["the root README", rootReadme],
    ["the package README", packageReadme],
  ])("in %s name every option, and only options", (_name, path) => {
    expect([...new Set(optionsTableNames(readFileSync(path, "utf8")))].sort()).toEqual(options);
  });
});

describe("docs/starlight.md", () => {
  it.each(["astro.config.mjs", "src/content.config.mjs", "src/components/Footer.astro"])(
    "shows %s of the site the Starlight test builds, exactly",
    (file) => {
      expect(codeBlocks(readFileSync(starlightGuide, "utf8"))).toContain(
        readFileSync(join(starlightFixture, file), "utf8"),
      );
    },
  );
});
