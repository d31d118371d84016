// Two volumeMounts of one container at the same mountPath.
import { defineRule } from '../src/define-rule.js';
import { WORKLOAD_KINDS, type ContainerUse } from '../src/model/pod-templates.js';
import { containerLabel, podSpecRejection } from '../src/model/wiring.js';

export default defineRule({
  id: 'duplicate-mount-path',
  meta: {
    severity: 'error',
    kinds: WORKLOAD_KINDS,
    summary: 'Two volumeMounts of the same container use the same mountPath.',
    why:
      'A container can have only one mount at a path. Pod validation (`ValidateVolumeMounts`) keeps a set of mount points per ' +
      'container and rejects a repeat with `spec.containers[0].volumeMounts[1].mountPath: Invalid value: "/data": must be ' +
      'unique`. The usual cause is a copy-pasted mount or two volumes (say a claim and an emptyDir) meant for the same ' +
      'directory, where only one can win. A Pod, and the template of a Deployment, ReplicaSet, DaemonSet, Job or CronJob, is ' +
      'rejected at apply; a StatefulSet is accepted by API servers before v1.34 and every pod creation then fails ' +
      '(FailedCreate events).',
    trigger:
      'Two `volumeMounts[]` entries of one container (or init container, or ephemeral container) whose `mountPath` strings ' +
      'are equal. Mounts of different containers may share a path.',
    exceptions:
      'Only exact duplicates are reported, as validation compares the strings: `/data` and `/data/` pass validation and are ' +
      'not reported. Mount paths that collide with a `volumeDevices[].devicePath` are reported by volume-device-invalid.',
    fix:
      'Keep one mount per path: remove the duplicate, or give the second volume its own `mountPath` (or a `subPath` of the ' +
      'first volume if both were meant to share a directory).',
    reportsAt: 'The `mountPath` of the second (and any later) mount at that path; related: the first mount at the path.',
    references: [
      { title: 'Kubernetes API validation: ValidateVolumeMounts ("must be unique")', url: 'https://github.com/kubernetes/kubernetes/blob/master/pkg/apis/core/validation/validation.go' },
      { title: 'Kubernetes docs: Volumes', url: 'https://kubernetes.io/docs/concepts/storage/volumes/' },
      { title: 'kubernetes/kubernetes PR #131790: pod template validation for StatefulSet create (v1.34)', url: 'https://github.com/kubernetes/kubernetes/pull/131790' },
    ],
    messages: {
      duplicate: (d: { kind: string; workload: string; container: string; mountPath: string; volume: string; first: string; when: string }) =>
        `${d.kind} "${d.workload}": ${d.container} mounts volume "${d.volume}" at "${d.mountPath}", where volume "${d.first}" is already mounted; ` +
        `validation fails with 'mountPath: Invalid value: "${d.mountPath}": must be unique', and ${d.when}.`,
    },
    examples: {
      invalid: [
        `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: shop}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
        - name: web
          image: nginx:1.27
          volumeMounts:
            - name: uploads
              mountPath: /usr/share/nginx/html
            - name: cache
              mountPath: /usr/share/nginx/html
      volumes:
        - name: uploads
          persistentVolumeClaim: {claimName: uploads}
        - name: cache
          emptyDir: {}
`,
      ],
      valid: [
        `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: shop}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
        - name: web
          image: nginx:1.27
          volumeMounts:
            - name: uploads
              mountPath: /usr/share/nginx/html
            - name: cache
              mountPath: /var/cache/nginx
      volumes:
        - name: uploads
          persistentVolumeClaim: {claimName: uploads}
        - name: cache
          emptyDir: {}
`,
      ],
    },
  },
  check({ model, report }) {
    for (const template of model.templates) {
      const seen = new Map<string, ContainerUse>();
      for (const use of template.uses) {
        if (use.type !== 'mount' || use.target === undefined) continue;
        // The container's own path prefix identifies it even when names repeat or are missing.
        const key = `${use.path.slice(0, -2).join('/')}\u0000${use.target}`;
        const first = seen.get(key);
        if (!first) {
          seen.set(key, use);
          continue;
        }
        report({
          resource: template.workload,
          path: [...use.path, 'mountPath'],
          messageId: 'duplicate',
          data: {
            kind: template.kind,
            workload: template.workload.name,
            container: containerLabel(use),
            mountPath: use.target,
            volume: use.volumeName,
            first: first.volumeName,
            when: podSpecRejection(template.kind),
          },
          related: [{ resource: template.workload, path: [...first.path, 'mountPath'], message: `first mount at "${use.target}" (volume "${first.volumeName}")` }],
        });
      }
    }
  },
});
