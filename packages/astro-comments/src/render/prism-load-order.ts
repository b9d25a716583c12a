// Which PrismJS grammars to load for a body's code, and in what order, so that a body highlights
// the same whatever other bodies made PrismJS load before it. Pure: no I/O.
//
// PrismJS's grammars change each other as they load: CSS and JavaScript add HTML's style and script
// tags, JSDoc and the template-literal languages extend JavaScript, and a grammar built on another
// (TypeScript on JavaScript) copies it as it is when it loads. Loaded only as bodies asked, in
// PrismJS's own order for each batch, an HTML snippet highlighted before any JavaScript had plain
// script tags and one highlighted after had JavaScript in them, and the render cache kept
// whichever came first for every later build. So a grammar is loaded with everything that decides
// how it highlights (what it builds on, what it reads as it loads, what it changes and what
// changes it), in one order for all sites: after whatever it builds on and after everything that
// changes what it builds on.
import componentsJson from "prismjs/components.json" with { type: "json" };
import type { ComponentEntry } from "prismjs/dependencies.js";

/** One of components.json's fields that hold one id or several, as a list. */
export const list = (value: string | readonly string[] | undefined): readonly string[] =>
  value === undefined ? [] : typeof value === "string" ? [value] : value;

// Changes components.json does not declare: Cilk's grammars insert their keywords into the shared
// C and C++ grammars, so C highlights cilk_spawn once Cilk has loaded.
const UNDECLARED_MODIFY: Readonly<Record<string, readonly string[]>> = { cilkc: ["c"], cilkcpp: ["cpp"] };

const entries = new Map<string, ComponentEntry>();
for (const [id, entry] of Object.entries(componentsJson.languages)) {
  if (id === "meta" || typeof entry === "string") continue;
  const { modify } = entry as ComponentEntry;
  const undeclared = Object.hasOwn(UNDECLARED_MODIFY, id) ? UNDECLARED_MODIFY[id]! : [];
  entries.set(id, { ...(entry as ComponentEntry), modify: [...list(modify), ...undeclared] });
}

/** PrismJS's grammars by id, as components.json lists them, with the changes it does not declare. */
export const grammarEntries: ReadonlyMap<string, ComponentEntry> = entries;

/** What loads before a grammar when both load: what it builds on or reads, and what it changes. */
const before = (entry: ComponentEntry) => [...list(entry.require), ...list(entry.optional), ...list(entry.modify)];

/** By grammar: the grammars that change it when they load (components.json's `modify`). */
const modifiedBy = new Map<string, string[]>();
for (const [id, entry] of entries) {
  for (const target of list(entry.modify)) modifiedBy.set(target, [...(modifiedBy.get(target) ?? []), id]);
}

/** The grammars reached from `from` by following `next` (PrismJS's grammars only), `from` included. */
function reachable(from: Iterable<string>, next: (id: string) => Iterable<string>): Set<string> {
  const found = new Set<string>();
  const queue = [...from];
  while (queue.length > 0) {
    const id = queue.pop()!;
    if (found.has(id) || !entries.has(id)) continue;
    found.add(id);
    queue.push(...next(id));
  }
  return found;
}

const changersOf = (id: string) => modifiedBy.get(id) ?? [];
const basesOf = (id: string) => [...list(entries.get(id)!.require), ...list(entries.get(id)!.optional)];

/** `ids` and every grammar that decides how they highlight, all the way down. */
const relatedGrammars = (ids: Iterable<string>) =>
  reachable(ids, (id) => [...before(entries.get(id)!), ...changersOf(id)]);

let order: Map<string, number> | undefined;

/**
 * One order for every grammar: each after what it builds on, reads or changes (PrismJS's own
 * rules), and after every grammar that changes something it builds on (or changes a changer of
 * it), unless that grammar needs it first (JSDoc changes JavaScript and builds on TypeScript, so
 * TypeScript copies JavaScript before JSDoc changes it, whatever loads first). Ties go by
 * components.json.
 */
function loadOrder(): Map<string, number> {
  if (order !== undefined) return order;
  const after = new Map<string, Set<string>>([...entries.keys()].map((id) => [id, new Set<string>()]));
  const add = (first: string, then: string) => after.get(first)!.add(then);
  const reaches = (from: string, to: string) => reachable([from], (id) => after.get(id)!).has(to);
  for (const [id, entry] of entries) for (const first of before(entry)) if (entries.has(first)) add(first, id);
  // Changers of changers count: JavaScript adds itself to HTML's script tags and JSDoc changes
  // JavaScript, so Textile, which copies HTML, copies JSDoc's JavaScript once JSDoc has loaded.
  for (const id of entries.keys()) {
    // Changers of the grammars it builds on, all the way down and up (the first reached are its own bases).
    const bases = reachable(basesOf(id), basesOf);
    for (const changer of reachable([...bases].flatMap(changersOf), changersOf)) {
      if (changer !== id && !reaches(id, changer)) add(changer, id);
    }
  }
  const waiting = new Map([...entries.keys()].map((id) => [id, 0]));
  for (const next of after.values()) for (const id of next) waiting.set(id, waiting.get(id)! + 1);
  const sorted: string[] = [];
  const ready = [...entries.keys()].filter((id) => waiting.get(id) === 0);
  const position = new Map([...entries.keys()].map((id, at) => [id, at]));
  while (ready.length > 0) {
    ready.sort((a, b) => position.get(a)! - position.get(b)!);
    const id = ready.shift()!;
    sorted.push(id);
    for (const next of after.get(id)!) {
      const left = waiting.get(next)! - 1;
      waiting.set(next, left);
      if (left === 0) ready.push(next);
    }
  }
  // PrismJS's rules never make a cycle, and an added rule that would is left out; should a later
  // components.json have one anyway, its grammars still load, last.
  for (const id of entries.keys()) if (!sorted.includes(id)) sorted.push(id);
  order = new Map(sorted.map((id, at) => [id, at]));
  return order;
}

/** The grammars to load for `wanted`, without those `isLoaded` says are loaded, in the one order. */
export function grammarsToLoad(wanted: Iterable<string>, isLoaded: (id: string) => boolean): string[] {
  const rank = loadOrder();
  return [...relatedGrammars(wanted)].filter((id) => !isLoaded(id)).sort((a, b) => rank.get(a)! - rank.get(b)!);
}
