// gitops-pvc-prune-unprotected in GitOps environments: the tool a finding names is the one that applies the claim, as
// the environment knows it — an Argo CD Application (a Helm source is rendered with `helm template` and applied by
// Argo CD: no Helm release), a Flux Kustomization (prunes only with `prune: true`), or a Flux HelmRelease (a real Helm
// release that helm-controller uninstalls) — not a neighbouring object's annotations.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { lint, type LintResult } from '../../src/lint.js';
import { FLUX_SYSTEM, fluxKustomization } from '../helpers/flux-manifests.js';
import { REAL_HELM, requiresHelm } from '../helpers/real-helm.js';
import { requires } from '../helpers/requires.js';
import { HAS_KUSTOMIZE } from '../render/helpers.js';

const RULE = 'gitops-pvc-prune-unprotected';

function writeTree(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pvlint-prune-env-'));
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  }
  return dir;
}

const chart = (name: string, claimMetadata: string) => ({
  [`apps/${name}/Chart.yaml`]: `apiVersion: v2\nname: ${name}\nversion: 1.0.0\n`,
  [`apps/${name}/values.yaml`]: 'size: 1Gi\n',
  [`apps/${name}/templates/pvc.yaml`]: `apiVersion: v1
kind: PersistentVolumeClaim
metadata:
  name: ${name}
${claimMetadata}spec:
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: {{ .Values.size }}}}
`,
});

const application = (name: string) => `apiVersion: argoproj.io/v1alpha1
kind: Application
metadata:
  name: ${name}
  namespace: argocd
spec:
  project: default
  source:
    repoURL: https://github.com/example/homelab.git
    targetRevision: HEAD
    path: apps/${name}
  destination:
    server: https://kubernetes.default.svc
    namespace: ${name}
  syncPolicy:
    automated: {prune: true}
---
`;

const HELM_LABELS = '  labels:\n    app.kubernetes.io/managed-by: {{ .Release.Service }}\n    helm.sh/chart: {{ .Chart.Name }}-{{ .Chart.Version }}\n';

const argo = suite('gitops-pvc-prune-unprotected: claims of Argo CD Applications');
const argoIt = requiresHelm(argo, 'gitops-pvc-prune-unprotected in Argo CD environments');
let argoDir: string;
let argoResult: LintResult;
argo.before(async () => {
  if (!REAL_HELM) return;
  argoDir = writeTree({
    'argocd/apps.yaml': application('tts') + application('books'),
    // A chart's own Helm labels, no Argo CD annotation: Argo CD renders it, so there is no release to uninstall.
    ...chart('tts', HELM_LABELS),
    // Another app's claim, protected and annotated: its annotations say nothing about tts.
    ...chart('books', '  annotations:\n    argocd.argoproj.io/sync-options: Prune=false,Delete=false\n'),
  });
  argoResult = await lint({ paths: ['.'], cwd: argoDir, helmCommand: REAL_HELM });
});
argo.after(() => {
  if (argoDir) rmSync(argoDir, { recursive: true, force: true });
});

argoIt('a chart Argo CD renders is named as Argo CD\'s, with Argo CD\'s protection, not Helm\'s', () => {
  assert.ok(argoResult.scopes.some((s) => s.kind === 'argocd'));
  const findings = argoResult.findings.filter((f) => f.ruleId === RULE);
  assert.equal(findings.map((f) => f.resource?.name), ['tts']);
  const message = findings[0]!.message;
  assert.ok(message.includes('managed by Argo CD (Argo CD Application "tts" renders it from its Helm chart and applies it itself (no Helm release))'), message);
  assert.ok(message.includes('add argocd.argoproj.io/sync-options: Prune=false,Delete=false'), message);
  assert.not.ok(message.includes('helm uninstall'), message);
  assert.not.ok(message.includes('helm.sh/resource-policy: keep'), message);
});

argoIt('the claim\'s own Application is the evidence, not another app\'s claim next to it', () => {
  const finding = argoResult.findings.find((f) => f.ruleId === RULE)!;
  assert.not.ok(finding.message.includes('next to it'), finding.message);
  assert.equal(finding.related.map((r) => r.location.file), ['argocd/apps.yaml']);
});

argo.run();

const flux = suite('gitops-pvc-prune-unprotected: claims of Flux Kustomizations and HelmReleases');
const fluxIt = requires(
  flux, Boolean(REAL_HELM) && HAS_KUSTOMIZE, 'gitops-pvc-prune-unprotected in Flux environments',
  'they need a real helm (PVLINT_TEST_HELM) and kustomize or kubectl on PATH', 'run scripts/install-helm.sh and install kubectl',
);
let fluxDir: string;
let fluxResult: LintResult;
flux.before(async () => {
  if (!REAL_HELM || !HAS_KUSTOMIZE) return;
  const claim = (name: string) => `apiVersion: v1
kind: PersistentVolumeClaim
metadata:
  name: ${name}
  namespace: default
spec:
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 1Gi}}
`;
  fluxDir = writeTree({
    'clusters/prod/flux-system.yaml': FLUX_SYSTEM,
    'clusters/prod/apps.yaml': fluxKustomization('apps', 'apps', true) + fluxKustomization('archive', 'archive', false),
    'apps/claim.yaml': claim('uploads'),
    'apps/shop.yaml': `apiVersion: helm.toolkit.fluxcd.io/v2
kind: HelmRelease
metadata:
  name: shop
  namespace: default
spec:
  interval: 10m
  chart:
    spec:
      chart: ./charts/shop
      sourceRef: {kind: GitRepository, name: flux-system, namespace: flux-system}
`,
    'charts/shop/Chart.yaml': 'apiVersion: v2\nname: shop\nversion: 1.0.0\n',
    'charts/shop/templates/pvc.yaml': `apiVersion: v1
kind: PersistentVolumeClaim
metadata:
  name: {{ .Release.Name }}-data
  labels:
    app.kubernetes.io/managed-by: {{ .Release.Service }}
spec:
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 1Gi}}
`,
    'archive/claim.yaml': claim('archive'),
  });
  fluxResult = await lint({ paths: ['.'], cwd: fluxDir, helmCommand: REAL_HELM });
});
flux.after(() => {
  if (fluxDir) rmSync(fluxDir, { recursive: true, force: true });
});

const messageFor = (result: LintResult, name: string) => result.findings.find((f) => f.ruleId === RULE && f.resource?.name === name)?.message;

fluxIt('a claim a pruning Kustomization applies: Flux, named by its Kustomization', () => {
  const message = messageFor(fluxResult, 'uploads');
  assert.ok(message?.includes('managed by Flux (Flux Kustomization "apps" applies it with prune: true)'), message);
  assert.ok(message?.includes('add kustomize.toolkit.fluxcd.io/prune: disabled'), message);
});

fluxIt('a HelmRelease\'s claim belongs to a real Helm release: helm uninstall and keep, not Flux\'s prune label', () => {
  const message = messageFor(fluxResult, 'shop-data');
  assert.ok(message?.includes('managed by Helm (Flux HelmRelease "default/shop" installs it as a Helm release (helm-controller))'), message);
  assert.ok(message?.includes('the Helm uninstall helm-controller runs when the HelmRelease is deleted'), message);
  assert.ok(message?.includes('add helm.sh/resource-policy: keep'), message);
  assert.not.ok(message?.includes('kustomize.toolkit.fluxcd.io/prune'), message);
});

fluxIt('a Kustomization with prune: false deletes nothing that leaves Git: not reported', () => {
  assert.is(messageFor(fluxResult, 'archive'), undefined);
});

flux.run();
