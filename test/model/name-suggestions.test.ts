import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { likelyMeant } from '../../src/model/name-suggestions.js';

test('a one-letter slip in a medium name is suggested', () => {
  assert.is(likelyMeant('sonar', ['sonarr', 'radarr', 'plex']), 'sonarr');
  assert.is(likelyMeant('ceph-blok', ['ceph-block', 'ceph-filesystem']), 'ceph-block');
});

test('two edits only in a long name', () => {
  assert.is(likelyMeant('sonarr-dest', ['sonarr-dst']), 'sonarr-dst');
  assert.is(likelyMeant('longhron-ssd', ['longhorn-ssd']), 'longhorn-ssd');
  assert.is(likelyMeant('data', ['dt']), undefined);
  assert.is(likelyMeant('redis', ['reds2']), undefined);
});

test('short names get no guesses', () => {
  assert.is(likelyMeant('db', ['dc']), undefined);
  assert.is(likelyMeant('web', ['wbe']), undefined);
});

test('a case-only difference is always suggested', () => {
  assert.is(likelyMeant('DB', ['db']), 'db');
});

test('names differing only in digits are different objects', () => {
  assert.is(likelyMeant('gp3', ['gp2']), undefined);
  assert.is(likelyMeant('data-web-1', ['data-web-0']), undefined);
  assert.is(likelyMeant('postgres-16', ['postgres-15']), undefined);
});

test('no suggestion when two candidates are equally close, or for the name itself', () => {
  assert.is(likelyMeant('cache-a', ['cache-b', 'cache-c']), undefined);
  assert.is(likelyMeant('media', ['media']), undefined);
  assert.is(likelyMeant('media', []), undefined);
});

test.run();
