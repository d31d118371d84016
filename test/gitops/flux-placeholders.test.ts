// `${VAR}` in storage fields that Flux never fills in: a Kustomization without postBuild applies the text as written,
// and one whose every variable source is in the repository leaves an unset variable to strict mode or an empty
// string. Each is reported at the placeholder, with the Kustomization to edit as related location.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { lint, type LintResult } from '../../src/lint.js';
import { runPvlint } from '../helpers/spawn.js';
import { at, copyFixture, HAS_KUSTOMIZE, warnSkipped } from '../render/helpers.js';
import { describeErrors, sarifValidator } from '../report/schema-validators.js';

const test = suite('gitops: Flux placeholders that are never substituted');
const it = HAS_KUSTOMIZE ? test : test.skip;
warnSkipped('Flux placeholder tests');

let dir: string;
let result: LintResult;
test.before(async () => {
  if (!HAS_KUSTOMIZE) return;
  dir = copyFixture('gitops/flux-placeholders');
  result = await lint({ paths: ['clusters/dev'], cwd: dir });
});

const substitution = () => result.findings.filter((f) => f.ruleId === 'pvlint/flux-substitution');

it('no postBuild: a storage class applied as "${VAR:=default}" is an error at the placeholder, the Kustomization related', () => {
  const f = substitution().find((x) => x.message.includes('PersistentVolumeClaim "cache"'));
  assert.ok(f, 'reported');
  assert.is(f!.severity, 'error');
  assert.is(at(f), 'apps/cache.yaml:8');
  assert.match(f!.message, /"\$\{CACHE_CLASS:=standard\}" literally/);
  assert.match(f!.message, /has no spec\.postBuild/);
  assert.equal(f!.related.map((r) => `${r.location.file}:${r.location.region.startLine}`), ['clusters/dev/apps.yaml:8']);
  assert.equal(f!.environments, ['clusters/dev']);
});

it('no postBuild: a field the API server does not check (a mount path) is a warning', () => {
  const f = substitution().find((x) => x.message.includes('Deployment "web"'));
  assert.ok(f, 'reported');
  assert.is(f!.severity, 'warning');
  assert.is(at(f), 'apps/cache.yaml:31');
});

it('every source known: a variable set nowhere is a warning at the placeholder; a non-storage field is not reported', () => {
  const f = substitution().find((x) => x.message.includes('PersistentVolumeClaim "db"'));
  assert.ok(f, 'reported');
  assert.is(f!.severity, 'warning');
  assert.is(at(f), 'data/db.yaml:8');
  assert.match(f!.message, /\$\{DATA_CLASS\}/);
  assert.equal(f!.related.map((r) => `${r.location.file}:${r.location.region.startLine}`), ['clusters/dev/data.yaml:14']);
  assert.ok(!result.findings.some((x) => x.message.includes('NOT_STORAGE')));
});

it('a source outside the repository: its variables are unknown, so nothing is reported, and the source is listed as not interpreted', () => {
  assert.ok(!substitution().some((x) => x.message.includes('"logs"')));
  assert.ok((result.notInterpreted ?? []).some((n) => n.reason.includes('settings-made-by-terraform')));
  assert.is(substitution().length, 3);
  assert.ok((result.notInterpreted ?? []).some((n) => n.kind === 'variable' && n.name === '${LOGS_CLASS}'));
});

it('an optional source the repository lacks may hold the variable: no finding, listed as not interpreted', () => {
  assert.ok(!substitution().some((x) => x.message.includes('"queue"')));
  assert.ok((result.notInterpreted ?? []).some((n) => n.kind === 'variable' && n.name === '${QUEUE_CLASS}'));
});

it('a source outside the repository: substitution still runs as in the cluster, so a default applies', async () => {
  const claims: any[] = [];
  await lint({ paths: ['clusters/dev'], cwd: dir, onScope: (scope) => claims.push(...scope.model.ofKind('PersistentVolumeClaim')) });
  const logs = claims.find((c) => c.name === 'logs');
  assert.is(logs.object.spec.resources.requests.storage, '2Gi');
  assert.is(logs.object.spec.storageClassName, '${LOGS_CLASS}');
});

it('CLI: exit 1 on the error, and SARIF validates with the new diagnostic among its rules', () => {
  const run = runPvlint(['clusters/dev', '--format', 'sarif'], { cwd: dir });
  assert.is(run.code, 1, run.stderr);
  const sarif: any = JSON.parse(run.stdout);
  const validate = sarifValidator();
  assert.ok(validate({ ...sarif }), describeErrors(validate.errors));
  const rules = sarif.runs[0].tool.driver.rules.map((r: any) => r.id);
  assert.ok(rules.includes('pvlint/flux-substitution'));
  assert.ok(sarif.runs[0].results.some((r: any) => r.ruleId === 'pvlint/flux-substitution' && r.level === 'error'));
});

test.run();
