import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import rule from '../../rules/unused-claim-volume.js';
import { lintText, ruleTester } from '../helpers/rule-tester.js';

const statefulSet = (mounts: string, podVolumes = '') => `apiVersion: apps/v1
kind: StatefulSet
metadata: {name: kafka, namespace: queue}
spec:
  serviceName: kafka
  selector: {matchLabels: {app: kafka}}
  template:
    metadata: {labels: {app: kafka}}
    spec:
      initContainers:
        - name: init
          image: busybox
          volumeMounts: [${mounts}]
      containers:
        - name: kafka
          image: apache/kafka
${podVolumes}  volumeClaimTemplates:
    - metadata: {name: data}
      spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}
`;

const deployment = (mounts: string) => `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: shop}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
        - name: web
          image: nginx
          volumeMounts: [${mounts}]
      volumes:
        - name: uploads
          persistentVolumeClaim: {claimName: uploads}
        - name: scratch
          ephemeral:
            volumeClaimTemplate:
              spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}
        - name: config
          configMap: {name: web}
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: uploads, namespace: shop}
spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}
`;

ruleTester(rule, {
  valid: [
    { name: 'claim template mounted by an init container counts', code: statefulSet('{name: data, mountPath: /data}') },
    { name: 'every claim volume mounted; an unused configMap is not reported', code: deployment('{name: uploads, mountPath: /u}, {name: scratch, mountPath: /s}') },
    {
      name: 'a claim used as a block device counts',
      code: `apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  containers:
    - name: c
      image: busybox
      volumeDevices: [{name: raw, devicePath: /dev/xvda}]
  volumes:
    - name: raw
      persistentVolumeClaim: {claimName: raw}
`,
    },
    {
      name: 'a mount of an undeclared name is mount-unknown-volume\'s finding, not an unused template',
      code: statefulSet('{name: pgdata, mountPath: /data}'),
    },
    {
      name: 'patch fragments are not judged',
      code: `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  template:
    spec:
      volumes:
        - name: uploads
          persistentVolumeClaim: {claimName: uploads}
`,
    },
  ],
  invalid: [
    {
      name: 'unused claim template',
      code: statefulSet('{name: other, mountPath: /o}', `      volumes:
        - name: other
          emptyDir: {}
`),
      errors: [{ messageId: 'unusedTemplate', severity: 'warning', line: 21, resource: 'StatefulSet/queue/kafka', path: ['spec', 'volumeClaimTemplates', 0, 'metadata', 'name'], messageIncludes: ['"data"', 'every replica'] }],
    },
    {
      name: 'unused PVC and ephemeral volumes, with the PVC as related location',
      code: deployment(''),
      errors: [
        { messageId: 'unusedVolume', line: 14, messageIncludes: ['volume "uploads"', 'PersistentVolumeClaim "uploads"'] },
        { messageId: 'unusedVolume', line: 16, messageIncludes: ['volume "scratch"', 'generic ephemeral volume'] },
      ],
    },
    {
      name: 'a StatefulSet pod volume shadowed by a claim template',
      code: statefulSet('{name: data, mountPath: /data}', `      volumes:
        - name: data
          persistentVolumeClaim: {claimName: data}
`),
      errors: [{ messageId: 'shadowed', line: 18, messageIncludes: ['replaces it with the template\'s claim'] }],
    },
  ],
});

const related = suite('unused-claim-volume related locations');
related('the PVC is a related location of its unused volume', () => {
  const findings = lintText(rule, deployment(''));
  assert.equal(findings[0].related.map((r) => [r.message, r.location.region.startLine]), [['PersistentVolumeClaim "uploads"', 25]]);
});
related.run();
