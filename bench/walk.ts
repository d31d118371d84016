// The file set every contender reads: what pvlint's discovery globs (`**/*.{yaml,yml,json}` and
// `**/Kustomization`), skipping dot-entries (fast-glob `dot: false`), `.git` and `node_modules`.
// Only node built-ins here: the floor scripts import this and must start as fast as node itself.
import { readdirSync } from 'node:fs';
import path from 'node:path';

const MANIFEST = /\.(?:ya?ml|json)$/;

export function manifestFiles(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile() && (MANIFEST.test(entry.name) || entry.name === 'Kustomization')) out.push(full);
    }
  };
  walk(root);
  return out.sort();
}

/** What every child prints last on stdout: its own peak RSS, so the parent has it even without /usr/bin/time. */
export function report(extra: Record<string, unknown>): void {
  process.stdout.write(`${JSON.stringify({ ...extra, maxRssKb: process.resourceUsage().maxRSS })}\n`);
}
