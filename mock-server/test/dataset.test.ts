import { describe, expect, it } from "vitest";
import { CommentStore, generateDataset, hostileBodies, showcasePaths } from "../src/index.ts";

describe("dataset", () => {
  it("is the same for the same seed and differs for another", () => {
    expect(JSON.stringify(generateDataset({ seed: 4, size: 300 }))).toBe(JSON.stringify(generateDataset({ seed: 4, size: 300 })));
    expect(JSON.stringify(generateDataset({ seed: 4, size: 300 }))).not.toBe(JSON.stringify(generateDataset({ seed: 5, size: 300 })));
  });

  it("has what consumers must handle: other statuses, RTL and markup names, code, hostile and empty html", () => {
    const comments = generateDataset({ seed: 1, size: 600 });
    const statuses = new Set(comments.map((c) => c.status));
    expect(statuses).toEqual(new Set(["approved", "pending", "spam"]));
    const names = comments.map((c) => c.name).join("\n");
    for (const needle of ["محمد", "שרה", "&", "<", '"']) expect(names).toContain(needle);
    const html = comments.map((c) => c.html).join("\n");
    for (const language of ["js", "ts", "python", "rust", "bash", "css", "go"]) expect(html).toContain(`<code class="language-${language}">`);
    for (const body of hostileBodies) expect(html).toContain(body);
    expect(comments.some((c) => c.html === "" && c.content !== "")).toBe(true);
    expect(comments.some((c) => c.path === `${showcasePaths.hello}/`)).toBe(true);
    expect(new Set(comments.map((c) => c.domain)).size).toBeGreaterThanOrEqual(4);
  });

  it("scales to 100,000 approved comments with the size knob", () => {
    // About 1.4 approved replies per top-level comment: size 43,000 gives 100,000+ approved comments.
    const comments = generateDataset({ seed: 1, size: 43_000 });
    const store = new CommentStore(comments);
    const approved = comments.filter((c) => c.status === "approved").length;
    expect(approved).toBeGreaterThanOrEqual(100_000);
    const topLevel = [...store.domains].reduce((sum, domain) => sum + store.threads(domain).length, 0);
    expect(topLevel).toBe(43_000);
  });
});
