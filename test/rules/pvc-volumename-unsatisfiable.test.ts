import rule from '../../rules/pvc-volumename-unsatisfiable.js';
import { ruleTester } from '../helpers/rule-tester.js';

interface PvOptions { name?: string; storageClass?: string | null; capacity?: string; modes?: string; claimRef?: string; volumeMode?: string; extra?: string }
const pv = (o: PvOptions = {}) => `---
apiVersion: v1
kind: PersistentVolume
metadata:
  name: ${o.name ?? 'pv-1'}${o.extra ?? ''}
spec:${o.storageClass === null ? '' : `\n  storageClassName: "${o.storageClass ?? ''}"`}
  capacity:
    storage: ${o.capacity ?? '10Gi'}
  accessModes: [${o.modes ?? 'ReadWriteOnce'}]${o.volumeMode ? `\n  volumeMode: ${o.volumeMode}` : ''}${o.claimRef ? `\n  claimRef: {${o.claimRef}}` : ''}
  nfs: {server: 10.0.0.1, path: /export}
`;

interface PvcOptions { name?: string; namespace?: string; storageClass?: string | null; request?: string; modes?: string; volumeName?: string; volumeMode?: string; selector?: string }
const pvc = (o: PvcOptions = {}) => `---
apiVersion: v1
kind: PersistentVolumeClaim
metadata:
  name: ${o.name ?? 'data'}
  namespace: ${o.namespace ?? 'apps'}
spec:${o.storageClass === null ? '' : `\n  storageClassName: "${o.storageClass ?? ''}"`}
  volumeName: ${o.volumeName ?? 'pv-1'}
  accessModes: [${o.modes ?? 'ReadWriteOnce'}]${o.volumeMode ? `\n  volumeMode: ${o.volumeMode}` : ''}
  resources:
    requests:
      storage: ${o.request ?? '10Gi'}${o.selector ? `\n  selector:\n${o.selector}` : ''}
`;
const defaultClass = `---
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata:
  name: standard
  annotations: {storageclass.kubernetes.io/is-default-class: "true"}
provisioner: ebs.csi.aws.com
volumeBindingMode: WaitForFirstConsumer
`;
const sts = (replicas: number, volumeName = 'pv-1') => `---
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db, namespace: apps}
spec:
  replicas: ${replicas}
  serviceName: db
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec:
      containers: [{name: db, image: postgres, volumeMounts: [{name: data, mountPath: /data}]}]
  volumeClaimTemplates:
    - metadata: {name: data}
      spec:
        storageClassName: ""
        volumeName: ${volumeName}
        accessModes: [ReadWriteOnce]
        resources: {requests: {storage: 10Gi}}
`;

ruleTester(rule, {
  valid: [
    {
      // `kubectl apply -n media`, an Argo CD destination or a Flux targetNamespace puts the claim where the PV expects it.
      name: 'stays quiet on a claim written without a namespace that the PV reserves in its namespace',
      code: pv({ claimRef: 'name: data, namespace: media' }) + pvc().replace('  namespace: apps\n', ''),
    },
    { name: 'a PV that satisfies the claim', code: pv() + pvc() },
    {
      name: 'no class on either side in a complete bundle without a default class: the claim keeps no class and binds',
      code: pv({ storageClass: null }) + pvc({ storageClass: null }), model: { bundleComplete: true },
    },
    { name: 'a bigger PV with more access modes', code: pv({ capacity: '20Gi', modes: 'ReadWriteOnce, ReadWriteMany' }) + pvc({ modes: 'ReadWriteMany' }) },
    { name: 'a PV reserved for this claim binds without checks', code: pv({ capacity: '1Gi', storageClass: 'other', claimRef: 'name: data, namespace: apps' }) + pvc({ request: '50Gi' }) },
    {
      name: 'a selector that does not match is ignored on this path',
      code: pv() + pvc({ selector: '    matchExpressions:\n      - {key: tier, operator: In, values: [fast]}' }),
    },
    {
      name: 'a stale uid on the reservation is left to pv-claimref-stale-uid',
      code: pv({ claimRef: 'name: data, namespace: apps, uid: 1234' }) + pvc(),
    },
    { name: 'class "" on the claim and no class on the PV', code: pv({ storageClass: null }) + pvc() },
    { name: 'a claim template with one replica and a matching PV', code: pv() + sts(1) },
    { name: 'a claim template whose ordinal 0 claim the PV reserves', code: pv({ claimRef: 'name: data-db-0, namespace: apps' }) + sts(1) },
    { name: 'the same claim written twice in one scope is one claim', code: pv() + pvc() + pvc() },
    ...rule.meta.examples.valid.map((code, i) => ({ name: `documented valid example ${i + 1}`, code })),
  ],
  invalid: [
    {
      name: 'a claim written without a namespace is still not the claimRef\'s other claim',
      code: pv({ claimRef: 'name: other, namespace: media' }) + pvc().replace('  namespace: apps\n', ''),
      errors: [{ messageId: 'reserved', severity: 'error' }],
    },
    {
      name: 'capacity: the PV is too small',
      code: pv({ capacity: '5Gi' }) + pvc({ request: '20Gi' }),
      errors: [{
        messageId: 'mismatch', severity: 'error', resource: 'PersistentVolumeClaim/apps/data', path: ['spec', 'resources', 'requests', 'storage'],
        messageIncludes: ['PersistentVolumeClaim "data" in namespace "apps" sets volumeName "pv-1"', 'capacity is 5Gi but the claim requests 20Gi', 'requested PV is too small'],
      }],
    },
    {
      name: 'class: the omitted class gets the default class',
      code: defaultClass + pv() + pvc({ storageClass: null }),
      errors: [{ messageId: 'mismatch', path: ['spec', 'storageClassName'], messageIncludes: ['storageClassName does not match', 'gets the default class "standard"', 'set storageClassName: "" explicitly'] }],
    },
    {
      name: 'volume mode differs (unset is Filesystem)',
      code: pv() + pvc({ volumeMode: 'Block' }),
      errors: [{ messageId: 'mismatch', path: ['spec', 'volumeMode'], messageIncludes: ['incompatible volumeMode'] }],
    },
    {
      name: 'access modes: the PV lacks one',
      code: pv() + pvc({ modes: 'ReadWriteMany' }),
      errors: [{ messageId: 'mismatch', path: ['spec', 'accessModes'], messageIncludes: ['incompatible accessMode'] }],
    },
    {
      name: 'the first failure in checkVolumeSatisfyClaim order is reported, the others listed',
      code: pv({ capacity: '1Gi', storageClass: 'manual' }) + pvc({ modes: 'ReadWriteMany' }),
      errors: [{ messageId: 'mismatch', path: ['spec', 'resources', 'requests', 'storage'], messageIncludes: ['requested PV is too small', '(also: ', 'storageClassName is "manual"'] }],
    },
    {
      name: 'deleted: the PV has a deletionTimestamp',
      code: pv({ extra: '\n  deletionTimestamp: "2024-01-01T00:00:00Z"' }) + pvc(),
      errors: [{ messageId: 'mismatch', messageIncludes: ['the volume is marked for deletion'] }],
    },
    {
      name: 'no class on either side and no default class visible: a warning about the default-class trap',
      code: pv({ storageClass: null }) + pvc({ storageClass: null }),
      errors: [{ messageId: 'defaultTrap', severity: 'warning', path: ['spec', 'storageClassName'], messageIncludes: ['Set storageClassName: "" explicitly'] }],
    },
    {
      name: 'the PV is reserved for another claim',
      code: pv({ claimRef: 'name: other, namespace: apps' }) + pvc(),
      errors: [{ messageId: 'reserved', path: ['spec', 'volumeName'], messageIncludes: ['reserved for claim "other" in namespace "apps"', 'already bound to a different claim.'] }],
    },
    {
      name: 'a claimRef without namespace names another claim',
      code: pv({ claimRef: 'name: data' }) + pvc(),
      errors: [{ messageId: 'reserved', messageIncludes: ['without a namespace'] }],
    },
    {
      name: 'two claims name the same PV',
      code: pv() + pvc() + pvc({ name: 'second' }),
      errors: [{ messageId: 'shared', resource: 'PersistentVolumeClaim/apps/second', messageIncludes: ['and so does PersistentVolumeClaim "data" in namespace "apps"'] }],
    },
    {
      name: 'two claims name the same PV; the one the claimRef reserves wins',
      code: pv({ claimRef: 'name: second, namespace: apps' }) + pvc() + pvc({ name: 'second' }),
      errors: [{ messageId: 'reserved', resource: 'PersistentVolumeClaim/apps/data' }],
    },
    {
      name: 'a PV that is not in the repo is a note',
      code: pvc({ volumeName: 'elsewhere' }),
      errors: [{ messageId: 'absent', severity: 'note', messageIncludes: ['is not in the repo', 'until the PV exists'] }],
    },
    {
      name: 'a PV missing from a complete bundle is an error',
      code: pvc({ volumeName: 'elsewhere' }),
      model: { bundleComplete: true },
      errors: [{ messageId: 'absent', severity: 'error', messageIncludes: ['does not exist'] }],
    },
    {
      name: 'a StatefulSet claim template with several replicas names one PV',
      code: pv() + sts(3),
      errors: [{ messageId: 'replicas', resource: 'StatefulSet/apps/db', path: ['spec', 'volumeClaimTemplates', 0, 'spec', 'volumeName'], messageIncludes: ['3 replicas (data-db-0, data-db-1, …)'] }],
    },
    {
      name: 'a claim template with one replica and a PV too small',
      code: pv({ capacity: '1Gi' }) + sts(1),
      errors: [{ messageId: 'mismatch', path: ['spec', 'volumeClaimTemplates', 0, 'spec', 'resources', 'requests', 'storage'], messageIncludes: ['volumeClaimTemplate "data" of StatefulSet "db"'] }],
    },
    {
      name: 'a Deployment ephemeral volume naming a PV creates one claim per pod',
      code: pv() + `---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: apps}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: web, image: nginx, volumeMounts: [{name: scratch, mountPath: /s}]}]
      volumes:
        - name: scratch
          ephemeral:
            volumeClaimTemplate:
              spec: {storageClassName: "", volumeName: pv-1, accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}
`,
      errors: [{ messageId: 'replicas', messageIncludes: ['ephemeral volume "scratch" of Deployment "web"'] }],
    },
    ...rule.meta.examples.invalid.map((code, i) => ({ name: `documented invalid example ${i + 1}`, code, errors: [{ messageId: 'mismatch', severity: 'error' as const }] })),
  ],
});
