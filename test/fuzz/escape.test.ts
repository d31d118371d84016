// The escaping of each output format, fuzzed: random strings of the characters that matter (controls, `:`, `,`,
// `%`, CR, LF, bidi controls) as file names, rule ids, messages, fixes, notes and environments. Text output never
// carries a control character but LF and never a line the Actions runner takes for a command; every GitHub
// annotation is exactly one command line whose properties and data the runner reads back unchanged (up to the
// control characters, which are shown as escapes).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { LintResult } from '../../src/lint.js';
import { formatText } from '../../src/report/text.js';
import { formatGithub } from '../../src/report/github.js';
import { formatJson } from '../../src/report/json.js';
import { terminalText } from '../../src/report/escape.js';
import type { Finding } from '../../src/types.js';
import { HOSTILE_NAMES, hostileString, seeded } from '../hostile/generators.js';

const test = suite('fuzz: output escaping');

function finding(random: () => number, pick: (n: number) => string): Finding {
  return {
    ruleId: pick(12),
    messageId: 'm',
    severity: (['error', 'warning', 'note'] as const)[Math.floor(random() * 3)],
    message: pick(40),
    location: { file: pick(20), region: { startLine: 1, startColumn: 1, endLine: 1, endColumn: 2 } },
    related: [{ message: pick(10), location: { file: pick(10), region: { startLine: 2, startColumn: 1, endLine: 2, endColumn: 1 } } }],
    environments: [pick(8), pick(8)],
    fix: pick(15),
    note: pick(15),
  } as Finding;
}

function result(findings: Finding[]): LintResult {
  return { findings, suppressed: [], fatal: false, scopes: [], root: '/', stats: { files: 1, documents: 1, resources: 1 } } as unknown as LintResult;
}

// Controls that must never reach a terminal (LF is the line break of the report itself; TAB is harmless).
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
const COMMAND = /^\s*(::|##\[)/;

function cases(): Finding[][] {
  const random = seeded(22);
  const out: Finding[][] = [];
  // The named hostile strings in every field, then 300 random ones.
  out.push(HOSTILE_NAMES.map((name) => finding(random, () => name)));
  for (let i = 0; i < 300; i++) out.push([finding(random, (n) => hostileString(random, 1 + Math.floor(random() * n)))]);
  return out;
}

test('text: no control character but LF, no line the Actions runner reads as a command', () => {
  for (const findings of cases()) {
    for (const color of [false, true]) {
      const text = formatText(result(findings), { color });
      // With colour on, kleur's own SGR sequences are expected: take them out before looking.
      const plain = color ? text.replace(/\u001b\[[0-9;]*m/g, '') : text;
      // A line the runner might read once colour codes are dropped is still one too many.
      for (const line of plain.split('\n')) {
        assert.not.ok(CONTROL.test(line), JSON.stringify(line));
        assert.not.ok(COMMAND.test(line), JSON.stringify(line));
      }
    }
  }
});

test('github: one command per finding, properties and data read back as the runner reads them', () => {
  for (const findings of cases()) {
    const lines = formatGithub(result(findings)).split('\n').filter((l) => l !== '');
    assert.is(lines.length, findings.length + 1, 'one line per finding plus the summary');
    lines.slice(0, -1).forEach((line) => {
      assert.not.ok(CONTROL.test(line), JSON.stringify(line));
      const match = /^::(error|warning|notice) ([^:]*)::(.*)$/s.exec(line);
      assert.ok(match, JSON.stringify(line));
      // The runner splits the properties at `,` and each at its first `=`.
      const properties = match![2].split(',').map((p) => [p.slice(0, p.indexOf('=')), p.slice(p.indexOf('=') + 1)]);
      for (const [key, value] of properties) {
        assert.ok(/^(file|line|col|endLine|endColumn|title)$/.test(key), `property ${JSON.stringify(key)} in ${JSON.stringify(line)}`);
        assert.not.ok(/[:,\r\n]/.test(value));
      }
      const unescape = (s: string) => s.replace(/%0D/g, '\r').replace(/%0A/g, '\n').replace(/%3A/g, ':').replace(/%2C/g, ',').replace(/%25/g, '%');
      const file = properties.find(([key]) => key === 'file')?.[1];
      // What the runner reads back is the file name, its controls (other than CR and LF) shown as escapes.
      const expected = new Set(findings.map((f) => terminalText(f.location.file.replace(/\r/g, '\u0000CR').replace(/\n/g, '\u0000LF')).replace(/\\x00CR/g, '\r').replace(/\\x00LF/g, '\n')));
      if (file !== undefined) assert.ok(expected.has(unescape(file)), `${JSON.stringify(unescape(file))} is not one of the file names`);
    });
    assert.not.ok(COMMAND.test(lines[lines.length - 1]));
  }
});

test('json: no raw control character in the output, and every string reads back unchanged', () => {
  for (const findings of cases().slice(0, 50)) {
    const text = formatJson(result(findings), { toolVersion: '0' });
    assert.not.ok(/[\u0000-\u001f]/.test(text.replace(/\n/g, '')), 'JSON output carries a raw control character');
    const parsed = JSON.parse(text);
    const byMessage = new Set(findings.map((f) => f.message));
    for (const f of parsed.findings) assert.ok(byMessage.has(f.message), JSON.stringify(f.message));
  }
});

test.run();
