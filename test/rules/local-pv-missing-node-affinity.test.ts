import rule from '../../rules/local-pv-missing-node-affinity.js';
import { ruleTester } from '../helpers/rule-tester.js';

const AFFINITY = `
  nodeAffinity:
    required:
      nodeSelectorTerms:
        - matchExpressions:
            - {key: kubernetes.io/hostname, operator: In, values: [node1]}`;
const pv = (o: { storageClass?: string | null; affinity?: boolean; claimRef?: boolean; annotation?: boolean; source?: string } = {}) => `---
apiVersion: v1
kind: PersistentVolume
metadata:
  name: local-1${o.annotation ? '\n  annotations: {volume.alpha.kubernetes.io/node-affinity: "{}"}' : ''}
spec:
  capacity: {storage: 10Gi}
  accessModes: [ReadWriteOnce]${o.storageClass === null ? '' : `\n  storageClassName: "${o.storageClass ?? 'local'}"`}${o.claimRef ? '\n  claimRef: {name: data, namespace: apps}' : ''}
  ${o.source ?? 'local: {path: /mnt/disks/1}'}${o.affinity === false ? '' : AFFINITY}
`;
const sc = (mode?: string, provisioner = 'kubernetes.io/no-provisioner') => `---
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: local}
provisioner: ${provisioner}${mode ? `\nvolumeBindingMode: ${mode}` : ''}
`;

ruleTester(rule, {
  valid: [
    { name: 'local PV with node affinity and a WFFC class', code: pv() + sc('WaitForFirstConsumer') },
    { name: 'hostPath PVs need no node affinity', code: pv({ affinity: false, source: 'hostPath: {path: /data}' }) + sc('WaitForFirstConsumer') },
    { name: 'an Immediate no-provisioner class is storageclass-immediate-topology\'s', code: pv() + sc() },
    { name: 'a class not in the repo', code: pv({ storageClass: 'elsewhere' }) },
    { name: 'a PV reserved by claimRef binds to its claim anyway', code: pv({ storageClass: null, claimRef: true }) },
    ...rule.meta.examples.valid.map((code, i) => ({ name: `documented valid example ${i + 1}`, code })),
  ],
  invalid: [
    {
      name: 'a local PV without node affinity',
      code: pv({ affinity: false }) + sc('WaitForFirstConsumer'),
      errors: [{ messageId: 'missingAffinity', severity: 'error', path: ['spec', 'nodeAffinity'], messageIncludes: ['Local volume requires node affinity'] }],
    },
    {
      name: 'the alpha annotation no longer counts',
      code: pv({ affinity: false, annotation: true }) + sc('WaitForFirstConsumer'),
      errors: [{ messageId: 'missingAffinity', messageIncludes: ['no longer read'] }],
    },
    {
      name: 'a local PV without class binds immediately',
      code: pv({ storageClass: '' }),
      errors: [{ messageId: 'immediateBinding', severity: 'warning', path: ['spec', 'storageClassName'], messageIncludes: ['has no storage class'] }],
    },
    {
      name: 'a local PV of an Immediate class with another provisioner',
      code: pv() + sc('Immediate', 'example.com/local-static'),
      errors: [{ messageId: 'immediateBinding', severity: 'warning', messageIncludes: ['volumeBindingMode is Immediate'] }],
    },
    {
      name: 'both at once',
      code: pv({ affinity: false, storageClass: null }),
      errors: [{ messageId: 'missingAffinity' }, { messageId: 'immediateBinding' }],
    },
    ...rule.meta.examples.invalid.map((code, i) => ({ name: `documented invalid example ${i + 1}`, code, errors: [{ messageId: 'missingAffinity', severity: 'error' as const }] })),
  ],
});
