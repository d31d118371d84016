import rule from '../../rules/pvc-selector-dynamic-provisioning.js';
import { ruleTester } from '../helpers/rule-tester.js';

const sc = (name: string, provisioner: string, isDefault = false) => `---
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata:
  name: ${name}${isDefault ? '\n  annotations: {storageclass.kubernetes.io/is-default-class: "true"}' : ''}
provisioner: ${provisioner}
volumeBindingMode: WaitForFirstConsumer
`;
const pv = (labels: string, storageClass = 'gp3', capacity = '10Gi') => `---
apiVersion: v1
kind: PersistentVolume
metadata:
  name: pv-1
  labels: {${labels}}
spec:
  storageClassName: ${storageClass}
  capacity: {storage: ${capacity}}
  accessModes: [ReadWriteOnce]
  csi: {driver: ebs.csi.aws.com, volumeHandle: vol-1}
`;
const pvc = (selector: string, storageClass: string | null = 'gp3', extra = '') => `---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: data, namespace: apps}
spec:${storageClass === null ? '' : `\n  storageClassName: "${storageClass}"`}
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 10Gi}}${extra}
  selector:
${selector}
`;
const IN = '    matchExpressions:\n      - {key: tier, operator: In, values: [fast, faster]}';
const EXISTS = '    matchExpressions:\n      - {key: tier, operator: Exists}';

ruleTester(rule, {
  valid: [
    { name: 'no selector', code: sc('gp3', 'ebs.csi.aws.com') + '---\napiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: d}\nspec: {storageClassName: gp3, accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}\n' },
    { name: 'an In selector that matches a PV in the repo', code: sc('gp3', 'ebs.csi.aws.com') + pv('tier: fast') + pvc(IN) },
    { name: 'an Exists selector that matches a PV in the repo', code: sc('gp3', 'ebs.csi.aws.com') + pv('tier: slow') + pvc(EXISTS) },
    {
      name: 'NotIn and DoesNotExist that match a PV in the repo',
      code: sc('gp3', 'ebs.csi.aws.com') + pv('tier: fast') + pvc('    matchExpressions:\n      - {key: tier, operator: NotIn, values: [slow]}\n      - {key: retired, operator: DoesNotExist}'),
    },
    { name: 'a no-provisioner class is pv-pvc-static-mismatch\'s', code: sc('local', 'kubernetes.io/no-provisioner') + pvc(IN, 'local') },
    { name: 'class "" is pv-pvc-static-mismatch\'s', code: pvc(IN, '') },
    { name: 'a class not in the repo that a matching PV in the repo carries', code: pv('tier: fast', 'somewhere') + pvc(IN, 'somewhere') },
    { name: 'a class not in the repo used by PVs as a static label (pv-pvc-static-mismatch\'s)', code: pv('tier: slow', 'somewhere') + pvc(IN, 'somewhere') },
    { name: 'a class not in a complete bundle (pvc-unknown-storageclass\'s error)', code: pvc(IN, 'somewhere'), model: { bundleComplete: true } },
    { name: 'no class and no default class', code: pvc(IN, null) },
    { name: 'volumeName set: the selector is ignored', code: sc('gp3', 'ebs.csi.aws.com') + pvc(IN, 'gp3', '\n  volumeName: pv-9') },
    ...rule.meta.examples.valid.map((code, i) => ({ name: `documented valid example ${i + 1}`, code })),
  ],
  invalid: [
    {
      name: 'a class not in the repo and no PV for the selector: a note',
      code: pvc(IN, 'managed-premium'),
      errors: [{ messageId: 'selectorUnknownClass', severity: 'note', path: ['spec', 'selector'], messageIncludes: ['"managed-premium", which is not in the repo', 'claim Selector is not supported'] }],
    },
    {
      name: 'matchLabels with a provisioning class and no PV',
      code: sc('gp3', 'ebs.csi.aws.com') + pvc('    matchLabels: {tier: fast}'),
      errors: [{ messageId: 'selector', severity: 'warning', path: ['spec', 'selector'], messageIncludes: ['StorageClass "gp3" provisions volumes with ebs.csi.aws.com', 'claim Selector is not supported', 'the repo has no PersistentVolume for it'] }],
    },
    {
      name: 'an In selector that no PV matches',
      code: sc('gp3', 'ebs.csi.aws.com') + pv('tier: slow') + pvc(IN),
      errors: [{ messageId: 'selector', messageIncludes: ['no PersistentVolume in the repo matches it'] }],
    },
    {
      name: 'an Exists selector on a label the PV lacks',
      code: sc('gp3', 'ebs.csi.aws.com') + pv('zone: a') + pvc(EXISTS),
      errors: [{ messageId: 'selector' }],
    },
    {
      name: 'a matching selector on a PV that is too small',
      code: sc('gp3', 'ebs.csi.aws.com') + pv('tier: fast', 'gp3', '1Gi') + pvc(IN),
      errors: [{ messageId: 'selector' }],
    },
    {
      name: 'an empty selector counts',
      code: sc('gp3', 'ebs.csi.aws.com') + pvc('    {}'),
      errors: [{ messageId: 'selector' }],
    },
    {
      name: 'the default class provisions a claim without class',
      code: sc('standard', 'pd.csi.storage.gke.io', true) + pvc('    matchLabels: {tier: fast}', null),
      errors: [{ messageId: 'selector', messageIncludes: ['StorageClass "standard" (the default class)'] }],
    },
    {
      name: 'a complete bundle makes it an error',
      code: sc('gp3', 'ebs.csi.aws.com') + pvc('    matchLabels: {tier: fast}'),
      model: { bundleComplete: true },
      errors: [{ messageId: 'selector', severity: 'error', messageIncludes: ['so the claim stays Pending.'] }],
    },
    {
      name: 'a StatefulSet claim template with a selector',
      code: sc('gp3', 'ebs.csi.aws.com') + `---
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db, namespace: apps}
spec:
  serviceName: db
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec:
      containers: [{name: db, image: postgres, volumeMounts: [{name: data, mountPath: /data}]}]
  volumeClaimTemplates:
    - metadata: {name: data}
      spec:
        storageClassName: gp3
        accessModes: [ReadWriteOnce]
        resources: {requests: {storage: 1Gi}}
        selector: {matchLabels: {tier: fast}}
`,
      errors: [{ messageId: 'selector', resource: 'StatefulSet/apps/db', path: ['spec', 'volumeClaimTemplates', 0, 'spec', 'selector'] }],
    },
    ...rule.meta.examples.invalid.map((code, i) => ({ name: `documented invalid example ${i + 1}`, code, errors: [{ messageId: 'selector' }] })),
  ],
});
