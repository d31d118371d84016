import rule from '../../rules/linux-only-driver-on-windows.js';
import { ruleTester } from '../helpers/rule-tester.js';

const classAndClaim = (provisioner = 'efs.csi.aws.com') => `apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: shared}
provisioner: ${provisioner}
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: content, namespace: iis}
spec:
  storageClassName: shared
  accessModes: [ReadWriteMany]
  resources: {requests: {storage: 5Gi}}
---
`;
const pod = (placement: string, volume = '{name: content, persistentVolumeClaim: {claimName: content}}') => `apiVersion: v1
kind: Pod
metadata: {name: site, namespace: iis}
spec:${placement}
  containers: [{name: iis, image: mcr.microsoft.com/windows/servercore/iis, volumeMounts: [{name: content, mountPath: "C:/data"}]}]
  volumes: [${volume}]
`;

ruleTester(rule, {
  valid: [
    { name: 'stays quiet on Azure Files for a Windows pod', code: classAndClaim('file.csi.azure.com') + pod('\n  nodeSelector: {kubernetes.io/os: windows}') },
    { name: 'stays quiet on an Azure Disk claim for a Windows pod pinned with spec.os', code: classAndClaim('disk.csi.azure.com').replace('ReadWriteMany', 'ReadWriteOnce') + pod('\n  os: {name: windows}') },
    { name: 'a Linux pod', code: classAndClaim() + pod('\n  nodeSelector: {kubernetes.io/os: linux}') },
    { name: 'no OS requirement', code: classAndClaim() + pod('') },
    { name: 'a Windows pod on a driver with Windows support', code: classAndClaim('smb.csi.k8s.io') + pod('\n  nodeSelector: {kubernetes.io/os: windows}') },
    { name: 'affinity that also allows Linux', code: classAndClaim() + pod(`
  affinity:
    nodeAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
        nodeSelectorTerms:
          - matchExpressions: [{key: kubernetes.io/os, operator: In, values: [windows, linux]}]`) },
    { name: 'a claim not in the repo', code: pod('\n  nodeSelector: {kubernetes.io/os: windows}') },
    ...rule.meta.examples.valid.map((code, i) => ({ name: `documented valid example ${i + 1}`, code })),
  ],
  invalid: [
    {
      name: 'an EFS claim from a Windows nodeSelector pod',
      code: classAndClaim() + pod('\n  nodeSelector: {kubernetes.io/os: windows}'),
      errors: [{ messageId: 'linuxOnly', severity: 'error', path: ['spec', 'volumes', 0, 'persistentVolumeClaim', 'claimName'], messageIncludes: ['efs.csi.aws.com', 'the Amazon EFS CSI driver has no Windows node plugin'] }],
    },
    {
      name: 'spec.os.name windows and an NFS CSI claim',
      code: classAndClaim('nfs.csi.k8s.io') + pod('\n  os: {name: windows}'),
      errors: [{ messageId: 'linuxOnly', messageIncludes: ['nfs.csi.k8s.io'] }],
    },
    {
      name: 'required affinity to Windows only, and an inline S3 CSI volume',
      code: pod(`
  affinity:
    nodeAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
        nodeSelectorTerms:
          - matchExpressions: [{key: kubernetes.io/os, operator: In, values: [windows]}]`, '{name: content, csi: {driver: s3.csi.aws.com, volumeAttributes: {bucketName: b}}}'),
      errors: [{ messageId: 'linuxOnly', path: ['spec', 'volumes', 0, 'csi', 'driver'], messageIncludes: ['Mountpoint for Amazon S3'] }],
    },
    ...rule.meta.examples.invalid.map((code, i) => ({ name: `documented invalid example ${i + 1}`, code, errors: [{ messageId: 'linuxOnly' }] })),
  ],
});
