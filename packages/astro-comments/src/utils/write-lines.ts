// A file written piece by piece (or line by line) through a stream, with the stream's backpressure
// and errors handled by Node's pipeline: a full or read-only disk rejects the promise (and closes
// the file), also while a write waits for the disk to drain, instead of crashing the process with
// an unhandled 'error' event.
import { createWriteStream } from "node:fs";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";

/** Writes `pieces` one after another to `file`, taking each only when the file has room for it; rejects as writeLines does. */
export function writePieces(file: string, pieces: Iterable<string | Uint8Array>): Promise<void> {
  return pipeline(Readable.from(pieces), createWriteStream(file));
}

/** Writes `lines`, each followed by a line break, to `file`; rejects with the write's error (ENOSPC, EROFS, EACCES…). */
export function writeLines(file: string, lines: Iterable<string>): Promise<void> {
  function* withBreaks() {
    for (const line of lines) yield `${line}\n`;
  }
  return writePieces(file, withBreaks());
}
