import rule from '../../rules/readonly-mode-mismatch.js';
import { ruleTester } from '../helpers/rule-tester.js';

const pvc = (modes: string) => `apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: models}
spec:
  accessModes: [${modes}]
  resources: {requests: {storage: 10Gi}}
---
`;
const deployment = (opts: { mountReadOnly?: boolean; claimReadOnly?: boolean; device?: boolean } = {}) => `apiVersion: apps/v1
kind: Deployment
metadata: {name: serve}
spec:
  selector: {matchLabels: {app: serve}}
  template:
    metadata: {labels: {app: serve}}
    spec:
      containers:
        - name: serve
          image: serve
          ${opts.device ? 'volumeDevices: [{name: models, devicePath: /dev/models}]' : `volumeMounts: [{name: models, mountPath: /models${opts.mountReadOnly ? ', readOnly: true' : ''}}]`}
      volumes: [{name: models, persistentVolumeClaim: {claimName: models${opts.claimReadOnly ? ', readOnly: true' : ''}}}]
`;
const db = (readOnly: string) => `apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db}
spec:
  serviceName: db
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec:
      containers:
        - name: mysql
          image: mysql:8.4
          volumeMounts: [{name: data, mountPath: /var/lib/mysql${readOnly}}]
  volumeClaimTemplates:
    - metadata: {name: data}
      spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 10Gi}}}
`;

ruleTester(rule, {
  valid: [
    { name: 'ReadOnlyMany mounted readOnly', code: pvc('ReadOnlyMany') + deployment({ mountReadOnly: true }) },
    { name: 'ReadOnlyMany with persistentVolumeClaim.readOnly', code: pvc('ReadOnlyMany') + deployment({ claimReadOnly: true }) },
    { name: 'ReadWriteOnce mounted writable', code: pvc('ReadWriteOnce') + deployment() },
    { name: 'ReadOnlyMany next to ReadWriteOnce', code: pvc('ReadWriteOnce, ReadOnlyMany') + deployment() },
    { name: 'a claim not in the repo', code: deployment() },
    { name: 'a database mounted read-write', code: db('') },
  ],
  invalid: [
    {
      name: 'ReadOnlyMany mounted without readOnly',
      code: pvc('ReadOnlyMany') + deployment(),
      errors: [{ messageId: 'writableRox', severity: 'warning', line: 19, path: ['spec', 'template', 'spec', 'containers', 0, 'volumeMounts', 0, 'readOnly'], messageIncludes: ['ReadOnlyMany only'] }],
    },
    {
      name: 'a ReadOnlyMany device is reported at the volume',
      code: pvc('ReadOnlyMany') + deployment({ device: true }),
      errors: [{ messageId: 'writableRox', path: ['spec', 'template', 'spec', 'volumes', 0, 'persistentVolumeClaim', 'readOnly'] }],
    },
    {
      name: 'a database data directory mounted read-only',
      code: db(', readOnly: true'),
      errors: [{ messageId: 'readOnlyData', severity: 'error', messageIncludes: ['MySQL', 'read-only file system'] }],
    },
  ],
});
