// A Windows pod mounts a volume of a CSI driver that has no Windows node plugin (EFS, Mountpoint for S3, NFS CSI).
import { defineRule } from '../src/define-rule.js';
import { volumeNamed } from '../src/model/mounts.js';
import { podNodeTerms } from '../src/model/node-selector.js';
import { WORKLOAD_KINDS, type PodTemplate } from '../src/model/pod-templates.js';
import { normaliseProvisioner } from '../src/model/provisioners.js';
import type { JsonPath, RuleReference } from '../src/types.js';

const OS_LABEL = 'kubernetes.io/os';

/** CSI drivers documented as Linux-only, with the statement. */
export const LINUX_ONLY_DRIVERS: Readonly<Record<string, { product: string; source: RuleReference }>> = {
  'efs.csi.aws.com': {
    product: 'the Amazon EFS CSI driver',
    source: { title: 'Amazon EKS User Guide: Amazon EFS CSI driver, Considerations ("isn\'t compatible with Windows-based container images")', url: 'https://docs.aws.amazon.com/eks/latest/userguide/efs-csi.html' },
  },
  's3.csi.aws.com': {
    product: 'the Mountpoint for Amazon S3 CSI driver',
    source: { title: 'Amazon EKS User Guide: Mountpoint for Amazon S3 CSI driver, Considerations ("isn\'t presently compatible with Windows-based container images")', url: 'https://docs.aws.amazon.com/eks/latest/userguide/s3-csi.html' },
  },
  'nfs.csi.k8s.io': {
    product: 'the NFS CSI driver',
    source: { title: 'kubernetes-csi/csi-driver-nfs README ("access NFS server on Linux node")', url: 'https://github.com/kubernetes-csi/csi-driver-nfs' },
  },
};

/** Where the template requires Windows nodes: `spec.os.name: windows`, a `kubernetes.io/os: windows` selector, or required affinity to it only. */
function windowsRequirement(template: PodTemplate): JsonPath | undefined {
  const spec = template.spec ?? {};
  if (spec.os?.name === 'windows') return [...template.specPath, 'os', 'name'];
  if (spec.nodeSelector?.[OS_LABEL] === 'windows') return [...template.specPath, 'nodeSelector', OS_LABEL];
  const terms = podNodeTerms(template);
  if (!terms || terms.length === 0) return undefined;
  let path: JsonPath | undefined;
  for (const term of terms) {
    const os = term.find((r) => r.key === OS_LABEL && r.operator === 'In' && r.values.length > 0 && r.values.every((v) => v === 'windows'));
    if (!os) return undefined;
    path ??= os.path;
  }
  return path;
}

export default defineRule({
  id: 'linux-only-driver-on-windows',
  meta: {
    severity: 'error',
    kinds: [...WORKLOAD_KINDS, 'PersistentVolumeClaim', 'PersistentVolume', 'StorageClass'],
    summary: 'A pod that runs on Windows nodes mounts a volume of a CSI driver that only works on Linux nodes (EFS, Mountpoint for S3, NFS CSI).',
    why:
      'A CSI volume is mounted by the driver\'s node plugin on the node that runs the pod. Drivers that support only Linux ' +
      'nodes run no node plugin on Windows nodes, so kubelet on a Windows node finds no such driver and the pod stays ' +
      'ContainerCreating. The EFS and Mountpoint for S3 drivers say so in their considerations; the NFS CSI driver serves ' +
      'Linux nodes.',
    trigger:
      'A pod template that requires Windows nodes (`spec.os.name: windows`, a `kubernetes.io/os: windows` nodeSelector, or required ' +
      'node affinity that only allows `kubernetes.io/os` in (windows)) and mounts a claim, PV or inline CSI volume of ' +
      `${Object.keys(LINUX_ONLY_DRIVERS).join(', ')}.`,
    exceptions:
      'Pods that may run on Linux nodes are not reported. Claims whose driver is unknown (not in the repo) are not guessed at. For ' +
      'SMB shares from Windows pods, the SMB CSI driver and Azure Files support Windows nodes.',
    fix: 'Run the workload on Linux nodes, or use storage whose driver supports Windows nodes (SMB CSI, Azure Files, Azure Disk, EBS with the Windows node plugin).',
    reportsAt: 'The volume in the pod spec (its claimName or csi driver); the Windows requirement is related.',
    references: Object.values(LINUX_ONLY_DRIVERS).map((d) => d.source),
    messages: {
      linuxOnly: (d: { kind: string; workload: string; volume: string; driver: string; product: string }) =>
        `${d.kind} "${d.workload}" runs on Windows nodes but mounts volume "${d.volume}" of ${d.driver}: ${d.product} has no Windows node ` +
        'plugin, so kubelet finds no such driver there and the pods stay ContainerCreating.',
    },
    examples: {
      invalid: [
        `apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: efs}
provisioner: efs.csi.aws.com
parameters: {provisioningMode: efs-ap, fileSystemId: fs-0123456789abcdef0, directoryPerms: "700"}
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: shared, namespace: iis}
spec:
  storageClassName: efs
  accessModes: [ReadWriteMany]
  resources: {requests: {storage: 5Gi}}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: site, namespace: iis}
spec:
  selector: {matchLabels: {app: site}}
  template:
    metadata: {labels: {app: site}}
    spec:
      nodeSelector: {kubernetes.io/os: windows}
      containers: [{name: iis, image: mcr.microsoft.com/windows/servercore/iis, volumeMounts: [{name: content, mountPath: "C:\\\\inetpub\\\\wwwroot"}]}]
      volumes: [{name: content, persistentVolumeClaim: {claimName: shared}}]
`,
      ],
      valid: [
        `apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: efs}
provisioner: efs.csi.aws.com
parameters: {provisioningMode: efs-ap, fileSystemId: fs-0123456789abcdef0, directoryPerms: "700"}
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: shared, namespace: web}
spec:
  storageClassName: efs
  accessModes: [ReadWriteMany]
  resources: {requests: {storage: 5Gi}}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: site, namespace: web}
spec:
  selector: {matchLabels: {app: site}}
  template:
    metadata: {labels: {app: site}}
    spec:
      nodeSelector: {kubernetes.io/os: linux}
      containers: [{name: web, image: nginx, volumeMounts: [{name: content, mountPath: /usr/share/nginx/html}]}]
      volumes: [{name: content, persistentVolumeClaim: {claimName: shared}}]
`,
      ],
    },
  },
  check({ model, report }) {
    for (const template of model.templates) {
      const windows = windowsRequirement(template);
      if (!windows) continue;
      const names = [...template.volumes.map((v) => v.name), ...template.claimTemplates.map((t) => t.name)];
      for (const name of new Set(names)) {
        const ref = volumeNamed(template, name);
        if (!ref) continue;
        let driver: string | undefined;
        let path: JsonPath | undefined;
        if (ref.kind === 'csi-inline' && ref.volume) {
          driver = typeof ref.source?.driver === 'string' ? ref.source.driver : undefined;
          path = [...ref.volume.path, 'csi', 'driver'];
        } else {
          const claim = model.claimOfVolume(template, ref);
          if (!claim || claim === 'external') continue;
          driver = claim.storage.driver.name;
          path = ref.volume ? [...ref.volume.path, ...(ref.volume.claimName !== undefined ? ['persistentVolumeClaim', 'claimName'] : [])] : ref.claimTemplate?.path;
        }
        if (!driver || !path) continue;
        const key = normaliseProvisioner(driver);
        const known = LINUX_ONLY_DRIVERS[key];
        if (!known) continue;
        report({
          resource: template.workload, path, messageId: 'linuxOnly',
          data: { kind: template.kind, workload: template.workload.name, volume: name, driver: key, product: known.product },
          related: [{ resource: template.workload, path: windows, message: 'the pods require Windows nodes' }],
        });
      }
    }
  },
});
