// Our errors as Astro prints them: each keeps its own hint, and Astro's guesses (the browser-API
// hint it adds to any error whose text says "window" or "document") never replace it, even when a
// message quotes a domain or path with those words in it.
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { CommentsApiError, CommentsConfigError, type CommentsApiFailure } from "../../src/errors.ts";
import { resolveOptions } from "../../src/integration/options.ts";

// Astro's own printing path for a failed command (cli/throw-and-exit.js): collectErrorMetadata, then formatErrorMessage.
const astroDir = dirname(createRequire(import.meta.url).resolve("astro/package.json"));
const { collectErrorMetadata } = (await import(
  pathToFileURL(join(astroDir, "dist/core/errors/dev/utils.js")).href
)) as { collectErrorMetadata(error: Error): Error & { hint?: string } };
const { formatErrorMessage } = (await import(pathToFileURL(join(astroDir, "dist/core/messages/runtime.js")).href)) as {
  formatErrorMessage(error: Error, full: boolean): string;
};

const failures: CommentsApiFailure[] = [
  "unauthorized",
  "forbidden",
  "invalid-request",
  "redirected",
  "not-found",
  "rate-limited",
  "server-error",
  "network",
  "timeout",
  "too-large",
  "malformed",
  "contract",
  "drift",
];
const astroHints = /Browser APIs|vite\.resolve\.noExternal|client:only/;

function printed(error: Error): { hint: string | undefined; text: string } {
  const withMetadata = collectErrorMetadata(error);
  return { hint: withMetadata.hint, text: formatErrorMessage(withMetadata, false).replace(/\x1b\[[0-9;]*m/g, "") };
}

describe("errors as Astro prints them", () => {
  it.each(failures)(
    "a CommentsApiError (%s) keeps its own hint, even quoting a URL with 'window' and 'document' in it",
    (failure) => {
      const error = new CommentsApiError({
        failure,
        url: "https://windowsforum.example/documents/api/comments?domain=windowsforum.example",
        status: 500,
        message: "the comments API failed",
        action: "Do something.",
      });
      const ours = error.hint;
      expect(ours.length).toBeGreaterThan(20);
      const { hint, text } = printed(error);
      expect(hint).toBe(ours);
      expect(text).not.toMatch(astroHints);
      // The message a user reads is untouched.
      expect(text).toContain("https://windowsforum.example/documents/api/comments");
    },
  );

  it("a CommentsConfigError from bad options keeps its own hint", () => {
    let caught: Error | undefined;
    try {
      resolveOptions(
        { domain: "https://window.example/document" },
        { COMMENTS_API_URL: "https://api.example", COMMENTS_API_TOKEN: "t-0123456789" },
      );
    } catch (error) {
      caught = error as Error;
    }
    expect(caught).toBeInstanceOf(CommentsConfigError);
    const ours = (caught as CommentsConfigError).hint;
    const { hint, text } = printed(caught!);
    expect(hint).toBe(ours);
    expect(text).not.toMatch(astroHints);
    expect(text).toContain('"domain" must be a bare domain like "example.com", not "https://window.example/document"');
  });

  it("every CommentsConfigError needs a hint (the constructor takes one)", () => {
    const error = new CommentsConfigError("astro-comments: something about the window of a document.", "Our hint.");
    expect(printed(error).hint).toBe("Our hint.");
    expect(String(error)).toMatch(
      /^CommentsConfigError: astro-comments: something about the win.dow of a docu.ment\.$/,
    );
  });
});
