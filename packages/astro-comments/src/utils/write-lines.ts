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

/** Characters of lines gathered before they go to the stream. */
const RUN = 65_536;

/** Writes `lines`, each followed by a line break, to `file`; rejects with the write's error (ENOSPC, EROFS, EACCES…). */
export function writeLines(file: string, lines: Iterable<string>): Promise<void> {
  // In runs of about RUN characters: a stream chunk per line cost about 1 µs each, 0.2 s of the
  // main thread for a render cache of 200,000 bodies, written while the build renders its pages.
  function* runs() {
    let run = "";
    for (const line of lines) {
      run += `${line}\n`;
      if (run.length < RUN) continue;
      yield run;
      run = "";
    }
    if (run !== "") yield run;
  }
  return writePieces(file, runs());
}
