// A Flux Kustomization's patches onto custom resources are built with an empty OpenAPI schema (kustomize would
// otherwise parse its built-in one for every build), only where the built-in schema cannot change the output; the
// output is compared byte for byte with the build that loads it.
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { parse, stringify } from 'yaml';
import { fluxWrapper, planFluxBuild, type FluxBuildSpec } from '../../src/gitops/flux-build.js';
import { findOnPath } from '../../src/render/executables.js';
import { renderKustomization } from '../../src/render/kustomize-render.js';
import { SourceCache } from '../../src/render/source-cache.js';
import { HAS_KUSTOMIZE, warnSkipped } from '../render/helpers.js';

const test = suite('gitops: Flux builds without the built-in schema when it cannot matter');
const it = HAS_KUSTOMIZE ? test : test.skip;
warnSkipped('Flux build schema tests');

const HELM_RELEASE_PATCH = {
  patch: 'apiVersion: helm.toolkit.fluxcd.io/v2\nkind: HelmRelease\nmetadata:\n  name: _\nspec:\n  install:\n    crds: CreateReplace\n  values:\n    persistence:\n      size: 2Gi\n',
  target: { group: 'helm.toolkit.fluxcd.io', kind: 'HelmRelease' },
};

const RESOURCES = `apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: reader
---
apiVersion: v1
kind: Namespace
metadata:
  name: media
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata:
  name: data
spec:
  accessModes: [ReadWriteOnce]
  resources:
    requests:
      storage: 1Gi
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  template:
    spec:
      containers:
        - name: web
          image: nginx
          env:
            - {name: A, value: "1"}
---
apiVersion: helm.toolkit.fluxcd.io/v2
kind: HelmRelease
metadata:
  name: app
spec:
  chart:
    spec:
      chart: app
  values:
    controllers:
      main:
        containers:
          - name: app
            image: {repository: app}
    persistence:
      size: 1Gi
      accessMode: ReadWriteOnce
`;

/** A repository with one app directory (own kustomization unless `generated`) and a component. */
function repo(options: { generated?: boolean; appKustomization?: string } = {}): string {
  const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'pvlint-flux-build-')));
  mkdirSync(path.join(root, 'app'));
  mkdirSync(path.join(root, 'component'));
  writeFileSync(path.join(root, 'app', 'resources.yaml'), RESOURCES);
  if (!options.generated) writeFileSync(path.join(root, 'app', 'kustomization.yaml'), options.appKustomization ?? 'resources: [resources.yaml]\n');
  writeFileSync(
    path.join(root, 'component', 'kustomization.yaml'),
    'apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\nlabels:\n  - pairs: {team: media}\n',
  );
  return root;
}

function wrapperOf(root: string, spec: FluxBuildSpec) {
  const plan = planFluxBuild(path.join(root, 'app'), spec);
  return fluxWrapper(plan, (abs) => path.relative(root, abs), new SourceCache(root));
}

const schemaFree = (root: string, spec: FluxBuildSpec) => typeof wrapperOf(root, spec) !== 'string';

test('a strategic merge onto a custom resource group, without lists: built without the schema', () => {
  assert.ok(schemaFree(repo(), { patches: [HELM_RELEASE_PATCH] }));
  assert.ok(schemaFree(repo({ generated: true }), { patches: [HELM_RELEASE_PATCH], targetNamespace: 'media', components: ['../component'] }));
  // A JSON 6902 patch reads no schema, whatever it targets.
  assert.ok(schemaFree(repo(), { patches: [HELM_RELEASE_PATCH, { patch: '- op: replace\n  path: /spec/replicas\n  value: 2\n', target: { kind: 'Deployment' } }] }));
});

test('anything the built-in schema may decide keeps it', () => {
  const root = repo();
  const withPatch = (patch: unknown) => schemaFree(root, { patches: [patch] });
  assert.not.ok(schemaFree(root, {}), 'no patch: nothing to save');
  assert.not.ok(withPatch({ patch: 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 2\n' }), 'a built-in group');
  assert.not.ok(withPatch({ patch: 'apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata:\n  name: data\nspec: {}\n' }), 'the core group');
  assert.not.ok(withPatch({ ...HELM_RELEASE_PATCH, target: { group: 'storage.k8s.io' } }), 'a *.k8s.io group');
  assert.not.ok(withPatch({ ...HELM_RELEASE_PATCH, target: { kind: 'HelmRelease' } }), 'a target without a group matches every group');
  assert.not.ok(withPatch({ ...HELM_RELEASE_PATCH, patch: `${HELM_RELEASE_PATCH.patch}  postRenderers:\n    - kustomize: {}\n` }), 'a list (its merge is the schema\'s)');
  assert.not.ok(withPatch({ ...HELM_RELEASE_PATCH, patch: `${HELM_RELEASE_PATCH.patch}  $patch: replace\n` }), 'a directive');
  assert.not.ok(
    withPatch({ ...HELM_RELEASE_PATCH, patch: `${HELM_RELEASE_PATCH.patch}    raw:\n      apiVersion: apps/v1\n      kind: Deployment\n` }),
    'an embedded object of a built-in kind',
  );
  assert.not.ok(withPatch({ ...HELM_RELEASE_PATCH, patch: 'a: [' }), 'a patch that does not parse');
  for (const key of ['patches', 'patchesStrategicMerge', 'openapi', 'crds', 'transformers']) {
    assert.not.ok(
      schemaFree(repo({ appKustomization: `resources: [resources.yaml]\n${key}: []\n` }), { patches: [HELM_RELEASE_PATCH] }),
      `a kustomization of the build with ${key}`,
    );
  }
});

it('the output is byte for byte the one kustomize prints with its built-in schema', async () => {
  const command = findOnPath('kustomize') ? ['kustomize', 'build'] : ['kubectl', 'kustomize'];
  const cases: Array<[string, FluxBuildSpec, boolean?]> = [
    ['own kustomization', { patches: [HELM_RELEASE_PATCH], targetNamespace: 'media', namePrefix: 'p-', components: ['../component'] }],
    ['generated kustomization', { patches: [HELM_RELEASE_PATCH], targetNamespace: 'media' }, true],
  ];
  for (const [label, spec, generated] of cases) {
    const root = repo({ generated });
    const plan = planFluxBuild(path.join(root, 'app'), spec);
    const render = (withSchema: boolean) =>
      renderKustomization(plan.dir, {
        command,
        enableHelm: false,
        timeoutMs: 60_000,
        cache: new SourceCache(root),
        loadRestrictorNone: true,
        wrapper: (relative) => {
          const written = fluxWrapper(plan, relative, new SourceCache(root));
          assert.type(written, 'object', `${label}: built without the schema`);
          if (!withSchema || typeof written === 'string') return written;
          const document = parse(written.kustomization);
          delete document.openapi;
          return stringify(document);
        },
      });
    const [fast, reference] = [await render(false), await render(true)];
    assert.equal(fast.diagnostics, [], `${label}: ${JSON.stringify(fast.diagnostics)}`);
    assert.ok(reference.output && fast.output, label);
    assert.match(reference.output!.text, /crds: CreateReplace/, `${label}: the patch applied`);
    assert.is(fast.output!.text, reference.output!.text, label);
  }
});

test.run();
