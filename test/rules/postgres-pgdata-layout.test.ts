import rule from '../../rules/postgres-pgdata-layout.js';
import { ruleTester } from '../helpers/rule-tester.js';

const sts = (image: string, mountPath: string, extra = '', subPath = '', storageClass = '') => `${storageClass}apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db}
spec:
  serviceName: db
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec:
      containers:
        - name: postgres
          image: ${image}${extra}
          volumeMounts:
            - name: data
              mountPath: ${mountPath}${subPath}
  volumeClaimTemplates:
    - metadata: {name: data}
      spec: {${storageClass ? 'storageClassName: nfs, ' : ''}accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}
`;
const nfsClass = 'apiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata: {name: nfs}\nprovisioner: nfs.csi.k8s.io\n---\n';
const pgdata = (value: string) => `\n          env: [{name: PGDATA, value: ${value}}]`;

ruleTester(rule, {
  valid: [
    { name: '18 mounted at /var/lib/postgresql', code: sts('postgres:18', '/var/lib/postgresql') },
    { name: '16 with PGDATA in a subdirectory', code: sts('postgres:16', '/var/lib/postgresql/data', pgdata('/var/lib/postgresql/data/pgdata')) },
    { name: '16 mounted with subPath', code: sts('postgres:16', '/var/lib/postgresql/data', '', '\n              subPath: pgdata') },
    { name: '16 on NFS has no lost+found', code: sts('postgres:16', '/var/lib/postgresql/data', '', '', nfsClass) },
    { name: '18 with PGDATA set below the old mount', code: sts('postgres:18', '/var/lib/postgresql/data', pgdata('/var/lib/postgresql/data/pgdata')) },
    { name: 'a digest-only reference has no known version', code: sts('postgres@sha256:0123456789abcdef', '/var/lib/postgresql/data') },
    { name: 'postgis without a version in the tag', code: sts('postgis/postgis:latest', '/var/lib/postgresql/data') },
  ],
  invalid: [
    {
      name: '18 with the pre-18 mount',
      code: sts('postgres:18.1', '/var/lib/postgresql/data'),
      errors: [{ messageId: 'oldMount18', severity: 'error', line: 15, path: ['spec', 'template', 'spec', 'containers', 0, 'volumeMounts', 0, 'mountPath'], messageIncludes: ['PostgreSQL 18', 'unused mount/volume'] }],
    },
    {
      name: 'latest is 18',
      code: sts('postgres:alpine', '/var/lib/postgresql/data/'),
      errors: [{ messageId: 'oldMount18', messageIncludes: ['the `alpine` tag points at'] }],
    },
    {
      name: '16 with the claim root as PGDATA (lost+found)',
      code: sts('postgres:16-alpine', '/var/lib/postgresql/data'),
      errors: [{ messageId: 'mountRoot', severity: 'warning', messageIncludes: ['lost+found', 'PostgreSQL 16'] }],
    },
    {
      name: 'PGDATA set to the mount root is reported at PGDATA',
      code: sts('postgres:18', '/pgdata', pgdata('/pgdata')),
      errors: [{ messageId: 'mountRoot', path: ['spec', 'template', 'spec', 'containers', 0, 'env', 0, 'value'] }],
    },
    {
      name: 'pgvector built on the official image',
      code: sts('pgvector/pgvector:0.8.0-pg18', '/var/lib/postgresql/data'),
      errors: [{ messageId: 'oldMount18' }],
    },
  ],
});
