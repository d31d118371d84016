import rule from '../../rules/pvc-unknown-storageclass.js';
import { ruleTester } from '../helpers/rule-tester.js';

const sc = `---
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: fast-ssd}
provisioner: pd.csi.storage.gke.io
`;
const pvc = (storageClass: string | null, annotation?: string) => `---
apiVersion: v1
kind: PersistentVolumeClaim
metadata:
  name: data
  namespace: apps${annotation ? `\n  annotations: {volume.beta.kubernetes.io/storage-class: ${annotation}}` : ''}
spec:${storageClass === null ? '' : `\n  storageClassName: "${storageClass}"`}
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 1Gi}}
`;

const longhornConfigMap = `---
apiVersion: v1
kind: ConfigMap
metadata: {name: longhorn-storageclass, namespace: longhorn-system}
data:
  storageclass.yaml: |
    kind: StorageClass
    apiVersion: storage.k8s.io/v1
    metadata:
      name: longhorn
    provisioner: driver.longhorn.io
`;

const claimOf = (name: string, storageClass: string) => `---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: ${name}, namespace: apps}
spec: {storageClassName: ${storageClass}, accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}
`;

ruleTester(rule, {
  valid: [
    { name: 'the class is in the repo', code: sc + pvc('fast-ssd') },
    { name: 'no class', code: pvc(null) },
    { name: 'class ""', code: pvc('') },
    {
      name: 'a class only PVs use (static binding needs no StorageClass object)',
      code: pvc('manual') + '---\napiVersion: v1\nkind: PersistentVolume\nmetadata: {name: pv-1}\nspec: {storageClassName: manual, capacity: {storage: 1Gi}, accessModes: [ReadWriteOnce], hostPath: {path: /x}}\n',
    },
    { name: 'the annotation wins over the spec', code: sc + pvc('typo', 'fast-ssd') },
    { name: 'a Flux substitution placeholder is not a class name', code: pvc('${STORAGE_CLASS:=ceph-block}') },
    {
      // The Longhorn chart renders its class into a ConfigMap; longhorn-manager creates the StorageClass from it.
      name: 'stays quiet on a class a chart ships in a ConfigMap for its operator (Longhorn)',
      code: pvc('longhorn') + longhornConfigMap,
      model: { wholeCluster: true },
    },
    ...rule.meta.examples.valid.map((code, i) => ({ name: `documented valid example ${i + 1}`, code })),
  ],
  invalid: [
    {
      name: 'a class not in the repo is a note',
      code: pvc('gp2'),
      errors: [{ messageId: 'unknown', severity: 'note', path: ['spec', 'storageClassName'], messageIncludes: ['StorageClass "gp2", which is not in the repo'] }],
    },
    {
      name: 'a class the platform creates (k3s local-path) stays a note in a whole cluster with classes of its own',
      code: sc + pvc('local-path'),
      model: { wholeCluster: true },
      errors: [{ messageId: 'unknown', severity: 'note' }],
    },
    {
      name: 'another unknown class in a whole cluster with classes of its own is a warning',
      code: sc + pvc('ceph-blok'),
      model: { wholeCluster: true },
      errors: [{ messageId: 'unknown', severity: 'warning' }],
    },
    {
      name: 'a typo of a class the configuration declares gets a suggestion',
      code: pvc('managed-premum'),
      model: { cluster: { storageClasses: [{ name: 'managed-premium', provisioner: 'disk.csi.azure.com' }] } },
      errors: [{ messageId: 'unknown', severity: 'warning', messageIncludes: ['did you mean "managed-premium"?'] }],
    },
    {
      name: 'a typo of the class the other claims use gets a suggestion (the class itself is not in the repo)',
      code: claimOf('sonarr', 'ceph-block') + claimOf('radarr', 'ceph-block') + claimOf('plex', 'ceph-block') + claimOf('bazarr', 'ceph-blok'),
      errors: [
        { messageId: 'unknown', severity: 'note', messageIncludes: ['"sonarr"', 'StorageClass "ceph-block", which is not in the repo;'] },
        { messageId: 'unknown', severity: 'note', messageIncludes: ['"radarr"'] },
        { messageId: 'unknown', severity: 'note', messageIncludes: ['"plex"'] },
        { messageId: 'unknown', severity: 'warning', messageIncludes: ['"bazarr"', 'StorageClass "ceph-blok"', 'did you mean "ceph-block"?'] },
      ],
    },
    {
      name: 'two claims with two near class names: neither is offered as the other\'s fix',
      code: claimOf('sonarr', 'nfs-media') + claimOf('radarr', 'nfs-medias'),
      errors: [
        { messageId: 'unknown', severity: 'note', messageIncludes: ['StorageClass "nfs-media", which is not in the repo;'] },
        { messageId: 'unknown', severity: 'note', messageIncludes: ['StorageClass "nfs-medias", which is not in the repo;'] },
      ],
    },
    {
      name: 'a class differing from the repo\'s only in digits is not called a typo',
      code: sc.replace('fast-ssd', 'gp2') + pvc('gp3'),
      errors: [{ messageId: 'unknown', severity: 'note', messageIncludes: ['StorageClass "gp3", which is not in the repo;'] }],
    },
    {
      name: 'a typo gets a suggestion',
      code: sc + pvc('fast-sdd'),
      errors: [{ messageId: 'unknown', severity: 'warning', messageIncludes: ['did you mean "fast-ssd"?'] }],
    },
    {
      name: 'a complete bundle makes it an error',
      code: pvc('gp2'),
      model: { bundleComplete: true },
      errors: [{ messageId: 'unknown', severity: 'error', messageIncludes: ['does not exist'] }],
    },
    {
      name: 'the class given by the beta annotation',
      code: sc + pvc('fast-ssd', 'missing'),
      errors: [{ messageId: 'unknown', path: ['metadata', 'annotations', 'volume.beta.kubernetes.io/storage-class'] }],
    },
    {
      name: 'a generic ephemeral volume',
      code: `apiVersion: v1
kind: Pod
metadata: {name: p, namespace: apps}
spec:
  containers: [{name: c, image: busybox, volumeMounts: [{name: scratch, mountPath: /s}]}]
  volumes:
    - name: scratch
      ephemeral:
        volumeClaimTemplate:
          spec: {storageClassName: scratch, accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}
`,
      errors: [{ messageId: 'unknown', path: ['spec', 'volumes', 0, 'ephemeral', 'volumeClaimTemplate', 'spec', 'storageClassName'], messageIncludes: ['ephemeral volume "scratch" of Pod "p"'] }],
    },
    ...rule.meta.examples.invalid.map((code, i) => ({ name: `documented invalid example ${i + 1}`, code, errors: [{ messageId: 'unknown' }] })),
  ],
});
