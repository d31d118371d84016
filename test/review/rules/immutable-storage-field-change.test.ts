import rule from '../../../rules/immutable-storage-field-change.js';
import { changeRuleTester, lineOf } from '../helpers.js';

const sts = (spec: { name?: string; selector?: string; serviceName?: string; extra?: string; templates?: string }) => `apiVersion: apps/v1
kind: StatefulSet
metadata: {name: ${spec.name ?? 'db'}}
spec:
  serviceName: ${spec.serviceName ?? 'db'}
  selector: {matchLabels: {${spec.selector ?? 'app: db'}}}
${spec.extra ?? ''}  template:
    metadata: {labels: {app: db}}
    spec: {containers: [{name: db, image: busybox, volumeMounts: [{name: data, mountPath: /data}]}]}
  volumeClaimTemplates:
${spec.templates ?? `    - metadata: {name: data}
      spec:
        accessModes: [ReadWriteOnce]
        resources: {requests: {storage: 10Gi}}
`}`;

const pvc = (spec: string, metadata = '') => `apiVersion: v1
kind: PersistentVolumeClaim
metadata:
  name: data
${metadata}spec:
${spec}`;

const PVC_SPEC = `  accessModes: [ReadWriteOnce]
  storageClassName: gp3
  resources:
    requests: {storage: 10Gi}
`;

const pv = (source: string, extra = '') => `apiVersion: v1
kind: PersistentVolume
metadata: {name: vol}
spec:
  capacity: {storage: 10Gi}
  accessModes: [ReadWriteOnce]
${extra}${source}`;

const CSI = `  csi:
    driver: ebs.csi.aws.com
    volumeHandle: vol-1
`;

const grown = sts({ templates: `    - metadata: {name: data}
      spec:
        accessModes: [ReadWriteOnce]
        resources: {requests: {storage: 20Gi}}
` });
const twoTemplates = sts({ templates: `    - metadata: {name: data}
      spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 10Gi}}}
    - metadata: {name: logs}
      spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}
` });
const twoReordered = sts({ templates: `    - metadata: {name: logs}
      spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}
    - metadata: {name: data}
      spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 10Gi}}}
` });
const oneTemplate = sts({ templates: `    - metadata: {name: data}
      spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 10Gi}}}
` });
const labelled = sts({ templates: `    - metadata:
        name: data
        labels: {tier: db}
      spec:
        accessModes: [ReadWriteOnce]
        resources: {requests: {storage: 10Gi}}
` });
const withClass = pvc(PVC_SPEC.replace('gp3', 'io2'));
const rwx = pvc(PVC_SPEC.replace('[ReadWriteOnce]', '[ReadWriteMany]'));
const noClass = pvc(PVC_SPEC.replace('  storageClassName: gp3\n', ''));
const bound = pvc(`${PVC_SPEC}  volumeName: pv-1\n`);
const rebound = pvc(`${PVC_SPEC}  volumeName: pv-2\n`);
const block = pvc(`${PVC_SPEC}  volumeMode: Block\n`);
const cloned = pvc(`${PVC_SPEC}  dataSource: {kind: PersistentVolumeClaim, name: old}\n`);
const clonedRef = pvc(`${PVC_SPEC}  dataSourceRef: {kind: PersistentVolumeClaim, name: old}\n`);
const clonedOther = pvc(`${PVC_SPEC}  dataSourceRef: {kind: PersistentVolumeClaim, name: other}\n`);
const limited = pvc(PVC_SPEC.replace('    requests: {storage: 10Gi}\n', '    requests: {storage: 10Gi}\n    limits: {storage: 20Gi}\n'));
const attributes = (name: string) => pvc(`${PVC_SPEC}  volumeAttributesClassName: ${name}\n`);
const annotated = (cls: string) => pvc(PVC_SPEC.replace('  storageClassName: gp3\n', ''), `  annotations: {volume.beta.kubernetes.io/storage-class: ${cls}}\n`);
const affinity = (zone: string) => `  nodeAffinity:
    required:
      nodeSelectorTerms:
        - matchExpressions: [{key: topology.kubernetes.io/zone, operator: In, values: [${zone}]}]
`;

changeRuleTester(rule, {
  valid: [
    { name: 'unchanged StatefulSet', base: sts({}), head: sts({}) },
    {
      name: 'replicas, template, updateStrategy, minReadySeconds and retention policy may change',
      base: sts({}),
      head: sts({ extra: '  replicas: 3\n  minReadySeconds: 5\n  updateStrategy: {type: OnDelete}\n  persistentVolumeClaimRetentionPolicy: {whenDeleted: Delete}\n' }).replace('image: busybox', 'image: busybox:1.36'),
    },
    {
      name: 'a claim template that spells the defaulted volumeMode, status and type fields',
      base: sts({}),
      head: sts({ templates: `    - apiVersion: v1
      kind: PersistentVolumeClaim
      metadata: {name: data}
      spec:
        accessModes: [ReadWriteOnce]
        volumeMode: Filesystem
        resources: {requests: {storage: 10240Mi}}
      status: {phase: Pending}
` }),
    },
    { name: 'podManagementPolicy spelled as its default', base: sts({}), head: sts({ extra: '  podManagementPolicy: OrderedReady\n' }) },
    { name: 'a claim whose request is written differently', base: pvc(PVC_SPEC), head: pvc(PVC_SPEC.replace('10Gi', '10240Mi')) },
    { name: 'a claim whose request grows (pvc-resize-rejected judges it)', base: pvc(PVC_SPEC), head: pvc(PVC_SPEC.replace('10Gi', '20Gi')) },
    { name: 'volumeName set where the base had none (allowed once)', base: pvc(PVC_SPEC), head: bound },
    { name: 'storageClassName moved from the beta annotation to the field', base: annotated('gp3'), head: pvc(PVC_SPEC) },
    { name: 'volumeAttributesClassName changes', base: attributes('fast'), head: attributes('faster') },
    { name: 'dataSource written as dataSourceRef', base: cloned, head: clonedRef },
    { name: 'an empty selector is no selector', base: pvc(PVC_SPEC), head: pvc(`${PVC_SPEC}  selector: {}\n`) },
    { name: 'PV capacity, reclaim policy and class may change', base: pv(CSI), head: pv(CSI, '  persistentVolumeReclaimPolicy: Retain\n  storageClassName: gp3\n').replace('storage: 10Gi', 'storage: 20Gi') },
    { name: 'PV gets a controllerExpandSecretRef it did not have', base: pv(CSI), head: pv(`${CSI}    controllerExpandSecretRef: {name: s, namespace: kube-system}\n`) },
    { name: 'PV gets its first nodeAffinity', base: pv(CSI), head: pv(CSI, affinity('a')) },
    { name: 'an object only added or only removed', base: pvc(PVC_SPEC), head: sts({}) },
  ],
  invalid: [
    {
      name: 'claim template storage request grows',
      base: sts({}),
      head: grown,
      errors: [{ messageId: 'templateChanged', line: lineOf(grown, 'storage: 20Gi'), messageIncludes: ['"data"', '"10Gi" → "20Gi"'], related: ['base.yaml:3'] }],
    },
    {
      name: 'claim template gets labels',
      base: sts({}),
      head: labelled,
      errors: [{ messageId: 'templateChanged', line: lineOf(labelled, 'labels: {tier'), messageIncludes: ['metadata.labels'] }],
    },
    {
      name: 'claim template added and removed',
      base: oneTemplate,
      head: twoTemplates,
      errors: [{ messageId: 'templateAdded', line: lineOf(twoTemplates, '- metadata: {name: logs}'), messageIncludes: ['"logs"'] }],
    },
    {
      name: 'claim template removed',
      base: twoTemplates,
      head: oneTemplate,
      errors: [{ messageId: 'templateRemoved', line: lineOf(oneTemplate, 'volumeClaimTemplates:'), messageIncludes: ['"logs"'] }],
    },
    {
      name: 'claim templates reordered',
      base: twoTemplates,
      head: twoReordered,
      errors: [{ messageId: 'templateOrder', line: lineOf(twoReordered, 'volumeClaimTemplates:'), messageIncludes: ['data, logs → logs, data'] }],
    },
    {
      name: 'selector, serviceName and podManagementPolicy change',
      base: sts({}),
      head: sts({ selector: 'app: database', serviceName: 'database', extra: '  podManagementPolicy: Parallel\n' }),
      errors: [
        { messageId: 'statefulSetField', line: 6, path: ['spec', 'selector', 'matchLabels', 'app'], messageIncludes: ['"db" to "database"'] },
        { messageId: 'statefulSetField', line: 5, path: ['spec', 'serviceName'] },
        { messageId: 'statefulSetField', line: 7, path: ['spec', 'podManagementPolicy'], messageIncludes: ['"OrderedReady" to "Parallel"'] },
      ],
    },
    {
      name: 'claim accessModes change',
      base: pvc(PVC_SPEC),
      head: rwx,
      errors: [{ messageId: 'claimField', line: lineOf(rwx, 'accessModes'), path: ['spec', 'accessModes', 0], messageIncludes: ['"ReadWriteOnce" to "ReadWriteMany"'], related: ['base.yaml:4'] }],
    },
    {
      name: 'claim storageClassName changes',
      base: pvc(PVC_SPEC),
      head: withClass,
      errors: [{ messageId: 'claimField', line: lineOf(withClass, 'storageClassName'), severity: 'error', messageIncludes: ['"gp3" to "io2"'] }],
    },
    {
      name: 'claim storageClassName removed',
      base: pvc(PVC_SPEC),
      head: noClass,
      errors: [{ messageId: 'claimField', line: lineOf(noClass, 'spec:'), messageIncludes: ['"gp3" to absent'] }],
    },
    {
      name: 'claim storageClassName set where the base had none: a warning',
      base: noClass,
      head: pvc(PVC_SPEC),
      errors: [{ messageId: 'claimClassSet', severity: 'warning', line: lineOf(pvc(PVC_SPEC), 'storageClassName') }],
    },
    {
      name: 'claim beta class annotation changes',
      base: annotated('gp3'),
      head: annotated('io2'),
      errors: [{ messageId: 'claimAnnotation', line: 5, messageIncludes: ['"gp3" to "io2"'] }],
    },
    {
      name: 'claim volumeName changes',
      base: bound,
      head: rebound,
      errors: [{ messageId: 'claimField', line: lineOf(rebound, 'volumeName'), messageIncludes: ['"pv-1" to "pv-2"'] }],
    },
    {
      name: 'claim volumeMode changes',
      base: pvc(PVC_SPEC),
      head: block,
      errors: [{ messageId: 'claimField', line: lineOf(block, 'volumeMode'), messageIncludes: ['"Filesystem" to "Block"'] }],
    },
    {
      name: 'claim data source changes',
      base: cloned,
      head: clonedOther,
      errors: [{ messageId: 'claimField', line: lineOf(clonedOther, 'dataSourceRef'), messageIncludes: ['spec.dataSourceRef'] }],
    },
    {
      name: 'claim limits change',
      base: pvc(PVC_SPEC),
      head: limited,
      errors: [{ messageId: 'claimField', line: lineOf(limited, 'limits') }],
    },
    {
      name: 'claim volumeAttributesClassName cleared',
      base: attributes('fast'),
      head: pvc(PVC_SPEC),
      errors: [{ messageId: 'claimAttributesCleared', line: lineOf(pvc(PVC_SPEC), 'spec:') }],
    },
    {
      name: 'PV volume handle changes',
      base: pv(CSI),
      head: pv(CSI.replace('vol-1', 'vol-2')),
      errors: [{ messageId: 'volumeField', line: lineOf(pv(CSI), 'volumeHandle'), path: ['spec', 'csi', 'volumeHandle'], messageIncludes: ['persistentvolumesource is immutable'] }],
    },
    {
      name: 'PV source type changes',
      base: pv(CSI),
      head: pv('  nfs: {server: nfs.example.com, path: /exports}\n'),
      errors: [{ messageId: 'volumeField', line: lineOf(pv('  nfs: {server: nfs.example.com, path: /exports}\n'), 'nfs:'), path: ['spec', 'nfs'] }],
    },
    {
      name: 'PV volumeMode and node affinity change',
      base: pv(CSI, affinity('a')),
      head: pv(CSI, `  volumeMode: Block\n${affinity('b')}`),
      errors: [
        { messageId: 'volumeField', line: 7, messageIncludes: ['field is immutable'] },
        { messageId: 'volumeField', line: 11, messageIncludes: ['node affinity'] },
      ],
    },
  ],
});
