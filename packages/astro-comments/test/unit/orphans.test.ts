import { describe, expect, it } from "vitest";
import {
  builtPageKeys,
  describeOrphans,
  editDistance,
  findOrphans,
  nearestKey,
} from "../../src/integration/orphans.ts";
import { pathKey } from "../../src/render/path-key.ts";

describe("nearest path", () => {
  it("measures edit distance", () => {
    expect(editDistance("/posts/helo-world", "/posts/hello-world")).toBe(1);
    expect(editDistance("", "abc")).toBe(3);
    expect(editDistance("kitten", "sitting")).toBe(3);
  });

  it("picks the closest key, ties alphabetically", () => {
    expect(nearestKey("/posts/helo-world", ["/", "/posts/hello-world", "/posts/world"])).toBe("/posts/hello-world");
    expect(nearestKey("/b", ["/c", "/a"])).toBe("/a");
    expect(nearestKey("/b", [])).toBeUndefined();
  });
});

describe("findOrphans", () => {
  const built = builtPageKeys(["", "posts/hello-world/", "posts/code/"], "/");

  it("turns build:done pathnames into page keys, with the base", () => {
    expect([...built]).toEqual(["/", "/posts/hello-world", "/posts/code"]);
    expect([...builtPageKeys(["", "posts/x/"], "/blog/")]).toEqual(["/blog", "/blog/posts/x"]);
  });

  it("lists stored keys no page renders, with counts and the nearest page", () => {
    const stored = new Map([
      ["/posts/hello-world", 3],
      ["/posts/helo-world", 2],
      ["/posts/Code", 1],
    ]);
    const orphans = findOrphans(stored, built, [], "/");
    expect(orphans).toEqual([
      { key: "/posts/Code", count: 1, nearest: "/posts/code" },
      { key: "/posts/helo-world", count: 2, nearest: "/posts/hello-world" },
    ]);
    expect(describeOrphans(orphans)).toBe(
      "3 comments on 2 paths that no built page shows; fix the path in the comments service or map it with the aliases option:\n" +
        "  /posts/Code (1 comment): nearest built page /posts/code\n" +
        "  /posts/helo-world (2 comments): nearest built page /posts/hello-world",
    );
  });

  it("writes a path's control characters as escapes: a key is decoded, so %1b is an ESC by then", () => {
    const report = describeOrphans(
      findOrphans(new Map([[pathKey("/posts/evil%1b]0;PWNED%07%00%0a"), 1]]), built, [], "/"),
    );
    expect(report.split("\n")[1]).toMatch(/^ {2}\/posts\/evil\\x1b\]0;PWNED\\x07\\x00\\n \(1 comment\)/);
    expect(report).not.toMatch(/[\u0000-\u0009\u000b-\u001f]/);
  });

  it("does not report paths an on-demand route renders (its pattern has no base)", () => {
    const stored = new Map([
      ["/blog/live/posts/x", 4],
      ["/blog/gone", 1],
    ]);
    const orphans = findOrphans(stored, builtPageKeys([""], "/blog"), [/^\/live(?:\/(.*?))?\/?$/], "/blog");
    expect(orphans.map((o) => o.key)).toEqual(["/blog/gone"]);
  });
});
