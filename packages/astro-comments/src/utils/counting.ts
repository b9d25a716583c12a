// Counts in messages: "1 page", "1,204 comments", "a, b and 3 more".

export const count = (n: number): string => n.toLocaleString("en-US");

export const plural = (n: number, word: string): string => `${count(n)} ${word}${n === 1 ? "" : "s"}`;

/** A few pages by key, for a one-line message. */
export function listPages(ids: readonly string[]): string {
  const shown = ids.slice(0, 5).join(", ");
  return ids.length > 5 ? `${shown} and ${count(ids.length - 5)} more` : shown;
}
