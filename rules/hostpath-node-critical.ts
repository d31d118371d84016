// An application workload mounts the node's root filesystem or its container runtime socket through hostPath.
import { defineRule } from '../src/define-rule.js';
import { normalisePath } from '../src/model/mounts.js';
import type { PodTemplate } from '../src/model/pod-templates.js';
import type { StorageModel } from '../src/model/storage-model.js';

/** Container runtime endpoints (and the directories that hold them). */
const RUNTIME_SOCKETS: Readonly<Record<string, string>> = {
  '/var/run/docker.sock': 'the Docker socket', '/run/docker.sock': 'the Docker socket',
  '/var/run/containerd/containerd.sock': 'the containerd socket', '/run/containerd/containerd.sock': 'the containerd socket',
  '/var/run/containerd': 'the containerd socket directory', '/run/containerd': 'the containerd socket directory',
  '/var/run/crio/crio.sock': 'the CRI-O socket', '/run/crio/crio.sock': 'the CRI-O socket', '/var/run/crio': 'the CRI-O socket directory', '/run/crio': 'the CRI-O socket directory',
  '/var/run/cri-dockerd.sock': 'the cri-dockerd socket', '/run/cri-dockerd.sock': 'the cri-dockerd socket',
  '/var/run': 'the node\'s /var/run (with the container runtime socket)', '/run': 'the node\'s /run (with the container runtime socket)',
};

/** Node agents run one pod per node by design; these kinds run applications. */
const APPLICATION_KINDS = new Set(['Deployment', 'StatefulSet', 'ReplicaSet', 'ReplicationController', 'Job', 'CronJob', 'Pod', 'Rollout']);
const PSA_ENFORCE = 'pod-security.kubernetes.io/enforce';

function enforcedLevel(model: StorageModel, template: PodTemplate): string | undefined {
  const namespace = model.namespaceOf(template.workload) ?? model.defaultNamespace;
  const lookup = model.lookupNamespace(namespace);
  if (lookup.status !== 'found') return undefined;
  const level = lookup.value.object?.metadata?.labels?.[PSA_ENFORCE];
  return level === 'baseline' || level === 'restricted' ? level : undefined;
}

export default defineRule({
  id: 'hostpath-node-critical',
  meta: {
    severity: 'warning',
    severities: ['error'],
    kinds: ['Deployment', 'StatefulSet', 'ReplicaSet', 'ReplicationController', 'Job', 'CronJob', 'Pod', 'Rollout', 'Namespace'],
    summary: 'An application workload mounts the node\'s root filesystem (/) or the container runtime socket through hostPath.',
    why:
      'A hostPath of `/` hands the container the node\'s whole filesystem (kubelet credentials, other pods\' volumes); the ' +
      'container runtime socket lets it start privileged containers on the node. Either is a full node takeover for whoever ' +
      'controls the image, which is why the Pod Security Standards\' Baseline level forbids hostPath volumes: in a namespace that ' +
      'enforces Baseline or Restricted the API server rejects the pod. And since dockershim was removed (Kubernetes 1.24), nodes ' +
      'that run containerd or CRI-O usually have no /var/run/docker.sock, so a Docker-socket mount finds nothing to talk to.',
    trigger:
      'A Deployment, StatefulSet, ReplicaSet, ReplicationController, Job, CronJob, Pod or Argo Rollout with a `hostPath` volume of ' +
      '`/` or of a container runtime socket or its directory (docker.sock, containerd.sock, crio.sock, cri-dockerd.sock, /run, ' +
      '/var/run). An error when the repo\'s Namespace object enforces the `baseline` or `restricted` Pod Security level ' +
      '(`pod-security.kubernetes.io/enforce`): the pods are rejected.',
    exceptions:
      'DaemonSets are node agents (log shippers, security and monitoring agents) that need such mounts by design and are left ' +
      'alone, as are other host paths (hostpath-in-replicated-workload covers data on hostPath).',
    fix:
      'Do not give an application the node: build images with a daemonless builder (BuildKit rootless, Kaniko) instead of the ' +
      'Docker socket, read node data through a dedicated, read-only, narrowly scoped DaemonSet, and mount only the directory a ' +
      'tool needs.',
    reportsAt: 'The volume\'s `hostPath.path`; the Namespace\'s enforce label is related when it rejects the pod.',
    references: [
      { title: 'Kubernetes docs: Volumes, "hostPath" (security risks; use read-only and narrow paths)', url: 'https://kubernetes.io/docs/concepts/storage/volumes/#hostpath' },
      { title: 'Kubernetes docs: Pod Security Standards, Baseline ("HostPath volumes must be forbidden")', url: 'https://kubernetes.io/docs/concepts/security/pod-security-standards/' },
      { title: 'Kubernetes docs: Check whether dockershim removal affects you (workloads that mount the Docker socket)', url: 'https://kubernetes.io/docs/tasks/administer-cluster/migrating-from-dockershim/check-if-dockershim-removal-affects-you/' },
    ],
    messages: {
      critical: (d: { kind: string; workload: string; path: string; what: string; enforced: string | undefined }) =>
        `${d.kind} "${d.workload}" mounts ${d.what} (hostPath ${d.path}), which gives it control of the node` +
        (d.enforced
          ? `; its namespace enforces the ${d.enforced} Pod Security level, which forbids hostPath volumes, so the API server rejects its pods.`
          : '; keep such mounts to node agents (a DaemonSet), read-only and as narrow as possible.'),
    },
    examples: {
      invalid: [
        `apiVersion: batch/v1
kind: Job
metadata: {name: build-image}
spec:
  template:
    spec:
      restartPolicy: Never
      containers:
        - name: docker
          image: docker:27-cli
          command: [docker, build, -t, app, /src]
          volumeMounts: [{name: docker, mountPath: /var/run/docker.sock}]
      volumes:
        - name: docker
          hostPath: {path: /var/run/docker.sock, type: Socket}
`,
      ],
      valid: [
        `apiVersion: apps/v1
kind: DaemonSet
metadata: {name: log-agent}
spec:
  selector: {matchLabels: {app: log-agent}}
  template:
    metadata: {labels: {app: log-agent}}
    spec:
      containers:
        - name: agent
          image: fluent/fluent-bit:3.1
          volumeMounts: [{name: containerd, mountPath: /run/containerd, readOnly: true}]
      volumes:
        - name: containerd
          hostPath: {path: /run/containerd}
`,
      ],
    },
  },
  check({ model, report }) {
    for (const template of model.templates) {
      if (!APPLICATION_KINDS.has(template.kind)) continue;
      for (const volume of template.volumes) {
        if (volume.source !== 'hostPath') continue;
        const raw = template.spec?.volumes?.[volume.index]?.hostPath?.path;
        if (typeof raw !== 'string' || raw.trim() === '') continue;
        const path = raw.trim() === '/' ? '/' : normalisePath(raw.trim());
        const what = path === '/' ? 'the node\'s root filesystem' : RUNTIME_SOCKETS[path];
        if (!what) continue;
        const enforced = enforcedLevel(model, template);
        const namespace = enforced ? model.lookupNamespace(model.namespaceOf(template.workload) ?? model.defaultNamespace) : undefined;
        report({
          resource: template.workload, path: [...volume.path, 'hostPath', 'path'], messageId: 'critical',
          severity: enforced ? 'error' : 'warning',
          data: { kind: template.kind, workload: template.workload.name, path, what, enforced },
          ...(namespace && namespace.status === 'found'
            ? { related: [{ resource: namespace.value, path: ['metadata', 'labels', PSA_ENFORCE], message: `Namespace "${namespace.value.name}" enforces ${enforced}` }] }
            : {}),
        });
      }
    }
  },
});
