// Byte ranges of a file, read one after another through one buffer: verifying a data file's pages
// (module-files.ts) read each whole file before, 16 at once, and a warm build's peak memory
// carried those 76 MB of buffers (with the lists beside the comments) until the next full GC.
import { open } from "node:fs/promises";

/** Ranges up to this size share the reader's buffer; a longer one (a huge thread) gets its own. */
const SHARED_LIMIT = 1_048_576;

export interface FileSlices {
  /** The bytes at `start`, `length` long; undefined when the file is shorter. Valid until the next call. */
  slice(start: number, length: number): Promise<Uint8Array | undefined>;
  close(): Promise<void>;
}

/** A reader of `file`'s byte ranges; undefined when it cannot be opened. */
export async function fileSlices(file: string): Promise<FileSlices | undefined> {
  const handle = await open(file, "r").catch(() => undefined);
  if (handle === undefined) return undefined;
  let shared = Buffer.alloc(0);
  return {
    async slice(start, length) {
      if (length > SHARED_LIMIT) shared = Buffer.alloc(0);
      else if (length > shared.length) shared = Buffer.allocUnsafe(Math.max(length, 65_536));
      const buffer = length > SHARED_LIMIT ? Buffer.allocUnsafe(length) : shared;
      const read = await handle.read(buffer, 0, length, start).catch(() => undefined);
      return read?.bytesRead === length ? buffer.subarray(0, length) : undefined;
    },
    close: () => handle.close(),
  };
}
