// What pvlint does when its output cannot be written: a reader that went away (`pvlint -f json | head -1`: EPIPE)
// or a full disk (ENOSPC, EIO). Without an 'error' listener Node throws such errors from the stream, printing a
// stack trace and exiting 1 whatever the findings were.
//
// A closed stdout is the reader's choice: pvlint stops writing and ends quietly with the exit code it would have
// had (as `git log | head` does). Any other write error means the report was lost: one line on stderr (if stderr
// still works) and exit code 2. A failing stderr is ignored: there is nowhere left to say anything.
import type { Writable } from 'node:stream';

export interface GuardedOutput {
  /** Writes unless the stream already failed; never throws. */
  write: (text: string) => void;
  /** The error code of the first failed write (undefined while all is well). */
  failure: () => string | undefined;
}

export function guardOutput(stream: Writable): GuardedOutput {
  let failed: string | undefined;
  stream.on('error', (error: NodeJS.ErrnoException) => {
    failed ??= error.code ?? 'EIO';
  });
  return {
    write(text) {
      if (failed !== undefined) return;
      try {
        stream.write(text);
      } catch (error) {
        failed ??= (error as NodeJS.ErrnoException).code ?? 'EIO';
      }
    },
    failure: () => failed,
  };
}

/** The exit code once output failed: unchanged for a reader that closed the pipe, 2 for a lost report. */
export function exitCodeAfterOutput(code: number, stdoutFailure: string | undefined): number {
  if (stdoutFailure === undefined || stdoutFailure === 'EPIPE') return code;
  return 2;
}
