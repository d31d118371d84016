import rule from '../../rules/database-on-network-fs.js';
import { ruleTester } from '../helpers/rule-tester.js';

const sts = (image: string, mountPath: string, volumes: string) => `apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db}
spec:
  serviceName: db
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec:
      containers:
        - name: db
          image: ${image}
          volumeMounts: [{name: data, mountPath: ${mountPath}}]
      volumes:${volumes}
`;
const claimVolume = '\n        - name: data\n          persistentVolumeClaim: {claimName: data}';
const nfsVolume = '\n        - name: data\n          nfs: {server: nas, path: /exports/db}';
const pvc = (storageClass: string, modes = 'ReadWriteOnce') => `---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: data}
spec:
  storageClassName: ${storageClass}
  accessModes: [${modes}]
  resources: {requests: {storage: 10Gi}}
`;
const sc = (name: string, provisioner: string, mountOptions = '') => `---
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: ${name}}
provisioner: ${provisioner}${mountOptions ? `\nmountOptions: [${mountOptions}]` : ''}
`;
const nfsPv = (options: string) => `apiVersion: v1
kind: PersistentVolume
metadata: {name: shared}
spec:
  capacity: {storage: 1Ti}
  accessModes: [ReadWriteMany]
  mountOptions: [${options}]
  nfs: {server: nas, path: /exports/shared}
`;

ruleTester(rule, {
  valid: [
    { name: 'a database on block storage', code: sts('postgres:16', '/var/lib/postgresql/data', claimVolume) + pvc('gp3') + sc('gp3', 'ebs.csi.aws.com') },
    { name: 'a non-database on NFS', code: sts('registry.example.com/app:1', '/data', nfsVolume) },
    { name: 'a claim of an unknown class', code: sts('mysql:8', '/var/lib/mysql', claimVolume) + pvc('elsewhere') },
    { name: 'a redis cache on NFS', code: sts('redis:7', '/data', nfsVolume) },
    { name: 'a hard NFS PV', code: nfsPv('hard, nfsvers=4.1') },
  ],
  invalid: [
    {
      name: 'MySQL on an inline NFS volume',
      code: sts('mysql:8.4', '/var/lib/mysql', nfsVolume),
      errors: [{ messageId: 'onNetworkFs', severity: 'warning', line: 16, path: ['spec', 'template', 'spec', 'volumes', 0, 'nfs'], messageIncludes: ['MySQL data directory /var/lib/mysql on NFS'] }],
    },
    {
      name: 'PostgreSQL on an EFS claim',
      code: sts('postgres:16', '/var/lib/postgresql/data', claimVolume) + pvc('efs', 'ReadWriteMany') + sc('efs', 'efs.csi.aws.com'),
      errors: [{ messageId: 'onNetworkFs', messageIncludes: ['Amazon EFS (NFS)'] }],
    },
    {
      name: 'a soft mount under a database is an error',
      code: sts('postgres:16', '/var/lib/postgresql/data', claimVolume) + pvc('nfs') + sc('nfs', 'nfs.csi.k8s.io', 'nfsvers=4.1, soft'),
      errors: [{ messageId: 'softMount', severity: 'error', messageIncludes: ['StorageClass "nfs"', '"soft"'] }],
    },
    {
      name: 'a Longhorn ReadWriteMany claim is served over NFS',
      code: sts('mongo:7', '/data/db', claimVolume) + pvc('longhorn', 'ReadWriteMany') + sc('longhorn', 'driver.longhorn.io'),
      errors: [{ messageId: 'onNetworkFs', messageIncludes: ['Longhorn ReadWriteMany share'] }],
    },
    {
      name: 'soft on any NFS PV is a note',
      code: nfsPv('soft,timeo=30'),
      errors: [{ messageId: 'softOption', severity: 'note', path: ['spec', 'mountOptions', 0] }],
    },
  ],
});
