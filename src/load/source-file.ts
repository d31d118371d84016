// A file's text together with its line index, so any offset becomes a 1-based line and column.
import { LineCounter } from 'yaml';
import path from 'node:path';
import type { Region, SourceFile } from '../types.js';

export function makeSourceFile(absPath: string, displayPath: string, text: string): SourceFile {
  let lineCounter: LineCounter | undefined;
  return {
    absPath,
    path: displayPath,
    text,
    // Built on first use: most files never get a finding, and the index of every line of every file is memory.
    get lineCounter() {
      if (!lineCounter) {
        lineCounter = new LineCounter();
        lineCounter.addNewLine(0);
        for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lineCounter.addNewLine(i + 1);
      }
      return lineCounter;
    },
  };
}

/** Repo-relative, forward-slash path of an absolute path (SARIF wants repo-root-relative URIs). */
export function toDisplayPath(absPath: string, root: string): string {
  const rel = path.relative(root, absPath);
  return (rel === '' ? '.' : rel).split(path.sep).join('/');
}

export function regionOf(file: SourceFile, start: number, end: number): Region {
  const clampedStart = Math.max(0, Math.min(start, file.text.length));
  let clampedEnd = Math.max(clampedStart, Math.min(end, file.text.length));
  // Never let a region swallow the trailing newline: it would end on the next line at column 1.
  while (clampedEnd > clampedStart && (file.text[clampedEnd - 1] === '\n' || file.text[clampedEnd - 1] === '\r')) clampedEnd--;
  const s = file.lineCounter.linePos(clampedStart);
  const e = file.lineCounter.linePos(clampedEnd);
  return {
    startLine: Math.max(1, s.line),
    startColumn: Math.max(1, s.col),
    endLine: Math.max(1, e.line),
    endColumn: Math.max(1, e.col),
  };
}

/** The whole first line of a file: where file-level diagnostics point. */
export function firstLineRegion(file: SourceFile): Region {
  const end = file.text.indexOf('\n');
  return regionOf(file, 0, end === -1 ? file.text.length : end);
}
