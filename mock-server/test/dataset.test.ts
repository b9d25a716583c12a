import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CommentStore, generateDataset, hostileBodies, showcasePaths, type StoredComment } from "../src/index.ts";

describe("dataset", () => {
  it("is the same for the same seed and differs for another", () => {
    expect(JSON.stringify(generateDataset({ seed: 4, size: 300 }))).toBe(
      JSON.stringify(generateDataset({ seed: 4, size: 300 })),
    );
    expect(JSON.stringify(generateDataset({ seed: 4, size: 300 }))).not.toBe(
      JSON.stringify(generateDataset({ seed: 5, size: 300 })),
    );
  });

  it("has what consumers must handle: other statuses, RTL and markup names, code, hostile and empty html", () => {
    const comments = generateDataset({ seed: 1, size: 600 });
    const statuses = new Set(comments.map((c) => c.status));
    expect(statuses).toEqual(new Set(["approved", "pending", "spam"]));
    const names = comments.map((c) => c.name).join("\n");
    for (const needle of ["محمد", "שרה", "&", "<", '"']) expect(names).toContain(needle);
    const html = comments.map((c) => c.html).join("\n");
    for (const language of ["js", "ts", "python", "rust", "bash", "css", "go"])
      expect(html).toContain(`<code class="language-${language}">`);
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

describe("comment store changes", () => {
  type Change =
    | { kind: "top"; domain: number; path: number; second: number }
    | { kind: "reply"; parent: number; second: number; approved: boolean }
    | { kind: "approve" | "reject" | "remove"; pick: number };
  const change: fc.Arbitrary<Change> = fc.oneof(
    fc.record({ kind: fc.constant("top" as const), domain: fc.nat(), path: fc.nat(3), second: fc.nat(5) }),
    fc.record({ kind: fc.constant("reply" as const), parent: fc.nat(), second: fc.nat(5), approved: fc.boolean() }),
    fc.record({ kind: fc.constantFrom("approve" as const, "reject" as const, "remove" as const), pick: fc.nat() }),
  );
  // Few distinct seconds, so new comments tie with each other and fall between existing ones.
  const at = (second: number) => `2023-01-0${1 + (second % 3)}T00:00:0${second}.000000Z`;

  it("serves after each insert, approval, rejection or deletion exactly what a fresh index of the same comments serves", () => {
    fc.assert(
      fc.property(fc.array(change, { minLength: 1, maxLength: 25 }), (changes) => {
        const comments = generateDataset({ seed: 3, size: 30 });
        const store = new CommentStore(comments);
        const domains = [...store.domains];
        for (const step of changes) {
          const topLevel = comments.filter((c) => c.parentId === null);
          if (step.kind === "top") {
            const domain = domains[step.domain % domains.length]!;
            store.insert({
              domain,
              path: ["/", "/a", "/b", showcasePaths.hello][step.path]!,
              parentId: null,
              status: "approved",
              created_at: at(step.second),
              content: "c",
              html: "",
              name: "n",
            });
          } else if (step.kind === "reply") {
            const parent = topLevel[step.parent % topLevel.length]!;
            store.insert({
              domain: parent.domain,
              path: parent.path,
              parentId: parent.id,
              status: step.approved ? "approved" : "pending",
              created_at: at(step.second),
              content: "r",
              html: "",
              name: "m",
            });
          } else if (comments.length > 0) {
            const id = comments[step.pick % comments.length]!.id;
            if (step.kind === "approve") store.approve(id);
            else if (step.kind === "reject") store.setStatus(id, "spam");
            else store.remove(id);
          }
        }
        const fresh = new CommentStore(comments.map((c): StoredComment => ({ ...c })));
        for (const domain of fresh.domains) {
          expect(store.threads(domain)).toEqual(fresh.threads(domain));
          for (const path of new Set(comments.filter((c) => c.domain === domain).map((c) => c.path))) {
            expect(store.page(domain, path, 0, 1_000)).toEqual(fresh.page(domain, path, 0, 1_000));
          }
          expect(store.pagesOf(domain)).toEqual(fresh.pagesOf(domain));
        }
      }),
      { seed: 20261123, numRuns: 60 },
    );
  });
});
