// A deterministic, realistic comment database: several domains, many paths, nested replies,
// unapproved comments that must never be served, and the awkward content a consumer has to handle.
import { dice, hashSeed, type Dice } from "../random.ts";
import { authorNames, codeSamples, escapeHtml, hostileBodies, paragraphHtml, sentence } from "./text-corpus.ts";
import { serviceTimestamp } from "./timestamp.ts";
import { xssBodies, xssNames } from "./xss-corpus.ts";

export type StoredStatus = "approved" | "pending" | "spam";

export interface StoredComment {
  /** Insertion order: the tie-breaker after created_at. */
  id: number;
  domain: string;
  parentId: number | null;
  status: StoredStatus;
  created_at: string;
  content: string;
  html: string;
  name: string;
  path: string;
}

export interface DatasetOptions {
  /** Same seed, same dataset. Default 1. */
  seed?: number;
  /** Approved top-level comments over all domains (replies come on top, about 1.5 per comment). Default 600. */
  size?: number;
  /**
   * The pages the random comments go on: how many generic paths over all domains (default size / 10,
   * at least 20), or the site's own paths, e.g. ["/", "/posts/first-post"].
   */
  paths?: number | readonly string[];
  /** How random comments are shared among domains (shares sum to 1). Default: example.com 0.6, blog.example.org 0.25, docs.example.net 0.15. */
  domains?: ReadonlyArray<readonly [string, number]>;
  /**
   * Pairs of identical approved comments (same created_at, name, path, content and html) on showcase
   * paths of example.com, as a reader who submits twice in one second leaves. They are the newest
   * comments and count toward `size`. Default 0.
   */
  twins?: number;
  /**
   * created_at in whole seconds (`.000000Z`), as Eloquent stores it by default, with about a third
   * of comments in the same second as the one before. Default false.
   */
  wholeSecondTimestamps?: boolean;
}

export const exampleDomain = "example.com";

/** The example site's posts, and what their comments exercise. */
export const showcasePaths = {
  hello: "/posts/hello-world",
  code: "/posts/code-in-comments",
  world: "/posts/around-the-world",
  hostile: "/posts/hostile-input",
  long: "/posts/long-thread",
  quiet: "/posts/quiet-post",
  xss: "/posts/xss-corpus",
} as const;

// Share of random top-level comments per domain; empty.example only ever has unapproved ones.
const defaultDomainShares: ReadonlyArray<readonly [string, number]> = [
  [exampleDomain, 0.6],
  ["blog.example.org", 0.25],
  ["docs.example.net", 0.15],
];
export const emptyDomain = "empty.example";

interface Part {
  content: string;
  html: string;
}

const START = Date.UTC(2023, 0, 1);
const TIE_RATE = 0.3;

class DatasetBuilder {
  readonly comments: StoredComment[] = [];
  private clock = START;
  private readonly rng: Dice;
  /** Set for whole-second timestamps: decides which comments share the previous one's second. */
  private readonly ties: Dice | undefined;
  constructor(rng: Dice, ties?: Dice) {
    this.rng = rng;
    this.ties = ties;
  }

  private timestamp(): string {
    // Both draws happen in every mode, so whole seconds change created_at and nothing else.
    const step = this.rng.int(30, 40_000) * 1000;
    const micros = this.rng.chance(0.3) ? 0 : this.rng.int(0, 999_999);
    if (this.ties === undefined) {
      this.clock += step;
      return serviceTimestamp(this.clock, micros);
    }
    if (!this.ties.chance(TIE_RATE)) this.clock += step;
    return serviceTimestamp(this.clock, 0);
  }

  add(fields: Omit<StoredComment, "id" | "created_at">, created_at = this.timestamp()): StoredComment {
    const comment = { id: this.comments.length + 1, created_at, ...fields };
    this.comments.push(comment);
    return comment;
  }

  paragraph(): Part {
    const text = Array.from({ length: this.rng.int(1, 4) }, () => sentence(this.rng.pick, this.rng.int(4, 14))).join(
      " ",
    );
    return { content: text, html: paragraphHtml(text) };
  }

  code(sample = this.rng.pick(codeSamples)): Part {
    return {
      content: `\`\`\`${sample.language}\n${sample.code}\n\`\`\``,
      html: `<pre><code class="language-${sample.language}">${escapeHtml(sample.code)}\n</code></pre>\n`,
    };
  }

  link(): Part {
    const url = `https://docs.example.net/guide/${this.rng.int(1, 99)}`;
    return {
      content: `See [the guide](${url}) and \`npm test\`.`,
      html: `<p>See <a href="${url}">the guide</a> and <code>npm test</code>.</p>\n`,
    };
  }

  body(kind: "plain" | "code" | "link" | "long" | "empty" | "random"): Part {
    const chosen =
      kind === "random"
        ? this.rng.pick(["plain", "plain", "plain", "plain", "code", "link", "long", "empty"] as const)
        : kind;
    const parts: Part[] =
      chosen === "code"
        ? [this.paragraph(), this.code()]
        : chosen === "link"
          ? [this.link()]
          : chosen === "long"
            ? Array.from({ length: this.rng.int(6, 12) }, () => this.paragraph())
            : [this.paragraph()];
    const content = parts.map((part) => part.content).join("\n\n");
    // The service stores some comments with an empty rendering; consumers fall back to content.
    return { content, html: chosen === "empty" ? "" : parts.map((part) => part.html).join("") };
  }

  /** Showcase threads keep every reply approved so the example pages are predictable. */
  moderateReplies = true;

  thread(
    domain: string,
    path: string,
    status: StoredStatus,
    replies: number,
    body: Part = this.body("random"),
    name = this.rng.pick(authorNames),
  ): StoredComment {
    const parent = this.add({ domain, path, status, parentId: null, name, ...body });
    for (let i = 0; i < replies; i++) {
      // A few replies to approved comments are still waiting for moderation.
      const held = this.moderateReplies && status === "approved" && this.rng.chance(0.08);
      const replyStatus: StoredStatus = held ? "pending" : status;
      this.add({
        domain,
        path,
        status: replyStatus,
        parentId: parent.id,
        name: this.rng.pick(authorNames),
        ...this.body("random"),
      });
    }
    return parent;
  }

  replyCount(): number {
    // Mean 1.5: 40% none, then a long tail.
    const roll = this.rng.float();
    return roll < 0.4 ? 0 : roll < 0.6 ? 1 : roll < 0.75 ? 2 : roll < 0.85 ? 3 : roll < 0.95 ? 4 : 6;
  }
}

function showcase(builder: DatasetBuilder): number {
  const d = exampleDomain;
  const p = showcasePaths;
  const before = builder.comments.filter((c) => c.parentId === null && c.status === "approved").length;
  builder.moderateReplies = false;
  builder.thread(
    d,
    p.hello,
    "approved",
    2,
    { content: "This is some example content.", html: "<p>This is some example content.</p>\n" },
    "Jane Doe",
  );
  // Stored with a trailing slash: the page at /posts/hello-world must show it too.
  builder.thread(
    d,
    `${p.hello}/`,
    "approved",
    1,
    { content: "Trailing slash, same page.", html: "<p>Trailing slash, same page.</p>\n" },
    "John Smith",
  );
  builder.thread(
    d,
    p.hello,
    "pending",
    0,
    { content: "Awaiting moderation.", html: "<p>Awaiting moderation.</p>\n" },
    "Not Yet",
  );
  builder.thread(d, p.hello, "spam", 0, { content: "Buy now", html: "<p>Buy now</p>\n" }, "Spammer");
  for (const sample of codeSamples) builder.thread(d, p.code, "approved", 1, builder.code(sample), "Ada Lovelace");
  for (const name of authorNames) builder.thread(d, p.world, "approved", 0, builder.body("plain"), name);
  for (const html of hostileBodies)
    builder.thread(d, p.hostile, "approved", 1, { content: "hostile", html }, '<script>alert("name")</script>');
  builder.thread(d, p.long, "approved", 12, builder.body("long"), "Grace Hopper");
  builder.thread(
    d,
    p.long,
    "approved",
    0,
    { content: "My rendering is empty: <b>show me as text</b> & escape me.", html: "" },
    "Empty Html",
  );
  builder.thread(d, p.quiet, "pending", 0, builder.body("plain"), "Only Pending");
  // The XSS corpus: each vector is both the rendering and the source text of its comment.
  xssBodies.forEach((html, i) => {
    const parent = builder.thread(d, p.xss, "approved", 0, { content: html, html }, xssNames[i % xssNames.length]);
    if (i % 10 === 0)
      builder.add({
        domain: d,
        path: p.xss,
        status: "approved",
        parentId: parent.id,
        name: xssNames[(i + 1) % xssNames.length]!,
        content: html,
        html,
      });
  });
  builder.thread(d, "/", "approved", 1, builder.body("plain"), "Home Page Fan");
  builder.thread(emptyDomain, "/", "pending", 0, builder.body("plain"), "Nobody Approved Me");
  builder.moderateReplies = true;
  return builder.comments.filter((c) => c.parentId === null && c.status === "approved").length - before;
}

/** Double submissions: each pair is two rows with every served field equal. */
function twins(builder: DatasetBuilder, pairs: number): void {
  const paths = [showcasePaths.hello, showcasePaths.world, showcasePaths.long];
  for (let i = 0; i < pairs; i++) {
    const { id, created_at, ...fields } = builder.thread(
      exampleDomain,
      paths[i % paths.length]!,
      "approved",
      0,
      builder.body("plain"),
    );
    builder.add(fields, created_at);
  }
}

function randomPaths(rng: Dice, count: number): string[] {
  const sections = ["posts", "notes", "guides", "til"];
  return Array.from({ length: count }, (_, i) => {
    const section = sections[i % sections.length];
    const slug = `${sentence(rng.pick, rng.int(2, 4))
      .toLowerCase()
      .replace(/[^a-z]+/g, "-")
      .replace(/^-|-$/g, "")}-${i}`;
    // A few paths need percent-encoding or have a trailing slash, as real sites report them.
    return i % 97 === 5 ? `/${section}/café-${i}` : i % 53 === 7 ? `/${section}/${slug}/` : `/${section}/${slug}`;
  });
}

/** Builds the dataset. Same options, same comments, byte for byte. */
export function generateDataset(options: DatasetOptions = {}): StoredComment[] {
  const seed = options.seed ?? 1;
  const size = Math.max(0, Math.floor(options.size ?? 600));
  const domainShares = options.domains ?? defaultDomainShares;
  const sitePaths = typeof options.paths === "object" ? options.paths : undefined;
  const pathCount =
    sitePaths?.length ??
    Math.max(
      domainShares.length,
      Math.floor(typeof options.paths === "number" ? options.paths : Math.max(20, size / 10)),
    );
  const twinPairs = Math.max(0, Math.floor(options.twins ?? 0));
  const rng = dice(seed);
  const builder = new DatasetBuilder(rng, options.wholeSecondTimestamps ? dice(hashSeed(seed, "ties")) : undefined);
  const made = showcase(builder);

  const pathsByDomain = new Map<string, string[]>();
  const allPaths = sitePaths ?? randomPaths(rng, pathCount);
  let offset = 0;
  domainShares.forEach(([domain, share], index) => {
    const take =
      index === domainShares.length - 1 ? allPaths.length - offset : Math.max(1, Math.round(pathCount * share));
    pathsByDomain.set(domain, allPaths.slice(offset, offset + take));
    offset += take;
  });

  for (let i = made; i < size - 2 * twinPairs; i++) {
    const roll = rng.float();
    let cumulative = 0;
    const [domain] = domainShares.find(([, share]) => (cumulative += share) > roll) ?? domainShares[0]!;
    const paths = pathsByDomain.get(domain) ?? [];
    // Popularity is skewed: low-index paths collect most comments.
    const path = paths[Math.floor(paths.length * rng.float() ** 2)] ?? "/";
    builder.thread(domain, path, "approved", builder.replyCount());
    if (rng.chance(0.1)) builder.thread(domain, path, rng.chance(0.7) ? "pending" : "spam", 0);
  }
  twins(builder, twinPairs);
  return builder.comments;
}
