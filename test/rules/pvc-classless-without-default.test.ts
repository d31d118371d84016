import rule from '../../rules/pvc-classless-without-default.js';
import { ruleTester } from '../helpers/rule-tester.js';

const pvc = (spec: string) => `---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: data, namespace: apps}
spec:
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 1Gi}}${spec}
`;
const defaultClass = `---
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata:
  name: standard
  annotations: {storageclass.kubernetes.io/is-default-class: "true"}
provisioner: pd.csi.storage.gke.io
`;
const pv = `---
apiVersion: v1
kind: PersistentVolume
metadata: {name: pv-1}
spec:
  capacity: {storage: 1Gi}
  accessModes: [ReadWriteOnce]
  nfs: {server: a, path: /}
`;

ruleTester(rule, {
  valid: [
    { name: 'a class is set', code: pvc('\n  storageClassName: gp3') },
    { name: 'the repo has a default class', code: defaultClass + pvc('') },
    { name: 'a PV without class in the repo binds it', code: pv + pvc('') },
    { name: 'volumeName set', code: pvc('\n  volumeName: pv-9') },
    { name: 'a selector asks for a static PV', code: pvc('\n  selector: {matchLabels: {a: b}}') },
    { name: 'class "" with PVs in the repo is pv-pvc-static-mismatch\'s', code: pv.replace('1Gi', '100Mi') + pvc('\n  storageClassName: ""') },
    { name: 'the beta annotation sets a class', code: pvc('').replace('namespace: apps}', 'namespace: apps, annotations: {volume.beta.kubernetes.io/storage-class: gp3}}') },
    ...rule.meta.examples.valid.map((code, i) => ({ name: `documented valid example ${i + 1}`, code })),
  ],
  invalid: [
    {
      name: 'no class, no default class',
      code: pvc(''),
      errors: [{ messageId: 'noDefault', severity: 'note', path: ['spec'], messageIncludes: ['sets no storageClassName and the repo has no default StorageClass'] }],
    },
    {
      name: 'a complete bundle makes it a warning',
      code: pvc(''),
      model: { bundleComplete: true },
      errors: [{ messageId: 'noDefault', severity: 'warning', messageIncludes: ['with no default class in the cluster'] }],
    },
    {
      name: 'class "" and no PV at all',
      code: pvc('\n  storageClassName: ""'),
      errors: [{ messageId: 'emptyClass', severity: 'note', path: ['spec', 'storageClassName'] }],
    },
    {
      name: 'a StatefulSet claim template without class',
      code: `apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db, namespace: apps}
spec:
  serviceName: db
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec: {containers: [{name: db, image: postgres}]}
  volumeClaimTemplates:
    - metadata: {name: data}
      spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}
`,
      errors: [{ messageId: 'noDefault', path: ['spec', 'volumeClaimTemplates', 0, 'spec'], messageIncludes: ['volumeClaimTemplate "data" of StatefulSet "db"'] }],
    },
    ...rule.meta.examples.invalid.map((code, i) => ({ name: `documented invalid example ${i + 1}`, code, errors: [{ messageId: 'noDefault' }] })),
  ],
});
