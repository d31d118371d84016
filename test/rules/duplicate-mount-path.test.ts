import rule from '../../rules/duplicate-mount-path.js';
import { ruleTester } from '../helpers/rule-tester.js';

const pod = (mounts: string, extra = '') => `apiVersion: v1
kind: Pod
metadata: {name: p, namespace: ns}
spec:
  containers:
    - name: app
      image: busybox
      volumeMounts:
${mounts}${extra}  volumes:
    - {name: a, emptyDir: {}}
    - {name: b, emptyDir: {}}
`;

ruleTester(rule, {
  valid: [
    { name: 'distinct paths', code: pod('        - {name: a, mountPath: /a}\n        - {name: b, mountPath: /b}\n') },
    { name: 'a trailing slash is another string for validation', code: pod('        - {name: a, mountPath: /data}\n        - {name: b, mountPath: /data/}\n') },
    {
      name: 'the same path in two containers',
      code: pod('        - {name: a, mountPath: /data}\n', '    - name: sidecar\n      image: busybox\n      volumeMounts:\n        - {name: b, mountPath: /data}\n'),
    },
    {
      name: 'the same path in an init container and a container',
      code: pod('        - {name: a, mountPath: /data}\n', '  initContainers:\n    - name: init\n      image: busybox\n      volumeMounts:\n        - {name: a, mountPath: /data}\n'),
    },
  ],
  invalid: [
    {
      name: 'two volumes at one path',
      code: pod('        - {name: a, mountPath: /data}\n        - {name: b, mountPath: /data}\n'),
      errors: [{
        messageId: 'duplicate', severity: 'error', line: 10, resource: 'Pod/ns/p', path: ['spec', 'containers', 0, 'volumeMounts', 1, 'mountPath'],
        messageIncludes: ['container "app"', 'volume "b" at "/data"', 'volume "a" is already mounted', 'must be unique', 'rejects the Pod at apply'],
      }],
    },
    {
      name: 'three mounts at one path in an init container of a StatefulSet',
      code: `apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db}
spec:
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec:
      initContainers:
        - name: init
          image: busybox
          volumeMounts:
            - {name: data, mountPath: /data}
            - {name: data, mountPath: /data, subPath: x}
            - {name: data, mountPath: /data, subPath: y}
      containers: [{name: db, image: postgres}]
  volumeClaimTemplates:
    - metadata: {name: data}
      spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}
`,
      errors: [
        { messageId: 'duplicate', line: 14, messageIncludes: ['init container "init"', 'FailedCreate'] },
        { messageId: 'duplicate', line: 15 },
      ],
    },
  ],
});
