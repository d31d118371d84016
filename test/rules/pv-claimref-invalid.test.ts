import rule from '../../rules/pv-claimref-invalid.js';
import { ruleTester } from '../helpers/rule-tester.js';

interface PvOptions { name?: string; capacity?: string; modes?: string; claimRef?: string; volumeMode?: string }
const pv = (o: PvOptions = {}) => `---
apiVersion: v1
kind: PersistentVolume
metadata:
  name: ${o.name ?? 'pv-1'}
spec:
  storageClassName: ""
  capacity:
    storage: ${o.capacity ?? '10Gi'}
  accessModes: [${o.modes ?? 'ReadWriteOnce'}]${o.volumeMode ? `\n  volumeMode: ${o.volumeMode}` : ''}
  claimRef: {${o.claimRef ?? 'name: data, namespace: apps'}}
  nfs: {server: 10.0.0.1, path: /export}
`;
interface PvcOptions { name?: string; namespace?: string; request?: string; modes?: string; volumeName?: string; storageClass?: string }
const pvc = (o: PvcOptions = {}) => `---
apiVersion: v1
kind: PersistentVolumeClaim
metadata:
  name: ${o.name ?? 'data'}
  namespace: ${o.namespace ?? 'apps'}
spec:
  storageClassName: "${o.storageClass ?? ''}"${o.volumeName ? `\n  volumeName: ${o.volumeName}` : ''}
  accessModes: [${o.modes ?? 'ReadWriteOnce'}]
  resources:
    requests:
      storage: ${o.request ?? '10Gi'}
`;
const sts = (request = '10Gi') => `---
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db, namespace: apps}
spec:
  replicas: 2
  serviceName: db
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec:
      containers: [{name: db, image: postgres, volumeMounts: [{name: data, mountPath: /data}]}]
  volumeClaimTemplates:
    - metadata: {name: data}
      spec: {storageClassName: "", accessModes: [ReadWriteOnce], resources: {requests: {storage: ${request}}}}
`;

ruleTester(rule, {
  valid: [
    {
      // The claim lands in the namespace it is applied to, which the claimRef says is "apps".
      name: 'stays quiet on a reservation for a claim the repo writes without a namespace',
      code: pv() + pvc().replace('  namespace: apps\n', ''),
    },
    { name: 'a reservation for a claim that fits', code: pv() + pvc() },
    { name: 'a bigger PV with a superset of modes', code: pv({ capacity: '20Gi', modes: 'ReadWriteOnce, ReadOnlyMany' }) + pvc({ modes: 'ReadOnlyMany' }) },
    { name: 'the claim names this PV: bound without checks', code: pv({ capacity: '1Gi' }) + pvc({ volumeName: 'pv-1', request: '5Gi' }) },
    { name: 'class and selector are not checked for a reserved PV', code: pv() + pvc({ storageClass: 'other' }) },
    { name: 'a stale uid is left to pv-claimref-stale-uid', code: pv({ claimRef: 'name: data, namespace: apps, uid: abc' }) + pvc({ namespace: 'other' }) },
    { name: 'a reservation for a StatefulSet ordinal claim that fits', code: pv({ claimRef: 'name: data-db-1, namespace: apps' }) + sts() },
    { name: 'the same PV written twice in one scope', code: pv() + pv() + pvc() },
    { name: 'explicit kind and apiVersion of a claim', code: pv({ claimRef: 'kind: PersistentVolumeClaim, apiVersion: v1, name: data, namespace: apps' }) + pvc() },
    ...rule.meta.examples.valid.map((code, i) => ({ name: `documented valid example ${i + 1}`, code })),
  ],
  invalid: [
    {
      name: 'a claim written without a namespace is still checked against the PV',
      code: pv({ capacity: '5Gi' }) + pvc({ request: '20Gi' }).replace('  namespace: apps\n', ''),
      errors: [{ messageId: 'unsatisfiable', messageIncludes: ['5Gi'] }],
    },
    {
      name: '(a) a claimRef without namespace',
      code: pv({ claimRef: 'name: data' }) + pvc(),
      errors: [{ messageId: 'noNamespace', severity: 'error', resource: 'PersistentVolume//pv-1', path: ['spec', 'claimRef', 'namespace'], line: 11, messageIncludes: ['has no namespace'] }],
    },
    {
      name: '(a) a claimRef without name',
      code: pv({ claimRef: 'namespace: apps' }),
      errors: [{ messageId: 'noNamespace', path: ['spec', 'claimRef', 'name'], messageIncludes: ['has no name'] }],
    },
    {
      name: '(b) the claim is in another namespace',
      code: pv() + pvc({ namespace: 'prod' }),
      errors: [{ messageId: 'otherNamespace', path: ['spec', 'claimRef', 'namespace'], messageIncludes: ['only in the repo in namespace "prod"'] }],
    },
    {
      name: '(b) the claim names another PV',
      code: pv() + pvc({ volumeName: 'pv-2' }),
      errors: [{ messageId: 'otherVolume', messageIncludes: ['sets volumeName "pv-2"'] }],
    },
    {
      name: '(c) two PVs reserve the same claim',
      code: pv() + pv({ name: 'pv-2' }) + pvc(),
      errors: [{ messageId: 'duplicate', resource: 'PersistentVolume//pv-2', messageIncludes: ['PersistentVolume "pv-2" and PersistentVolume "pv-1" are both reserved'] }],
    },
    {
      name: '(d) the reserved claim asks for more than the PV has',
      code: pv({ capacity: '5Gi' }) + pvc({ request: '20Gi' }),
      errors: [{ messageId: 'unsatisfiable', path: ['spec', 'capacity', 'storage'], messageIncludes: ['capacity is 5Gi but the claim requests 20Gi'] }],
    },
    {
      name: '(d) access modes',
      code: pv() + pvc({ modes: 'ReadWriteMany' }),
      errors: [{ messageId: 'unsatisfiable', path: ['spec', 'accessModes'] }],
    },
    {
      name: '(d) volume mode',
      code: pv({ volumeMode: 'Block' }) + pvc(),
      errors: [{ messageId: 'unsatisfiable', path: ['spec', 'volumeMode'], messageIncludes: ['volumeMode Filesystem but the volume is Block'] }],
    },
    {
      name: '(d) a StatefulSet ordinal claim larger than the PV',
      code: pv({ claimRef: 'name: data-db-0, namespace: apps', capacity: '1Gi' }) + sts('10Gi'),
      errors: [{ messageId: 'unsatisfiable', messageIncludes: ['claim "data-db-0" of volumeClaimTemplate "data" of StatefulSet "db"'] }],
    },
    {
      name: '(e) claimRef kind is not a claim',
      code: pv({ claimRef: 'kind: Pod, name: data, namespace: apps' }) + pvc(),
      errors: [{ messageId: 'wrongKind', severity: 'warning', path: ['spec', 'claimRef', 'kind'] }],
    },
    {
      name: 'a claim not in the repo is a note',
      code: pv(),
      errors: [{ messageId: 'claimAbsent', severity: 'note', messageIncludes: ['is not in the repo'] }],
    },
    {
      name: 'a claim missing from a complete bundle is an error',
      code: pv(),
      model: { bundleComplete: true },
      errors: [{ messageId: 'claimAbsent', severity: 'error', messageIncludes: ['does not exist'] }],
    },
    ...rule.meta.examples.invalid.map((code, i) => ({ name: `documented invalid example ${i + 1}`, code, errors: [{ messageId: 'noNamespace', severity: 'error' as const }] })),
  ],
});
