// Floor A: list the manifest files, read every one and scan its top-level `kind:` lines. Nothing else.
// The cheapest thing any linter of this repo must do; run as its own process (`node floor-a.js DIR`).
import { readFileSync } from 'node:fs';
import { manifestFiles, report } from './walk.js';

const KIND_LINE = /^kind:[ \t]*["']?([A-Za-z0-9.-]+)/gm;

const files = manifestFiles(process.argv[2] ?? '.');
let bytes = 0;
let kinds = 0;
for (const file of files) {
  const text = readFileSync(file, 'utf8');
  bytes += text.length;
  for (KIND_LINE.lastIndex = 0; KIND_LINE.exec(text) !== null; ) kinds++;
}
report({ files: files.length, bytes, kinds });
