// R29: subPath mounts that validate but misbehave: ConfigMap/Secret subPath mounts never update, and a subPath
// directory the kubelet creates is owned by root, which a non-root container cannot write.
import { defineRule } from '../src/define-rule.js';
import { effectiveUser, fsGroupOf, isWithin, podContainers, usesOfContainer, volumeNamed } from '../src/model/mounts.js';
import { getPath, WORKLOAD_KINDS, type PodTemplate } from '../src/model/pod-templates.js';
import { containerLabel } from '../src/model/wiring.js';
import type { JsonPath } from '../src/types.js';

const SHORT_LIVED = new Set(['Job', 'CronJob']);
const RELOADER = [
  'reloader.stakater.com/auto', 'reloader.stakater.com/search', 'configmap.reloader.stakater.com/reload',
  'secret.reloader.stakater.com/reload', 'reloader.stakater.com/match',
];
/** Kustomize generator name suffix: `-` and ten characters of its hash alphabet. */
const KUSTOMIZE_HASH = /-[bcdfghkmt2-9]{10}$/;

/** Pods are rolled when their config changes: a checksum annotation on the pod template, or a Reloader annotation. */
function rollsOnChange(template: PodTemplate): boolean {
  const podAnnotations = getPath(template.workload.object, [...template.specPath.slice(0, -1), 'metadata', 'annotations']) ?? {};
  if (Object.keys(podAnnotations).some((key) => /checksum|config-hash|confighash/i.test(key))) return true;
  const annotations = template.workload.object?.metadata?.annotations ?? {};
  return RELOADER.some((key) => key in annotations) || RELOADER.some((key) => key in podAnnotations);
}

/** The names of the ConfigMaps / Secrets a projection volume shows. */
function projectedObjects(source: string, object: any): { kind: 'ConfigMap' | 'Secret'; name: string }[] {
  if (source === 'configMap' && object?.name != null) return [{ kind: 'ConfigMap', name: String(object.name) }];
  if (source === 'secret' && object?.secretName != null) return [{ kind: 'Secret', name: String(object.secretName) }];
  if (source === 'projected' && Array.isArray(object?.sources)) {
    return object.sources.flatMap((s: any) => [
      ...(s?.configMap?.name != null ? [{ kind: 'ConfigMap' as const, name: String(s.configMap.name) }] : []),
      ...(s?.secret?.name != null ? [{ kind: 'Secret' as const, name: String(s.secret.name) }] : []),
    ]);
  }
  return [];
}

export default defineRule({
  id: 'subpath-pitfalls',
  meta: {
    catalogueId: 'R29',
    severity: 'note',
    // ConfigMaps and Secrets: the projected keys a subPath names (read, not required for the rule to run usefully).
    kinds: [...WORKLOAD_KINDS, 'ConfigMap', 'Secret'],
    summary: 'A subPath mount that is valid but misbehaves: a ConfigMap/Secret subPath never receives updates, a subPath directory the kubelet creates is root-owned for a non-root container, and an emptyDir subPath inside a ConfigMap/Secret mount is a directory where the volume may hold a file.',
    why:
      'A `subPath` mount binds one file or directory of the volume into the container once, at container start. ConfigMap, ' +
      'Secret and projected volumes are updated by swapping a symlink in the volume, which a subPath bind never follows: "A ' +
      'container using a ConfigMap as a subPath volume mount will not receive ConfigMap updates" — the app keeps the old file ' +
      'until the pod is recreated. And when the subPath does not exist yet, the kubelet creates the directory itself, as root, ' +
      'with the mode of the volume root: on a volume whose root the pod\'s user cannot write (a fresh disk, an NFS export, no ' +
      '`fsGroup`), a non-root container gets "permission denied" in its own data directory (kubernetes#95945, #91752).',
    trigger:
      '(a) A `volumeMounts[]` entry with `subPath` or `subPathExpr` on a configMap, secret or projected volume, in a ' +
      'long-running workload; (b) a `subPath`/`subPathExpr` mount of a claim (PVC, claim template or generic ephemeral volume) in ' +
      'a container that runs as non-root (`runAsUser` ≠ 0 or `runAsNonRoot: true`, container or pod level) in a pod without ' +
      '`securityContext.fsGroup`; (c) a `subPath` mount of an emptyDir that no init container mounts, whose mountPath lies inside ' +
      'the mount of a configMap, secret, projected or downwardAPI volume of the same container. All are notes: the YAML cannot ' +
      'show whether the app reloads its config, whether the directory already exists, or whether the ConfigMap has a key at ' +
      'that path.',
    exceptions:
      '(a) is skipped for Jobs and CronJobs (short-lived pods), init containers, pod templates with a checksum annotation ' +
      '(`checksum/config`, the Helm pattern that rolls pods on change) or a Stakater Reloader annotation, Kustomize-generated ' +
      'names (a content-hash suffix: a change creates a new object and rolls the pods), and ConfigMaps/Secrets in the repo marked ' +
      '`immutable: true`. (b) is skipped when an init container mounts the same volume (it usually prepares the directory), and ' +
      'for emptyDir volumes (their root is world-writable). (c) is skipped when an init container mounts the emptyDir (it may ' +
      'write the file first). Invalid subPaths are the subpath-invalid rule\'s finding; subPath on a ' +
      'Block claim is volume-mode-mount-mismatch\'s.',
    fix:
      '(a) Mount the whole ConfigMap/Secret as a directory (files update in place), or roll the pods on change (a checksum ' +
      'annotation, Reloader, a Kustomize configMapGenerator). (b) Set `securityContext.fsGroup` to the app\'s group, or create ' +
      'the directory in an init container running as the app\'s user, or mount the whole volume. (c) Mount the file outside the ' +
      'ConfigMap\'s directory, list only the keys you need with `items`, or have an init container write the file into the emptyDir.',
    reportsAt: 'The `subPath` / `subPathExpr` of the mount.',
    references: [
      { title: 'Kubernetes docs: ConfigMaps, "Mounted ConfigMaps are updated automatically" (subPath mounts are not)', url: 'https://kubernetes.io/docs/concepts/configuration/configmap/#mounted-configmaps-are-updated-automatically' },
      { title: 'kubernetes/kubernetes#95945: subPath owner/group should be set to runAsUser/fsGroup instead of root', url: 'https://github.com/kubernetes/kubernetes/issues/95945' },
      { title: 'kubernetes/kubernetes#91752: kubelet does not set the owner of a subPath directory', url: 'https://github.com/kubernetes/kubernetes/issues/91752' },
      { title: 'kubernetes/kubernetes#61545: subPath file inside a ConfigMap mount fails with "not a directory" since 1.9.4', url: 'https://github.com/kubernetes/kubernetes/issues/61545' },
      { title: 'kubernetes/kubernetes#60814 (CVE-2017-1002102): Secret, configMap, downwardAPI and projected volumes are mounted read-only', url: 'https://github.com/kubernetes/kubernetes/issues/60814' },
      { title: 'kubelet kubelet_pods.go makeMounts (creates a missing subPath with the volume root\'s mode)', url: 'https://github.com/kubernetes/kubernetes/blob/master/pkg/kubelet/kubelet_pods.go' },
    ],
    messages: {
      dirInProjection: (d: { kind: string; workload: string; container: string; field: string; value: string; volume: string; mountPath: string; outer: string; outerPath: string; relative: string }) =>
        `${d.kind} "${d.workload}": ${d.container} mounts emptyDir "${d.volume}" with ${d.field} "${d.value}" at ${d.mountPath}, inside the ` +
        `${d.outer} mounted at ${d.outerPath}: nothing has written "${d.value}" into the new emptyDir, so the kubelet creates it as an ` +
        `empty directory. If the volume at ${d.outerPath} has a file "${d.relative}", a directory is mounted onto that file and the ` +
        'container does not start ("not a directory"); otherwise the app finds an empty directory where it expects a file.',
      noUpdates: (d: { kind: string; workload: string; container: string; field: string; value: string; source: string; objects: string }) =>
        `${d.kind} "${d.workload}": ${d.container} mounts ${d.source}${d.objects} with ${d.field} "${d.value}": a subPath mount never ` +
        'receives updates, so after the object changes the container keeps the old content until the pod is recreated.',
      rootOwned: (d: { kind: string; workload: string; container: string; field: string; value: string; volume: string }) =>
        `${d.kind} "${d.workload}": non-root ${d.container} mounts claim volume "${d.volume}" with ${d.field} "${d.value}" and the pod ` +
        'sets no fsGroup: if the directory does not exist yet, the kubelet creates it as root with the mode of the volume root, and ' +
        'the container may not be able to write it ("permission denied").',
    },
    examples: {
      invalid: [
        `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
        - name: nginx
          image: nginx:1.27
          volumeMounts:
            - name: conf
              mountPath: /etc/nginx/conf.d/site.conf
              subPath: site.conf
      volumes:
        - name: conf
          configMap: {name: web-nginx}
`,
      ],
      valid: [
        `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
        - name: nginx
          image: nginx:1.27
          volumeMounts:
            - name: conf
              mountPath: /etc/nginx/conf.d
      volumes:
        - name: conf
          configMap: {name: web-nginx}
`,
      ],
    },
  },
  check({ model, report }) {
    // Built on first need: most repos have no subPath into a ConfigMap/Secret, and then pvlint never parses them.
    let immutableSet: Set<string> | undefined;
    const immutable = () =>
      (immutableSet ??= new Set(
        [...model.ofKind('ConfigMap'), ...model.ofKind('Secret')]
          .filter((r) => r.object?.immutable === true)
          .map((r) => `${r.kind}/${model.namespaceOf(r) ?? ''}/${r.name}`),
      ));
    for (const template of model.templates) {
      const namespace = model.namespaceOf(template.workload) ?? model.defaultNamespace;
      const rolls = rollsOnChange(template);
      const initVolumes = new Set(podContainers(template, ['initContainers']).flatMap((c) => usesOfContainer(template, c).map((u) => u.volumeName)));
      const fsGroup = fsGroupOf(template);
      for (const container of podContainers(template, ['containers'])) {
        for (const use of usesOfContainer(template, container)) {
          if (use.type !== 'mount') continue;
          const field = use.subPath !== undefined ? 'subPath' : use.subPathExpr !== undefined ? 'subPathExpr' : undefined;
          if (!field) continue;
          const value = (field === 'subPath' ? use.subPath : use.subPathExpr)!;
          if (value === '') continue;
          const ref = volumeNamed(template, use.volumeName);
          if (!ref) continue;
          const path: JsonPath = [...use.path, field];
          const base = { kind: template.kind, workload: template.workload.name, container: containerLabel(use), field, value };
          if (ref.kind === 'projection' && ref.volume) {
            if (SHORT_LIVED.has(template.kind) || rolls) continue;
            const source = ref.volume.source;
            if (source === 'downwardAPI') continue;
            const objects = projectedObjects(source, ref.source);
            if (objects.some((o) => KUSTOMIZE_HASH.test(o.name))) continue;
            if (objects.length > 0 && objects.every((o) => immutable().has(`${o.kind}/${namespace}/${o.name}`))) continue;
            report({
              resource: template.workload, path, messageId: 'noUpdates',
              data: { ...base, source: `${source} volume "${ref.name}"`, objects: objects.length > 0 ? ` (${objects.map((o) => `${o.kind} "${o.name}"`).join(', ')})` : '' },
            });
            continue;
          }
          if (ref.kind === 'emptyDir' && field === 'subPath' && !initVolumes.has(use.volumeName) && use.target !== undefined) {
            const outer = usesOfContainer(template, container).find((o) =>
              o !== use && o.type === 'mount' && o.target !== undefined && o.subPath === undefined && o.subPathExpr === undefined &&
              volumeNamed(template, o.volumeName)?.kind === 'projection' && isWithin(use.target!, o.target) &&
              !isWithin(o.target, use.target!));
            if (outer) {
              const outerRef = volumeNamed(template, outer.volumeName)!;
              const outerPath = outer.target!.replace(/\/+$/, '');
              report({
                resource: template.workload, path, messageId: 'dirInProjection',
                data: {
                  ...base, volume: use.volumeName, mountPath: use.target, outerPath,
                  outer: `${outerRef.volume?.source ?? 'projection'} volume "${outer.volumeName}"`,
                  relative: use.target.replace(/\/+$/, '').slice(outerPath.length + 1),
                },
                related: [{ resource: template.workload, path: outer.path, message: `${outer.volumeName} mounted at ${outer.target}` }],
              });
              continue;
            }
          }
          if (ref.kind === 'claim' || ref.kind === 'claim-template' || ref.kind === 'ephemeral') {
            if (fsGroup !== undefined || initVolumes.has(use.volumeName)) continue;
            if (effectiveUser(template, container.object) !== 'non-root') continue;
            report({ resource: template.workload, path, messageId: 'rootOwned', data: { ...base, volume: use.volumeName } });
          }
        }
      }
    }
  },
});
