// The first bytes of a file into a buffer the caller reuses: a scan of many files for a few words, with a size limit,
// without a stat or an allocation per file.
import { closeSync, constants, openSync, readSync } from 'node:fs';

/** Reads up to `buffer.length` bytes of `file` into `buffer`; how many, or undefined when it cannot be read. */
export function readAtMost(file: string, buffer: Buffer): number | undefined {
  let fd: number | undefined;
  try {
    // Without blocking: a FIFO put where a file was listed gives nothing rather than hanging the run.
    fd = openSync(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
    return fillFrom(fd, buffer);
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Reads from an open file until `buffer` is full or the file ends; how many bytes were read. Throws as readSync does. */
export function fillFrom(fd: number, buffer: Buffer): number {
  let length = 0;
  while (length < buffer.length) {
    const read = readSync(fd, buffer, length, buffer.length - length, null);
    if (read === 0) break;
    length += read;
  }
  return length;
}
