// pvlint's one file reader. A manifest is read, or the reader says why not: a broken or looping symlink, something that
// is not a regular file (a FIFO would block forever), a file over the size limits, binary content, UTF-16, or bytes
// that are not UTF-8 (kubectl's YAML reader rejects those too). Other sources (what locators, renderers and SARIF
// fingerprints read) go through the same checks. Reading never waits on a FIFO and never reads more than the limit allows.
import { closeSync, constants, fstatSync, lstatSync, openSync } from 'node:fs';
import { isUtf8 } from 'node:buffer';
import { formatBytes, type Limits } from './limits.js';
import { fillFrom } from './read-at-most.js';
import { makeSourceFile } from './source-file.js';
import type { Severity, SourceFile } from '../types.js';

export interface ReadProblem {
  ruleId: 'pvlint/read' | 'pvlint/limit';
  severity: Severity;
  message: string;
  /** 1-based, when the problem has a place in the file. */
  line?: number;
  column?: number;
}

export type ReadOutcome = { file: SourceFile } | { problem: ReadProblem };

/** Bytes read so far in this run, against `maxTotalBytes`. */
export interface ReadBudget {
  limits: Limits;
  used: number;
}

function errorText(error: unknown): string {
  const code = (error as NodeJS.ErrnoException)?.code;
  switch (code) {
    case 'ENOENT':
      return 'the file does not exist';
    case 'ELOOP':
      return 'symbolic link loop (ELOOP): following the link leads back to it';
    case 'EACCES':
    case 'EPERM':
      return `permission denied (${code})`;
    case 'EISDIR':
      return 'it is a directory (EISDIR)';
    default:
      return code ?? String((error as Error)?.message ?? error);
  }
}

/** Offset of the first byte that is not part of a well-formed UTF-8 sequence. */
export function firstInvalidUtf8(buffer: Uint8Array): number {
  let i = 0;
  while (i < buffer.length) {
    const b = buffer[i];
    let need = 0;
    let min = 0;
    if (b < 0x80) {
      i++;
      continue;
    } else if (b >= 0xc2 && b <= 0xdf) {
      need = 1;
      min = 0x80;
    } else if (b >= 0xe0 && b <= 0xef) {
      need = 2;
      min = 0x800;
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3;
      min = 0x10000;
    } else {
      return i;
    }
    // A sequence cut off by the end of the buffer.
    if (i + need >= buffer.length) return i;
    let code = b & (0x3f >> need);
    for (let k = 1; k <= need; k++) {
      const c = buffer[i + k];
      if ((c & 0xc0) !== 0x80) return i;
      code = (code << 6) | (c & 0x3f);
    }
    if (code < min || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return i;
    i += need + 1;
  }
  return -1;
}

/** 1-based line and column (in characters) of a byte offset of a buffer whose bytes before it are valid UTF-8. */
function positionOf(buffer: Buffer, offset: number): { line: number; column: number } {
  const before = buffer.subarray(0, offset).toString('utf8');
  const lineStart = before.lastIndexOf('\n') + 1;
  let line = 1;
  for (let i = before.indexOf('\n'); i !== -1; i = before.indexOf('\n', i + 1)) line++;
  return { line, column: before.length - lineStart + 1 };
}

const problem = (ruleId: ReadProblem['ruleId'], message: string, extra: Partial<ReadProblem> = {}): { problem: ReadProblem } => ({
  problem: { ruleId, severity: 'error', message, ...extra },
});

/**
 * The bytes of the regular file at `absPath`, at most `maxBytes` of them, or why they were not read. The one place
 * pvlint opens a file of the repository: manifests (`readManifest`), the sources locators and renderers read
 * (`readSourceText`, src/render/source-cache.ts) and the lines SARIF fingerprints hash. It never waits on a FIFO
 * (O_NONBLOCK, and only regular files are read), and never reads more than the limit allows, even from a file that
 * grows while it is read. `admit` may refuse a file by its size before any byte is read (the run's total budget).
 */
export function readFileBytes(absPath: string, maxBytes: number, admit?: (size: number) => ReadProblem | undefined): { bytes: Buffer } | { problem: ReadProblem } {
  let fd: number;
  try {
    // O_NONBLOCK: opening a FIFO named *.yaml must not wait for a writer.
    fd = openSync(absPath, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (error) {
    if ((error as NodeJS.ErrnoException)?.code === 'ENOENT') {
      let link;
      try {
        link = lstatSync(absPath);
      } catch {
        link = undefined;
      }
      if (link?.isSymbolicLink()) return problem('pvlint/read', 'cannot read file: broken symbolic link (its target does not exist)');
    }
    return problem('pvlint/read', `cannot read file: ${errorText(error)}`);
  }
  try {
    const info = fstatSync(fd);
    if (info.isDirectory()) return problem('pvlint/read', 'cannot read file: it is a directory (EISDIR)');
    if (!info.isFile()) return problem('pvlint/read', 'not a regular file (a FIFO, socket or device); not read');
    if (info.size > maxBytes) {
      return problem('pvlint/limit', `file is ${formatBytes(info.size)}, larger than the ${formatBytes(maxBytes)} limit (maxFileBytes); it is not read`);
    }
    const refused = admit?.(info.size);
    if (refused) return { problem: refused };
    // Read at most one byte past the limit: a file that grew since stat() is still bounded.
    const buffer = Buffer.allocUnsafe(Math.min(info.size, maxBytes) + 1);
    const length = fillFrom(fd, buffer);
    if (length > maxBytes) {
      return problem('pvlint/limit', `file is larger than the ${formatBytes(maxBytes)} limit (maxFileBytes); it is not read`);
    }
    return { bytes: buffer.subarray(0, length) };
  } catch (error) {
    return problem('pvlint/read', `cannot read file: ${errorText(error)}`);
  } finally {
    try {
      closeSync(fd);
    } catch {
      // Nothing to do: the descriptor is gone either way.
    }
  }
}

/**
 * Reads `absPath` as a manifest. `displayPath` is what reports show. The file's size counts against the run's
 * `maxTotalBytes`; a file that does not fit is skipped (later, smaller files may still fit).
 *
 * Synchronous on purpose: a repo is thousands of small files, and four thread-pool round trips per file (open, stat,
 * read, close) left the main thread idle for a third of a 10k-document run.
 */
export function readManifest(absPath: string, displayPath: string, budget: ReadBudget): ReadOutcome {
  const { limits } = budget;
  const read = readFileBytes(absPath, limits.maxFileBytes, (size) =>
    budget.used + size > limits.maxTotalBytes
      ? {
          ruleId: 'pvlint/limit',
          severity: 'error',
          message: `the files read so far hold ${formatBytes(budget.used)}; this one (${formatBytes(size)}) would pass the ${formatBytes(limits.maxTotalBytes)} limit for one run (maxTotalBytes), so it is not read`,
        }
      : undefined,
  );
  if ('problem' in read) return read;
  budget.used += read.bytes.length;
  return decode(absPath, displayPath, read.bytes);
}

/**
 * The text of a file the run did not lint but reads (a kustomization, a patch, a template, a line to fingerprint),
 * decoded as UTF-8 the way Node decodes it (a malformed byte becomes U+FFFD); undefined when it cannot be read.
 * `stripBom`: drop a leading byte-order mark, as YAML does (fingerprints hash the text as it is).
 */
export function readSourceText(absPath: string, maxBytes: number, stripBom: boolean): string | undefined {
  const read = readFileBytes(absPath, maxBytes);
  if ('problem' in read) return undefined;
  const text = read.bytes.toString('utf8');
  return stripBom && text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** Bytes to text: UTF-8 (a BOM is dropped); binary, UTF-16 and malformed UTF-8 are problems. */
export function decode(absPath: string, displayPath: string, buffer: Buffer): ReadOutcome {
  // UTF-32 first: its little-endian mark starts with UTF-16's.
  if ((buffer[0] === 0xff && buffer[1] === 0xfe && buffer[2] === 0 && buffer[3] === 0) || (buffer[0] === 0 && buffer[1] === 0 && buffer[2] === 0xfe && buffer[3] === 0xff)) {
    return problem('pvlint/read', 'the file is UTF-32 encoded (it starts with a UTF-32 byte-order mark); save it as UTF-8');
  }
  if ((buffer[0] === 0xff && buffer[1] === 0xfe) || (buffer[0] === 0xfe && buffer[1] === 0xff)) {
    return problem('pvlint/read', 'the file is UTF-16 encoded (it starts with a UTF-16 byte-order mark); save it as UTF-8');
  }
  const nul = buffer.indexOf(0);
  if (nul !== -1) {
    const valid = firstInvalidUtf8(buffer.subarray(0, nul));
    const at = positionOf(buffer, valid === -1 ? nul : valid);
    return problem('pvlint/read', 'binary file (contains NUL bytes); not linted', at);
  }
  if (!isUtf8(buffer)) {
    const offset = firstInvalidUtf8(buffer);
    const at = positionOf(buffer, Math.max(0, offset));
    const byte = offset >= 0 ? `0x${buffer[offset].toString(16).padStart(2, '0')}` : 'a byte';
    return problem('pvlint/read', `the file is not valid UTF-8 (${byte} at line ${at.line}, column ${at.column}); kubectl rejects it too. Save it as UTF-8`, at);
  }
  let text = buffer.toString('utf8');
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  return { file: makeSourceFile(absPath, displayPath, text) };
}
