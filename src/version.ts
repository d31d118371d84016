// The package version, read from package.json next to dist/ (the same file npm ships).
import { readFileSync } from 'node:fs';

let cached: string | undefined;

export function pvlintVersion(): string {
  if (cached === undefined) {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
    cached = String(pkg.version);
  }
  return cached;
}
