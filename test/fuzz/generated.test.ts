// Seeded generated inputs beside the mutations of the examples: huge flow sequences around the node limits, many
// empty documents, YAML tags in the fields rules read, and Unicode line breaks and byte order marks where lines end.
// Each must lint without an exception or a rule crash, and every diagnostic must name its file.
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { lint } from '../../src/lint.js';
import { hugeFlowSequence, invalidClaims, manyEmptyDocuments, seeded, YAML_TAGS } from '../hostile/generators.js';

const test = suite('fuzz: generated inputs');

const pick = <T>(random: () => number, list: readonly T[]): T => list[Math.floor(random() * list.length)];
const BREAKS = ['\u0085', '\u2028', '\u2029', '\n\uFEFF', '\r\n', '\n'];

type Generator = (random: () => number) => string;

const GENERATORS: Record<string, Generator> = {
  'huge flow sequence': (random) => hugeFlowSequence(1 + Math.floor(random() * 3_000)),
  'many empty documents': (random) => manyEmptyDocuments(Math.floor(random() * 2_000)) + invalidClaims(1 + Math.floor(random() * 3)),
  'tags': (random) =>
    invalidClaims(2)
      .split('\n')
      .map((line) => (/: \S/.test(line) && random() < 0.3 ? line.replace(/: .*$/, `: ${pick(random, YAML_TAGS)}`) : line))
      .join('\n'),
  'line breaks': (random) => {
    const text = invalidClaims(3);
    let out = '';
    for (const char of text) out += char === '\n' && random() < 0.2 ? pick(random, BREAKS) : char;
    return out;
  },
};

test('200 seeded generated inputs: no exception, no rule crash, every diagnostic at a file', async () => {
  const random = seeded(20261201);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pvlint-generated-'));
  const limits = { maxDocumentNodes: 2_000, maxTotalNodes: 20_000, maxFileDocuments: 1_500 };
  const seen = new Set<string>();
  for (let i = 0; i < 200; i++) {
    const name = pick(random, Object.keys(GENERATORS));
    seen.add(name);
    const file = `case-${i}.yaml`;
    writeFileSync(path.join(dir, file), GENERATORS[name](random));
    for (const parseAllDocuments of [false, true]) {
      let result;
      try {
        result = await lint({ paths: [file], cwd: dir, root: dir, limits, parseAllDocuments });
      } catch (error) {
        assert.unreachable(`case ${i} (${name}): ${(error as Error)?.stack ?? error}`);
        return;
      }
      assert.equal(result.findings.filter((f) => f.ruleId === 'pvlint/rule-crash').map((f) => f.message), [], `case ${i} (${name})`);
      for (const finding of result.findings) assert.is(finding.location.file, file, `case ${i} (${name}): ${finding.ruleId} at ${finding.location.file}`);
    }
  }
  assert.equal([...seen].sort(), Object.keys(GENERATORS).sort());
});

test.run();
