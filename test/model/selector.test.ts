import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { matchSelector } from '../../src/model/selector.js';

const test = suite('selector');
const labels = { tier: 'fast', zone: 'a' };
const matches = (selector: Parameters<typeof matchSelector>[0], l: Record<string, unknown> | undefined = labels) => matchSelector(selector, l).matches;

test('an empty selector matches everything, labels or not', () => {
  assert.ok(matches({}));
  assert.ok(matchSelector({}, undefined).matches);
  assert.ok(matches({ matchLabels: {}, matchExpressions: [] }, {}));
});

test('matchLabels', () => {
  assert.ok(matches({ matchLabels: { tier: 'fast' } }));
  assert.not.ok(matches({ matchLabels: { tier: 'slow' } }));
  assert.not.ok(matches({ matchLabels: { disk: 'ssd' } }));
  assert.equal(matchSelector({ matchLabels: { disk: 'ssd' } }, labels), { matches: false, failed: 'disk=ssd' });
});

test('In', () => {
  assert.ok(matches({ matchExpressions: [{ key: 'tier', operator: 'In', values: ['slow', 'fast'] }] }));
  assert.not.ok(matches({ matchExpressions: [{ key: 'tier', operator: 'In', values: ['slow'] }] }));
  assert.not.ok(matches({ matchExpressions: [{ key: 'disk', operator: 'In', values: ['ssd'] }] }), 'absent label fails In');
});

test('NotIn', () => {
  assert.ok(matches({ matchExpressions: [{ key: 'tier', operator: 'NotIn', values: ['slow'] }] }));
  assert.not.ok(matches({ matchExpressions: [{ key: 'tier', operator: 'NotIn', values: ['fast'] }] }));
  assert.ok(matches({ matchExpressions: [{ key: 'disk', operator: 'NotIn', values: ['ssd'] }] }), 'absent label matches NotIn');
});

test('Exists and DoesNotExist', () => {
  assert.ok(matches({ matchExpressions: [{ key: 'zone', operator: 'Exists' }] }));
  assert.not.ok(matches({ matchExpressions: [{ key: 'disk', operator: 'Exists' }] }));
  assert.ok(matches({ matchExpressions: [{ key: 'disk', operator: 'DoesNotExist' }] }));
  assert.not.ok(matches({ matchExpressions: [{ key: 'zone', operator: 'DoesNotExist' }] }));
  assert.ok(matchSelector({ matchExpressions: [{ key: 'zone', operator: 'DoesNotExist' }] }, undefined).matches, 'no labels at all');
  assert.not.ok(matchSelector({ matchExpressions: [{ key: 'zone', operator: 'Exists' }] }, undefined).matches, 'no labels at all');
});

test('requirements are ANDed and the first failing one is named', () => {
  const selector = {
    matchLabels: { tier: 'fast' },
    matchExpressions: [
      { key: 'zone', operator: 'In', values: ['a'] },
      { key: 'disk', operator: 'Exists' },
    ],
  };
  assert.equal(matchSelector(selector, labels), { matches: false, failed: 'disk exists' });
  assert.ok(matches(selector, { ...labels, disk: 'ssd' }));
});

test('label values compare as strings', () => {
  assert.ok(matches({ matchLabels: { replicas: '3' } }, { replicas: 3 }));
});

test('invalid selectors do not match', () => {
  assert.equal(matchSelector({ matchExpressions: [{ key: 'tier', operator: 'In', values: [] }] }, labels), { matches: false, invalid: 'tier In requires values' });
  assert.equal(matchSelector({ matchExpressions: [{ key: 'tier', operator: 'Gt', values: ['1'] }] }, labels), { matches: false, invalid: 'unknown operator "Gt"' });
});

test.run();
