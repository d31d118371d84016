// Flux's postBuild syntax (fluxcd/pkg envsubst): ${VAR}, defaults, the $${VAR} escape, and pvlint's rule that
// a variable it does not know stays as written.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { substituteString } from '../../src/gitops/envsubst.js';

const test = suite('gitops: envsubst');
const vars = new Map<string, string | undefined>([
  ['APP', 'web'],
  ['EMPTY', ''],
  ['SECRET', undefined],
]);
const sub = (text: string) => substituteString(text, vars).value;

test('${VAR} is replaced, $VAR is not', () => {
  assert.is(sub('name-${APP}'), 'name-web');
  assert.is(sub('$APP'), '$APP');
});

test('defaults apply when the variable is unset or empty, not when it is set', () => {
  assert.is(sub('${MISSING:=10Gi}'), '10Gi');
  assert.is(sub('${MISSING:-10Gi}'), '10Gi');
  assert.is(sub('${MISSING=10Gi}'), '10Gi');
  assert.is(sub('${EMPTY:=x}'), 'x');
  assert.is(sub('${APP:=x}'), 'web');
});

test('an unknown variable stays a placeholder; an encrypted (unknown value) one too, even with a default', () => {
  const result = substituteString('${MISSING}-${APP}', vars);
  assert.is(result.value, '${MISSING}-web');
  assert.equal(result.expansions.map((e) => [e.variable, e.outcome]), [['MISSING', 'unresolved'], ['APP', 'variable']]);
  assert.is(sub('${SECRET:=plain}'), '${SECRET:=plain}');
});

test('$${VAR} is emitted as ${VAR} for a child Kustomization', () => {
  assert.is(sub('$${APP}'), '${APP}');
  assert.equal(substituteString('$${APP}', vars).expansions, []);
});

test('case operations and length', () => {
  assert.is(sub('${APP^^}'), 'WEB');
  assert.is(sub('${APP^}'), 'Web');
  assert.is(sub('${#APP}'), '3');
});

test('text without ${ is untouched', () => {
  assert.equal(substituteString('plain', vars), { value: 'plain', expansions: [], changed: false });
});

test.run();
