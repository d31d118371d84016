// A volumeMount subPath (or subPathExpr) that pod validation rejects.
import { defineRule } from '../src/define-rule.js';
import { WORKLOAD_KINDS } from '../src/model/pod-templates.js';
import { containerLabel, podSpecRejection } from '../src/model/wiring.js';

/** path.IsAbs on the API server (Linux): a leading slash. */
const isAbsolute = (value: string) => value.startsWith('/');
/** validatePathNoBacksteps: any element, split on '/', that is exactly "..". */
const hasBackstep = (value: string) => value.split('/').includes('..');

export default defineRule({
  id: 'subpath-invalid',
  meta: {
    severity: 'error',
    kinds: WORKLOAD_KINDS,
    summary: 'A volumeMount subPath or subPathExpr that is absolute, steps out with "..", or is set together with the other.',
    why:
      '`subPath` selects a directory inside the volume, so it must stay inside it: pod validation runs ' +
      '`validateLocalDescendingPath` on it, which rejects an absolute path ("must be a relative path") and any `..` path ' +
      'element ("must not contain \'..\'"). `subPathExpr` gets the same check before variable expansion, and the two fields are ' +
      'mutually exclusive ("subPathExpr and subPath are mutually exclusive"). Ephemeral containers may not use either ' +
      '("cannot be set for an Ephemeral Container"). A Pod, and the template of a Deployment, ReplicaSet, DaemonSet, Job or ' +
      'CronJob, is rejected at apply; a StatefulSet is accepted by API servers before v1.34 and every pod creation then fails ' +
      '(FailedCreate events). The R29 subpath-pitfalls rule covers subPaths that validate but misbehave.',
    trigger:
      'A `volumeMounts[]` entry whose `subPath` or `subPathExpr` starts with `/` or has a `..` element when split on `/`; ' +
      'one that sets both `subPath` and `subPathExpr`; or an ephemeral container mount that sets either.',
    exceptions:
      'A `subPathExpr` that only becomes absolute or climbs out after `$(VAR)` expansion fails at container start, not at ' +
      'validation, and is not reported. Names like `..data` or `a..b` are allowed (only a whole `..` element is a backstep). ' +
      'Image-volume restrictions on subPath differ between Kubernetes versions and are not checked.',
    fix:
      'Write `subPath` relative to the volume root, without `..` (`mysql`, not `/mysql` or `../mysql`); keep only one of ' +
      '`subPath` and `subPathExpr`; mount the parent directory instead of climbing out of the volume.',
    reportsAt: 'The offending `subPath` / `subPathExpr` field of the mount; related: the volume it selects from.',
    references: [
      { title: 'Kubernetes API validation: ValidateVolumeMounts, validateLocalDescendingPath', url: 'https://github.com/kubernetes/kubernetes/blob/master/pkg/apis/core/validation/validation.go' },
      { title: 'Kubernetes docs: Using subPath', url: 'https://kubernetes.io/docs/concepts/storage/volumes/#using-subpath' },
      { title: 'Kubernetes docs: Using subPath with expanded environment variables', url: 'https://kubernetes.io/docs/concepts/storage/volumes/#using-subpath-expanded-environment' },
    ],
    messages: {
      absolute: (d: { kind: string; workload: string; container: string; field: string; value: string; when: string }) =>
        `${d.kind} "${d.workload}": ${d.container} mounts with ${d.field} "${d.value}", an absolute path; validation fails with "must be a relative path", and ${d.when}.`,
      backstep: (d: { kind: string; workload: string; container: string; field: string; value: string; when: string }) =>
        `${d.kind} "${d.workload}": ${d.container} mounts with ${d.field} "${d.value}", which steps out of the volume with '..'; validation fails with "must not contain '..'", and ${d.when}.`,
      both: (d: { kind: string; workload: string; container: string; when: string }) =>
        `${d.kind} "${d.workload}": ${d.container} sets both subPath and subPathExpr on one mount; validation fails with "subPathExpr and subPath are mutually exclusive", and ${d.when}.`,
      ephemeral: (d: { kind: string; workload: string; container: string; field: string }) =>
        `${d.kind} "${d.workload}": ${d.container} sets ${d.field}, which ephemeral containers cannot use ("cannot be set for an Ephemeral Container"); the update adding it is rejected.`,
    },
    examples: {
      invalid: [
        `apiVersion: apps/v1
kind: Deployment
metadata: {name: wiki, namespace: docs}
spec:
  selector: {matchLabels: {app: wiki}}
  template:
    metadata: {labels: {app: wiki}}
    spec:
      containers:
        - name: wiki
          image: requarks/wiki:2
          volumeMounts:
            - name: data
              mountPath: /wiki/data
              subPath: /wiki
      volumes:
        - name: data
          persistentVolumeClaim: {claimName: wiki-data}
`,
      ],
      valid: [
        `apiVersion: apps/v1
kind: Deployment
metadata: {name: wiki, namespace: docs}
spec:
  selector: {matchLabels: {app: wiki}}
  template:
    metadata: {labels: {app: wiki}}
    spec:
      containers:
        - name: wiki
          image: requarks/wiki:2
          volumeMounts:
            - name: data
              mountPath: /wiki/data
              subPath: wiki
      volumes:
        - name: data
          persistentVolumeClaim: {claimName: wiki-data}
`,
      ],
    },
  },
  check({ model, report }) {
    for (const template of model.templates) {
      const base = { kind: template.kind, workload: template.workload.name, when: podSpecRejection(template.kind) };
      for (const use of template.uses) {
        if (use.type !== 'mount') continue;
        const container = containerLabel(use);
        const volume = template.volumes.find((v) => v.name === use.volumeName);
        const related = volume ? [{ resource: template.workload, path: [...volume.path, 'name'], message: `volume "${volume.name}" (${volume.source})` }] : [];
        const fields = [['subPath', use.subPath], ['subPathExpr', use.subPathExpr]] as const;
        for (const [field, value] of fields) {
          if (value === undefined || value === '') continue;
          if (use.containerKind === 'ephemeralContainers') {
            report({ resource: template.workload, path: [...use.path, field], messageId: 'ephemeral', data: { ...base, container, field }, related });
          }
          if (isAbsolute(value)) {
            report({ resource: template.workload, path: [...use.path, field], messageId: 'absolute', data: { ...base, container, field, value }, related });
          }
          if (hasBackstep(value)) {
            report({ resource: template.workload, path: [...use.path, field], messageId: 'backstep', data: { ...base, container, field, value }, related });
          }
        }
        if (use.subPath && use.subPathExpr) {
          report({ resource: template.workload, path: [...use.path, 'subPathExpr'], messageId: 'both', data: { ...base, container }, related });
        }
      }
    }
  },
});
