import rule from '../../rules/volume-device-invalid.js';
import { ruleTester } from '../helpers/rule-tester.js';

const pod = (container: string, volumes = `  volumes:
    - name: raw
      persistentVolumeClaim: {claimName: raw}
    - name: fs
      persistentVolumeClaim: {claimName: fs}
    - name: cache
      emptyDir: {}
`) => `apiVersion: v1
kind: Pod
metadata: {name: loader, namespace: db}
spec:
  containers:
    - name: loader
      image: busybox
${container}${volumes}`;

ruleTester(rule, {
  valid: [
    { name: 'a claim as device, another as mount', code: pod('      volumeDevices: [{name: raw, devicePath: /dev/xvda}]\n      volumeMounts: [{name: fs, mountPath: /data}]\n') },
    {
      name: 'the same device in two containers',
      code: pod('      volumeDevices: [{name: raw, devicePath: /dev/xvda}]\n    - name: second\n      image: busybox\n      volumeDevices: [{name: raw, devicePath: /dev/xvda}]\n'),
    },
    {
      name: 'a StatefulSet claim template as device',
      code: `apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db}
spec:
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec:
      containers:
        - name: db
          image: db
          volumeDevices: [{name: data, devicePath: /dev/data}]
  volumeClaimTemplates:
    - metadata: {name: data}
      spec: {volumeMode: Block, accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}
`,
    },
    {
      name: 'a generic ephemeral volume as device',
      code: pod('      volumeDevices: [{name: eph, devicePath: /dev/xvda}]\n', `  volumes:
    - name: eph
      ephemeral:
        volumeClaimTemplate:
          spec: {volumeMode: Block, accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}
`),
    },
  ],
  invalid: [
    {
      name: 'the same volume as device and mount',
      code: pod('      volumeDevices:\n        - name: raw\n          devicePath: /dev/xvda\n      volumeMounts:\n        - name: raw\n          mountPath: /data\n'),
      errors: [{
        messageId: 'alsoMounted', severity: 'error', line: 9, resource: 'Pod/db/loader', path: ['spec', 'containers', 0, 'volumeDevices', 0, 'name'],
        messageIncludes: ['container "loader"', 'volume "raw" both as a block device and as a mount', 'must not already exist in volumeMounts', 'rejects the Pod at apply'],
      }],
    },
    {
      name: 'device path that is a mount path',
      code: pod('      volumeDevices:\n        - name: raw\n          devicePath: /data\n      volumeMounts:\n        - name: fs\n          mountPath: /data\n'),
      errors: [{ messageId: 'pathIsMount', line: 10, messageIncludes: ['"/data"', 'must not already exist as a path in volumeMounts'] }],
    },
    {
      name: 'repeated device name and path',
      code: pod('      volumeDevices:\n        - {name: raw, devicePath: /dev/a}\n        - {name: raw, devicePath: /dev/b}\n        - {name: fs, devicePath: /dev/a}\n'),
      errors: [
        { messageId: 'duplicateName', line: 10 },
        { messageId: 'duplicatePath', line: 11 },
      ],
    },
    {
      name: 'device path with a backstep',
      code: pod('      volumeDevices:\n        - {name: raw, devicePath: /dev/../xvda}\n'),
      errors: [{ messageId: 'backsteps', line: 9 }],
    },
    {
      name: 'a device from an emptyDir',
      code: pod('      volumeDevices:\n        - {name: cache, devicePath: /dev/cache}\n'),
      errors: [{ messageId: 'notClaim', line: 9, messageIncludes: ['volume "cache" (emptyDir)', 'can only use volume source type of PersistentVolumeClaim or Ephemeral'] }],
    },
  ],
});
