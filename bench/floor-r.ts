// Floor R: what any linter that renders with the real tool and parses only what matters must pay. It renders the
// Kustomize roots pvlint renders, with the same tool and as many at a time as pvlint (one per core), while it reads and
// parses, like floor B', the relevant documents of every manifest file outside those roots; then it parses the relevant
// documents of the rendered streams. No positions, no model, no rules.
//
// `node floor-r.js DIR [--kinds KINDS.json] --roots ROOTS.json --render 'kubectl kustomize'`; without --kinds every
// document is parsed (floor B with the renders).
//
// The renders run in shell loops of their own (one per core, each rendering its share of the roots one after the
// other into files), so they never wait for this process's event loop, which the parse below keeps busy: the floor
// is the cheapest way to overlap the two.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseEverything, parseRelevant } from './kind-scan.js';
import { manifestFiles, report } from './walk.js';

const args = process.argv.slice(2);
const option = (name: string): string => {
  const at = args.indexOf(name);
  if (at === -1 || at + 1 >= args.length) throw new Error(`floor-r: ${name} is required`);
  return args[at + 1];
};
const relevant = args.includes('--kinds') ? new Set<string>(JSON.parse(readFileSync(option('--kinds'), 'utf8'))) : undefined;
const roots: string[] = JSON.parse(readFileSync(option('--roots'), 'utf8'));
const render = option('--render');
const dir = args.find((a, i) => !a.startsWith('--') && !args[i - 1]?.startsWith('--')) ?? '.';

const quote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;
const out = mkdtempSync(path.join(os.tmpdir(), 'pvlint-floor-r-'));
const cores = typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length;
const lanes = Array.from({ length: Math.min(cores, roots.length) }, () => [] as string[]);
roots.forEach((root, i) => lanes[i % lanes.length].push(`${render} ${quote(root)} > ${quote(path.join(out, `${i}.yaml`))} 2>/dev/null`));
const rendering = Promise.all(lanes.map((commands) => new Promise<void>((resolve) => {
  // `;`, not `&&`: a root that fails to render does not stop the others (pvlint renders them all too).
  spawn('sh', ['-c', commands.join('; ')], { stdio: 'ignore' }).on('close', () => resolve());
})));

const counts = { documents: 0, parsed: 0 };
const parse = (text: string): void => (relevant ? parseRelevant(text, relevant, counts) : parseEverything(text, counts));

const insideRoot = (file: string): boolean => roots.some((root) => file.startsWith(root + path.sep));
const files = manifestFiles(dir).filter((file) => !insideRoot(file));
for (const file of files) parse(readFileSync(file, 'utf8'));

await rendering;
let rendered = 0;
for (let i = 0; i < roots.length; i++) {
  let text: string;
  try {
    text = readFileSync(path.join(out, `${i}.yaml`), 'utf8');
  } catch {
    continue;
  }
  if (text.length > 0) rendered++;
  parse(text);
}
rmSync(out, { recursive: true, force: true });
report({ files: files.length, ...counts, roots: roots.length, rendered });
