import { describe, expect, it } from "vitest";
import type { PageCommentsData } from "../../src/loader/entry-schema.ts";
import type { CommentModules } from "../../src/loader/module-files.ts";
import { SHARDS, shardOf } from "../../src/loader/module-format.ts";
import { storeShards, type PageToStore } from "../../src/loader/module-shards.ts";
import { memoryStore } from "../helpers/loader-context.ts";

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe("storing a cold sync's pages", () => {
  it("holds the rendered comments of at most two shards at once: a shard's are written before a third renders", async () => {
    // Shards whose pages were rendered and whose module is not written yet.
    const open = new Set<number>();
    let most = 0;
    const written: string[] = [];
    const modules = {
      dir: "/cache/modules",
      components: "./c.ts",
      signature: "test",
      filePath: (shard: number, digest: string) => `modules/comments-${shard}-${digest}.mjs`,
      check: async () => "missing" as const,
      read: async () => undefined,
      prune: async () => undefined,
      async write(filePath: string, pages: ReadonlyMap<string, PageCommentsData>) {
        await turn();
        written.push(filePath);
        for (const key of pages.keys()) open.delete(shardOf(key));
      },
    } satisfies CommentModules;
    const pages: PageToStore[] = Array.from({ length: 400 }, (_, i) => {
      const id = `/posts/p-${i}`;
      return {
        id,
        digest: `d${i}`,
        count: 1,
        async render() {
          await turn();
          open.add(shardOf(id));
          most = Math.max(most, open.size);
          return { path: id, count: 1, comments: [] };
        },
      };
    });
    const store = memoryStore();
    const stored = await storeShards({ store, generateDigest: (text) => String(text.length) }, modules, pages);
    expect(stored.rendered).toBe(400);
    expect(written).toHaveLength(SHARDS);
    expect(store.keys()).toHaveLength(400);
    expect(most).toBeGreaterThan(0);
    expect(most).toBeLessThanOrEqual(2);
  });
});
