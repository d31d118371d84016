// A Flux Kustomization pulls a VolSync Component in with `spec.components` and names its claim's populator through
// `${APP}`: after substitution, the claim must name the ReplicationDestination the same component creates.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { lint, type LintResult } from '../../src/lint.js';
import { copyFixture, HAS_KUSTOMIZE, warnSkipped } from '../render/helpers.js';

const test = suite('gitops: Flux components with a VolSync populator');
const it = HAS_KUSTOMIZE ? test : test.skip;
warnSkipped('Flux VolSync component tests');

let result: LintResult;
test.before(async () => {
  if (!HAS_KUSTOMIZE) return;
  result = await lint({ paths: ['clusters/home'], cwd: copyFixture('gitops/flux-volsync-components') });
});

const missingSources = () => result.findings.filter((f) => f.ruleId === 'snapshot-clone-misconfig' && f.messageId === 'sourceMissing');

it('a component whose claim names a ReplicationDestination the component no longer creates is a warning', () => {
  const found = missingSources();
  assert.is(found.length, 1, found.map((f) => f.message).join('\n'));
  const [f] = found;
  assert.is(f.severity, 'warning');
  assert.match(f.message, /PersistentVolumeClaim "radarr" is populated from ReplicationDestination "radarr-bootstrap"/);
  assert.match(f.message, /namespace "media" \(it has "radarr-dst", "sonarr-dst"\)/);
  assert.ok(
    [f.location, ...f.related.map((r) => r.location)].some((l) => l.file === 'components/volsync-legacy/pvc.yaml' && l.region.startLine === 11),
    'the template line that names the source is shown',
  );
});

it('the same component written right stays quiet once ${APP} is substituted', () => {
  assert.not.ok(missingSources().some((f) => f.message.includes('"sonarr"')));
});

test.run();
