// R24: a memory-backed emptyDir (tmpfs) without a size limit, or with one its writers' memory limits cannot hold.
import { defineRule } from '../src/define-rule.js';
import { memoryLimitOf, podContainers, usesOfContainer, type PodContainer } from '../src/model/mounts.js';
import { WORKLOAD_KINDS } from '../src/model/pod-templates.js';
import { compareQuantities, parseQuantity } from '../src/model/quantity.js';
import { containerLabel } from '../src/model/wiring.js';
import type { JsonPath } from '../src/types.js';

const label = (c: PodContainer) => containerLabel({ container: c.name, containerKind: c.kind });

export default defineRule({
  id: 'emptydir-memory-unbounded',
  meta: {
    catalogueId: 'R24',
    severity: 'warning',
    severities: ['note'],
    kinds: WORKLOAD_KINDS,
    summary: 'A memory-backed emptyDir (medium: Memory) has no sizeLimit, or a sizeLimit larger than the memory limit of a container that writes it.',
    why:
      '`emptyDir.medium: Memory` mounts a tmpfs: "files you write count against the memory limit of the container that wrote ' +
      'them". Without `sizeLimit` the tmpfs is sized to the pod\'s memory limit when every container has one, else to the node\'s ' +
      'allocatable memory (kubelet `calculateEmptyDirMemorySize`). A writer without a memory limit can then fill the node\'s ' +
      'memory with files — memory pressure, evictions of other pods — and a writer with a limit is OOMKilled when its files and ' +
      'its heap together reach it, where a disk would have answered "no space left". A `sizeLimit` above the writer\'s memory ' +
      'limit never takes effect: the container is OOMKilled first.',
    trigger:
      'A pod volume with `emptyDir.medium: Memory` and, for a container that mounts it without `readOnly`: no `sizeLimit` and no ' +
      '`resources.limits.memory` on that container (warning); no `sizeLimit` while every writer has a memory limit (note); or a ' +
      '`sizeLimit` larger than that container\'s `resources.limits.memory` (warning).',
    exceptions:
      'Disk-backed emptyDir volumes (the default medium) and volumes only mounted read-only are not reported. A memory limit set ' +
      'by a LimitRange default is not in the pod spec, so pvlint treats the container as unlimited.',
    fix:
      'Set `emptyDir.sizeLimit` to what the files need, below the memory limit of the containers that write them (and give those ' +
      'containers a memory limit that covers files plus working memory); or use a disk-backed emptyDir.',
    reportsAt: 'The volume\'s `emptyDir` (where `sizeLimit` should be) or its `sizeLimit`; related: the writing container\'s resources.',
    references: [
      { title: 'Kubernetes docs: Volumes, "emptyDir"', url: 'https://kubernetes.io/docs/concepts/storage/volumes/#emptydir' },
      { title: 'kubernetes pkg/volume/emptydir/empty_dir.go (calculateEmptyDirMemorySize)', url: 'https://github.com/kubernetes/kubernetes/blob/master/pkg/volume/emptydir/empty_dir.go' },
      { title: 'KEP-1967: Sizable memory-backed volumes', url: 'https://github.com/kubernetes/enhancements/blob/master/keps/sig-node/1967-size-memory-backed-volumes/README.md' },
    ],
    messages: {
      unboundedNoLimit: (d: { kind: string; workload: string; volume: string; containers: string }) =>
        `${d.kind} "${d.workload}": memory-backed emptyDir "${d.volume}" has no sizeLimit and ${d.containers} writes it without a ` +
        'memory limit, so the tmpfs is sized to the node\'s allocatable memory: its files can use up the node\'s memory and get ' +
        'other pods evicted.',
      unbounded: (d: { kind: string; workload: string; volume: string; containers: string }) =>
        `${d.kind} "${d.workload}": memory-backed emptyDir "${d.volume}" has no sizeLimit; its files count against the memory ` +
        `limit of ${d.containers}, so filling it gets the container OOMKilled instead of a "no space left" error.`,
      overLimit: (d: { kind: string; workload: string; volume: string; sizeLimit: string; container: string; memory: string }) =>
        `${d.kind} "${d.workload}": memory-backed emptyDir "${d.volume}" has sizeLimit ${d.sizeLimit}, more than the memory limit ` +
        `${d.memory} of ${d.container}, which writes it: the container is OOMKilled before the volume is full, so the sizeLimit never applies.`,
    },
    examples: {
      invalid: [
        `apiVersion: apps/v1
kind: Deployment
metadata: {name: renderer}
spec:
  selector: {matchLabels: {app: renderer}}
  template:
    metadata: {labels: {app: renderer}}
    spec:
      containers:
        - name: renderer
          image: registry.example.com/renderer:7
          volumeMounts: [{name: scratch, mountPath: /scratch}]
      volumes:
        - name: scratch
          emptyDir: {medium: Memory}
`,
      ],
      valid: [
        `apiVersion: apps/v1
kind: Deployment
metadata: {name: renderer}
spec:
  selector: {matchLabels: {app: renderer}}
  template:
    metadata: {labels: {app: renderer}}
    spec:
      containers:
        - name: renderer
          image: registry.example.com/renderer:7
          resources: {limits: {memory: 2Gi}}
          volumeMounts: [{name: scratch, mountPath: /scratch}]
      volumes:
        - name: scratch
          emptyDir: {medium: Memory, sizeLimit: 512Mi}
`,
      ],
    },
  },
  check({ model, report }) {
    for (const template of model.templates) {
      const containers = podContainers(template);
      for (const volume of template.volumes) {
        if (volume.source !== 'emptyDir') continue;
        const emptyDirPath: JsonPath = [...volume.path, 'emptyDir'];
        const emptyDir: any = emptyDirPath.reduce((o: any, k) => (o == null ? undefined : o[k as any]), template.workload.object);
        if (emptyDir?.medium !== 'Memory') continue;
        const writers = containers.filter((c) => usesOfContainer(template, c).some((u) => u.volumeName === volume.name && u.type === 'mount' && !u.readOnly));
        if (writers.length === 0) continue;
        const base = { kind: template.kind, workload: template.workload.name, volume: volume.name };
        const sizeLimit = emptyDir.sizeLimit == null ? undefined : parseQuantity(emptyDir.sizeLimit);
        if (emptyDir.sizeLimit == null) {
          const unlimited = writers.filter((c) => memoryLimitOf(c.object) === undefined);
          const subject = unlimited.length > 0 ? unlimited : writers;
          report({
            resource: template.workload,
            path: [...emptyDirPath, 'sizeLimit'],
            messageId: unlimited.length > 0 ? 'unboundedNoLimit' : 'unbounded',
            severity: unlimited.length > 0 ? 'warning' : 'note',
            data: { ...base, containers: subject.map(label).join(', ') },
            related: subject.map((c) => ({ resource: template.workload, path: [...c.path, 'resources'] as JsonPath, message: label(c) })),
          });
          continue;
        }
        if (!sizeLimit) continue;
        for (const writer of writers) {
          const limit = memoryLimitOf(writer.object);
          if (!limit || compareQuantities(sizeLimit, limit) <= 0) continue;
          report({
            resource: template.workload,
            path: [...emptyDirPath, 'sizeLimit'],
            messageId: 'overLimit',
            data: { ...base, sizeLimit: sizeLimit.text, container: label(writer), memory: limit.text },
            related: [{ resource: template.workload, path: [...writer.path, 'resources', 'limits', 'memory'], message: `${label(writer)} memory limit ${limit.text}` }],
          });
          break;
        }
      }
    }
  },
});
