import rule from '../../rules/rwo-update-overlap.js';
import { ruleTester } from '../helpers/rule-tester.js';

const sc = (name: string, provisioner: string) => `---
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata:
  name: ${name}
provisioner: ${provisioner}
`;
const pvc = (name: string, modes: string, storageClass?: string) => `---
apiVersion: v1
kind: PersistentVolumeClaim
metadata:
  name: ${name}
spec:${storageClass === undefined ? '' : `\n  storageClassName: ${storageClass}`}
  accessModes: [${modes}]
  resources: {requests: {storage: 1Gi}}
`;
/** A Deployment writing `claim`; `strategy` is inserted verbatim under spec. */
const deployment = (claim: string, opts: { strategy?: string; replicas?: number; readOnly?: boolean; podSpec?: string; kind?: string; apiVersion?: string } = {}) => `---
apiVersion: ${opts.apiVersion ?? 'apps/v1'}
kind: ${opts.kind ?? 'Deployment'}
metadata:
  name: app
spec:${opts.replicas === undefined ? '' : `\n  replicas: ${opts.replicas}`}${opts.strategy ?? ''}
  selector: {matchLabels: {app: app}}
  template:
    metadata: {labels: {app: app}}
    spec:${opts.podSpec ?? ''}
      containers:
        - name: app
          image: app
          volumeMounts: [{name: data, mountPath: /data${opts.readOnly ? ', readOnly: true' : ''}}]
      volumes:
        - name: data
          persistentVolumeClaim: {claimName: ${claim}}
`;
const rollout = (claim: string, strategy: string) => deployment(claim, { strategy, kind: 'Rollout', apiVersion: 'argoproj.io/v1alpha1' });
const ebs = sc('gp3', 'ebs.csi.aws.com');
const rwo = ebs + pvc('data', 'ReadWriteOnce', 'gp3');

ruleTester(rule, {
  valid: [
    { name: 'Recreate', code: rwo + deployment('data', { strategy: '\n  strategy: {type: Recreate}' }) },
    { name: 'maxSurge 0', code: rwo + deployment('data', { strategy: '\n  strategy: {type: RollingUpdate, rollingUpdate: {maxSurge: 0, maxUnavailable: 1}}' }) },
    { name: 'maxSurge "0%"', code: rwo + deployment('data', { strategy: '\n  strategy: {rollingUpdate: {maxSurge: "0%", maxUnavailable: 1}}' }) },
    { name: 'a ReadWriteMany claim', code: sc('efs', 'efs.csi.aws.com') + pvc('data', 'ReadWriteMany', 'efs') + deployment('data') },
    { name: 'a read-only mount', code: rwo + deployment('data', { readOnly: true }) },
    { name: 'a claim that is not in the repo', code: deployment('elsewhere') },
    { name: 'a Deployment scaled to zero', code: rwo + deployment('data', { replicas: 0 }) },
    { name: 'a pod pinned to one node shares the node with its successor', code: rwo + deployment('data', { podSpec: '\n      nodeName: node-a' }) },
    { name: 'a node-local volume', code: sc('local', 'kubernetes.io/no-provisioner') + pvc('data', 'ReadWriteOnce', 'local') + deployment('data') },
    { name: 'a Rollout canary with maxSurge 0', code: rwo + rollout('data', '\n  strategy:\n    canary: {maxSurge: 0, maxUnavailable: 1}') },
    { name: 'a Rollout canary with maxSurge "0%"', code: rwo + rollout('data', '\n  strategy:\n    canary: {maxSurge: "0%", maxUnavailable: 1}') },
    {
      name: 'StatefulSets are not Deployments',
      code: rwo + deployment('data').replace('kind: Deployment', 'kind: StatefulSet'),
    },
    { name: 'a maxSurge that is not an int or a percentage is left alone', code: rwo + deployment('data', { strategy: '\n  strategy: {rollingUpdate: {maxSurge: "1"}}' }) },
    ...rule.meta.examples.valid.map((code, i) => ({ name: `documented valid example ${i + 1}`, code })),
  ],
  invalid: [
    {
      name: 'the default strategy is reported at the closest parent of spec.strategy.type',
      code: rwo + deployment('data'),
      errors: [{
        messageId: 'overlap', severity: 'warning', line: 21, resource: 'Deployment//app', path: ['spec', 'strategy', 'type'],
        messageIncludes: ['Deployment "app" uses the default RollingUpdate strategy', 'maxSurge 25% by default → 1 pod extra', 'ReadWriteOnce PersistentVolumeClaim "data" (ebs.csi.aws.com)', 'rollout stalls'],
      }],
    },
    {
      name: 'an explicit maxSurge is the location',
      code: rwo + deployment('data', { strategy: '\n  strategy:\n    type: RollingUpdate\n    rollingUpdate:\n      maxSurge: 1\n      maxUnavailable: 0' }),
      errors: [{ messageId: 'overlap', severity: 'warning', line: 25, path: ['spec', 'strategy', 'rollingUpdate', 'maxSurge'], messageIncludes: ['maxSurge 1 → 1 pod extra, maxUnavailable 0 → 0 pods unavailable'] }],
    },
    {
      name: 'an explicit type without rollingUpdate points at the type',
      code: rwo + deployment('data', { strategy: '\n  strategy:\n    type: RollingUpdate' }),
      errors: [{ messageId: 'overlap', line: 23, path: ['spec', 'strategy', 'type'] }],
    },
    {
      name: 'a percentage rounds up against replicas',
      code: rwo + deployment('data', { replicas: 3, strategy: '\n  strategy: {rollingUpdate: {maxSurge: "1%", maxUnavailable: "50%"}}' }),
      errors: [{ messageId: 'overlap', messageIncludes: ['at 3 replicas: maxSurge 1% → 1 pod extra, maxUnavailable 50% → 1 pod unavailable', 'waits until the old one has stopped'] }],
    },
    {
      name: 'ReadWriteOncePod deadlocks: error',
      code: pvc('data', 'ReadWriteOncePod') + deployment('data'),
      errors: [{ messageId: 'overlap', severity: 'error', messageIncludes: ['ReadWriteOncePod PersistentVolumeClaim "data"', 'deadlocks'] }],
    },
    {
      name: 'ReadWriteOncePod is reported even when pinned to one node',
      code: pvc('data', 'ReadWriteOncePod') + deployment('data', { podSpec: '\n      nodeName: node-a' }),
      errors: [{ messageId: 'overlap', severity: 'error' }],
    },
    {
      name: 'a driver without attach step: note',
      code: sc('efs', 'efs.csi.aws.com') + pvc('data', 'ReadWriteOnce', 'efs') + deployment('data'),
      errors: [{ messageId: 'overlap', severity: 'note', messageIncludes: ['both write the volume'] }],
    },
    {
      name: 'a class that is not in the repo: note',
      code: pvc('data', 'ReadWriteOnce', 'fast') + deployment('data'),
      errors: [{ messageId: 'overlap', severity: 'note', messageIncludes: ['StorageClass "fast" is not in the repo'] }],
    },
    {
      name: 'a Rollout blueGreen always overlaps',
      code: rwo + rollout('data', '\n  strategy:\n    blueGreen: {activeService: app}'),
      errors: [{ messageId: 'overlap', severity: 'warning', resource: 'Rollout//app', path: ['spec', 'strategy', 'blueGreen'], line: 23, messageIncludes: ['blueGreen'] }],
    },
    {
      name: 'a Rollout canary with the default maxSurge',
      code: rwo + rollout('data', '\n  strategy:\n    canary:\n      steps: [{setWeight: 50}]'),
      errors: [{ messageId: 'overlap', path: ['spec', 'strategy', 'canary'], messageIncludes: ['canary strategy (maxSurge 25% by default)'] }],
    },
    {
      name: 'the worst of several claims sets the severity',
      code: rwo + pvc('once', 'ReadWriteOncePod') + `---
apiVersion: apps/v1
kind: Deployment
metadata: {name: app}
spec:
  template:
    spec:
      containers: [{name: app, image: app, volumeMounts: [{name: a, mountPath: /a}, {name: b, mountPath: /b}]}]
      volumes:
        - {name: a, persistentVolumeClaim: {claimName: data}}
        - {name: b, persistentVolumeClaim: {claimName: once}}
`,
      errors: [{ messageId: 'overlap', severity: 'error', messageIncludes: ['"data" (ebs.csi.aws.com), ReadWriteOncePod PersistentVolumeClaim "once"'] }],
    },
    ...rule.meta.examples.invalid.map((code, i) => ({ name: `documented invalid example ${i + 1}`, code, errors: [{ messageId: 'overlap', severity: 'warning' as const }] })),
  ],
});
