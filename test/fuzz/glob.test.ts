// Suppression globs: the linear matcher agrees with the regular expression the patterns always meant on random
// patterns and paths, takes linear time where a backtracking matcher takes exponential time, and refuses malformed
// patterns with a message.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { globMatch, globProblem } from '../../src/engine/glob.js';
import { HOSTILE_GLOBS, seeded } from '../hostile/generators.js';

const test = suite('fuzz: globs');

/** The meaning of a pattern without braces or classes, as a regular expression (fine for short inputs). */
function reference(given: string, segmented: boolean): RegExp {
  // A leading `./` means the base directory itself.
  const glob = given.replace(/^\.\//, '');
  let out = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '*') {
      if (segmented && glob[i + 1] === '*') {
        const slash = glob[i + 2] === '/';
        out += slash ? '(?:.*/)?' : '.*';
        i += slash ? 2 : 1;
      } else out += segmented ? '[^/]*' : '.*';
    } else if (c === '?') out += segmented ? '[^/]' : '.';
    else out += c.replace(/[.+^$()|\\]/g, '\\$&');
  }
  return new RegExp(`^${out}$`, 's');
}

test('random patterns of *, **, ? and letters agree with their regular expression', () => {
  const random = seeded(7);
  const pick = (alphabet: string[]) => alphabet[Math.floor(random() * alphabet.length)];
  for (let n = 0; n < 3000; n++) {
    const glob = Array.from({ length: 1 + Math.floor(random() * 8) }, () => pick(['a', 'b', '/', '*', '**', '**/', '?', '.', '-'])).join('');
    const value = Array.from({ length: Math.floor(random() * 10) }, () => pick(['a', 'b', '/', '.', '-'])).join('');
    for (const segmented of [true, false]) {
      assert.is(globMatch(glob, value, segmented), reference(glob, segmented).test(value), `${JSON.stringify(glob)} vs ${JSON.stringify(value)} (${segmented ? 'path' : 'name'})`);
    }
  }
});

test('braces and classes', () => {
  assert.ok(globMatch('{data,logs}-*', 'logs-0', false));
  assert.not.ok(globMatch('{data,logs}-*', 'cache-0', false));
  assert.ok(globMatch('a{b,{c,d}}e', 'ade', false));
  assert.ok(globMatch('[a-c]x', 'bx', false));
  assert.not.ok(globMatch('[!a-c]x', 'bx', false));
  assert.ok(globMatch('apps/**/pvc.yaml', 'apps/pvc.yaml', true));
  assert.ok(globMatch('apps/**/pvc.yaml', 'apps/a/b/pvc.yaml', true));
  assert.not.ok(globMatch('apps/*/pvc.yaml', 'apps/a/b/pvc.yaml', true));
});

test('the ReDoS patterns take milliseconds against long names', () => {
  const name = `${'a-'.repeat(125)}x`;
  for (const glob of HOSTILE_GLOBS) {
    if (globProblem(glob)) continue;
    const started = process.hrtime.bigint();
    for (const segmented of [true, false]) globMatch(glob, name, segmented);
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    assert.ok(ms < 200, `${glob}: ${ms.toFixed(0)} ms`);
  }
});

test('malformed patterns are refused with a reason', () => {
  assert.match(globProblem('[z-a]') ?? '', /backwards/);
  assert.match(globProblem('{a,b}{c,d}{e,f}{g,h}{i,j}{k,l}{m,n}{o,p}{q,r}') ?? '', /more than 256/);
  assert.is(globProblem('*-*-*-*-*-cache'), undefined);
  assert.not.ok(globMatch('[z-a]', 'b', false));
});

test.run();
