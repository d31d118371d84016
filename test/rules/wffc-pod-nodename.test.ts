import rule from '../../rules/wffc-pod-nodename.js';
import { ruleTester } from '../helpers/rule-tester.js';

const sc = (name: string, mode: string, extra = '') => `---
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: ${name}${extra}}
provisioner: ebs.csi.aws.com
volumeBindingMode: ${mode}
`;
const pvc = (opts: { storageClass?: string; modes?: string; volumeName?: string; selectedNode?: boolean } = {}) => `---
apiVersion: v1
kind: PersistentVolumeClaim
metadata:
  name: data${opts.selectedNode ? '\n  annotations: {volume.kubernetes.io/selected-node: node-1}' : ''}
spec:${opts.storageClass !== undefined ? `\n  storageClassName: ${opts.storageClass}` : ''}${opts.volumeName ? `\n  volumeName: ${opts.volumeName}` : ''}
  accessModes: [${opts.modes ?? 'ReadWriteOnce'}]
  resources: {requests: {storage: 1Gi}}
`;
const pod = (placement = 'nodeName: node-1') => `---
apiVersion: v1
kind: Pod
metadata: {name: worker}
spec:
  ${placement}
  containers: [{name: w, image: w, volumeMounts: [{name: data, mountPath: /data}]}]
  volumes: [{name: data, persistentVolumeClaim: {claimName: data}}]
`;
const sts = `---
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db}
spec:
  serviceName: db
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec:
      nodeName: node-2
      containers: [{name: db, image: db, volumeMounts: [{name: data, mountPath: /data}]}]
  volumeClaimTemplates:
    - metadata: {name: data}
      spec: {storageClassName: wffc, accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}
`;

ruleTester(rule, {
  valid: [
    {
      // A static PV reserved for the claim binds it without the scheduler: nodeName is then harmless.
      name: 'stays quiet on a claim a PersistentVolume reserves with claimRef',
      code: sc('wffc', 'WaitForFirstConsumer') + pvc({ storageClass: 'wffc' }) + pod() + `---
apiVersion: v1
kind: PersistentVolume
metadata: {name: pv-1}
spec:
  storageClassName: wffc
  capacity: {storage: 1Gi}
  accessModes: [ReadWriteOnce]
  claimRef: {name: data, namespace: default}
  csi: {driver: ebs.csi.aws.com, volumeHandle: vol-0123456789abcdef0}
`,
    },
    { name: 'a hostname nodeSelector instead of nodeName', code: sc('wffc', 'WaitForFirstConsumer') + pvc({ storageClass: 'wffc' }) + pod('nodeSelector: {kubernetes.io/hostname: node-1}') },
    { name: 'an Immediate class binds without the scheduler', code: sc('now', 'Immediate') + pvc({ storageClass: 'now' }) + pod() },
    { name: 'a claim pre-bound with volumeName', code: sc('wffc', 'WaitForFirstConsumer') + pvc({ storageClass: 'wffc', volumeName: 'pv-1' }) + pod() },
    { name: 'a claim annotated with the selected node', code: sc('wffc', 'WaitForFirstConsumer') + pvc({ storageClass: 'wffc', selectedNode: true }) + pod() },
    { name: 'a class not in the repo, in a complete bundle (pvc-unknown-storageclass\'s error)', code: pvc({ storageClass: 'elsewhere' }) + pod(), model: { bundleComplete: true } },
    {
      name: 'a class only PersistentVolumes in the repo carry (static binding)',
      code: pvc({ storageClass: 'manual' }) + pod() + '---\napiVersion: v1\nkind: PersistentVolume\nmetadata: {name: pv-1}\nspec: {storageClassName: manual, capacity: {storage: 1Gi}, accessModes: [ReadWriteOnce], hostPath: {path: /mnt/pv-1}}\n',
    },
    { name: 'a claim without class and no default class in the repo', code: pvc() + pod() },
  ],
  invalid: [
    {
      name: 'a class that is not in the repo: a note, the cluster decides',
      code: pvc({ storageClass: 'local-path' }) + pod(),
      errors: [{ messageId: 'unknownClass', severity: 'note', path: ['spec', 'nodeName'], messageIncludes: ['"local-path", which is not in the repo', 'if that class is WaitForFirstConsumer'] }],
    },
    {
      name: 'nodeName with a WaitForFirstConsumer claim',
      code: sc('wffc', 'WaitForFirstConsumer') + pvc({ storageClass: 'wffc' }) + pod(),
      errors: [{ messageId: 'wffc', severity: 'error', line: 21, path: ['spec', 'nodeName'], messageIncludes: ['StorageClass "wffc"', 'never provisioned or bound'] }],
    },
    {
      name: 'a claim without class gets the default WaitForFirstConsumer class',
      code: sc('default', 'WaitForFirstConsumer', ', annotations: {storageclass.kubernetes.io/is-default-class: "true"}') + pvc() + pod(),
      errors: [{ messageId: 'wffc', messageIncludes: ['StorageClass "default"'] }],
    },
    {
      name: 'a StatefulSet claim template of a WaitForFirstConsumer class',
      code: sc('wffc', 'WaitForFirstConsumer') + sts,
      errors: [{ messageId: 'wffc', path: ['spec', 'template', 'spec', 'nodeName'], messageIncludes: ['claim template "data"'] }],
    },
    {
      name: 'a ReadWriteOncePod claim is a warning',
      code: sc('now', 'Immediate') + pvc({ storageClass: 'now', modes: 'ReadWriteOncePod' }) + pod(),
      errors: [{ messageId: 'rwop', severity: 'warning' }],
    },
  ],
});
