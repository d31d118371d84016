import rule from '../../rules/volume-mode-mount-mismatch.js';
import { ruleTester } from '../helpers/rule-tester.js';

const pvc = (mode?: string) => `---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: disk}
spec:${mode ? `\n  volumeMode: ${mode}` : ''}
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 1Gi}}
`;
const pod = (use: 'mount' | 'device') => `---
apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  containers:
    - name: c
      image: c
      ${use === 'mount' ? 'volumeMounts: [{name: disk, mountPath: /data}]' : 'volumeDevices: [{name: disk, devicePath: /dev/xvdb}]'}
  volumes: [{name: disk, persistentVolumeClaim: {claimName: disk}}]
`;
const ephemeral = (mode: string, use: 'mount' | 'device') => `---
apiVersion: v1
kind: Pod
metadata: {name: e}
spec:
  containers:
    - name: c
      image: c
      ${use === 'mount' ? 'volumeMounts: [{name: scratch, mountPath: /data}]' : 'volumeDevices: [{name: scratch, devicePath: /dev/xvdb}]'}
  volumes:
    - name: scratch
      ephemeral:
        volumeClaimTemplate:
          spec: {volumeMode: ${mode}, accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}
`;
const pvReserving = `---
apiVersion: v1
kind: PersistentVolume
metadata: {name: other}
spec:
  accessModes: [ReadWriteOnce]
  capacity: {storage: 1Gi}
  claimRef: {namespace: default, name: disk}
  csi: {driver: ebs.csi.aws.com, volumeHandle: vol-1}
`;

ruleTester(rule, {
  valid: [
    { name: 'a Filesystem claim mounted', code: pvc() + pod('mount') },
    { name: 'a Block claim as a device', code: pvc('Block') + pod('device') },
    { name: 'a Block ephemeral volume as a device', code: ephemeral('Block', 'device') },
    { name: 'a claim not in the repo', code: pod('device') },
    { name: 'a Filesystem PV reserving a Block claim never binds it; the claim\'s mode counts', code: pvc('Block') + pvReserving + pod('device') },
  ],
  invalid: [
    {
      name: 'a Block claim mounted as a file system',
      code: pvc('Block') + pod('mount'),
      errors: [{ messageId: 'blockMounted', severity: 'error', line: 17, path: ['spec', 'containers', 0, 'volumeMounts', 0], messageIncludes: ['volumeMode Block, but is specified in volumeMounts'] }],
    },
    {
      name: 'a default (Filesystem) claim used as a device',
      code: pvc() + pod('device'),
      errors: [{ messageId: 'filesystemDevice', messageIncludes: ['(the default)', 'specified in volumeDevices'] }],
    },
    {
      name: 'a Block ephemeral volume mounted',
      code: ephemeral('Block', 'mount'),
      errors: [{ messageId: 'blockMounted', messageIncludes: ['generic ephemeral volume "scratch"'] }],
    },
  ],
});
