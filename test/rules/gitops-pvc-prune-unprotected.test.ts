import rule from '../../rules/gitops-pvc-prune-unprotected.js';
import { lintText, ruleTester } from '../helpers/rule-tester.js';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';

const pvc = (opts: { annotations?: string; labels?: string; cls?: string; name?: string } = {}) => `apiVersion: v1
kind: PersistentVolumeClaim
metadata:
  name: ${opts.name ?? 'data'}${opts.labels ? `\n  labels: {${opts.labels}}` : ''}${opts.annotations ? `\n  annotations:\n${opts.annotations.split('\n').map((l) => `    ${l}`).join('\n')}` : ''}
spec:${opts.cls ? `\n  storageClassName: ${opts.cls}` : ''}
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 1Gi}}
---
`;

const postgres = `apiVersion: apps/v1
kind: Deployment
metadata: {name: pg}
spec:
  strategy: {type: Recreate}
  selector: {matchLabels: {app: pg}}
  template:
    metadata: {labels: {app: pg}}
    spec:
      containers: [{name: pg, image: postgres:16, volumeMounts: [{name: data, mountPath: /var/lib/postgresql/data}]}]
      volumes: [{name: data, persistentVolumeClaim: {claimName: data}}]
---
`;

const sc = (reclaim?: string) => `apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: gp3}
provisioner: ebs.csi.aws.com${reclaim ? `\nreclaimPolicy: ${reclaim}` : ''}
`;

const HELM = 'app.kubernetes.io/managed-by: Helm';

ruleTester(rule, {
  valid: [
    ...rule.meta.examples.valid.map((code, i) => ({ name: `documented valid example ${i + 1}`, code })),
    { name: 'no managing tool in sight', code: pvc() },
    { name: 'Helm keep', code: pvc({ labels: HELM, annotations: 'helm.sh/resource-policy: keep' }) },
    { name: 'Argo CD confirm options', code: pvc({ annotations: 'argocd.argoproj.io/sync-options: Prune=confirm,Delete=confirm' }) },
    { name: 'Argo CD Prune=false with keep (honoured on Application deletion)', code: pvc({ annotations: 'argocd.argoproj.io/sync-options: Prune=false\nhelm.sh/resource-policy: keep' }) },
    { name: 'Flux prune disabled as a label', code: pvc({ labels: 'kustomize.toolkit.fluxcd.io/name: apps, kustomize.toolkit.fluxcd.io/prune: disabled' }) },
    { name: 'hooks are pvc-as-hook\'s', code: pvc({ labels: HELM, annotations: 'helm.sh/hook: pre-install' }) },
    {
      name: 'a non-pruning Flux Kustomization does not garbage-collect',
      code: pvc() + `apiVersion: kustomize.toolkit.fluxcd.io/v1
kind: Kustomization
metadata: {name: apps, namespace: flux-system}
spec:
  interval: 10m
  path: ./
  prune: false
  sourceRef: {kind: GitRepository, name: flux-system}
`,
    },
  ],
  invalid: [
    ...rule.meta.examples.invalid.map((code, i) => ({
      name: `documented invalid example ${i + 1}`, code,
      errors: [{ messageId: 'exposed', severity: 'note' as const, line: 5, messageIncludes: ['Argo CD', 'Prune=false,Delete=false'] }],
    })),
    {
      name: 'Helm labels without keep',
      code: pvc({ labels: HELM }),
      errors: [{ messageId: 'exposed', severity: 'note', line: 3, path: ['metadata', 'annotations'], messageIncludes: ['Helm (label app.kubernetes.io/managed-by: Helm)', '`helm uninstall`', 'helm.sh/resource-policy: keep'] }],
    },
    {
      name: 'Argo CD with Helm labels: no Helm release, only Argo CD semantics',
      code: pvc({ labels: HELM, annotations: 'argocd.argoproj.io/sync-options: Prune=false' }),
      errors: [{ messageId: 'exposed', line: 7, path: ['metadata', 'annotations', 'argocd.argoproj.io/sync-options'], messageIncludes: ['deleting the Argo CD Application', 'Delete=false'] }],
    },
    {
      name: 'only keep under Argo CD: pruning still deletes it, warning',
      code: pvc({ annotations: 'argocd.argoproj.io/sync-wave: "-1"\nhelm.sh/resource-policy: keep' }),
      errors: [{ messageId: 'keepOnly', severity: 'warning' }],
    },
    {
      name: 'Flux label without prune: disabled',
      code: pvc({ labels: 'kustomize.toolkit.fluxcd.io/name: apps' }),
      errors: [{ messageId: 'exposed', messageIncludes: ['Flux', 'kustomize.toolkit.fluxcd.io/prune: disabled'] }],
    },
    {
      name: 'a pruning Flux Kustomization syncing the directory',
      code: pvc() + `apiVersion: kustomize.toolkit.fluxcd.io/v1
kind: Kustomization
metadata: {name: apps, namespace: flux-system}
spec:
  interval: 10m
  path: ./
  prune: true
  sourceRef: {kind: GitRepository, name: flux-system}
`,
      errors: [{ messageId: 'exposed', messageIncludes: ['Kustomization "apps" syncs the repository root'] }],
    },
    {
      name: 'database data on a Delete class: warning',
      code: pvc({ labels: HELM, cls: 'gp3' }) + postgres + sc(),
      errors: [{ messageId: 'exposed', severity: 'warning', messageIncludes: ['the PostgreSQL data (reclaimPolicy Delete removes the volume too)'] }],
    },
    {
      name: 'a PersistentVolume with Delete managed by Argo CD',
      code: `apiVersion: v1
kind: PersistentVolume
metadata:
  name: imported
  annotations: {argocd.argoproj.io/sync-wave: "-2"}
spec:
  capacity: {storage: 1Gi}
  accessModes: [ReadWriteOnce]
  persistentVolumeReclaimPolicy: Delete
  csi: {driver: ebs.csi.aws.com, volumeHandle: vol-1}
`,
      errors: [{ messageId: 'exposed', messageIncludes: ['PersistentVolume "imported"', 'the volume and its data'] }],
    },
  ],
});

const dirs = suite('gitops-pvc-prune-unprotected: markers next to the claim');
dirs('an Argo CD annotation on another object in the same directory makes the claim Argo-managed', () => {
  const code = pvc() + `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  annotations: {argocd.argoproj.io/sync-wave: "1"}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: web, image: nginx}]
`;
  const findings = lintText(rule, code);
  assert.is(findings.length, 1);
  assert.ok(findings[0].message.includes('Deployment "web" next to it carries Argo CD annotations'), findings[0].message);
  assert.is(findings[0].related[0].location.region.startLine, 13);
});
dirs.run();
