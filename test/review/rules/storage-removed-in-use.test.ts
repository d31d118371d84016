import rule from '../../../rules/storage-removed-in-use.js';
import { changeRuleTester, lineOf } from '../helpers.js';

const claim = (name: string, extra = '', metadata = '') => `apiVersion: v1
kind: PersistentVolumeClaim
metadata:
  name: ${name}
  namespace: app
${metadata}spec:
  accessModes: [ReadWriteOnce]
${extra}  resources: {requests: {storage: 5Gi}}
---
`;
const deployment = (claimName: string) => `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: app}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: web, image: nginx, volumeMounts: [{name: uploads, mountPath: /uploads}]}]
      volumes:
        - name: uploads
          persistentVolumeClaim:
            claimName: ${claimName}
`;
const sc = (name: string, annotations = '') => `apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata:
  name: ${name}
${annotations}provisioner: ebs.csi.aws.com
---
`;
const sts = (cls?: string) => `apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db, namespace: app}
spec:
  serviceName: db
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec: {containers: [{name: db, image: busybox, volumeMounts: [{name: data, mountPath: /data}]}]}
  volumeClaimTemplates:
    - metadata: {name: data}
      spec:
        accessModes: [ReadWriteOnce]
${cls === undefined ? '' : `        storageClassName: ${cls}\n`}        resources: {requests: {storage: 10Gi}}
`;
const pv = `apiVersion: v1
kind: PersistentVolume
metadata: {name: vol-1}
spec:
  capacity: {storage: 5Gi}
  accessModes: [ReadWriteOnce]
  nfs: {server: nfs.example.com, path: /exports}
---
`;
const DEFAULT = "  annotations: {storageclass.kubernetes.io/is-default-class: 'true'}\n";

const headMounting = deployment('uploads');
const headSwapped = claim('uploads-v2') + deployment('uploads-v2');
const headClone = claim('uploads-v2', '  dataSource: {kind: PersistentVolumeClaim, name: uploads}\n') + deployment('uploads-v2');
const headClassUser = claim('uploads', '  storageClassName: fast\n') + sts('fast');
const headDefaultUser = sts();
const headVolumeUser = claim('uploads', '  volumeName: vol-1\n');

changeRuleTester(rule, {
  valid: [
    { name: 'nothing removed', base: claim('uploads') + deployment('uploads'), head: claim('uploads') + deployment('uploads') },
    { name: 'claim removed together with its consumer', base: claim('uploads') + deployment('uploads'), head: sts() },
    {
      name: 'workload moved to a clone of the removed claim',
      base: claim('uploads') + deployment('uploads'),
      head: headClone,
    },
    { name: 'claim moved to a claim template of the same name', base: claim('data-db-0') + deployment('data-db-0'), head: sts() + '---\n' + deployment('data-db-0') },
    { name: 'class removed, no claim names it', base: sc('fast') + claim('uploads', '  storageClassName: gp3\n'), head: claim('uploads', '  storageClassName: gp3\n') },
    { name: 'class removed but another default class remains for classless claims', base: sc('old', DEFAULT) + sc('new', DEFAULT) + sts(), head: sc('new', DEFAULT) + sts() },
    { name: 'PV removed, no claim names it', base: pv + claim('uploads'), head: claim('uploads') },
  ],
  invalid: [
    {
      name: 'claim removed while a Deployment mounts it',
      base: claim('uploads') + deployment('uploads'),
      head: headMounting,
      errors: [{ messageId: 'claimRemoved', severity: 'error', line: lineOf(headMounting, 'claimName'), messageIncludes: ['"uploads"', 'namespace "app"'], related: ['base.yaml:4'] }],
    },
    {
      name: 'claim removed while mounted, no managing tool in sight: pruning is conditional, no tool is named',
      base: claim('uploads') + deployment('uploads'),
      head: headMounting,
      errors: [{ messageId: 'claimRemoved', messageIncludes: ['if what applies the repo prunes (a GitOps tool, kubectl apply --prune; the repo does not show which), it deletes the claim'] }],
    },
    {
      name: 'claim removed while mounted, Flux manages it: Flux prunes it (Helm is not named)',
      base: claim('uploads', '', '  labels: {kustomize.toolkit.fluxcd.io/name: apps}\n') + deployment('uploads'),
      head: headMounting,
      errors: [{ messageId: 'claimRemoved', messageIncludes: ['"app": Flux prunes it (its label kustomize.toolkit.fluxcd.io/name), it stays Terminating'] }],
    },
    {
      name: 'claim removed while mounted, Argo CD manages it: Argo CD prunes it',
      base: claim('uploads', '', '  annotations: {argocd.argoproj.io/sync-wave: "1"}\n') + deployment('uploads'),
      head: headMounting,
      errors: [{ messageId: 'claimRemoved', messageIncludes: ['Argo CD prunes it (its annotation argocd.argoproj.io/sync-wave)'] }],
    },
    {
      name: 'claim removed while mounted, a chart\'s claim: Helm deletes it on the upgrade',
      base: claim('uploads', '', '  labels: {app.kubernetes.io/managed-by: Helm}\n') + deployment('uploads'),
      head: headMounting,
      errors: [{ messageId: 'claimRemoved', messageIncludes: ['Helm deletes it on the upgrade (label app.kubernetes.io/managed-by: Helm)'] }],
    },
    {
      name: 'claim replaced, Flux manages the old one: it is pruned by Flux',
      base: claim('uploads', '', '  labels: {kustomize.toolkit.fluxcd.io/name: apps}\n') + deployment('uploads'),
      head: headSwapped,
      errors: [{ messageId: 'claimReplaced', messageIncludes: ['"uploads" with the data is pruned by Flux (its label kustomize.toolkit.fluxcd.io/name)'] }],
    },
    {
      name: 'claim removed while mounted, but protected from prune',
      base: claim('uploads', '', "  annotations: {helm.sh/resource-policy: keep}\n") + deployment('uploads'),
      head: headMounting,
      errors: [{ messageId: 'claimRemovedProtected', severity: 'warning', line: lineOf(headMounting, 'claimName'), messageIncludes: ['helm.sh/resource-policy: keep'] }],
    },
    {
      name: 'claim replaced by a new, empty one',
      base: claim('uploads') + deployment('uploads'),
      head: headSwapped,
      errors: [{ messageId: 'claimReplaced', severity: 'error', line: lineOf(headSwapped, 'claimName'), messageIncludes: ['"uploads-v2" instead of "uploads"'] }],
    },
    {
      name: 'claim replaced, old one kept by Argo CD Prune=false',
      base: claim('uploads', '', '  annotations: {argocd.argoproj.io/sync-options: "Prune=false,Delete=false"}\n') + deployment('uploads'),
      head: headSwapped,
      errors: [{ messageId: 'claimReplacedProtected', severity: 'warning', messageIncludes: ['Prune=false'] }],
    },
    {
      name: 'StorageClass removed while a claim and a claim template name it',
      base: sc('fast') + headClassUser,
      head: headClassUser,
      errors: [
        { messageId: 'classRemoved', severity: 'warning', line: lineOf(headClassUser, 'storageClassName: fast'), messageIncludes: ['PersistentVolumeClaim "uploads" names StorageClass "fast"'] },
        { messageId: 'classRemoved', severity: 'warning', line: lineOf(headClassUser, 'storageClassName: fast', lineOfIndex(headClassUser)), messageIncludes: ['volumeClaimTemplate "data"'] },
      ],
    },
    {
      name: 'the default StorageClass removed while classless claim templates rely on it',
      base: sc('standard', DEFAULT) + headDefaultUser,
      head: headDefaultUser,
      errors: [{ messageId: 'classRemoved', line: lineOf(headDefaultUser, 'spec:', headDefaultUser.indexOf('- metadata')), messageIncludes: ['relies on the default StorageClass "standard"'] }],
    },
    {
      name: 'PV removed while a claim names it',
      base: pv + headVolumeUser,
      head: headVolumeUser,
      errors: [{ messageId: 'volumeRemoved', severity: 'warning', line: lineOf(headVolumeUser, 'volumeName'), related: ['base.yaml:3'] }],
    },
  ],
});

function lineOfIndex(text: string): number {
  return text.indexOf('kind: StatefulSet');
}
