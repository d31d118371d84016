// A Job or CronJob runs `kubectl delete pvc …` on a claim that another workload of the scope mounts.
import { defineRule } from '../src/define-rule.js';
import { podContainers } from '../src/model/mounts.js';
import type { PodTemplate } from '../src/model/pod-templates.js';
import type { JsonPath, Resource } from '../src/types.js';

export interface ClaimDeletion {
  /** Claim names; empty with `all`. */
  names: string[];
  all: boolean;
  namespace?: string;
  /** The command as written, for messages. */
  text: string;
}

const CLAIM_RESOURCE = /^(?:pvc|pvcs|persistentvolumeclaims?)(?:\.v1)?$/i;
/** Flags of `kubectl delete` that take a value (the value is not a name). */
const VALUE_FLAGS = new Set(['-n', '--namespace', '-l', '--selector', '--field-selector', '--grace-period', '--timeout', '--context', '--kubeconfig', '-o', '--output', '--cascade', '--wait']);

function shellWords(text: string): string[] {
  return [...text.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3]);
}

/**
 * Whether the script stops the workload before it deletes the claim: `kubectl scale <kind>/<name> --replicas=0` (or
 * `<kind> <name> --replicas 0`) — a deliberate reset (scale down, delete, re-create, scale up), not a claim pulled from
 * under running pods.
 */
export function scalesToZeroBefore(text: string, workload: string, before: string): boolean {
  const cut = text.indexOf(before);
  const head = cut < 0 ? text : text.slice(0, cut);
  for (const segment of head.split(/\n|;|&&|\|\||\|/)) {
    const words = shellWords(segment.trim());
    const kubectl = words.findIndex((w) => /(^|\/)kubectl$/.test(w) || w === 'oc');
    if (kubectl < 0 || !words.slice(kubectl + 1).includes('scale')) continue;
    const rest = words.slice(kubectl + 1);
    const names = rest.some((w) => w === workload || w.endsWith(`/${workload}`));
    const zero = rest.some((w, i) => w === '--replicas=0' || (w === '--replicas' && rest[i + 1] === '0'));
    if (names && zero) return true;
  }
  return false;
}

/** Every `kubectl delete pvc …` in a command text (a shell script, or command and args joined). */
export function claimDeletions(text: string): ClaimDeletion[] {
  const deletions: ClaimDeletion[] = [];
  // One shell command at a time: split on separators and line ends.
  for (const segment of text.split(/\n|;|&&|\|\||\|/)) {
    const words = shellWords(segment.trim());
    const kubectl = words.findIndex((w) => /(^|\/)kubectl$/.test(w) || w === 'oc');
    if (kubectl < 0) continue;
    const rest = words.slice(kubectl + 1);
    const verb = rest.findIndex((w) => w === 'delete');
    if (verb < 0) continue;
    const deletion: ClaimDeletion = { names: [], all: false, text: words.slice(kubectl).join(' ') };
    let claims = false;
    let selector = false;
    for (let i = 0; i < rest.length; i++) {
      const word = rest[i];
      if (i === verb) continue;
      if (word === '-n' || word === '--namespace') {
        deletion.namespace = rest[i + 1];
        i++;
        continue;
      }
      if (word.startsWith('--namespace=')) {
        deletion.namespace = word.slice('--namespace='.length);
        continue;
      }
      if (word === '--all') {
        deletion.all = true;
        continue;
      }
      if (word === '-l' || word === '--selector' || word.startsWith('--selector=') || word.startsWith('-l=')) selector = true;
      if (VALUE_FLAGS.has(word)) {
        i++;
        continue;
      }
      if (word.startsWith('-') || i < verb) continue;
      const slash = word.indexOf('/');
      if (slash > 0 && CLAIM_RESOURCE.test(word.slice(0, slash))) {
        claims = true;
        deletion.names.push(word.slice(slash + 1));
        continue;
      }
      if (!claims && CLAIM_RESOURCE.test(word)) {
        claims = true;
        continue;
      }
      if (claims && !word.includes('/') && !word.includes('$')) deletion.names.push(word);
    }
    if (!claims || selector) continue;
    if (deletion.names.length > 0 || deletion.all) deletions.push(deletion);
  }
  return deletions;
}

function commandText(container: any): string {
  const list = (value: unknown) => (Array.isArray(value) ? value.filter((v) => typeof v === 'string') : []);
  return [...list(container?.command), ...list(container?.args)].join(' ');
}

/** The command or args entry that holds the `delete` (the line a reviewer edits). */
function deletionPath(containerPath: JsonPath, container: any): JsonPath {
  for (const field of ['command', 'args']) {
    const list = container?.[field];
    if (!Array.isArray(list)) continue;
    const index = list.findIndex((item: unknown) => typeof item === 'string' && /\bdelete\b/.test(item));
    if (index >= 0) return [...containerPath, field, index];
  }
  return [...containerPath, Array.isArray(container?.command) ? 'command' : 'args'];
}

/** A Helm or Argo CD hook that runs when the release or application is deleted: removing the claims is its purpose. */
function isDeletionHook(workload: Resource): boolean {
  const annotations = workload.object?.metadata?.annotations ?? {};
  const helm = String(annotations['helm.sh/hook'] ?? '');
  const argo = String(annotations['argocd.argoproj.io/hook'] ?? '');
  return /(^|,)\s*(pre|post)-delete\s*($|,)/.test(helm) || /PostDelete/.test(argo);
}

export default defineRule({
  id: 'job-deletes-mounted-claim',
  meta: {
    severity: 'error',
    kinds: ['Job', 'CronJob', 'Pod', 'Deployment', 'ReplicaSet', 'ReplicationController', 'StatefulSet', 'DaemonSet', 'Rollout', 'PersistentVolumeClaim'],
    summary: 'A Job or CronJob runs `kubectl delete pvc` on a claim that another workload mounts.',
    why:
      'Deleting a claim that pods use does not fail: the storage-object-in-use protection keeps it Terminating while pods ' +
      'mount it, and removes it as soon as they stop — at the next rollout, eviction or node drain. Then the workload\'s new ' +
      'pods find no claim and stay Pending, and with reclaimPolicy Delete the volume and its data are deleted too. A cleanup ' +
      'Job that deletes "old" claims by name therefore deletes a live workload\'s storage.',
    trigger:
      'A container command or args of a Job or CronJob (including `sh -c` scripts) with `kubectl delete` (or `oc delete`) of ' +
      '`pvc`/`persistentvolumeclaim` naming a claim (`pvc NAME`, `pvc/NAME`) or `--all`, in the namespace given with `-n` or else ' +
      'the Job\'s own (in-cluster kubectl defaults to the pod\'s namespace), while another workload in the scope mounts that claim.',
    exceptions:
      'Deletions by label selector (`-l`) and names built from shell variables are not resolved. Helm `pre-delete`/`post-delete` ' +
      'hooks and Argo CD PostDelete hooks are left alone: they run when the workloads are being removed. Claims only the Job itself mounts are not reported, ' +
      'nor are workloads the script scales to zero before the deletion (`kubectl scale deployment/NAME --replicas=0`): a ' +
      'deliberate reset, not a claim pulled from under running pods.',
    fix:
      'Do not delete claims a running workload mounts: scale the workload to zero first and delete it in the same change, give ' +
      'the cleanup its own claims, or make the deletion a deletion hook of the release that owns the workload.',
    reportsAt: 'The container\'s `command` / `args` that holds the deletion; the workload\'s claimName is related.',
    references: [
      { title: 'Kubernetes docs: Persistent Volumes, "Storage Object in Use Protection"', url: 'https://kubernetes.io/docs/concepts/storage/persistent-volumes/#storage-object-in-use-protection' },
      { title: 'Kubernetes docs: Persistent Volumes, "Reclaiming" (Delete removes the volume and its data)', url: 'https://kubernetes.io/docs/concepts/storage/persistent-volumes/#reclaiming' },
      { title: 'Kubernetes docs: Accessing the API from a Pod (the in-cluster default namespace is the pod\'s)', url: 'https://kubernetes.io/docs/tasks/run-application/access-api-from-pod/' },
    ],
    messages: {
      deletes: (d: { kind: string; job: string; command: string; claim: string; namespace: string; userKind: string; user: string }) =>
        `${d.kind} "${d.job}" runs \`${d.command}\`, which deletes PersistentVolumeClaim "${d.claim}" in namespace "${d.namespace}" that ` +
        `${d.userKind} "${d.user}" mounts: the claim stays Terminating until that workload's pods stop, then it is gone and new pods stay Pending ` +
        '(with reclaimPolicy Delete the data goes with it).',
    },
    examples: {
      invalid: [
        `apiVersion: apps/v1
kind: Deployment
metadata: {name: wiki, namespace: wiki}
spec:
  selector: {matchLabels: {app: wiki}}
  template:
    metadata: {labels: {app: wiki}}
    spec:
      containers: [{name: wiki, image: wiki, volumeMounts: [{name: data, mountPath: /data}]}]
      volumes: [{name: data, persistentVolumeClaim: {claimName: wiki-data}}]
---
apiVersion: batch/v1
kind: CronJob
metadata: {name: cleanup, namespace: wiki}
spec:
  schedule: "0 3 * * *"
  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: OnFailure
          serviceAccountName: cleanup
          containers:
            - name: kubectl
              image: bitnami/kubectl:1.31
              command: ["sh", "-c", "kubectl delete pvc wiki-data wiki-cache --ignore-not-found"]
`,
      ],
      valid: [
        `apiVersion: apps/v1
kind: Deployment
metadata: {name: wiki, namespace: wiki}
spec:
  selector: {matchLabels: {app: wiki}}
  template:
    metadata: {labels: {app: wiki}}
    spec:
      containers: [{name: wiki, image: wiki, volumeMounts: [{name: data, mountPath: /data}]}]
      volumes: [{name: data, persistentVolumeClaim: {claimName: wiki-data}}]
---
apiVersion: batch/v1
kind: CronJob
metadata: {name: cleanup, namespace: wiki}
spec:
  schedule: "0 3 * * *"
  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: OnFailure
          containers:
            - name: kubectl
              image: bitnami/kubectl:1.31
              command: ["sh", "-c", "kubectl delete pvc wiki-cache --ignore-not-found"]
`,
      ],
    },
  },
  check({ model, report }) {
    for (const template of model.templates) {
      if (template.kind !== 'Job' && template.kind !== 'CronJob') continue;
      if (isDeletionHook(template.workload)) continue;
      const ownNamespace = model.namespaceOf(template.workload) ?? model.defaultNamespace;
      for (const container of podContainers(template, ['containers', 'initContainers'])) {
        const text = commandText(container.object);
        if (!/\b(kubectl|oc)\b/.test(text)) continue;
        for (const deletion of claimDeletions(text)) {
          const namespace = deletion.namespace && !deletion.namespace.includes('$') ? deletion.namespace : ownNamespace;
          const targets = deletion.all
            ? [...model.usedClaimKeys()].filter((k) => k.startsWith(`${namespace}/`)).map((k) => k.slice(namespace.length + 1))
            : deletion.names;
          for (const claim of new Set(targets)) {
            const users = model.usesOfClaim(namespace, claim)
              .filter((u) => u.template.workload !== template.workload)
              .filter((u) => !scalesToZeroBefore(text, u.template.workload.name, deletion.text.split(' ').slice(0, 2).join(' ')));
            if (users.length === 0) continue;
            const user = users[0];
            const commandPath = deletionPath(container.path, container.object);
            report({
              resource: template.workload, path: commandPath, messageId: 'deletes',
              data: {
                kind: template.kind, job: template.workload.name, command: deletion.text.length > 120 ? `${deletion.text.slice(0, 117)}…` : deletion.text,
                claim, namespace, userKind: user.template.kind, user: user.template.workload.name,
              },
              related: users.map((u: { template: PodTemplate; volume: { path: JsonPath } }) => ({
                resource: u.template.workload, path: [...u.volume.path, 'persistentVolumeClaim', 'claimName'], message: `${u.template.kind} "${u.template.workload.name}" mounts it`,
              })),
            });
          }
        }
      }
    }
  },
});
