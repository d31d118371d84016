// Vectors from github/codeql-action src/fingerprints.test.ts ('hash'), plus a cross-check of the 32-bit-halves
// arithmetic against a direct BigInt transcription of the same algorithm on inputs longer than one window.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { lineHashes } from '../../src/report/fingerprint.js';

function expectHashes(input: string, expected: string[]) {
  const hashes = lineHashes(input);
  assert.equal(hashes, expected);
  // codeql-action's own check: one hash per line, lines split at \r\n, \r and \n.
  assert.is(hashes.length, input.split(/\r\n|\r|\n/).length);
}

test('empty file', () => {
  expectHashes('', ['c129715d7a2bc9a3:1']);
});

test('whitespace is skipped, newlines are hashed', () => {
  expectHashes(' a\nb\n  \t\tc\n d', ['271789c17abda88f:1', '54703d4cd895b18:1', '180aee12dab6264:1', 'a23a3dc5e078b07b:1']);
  expectHashes(' hello; \t\nworld!!!\n\n\n  \t\tGreetings\n End', [
    '8b7cf3e952e7aeb2:1',
    'b1ae1287ec4718d9:1',
    'bff680108adb0fcc:1',
    'c6805c5e1288b612:1',
    'b86d3392aea1be30:1',
    'e6ceba753e1a442:1',
  ]);
});

const GREETINGS = [
  'e9496ae3ebfced30:1',
  'fb7c023a8b9ccb3f:1',
  'ce8ba1a563dcdaca:1',
  'e20e36e16fcb0cc8:1',
  'b3edc88f2938467e:1',
  'c8e28b0b4002a3a0:1',
  'c129715d7a2bc9a3:1',
];

test('\\n, \\r, \\r\\n and mixed line endings hash the same', () => {
  expectHashes(' hello; \t\nworld!!!\n\n\n  \t\tGreetings\n End\n', GREETINGS);
  expectHashes(' hello; \t\nworld!!!\r\r\r  \t\tGreetings\r End\r', GREETINGS);
  expectHashes(' hello; \t\r\nworld!!!\r\n\r\n\r\n  \t\tGreetings\r\n End\r\n', GREETINGS);
  expectHashes(' hello; \t\nworld!!!\r\n\n\r  \t\tGreetings\r End\r\n', GREETINGS);
});

test('identical lines are told apart by the counter', () => {
  expectHashes('Lorem ipsum dolor sit amet.\n'.repeat(10), [
    'a7f2ff13bc495cf2:1',
    'a7f2ff13bc495cf2:2',
    'a7f2ff13bc495cf2:3',
    'a7f2ff13bc495cf2:4',
    'a7f2ff13bc495cf2:5',
    'a7f2ff13bc495cf2:6',
    'a7f2ff1481e87703:1',
    'a9cf91f7bbf1862b:1',
    '55ec222b86bcae53:1',
    'cc97dc7b1d7d8f7b:1',
    'c129715d7a2bc9a3:1',
  ]);
});

/** The algorithm as codeql-action writes it, with BigInt standing in for Long. */
function referenceHashes(text: string): string[] {
  const BLOCK = 100;
  let firstMod = 1n;
  for (let i = 0; i < BLOCK; i++) firstMod = BigInt.asUintN(64, firstMod * 37n);
  const window = new Array<number>(BLOCK).fill(0);
  const lineNumbers = new Array<number>(BLOCK).fill(-1);
  const out: string[] = [];
  const counts = new Map<string, number>();
  let hash = 0n;
  let index = 0;
  let lineNumber = 0;
  let lineStart = true;
  let prevCR = false;
  const emit = () => {
    const value = hash.toString(16);
    counts.set(value, (counts.get(value) ?? 0) + 1);
    out[lineNumbers[index] - 1] = `${value}:${counts.get(value)}`;
    lineNumbers[index] = -1;
  };
  const update = (current: number) => {
    const begin = window[index];
    window[index] = current;
    hash = BigInt.asUintN(64, 37n * hash + BigInt(current) - firstMod * BigInt(begin));
    index = (index + 1) % BLOCK;
  };
  const process = (c: number) => {
    if (c === 32 || c === 9 || (prevCR && c === 10)) {
      prevCR = false;
      return;
    }
    if (c === 13) {
      c = 10;
      prevCR = true;
    } else prevCR = false;
    if (lineNumbers[index] !== -1) emit();
    if (lineStart) {
      lineStart = false;
      lineNumber++;
      lineNumbers[index] = lineNumber;
    }
    if (c === 10) lineStart = true;
    update(c);
  };
  for (let i = 0; i < text.length; i++) process(text.charCodeAt(i));
  process(65535);
  for (let i = 0; i < BLOCK; i++) {
    if (lineNumbers[index] !== -1) emit();
    update(0);
  }
  return out;
}

test('matches a BigInt transcription on long, non-ASCII, multi-document YAML', () => {
  const yaml = Array.from({ length: 40 }, (_, i) =>
    `---\napiVersion: v1\nkind: PersistentVolumeClaim\nmetadata:\n  name: data-${i}\n  annotations: {note: "größe ✓ 𝔘 ${'x'.repeat(i * 7)}"}\r\nspec:\n\taccessModes: [ReadWriteOnce]\r\r`,
  ).join('');
  const hashes = lineHashes(yaml);
  assert.is(hashes.length, yaml.split(/\r\n|\r|\n/).length);
  assert.equal(hashes, referenceHashes(yaml));
  // Characters above U+FFFF and the sentinel-sized code units stress the 64-bit carries.
  const wide = '\uffff\ufffe'.repeat(300) + '\n' + '𝔘'.repeat(200);
  assert.equal(lineHashes(wide), referenceHashes(wide));
});

test.run();
