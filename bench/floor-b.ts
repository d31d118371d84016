// Floor B: read every manifest file and parse every document with `yaml` parseAllDocuments (pvlint's
// options), nothing else: no toJS, no model, no rules.
// Floor B' (`--kinds FILE`, a JSON array): the cheap kind scan first, then parse only the documents whose
// top-level kind is one pvlint reads — the cost of "parsing what matters".
import { readFileSync } from 'node:fs';
import { parseEverything, parseRelevant } from './kind-scan.js';
import { manifestFiles, report } from './walk.js';

const args = process.argv.slice(2);
const kindsAt = args.indexOf('--kinds');
const relevant = kindsAt === -1 ? undefined : new Set<string>(JSON.parse(readFileSync(args[kindsAt + 1], 'utf8')));
const dir = args.find((a, i) => !a.startsWith('--') && args[i - 1] !== '--kinds') ?? '.';

const files = manifestFiles(dir);
const counts = { documents: 0, parsed: 0 };
for (const file of files) {
  const text = readFileSync(file, 'utf8');
  if (relevant === undefined) parseEverything(text, counts);
  else parseRelevant(text, relevant, counts);
}
report({ files: files.length, ...counts });
