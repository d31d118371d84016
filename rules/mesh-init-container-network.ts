// R46: an init container of a meshed pod needs the network (an NFS mount, a download) before a classic sidecar runs.
import { defineRule } from '../src/define-rule.js';
import { inContainerNfsMounts, nfsPorts } from '../src/model/container-nfs.js';
import { annotationsOf } from '../src/model/gitops.js';
import {
  ISTIO_EXCLUDE_OUTBOUND_IPS, ISTIO_EXCLUDE_OUTBOUND_PORTS, ISTIO_INCLUDE_OUTBOUND_IPS, LINKERD_SKIP_OUTBOUND_PORTS, MESH_NAMES, PROXY_UID, podMetadataOf, podMetadataPath, runAsUserOf, type MeshKind,
} from '../src/model/mesh.js';
import { WORKLOAD_KINDS, type PodTemplate } from '../src/model/pod-templates.js';
import type { JsonPath, Severity } from '../src/types.js';

const FETCH = /\b(?:curl|wget)\b|\bgit\s+clone\b|\baws\s+s3\s+(?:cp|sync)\b|\bgsutil\b/;

function joined(value: unknown): string {
  return Array.isArray(value) ? value.map((v) => (v == null ? '' : String(v))).join(' ') : typeof value === 'string' ? value : '';
}

function fetchCommand(container: any, base: JsonPath): { text: string; path: JsonPath } | undefined {
  for (const field of ['command', 'args'] as const) {
    const text = joined(container[field]);
    const match = FETCH.exec(text);
    if (match) {
      const from = text.slice(match.index).replace(/\s+/g, ' ');
      return { text: from.length > 60 ? `${from.slice(0, 57)}…` : from, path: [...base, field] };
    }
  }
  return undefined;
}

function proxyUid(mesh: MeshKind): number {
  return mesh === 'linkerd' ? PROXY_UID.linkerd : PROXY_UID.istio;
}

function anyOutboundExclusion(template: PodTemplate, mesh: MeshKind): boolean {
  const annotations = annotationsOf(podMetadataOf(template));
  if (mesh === 'linkerd') return annotations[LINKERD_SKIP_OUTBOUND_PORTS] !== undefined;
  return [ISTIO_EXCLUDE_OUTBOUND_PORTS, ISTIO_EXCLUDE_OUTBOUND_IPS, ISTIO_INCLUDE_OUTBOUND_IPS].some((k) => annotations[k] !== undefined);
}

export default defineRule({
  id: 'mesh-init-container-network',
  meta: {
    catalogueId: 'R46',
    severity: 'error',
    severities: ['note', 'warning'],
    kinds: [...WORKLOAD_KINDS],
    summary: 'An init container of a meshed pod mounts NFS (or downloads) before a classic sidecar proxy is running.',
    why:
      'A classic (non-native) Istio or Linkerd sidecar is a regular container, so it starts only after every init container has ' +
      'finished. The traffic redirection is already in place by then (set up by the first init container, istio-init or ' +
      'linkerd-init, or by the CNI plugin), so an init container\'s outbound connections go to a proxy that is not listening: ' +
      '"Init containers execute before the sidecar proxy starts, which can result in traffic loss". An NFS mount in an init ' +
      'container fails and the pod never starts. Native sidecars (the proxy as an init container with restartPolicy: Always, ' +
      'Istio 1.27+ by default on Kubernetes 1.29+) start before later init containers and avoid this.',
    trigger:
      'A pod template in an Istio sidecar or Linkerd mesh (see mesh-in-container-nfs-unexcluded for how membership is read) whose proxy is not known to be a native sidecar has an ' +
      'init container that mounts NFS/EFS (the R45 signals) — error when the pod opts out of native sidecars ' +
      '(`sidecar.istio.io/nativeSidecar: "false"`, a Linkerd pod without native sidecars, or a classic `istio-proxy` container in ' +
      'the template), warning when the Istio version decides — or that runs curl, wget, git clone, aws s3 cp/sync or gsutil (note).',
    exceptions:
      'Silent when the init container runs as the proxy\'s UID (1337 for Istio, 2102 for Linkerd), whose traffic the redirect ' +
      'rules let through; when the exclusion annotations let the NFS ports bypass the proxy (R45\'s rules), or — for downloads, ' +
      'whose destinations pvlint cannot see — when the pod sets any outbound exclusion; when the proxy is a native sidecar; and ' +
      'for ambient pods (ztunnel runs on the node before any pod starts). A pod whose namespace is not in the repo is reported ' +
      'as a note for an NFS mount only.',
    fix:
      'Enable native sidecars for the pod (`sidecar.istio.io/nativeSidecar: "true"`, Linkerd ' +
      '`config.beta.linkerd.io/proxy-enable-native-sidecar: "true"`), exclude the ports (`traffic.sidecar.istio.io/excludeOutboundPorts: "2049"`), ' +
      'run the init container as the proxy UID, or replace the in-container mount with a PersistentVolume that kubelet mounts.',
    reportsAt: 'The init container\'s `command` or `args` that mounts or downloads (its entry when an image or environment signal decided).',
    references: [
      { title: 'Istio: Install the Istio CNI node agent, "Compatibility with application init containers"', url: 'https://istio.io/latest/docs/setup/additional-setup/cni/' },
      { title: 'Istio blog: Kubernetes native sidecars in Istio', url: 'https://istio.io/latest/blog/2023/native-sidecars/' },
      { title: 'Istio 1.27 upgrade notes: native sidecars enabled by default', url: 'https://istio.io/latest/news/releases/1.27.x/announcing-1.27/upgrade-notes/' },
      { title: 'Istio: Resource Annotations (sidecar.istio.io/nativeSidecar, traffic.sidecar.istio.io/*)', url: 'https://istio.io/latest/docs/reference/config/annotations/' },
      { title: 'linkerd/linkerd2#4792: init containers cannot make outbound connections in a CNI setup', url: 'https://github.com/linkerd/linkerd2/issues/4792' },
    ],
    messages: {
      nfs: (d: { kind: string; workload: string; container: string; evidence: string; membership: string; mesh: string; native: string; unsure: boolean; ports: string }) =>
        `${d.kind} "${d.workload}": init container "${d.container}" mounts NFS (${d.evidence}) before ${d.mesh} runs — ${d.membership}, and ${d.native} — ` +
        `so its connection to port ${d.ports} is redirected to a proxy that is not listening yet and the mount fails, leaving the pod in Init` +
        `${d.unsure ? ' (unless the cluster runs Istio 1.27+, where native sidecars start first)' : ''}.`,
      fetch: (d: { kind: string; workload: string; container: string; command: string; membership: string; mesh: string; native: string }) =>
        `${d.kind} "${d.workload}": init container "${d.container}" uses the network ("${d.command}") before ${d.mesh} runs — ${d.membership}, and ${d.native}; ` +
        'with a classic sidecar its outbound connections are redirected to a proxy that is not running yet and fail.',
      unknownMesh: (d: { kind: string; workload: string; container: string; evidence: string; why: string; namespace: string }) =>
        `${d.kind} "${d.workload}": init container "${d.container}" mounts NFS (${d.evidence}), and ${d.why}; if namespace "${d.namespace}" is ` +
        'injected with a classic sidecar, the mount runs before the proxy and fails.',
    },
    examples: {
      invalid: [
        `apiVersion: v1
kind: Namespace
metadata:
  name: render
  labels: {istio-injection: enabled}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: renderer, namespace: render}
spec:
  selector: {matchLabels: {app: renderer}}
  template:
    metadata:
      labels: {app: renderer}
      annotations:
        sidecar.istio.io/nativeSidecar: "false"
    spec:
      initContainers:
        - name: fetch-assets
          image: registry.example.com/nfs-tools:1.0
          securityContext: {privileged: true}
          command: ["sh", "-c", "mount -t nfs4 nfs.example.internal:/assets /assets && cp -r /assets/. /cache/"]
      containers:
        - name: renderer
          image: registry.example.com/renderer:3.0
`,
      ],
      valid: [
        `apiVersion: v1
kind: Namespace
metadata:
  name: render
  labels: {istio-injection: enabled}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: renderer, namespace: render}
spec:
  selector: {matchLabels: {app: renderer}}
  template:
    metadata:
      labels: {app: renderer}
      annotations:
        sidecar.istio.io/nativeSidecar: "true"
        traffic.sidecar.istio.io/excludeOutboundPorts: "2049"
    spec:
      initContainers:
        - name: fetch-assets
          image: registry.example.com/nfs-tools:1.0
          securityContext: {privileged: true}
          command: ["sh", "-c", "mount -t nfs4 nfs.example.internal:/assets /assets && cp -r /assets/. /cache/"]
      containers:
        - name: renderer
          image: registry.example.com/renderer:3.0
`,
      ],
    },
  },
  check({ model, report }) {
    for (const template of model.templates) {
      const inits = template.spec?.initContainers;
      if (!Array.isArray(inits) || inits.length === 0) continue;
      const membership = model.meshOf(template);
      if (membership.state === 'not-in-mesh' || !membership.mesh || membership.mesh === 'istio-ambient') continue;
      if (membership.nativeSidecar === 'yes') continue;
      const mesh = membership.mesh;
      const metaPath = podMetadataPath(template);
      const nfs = inContainerNfsMounts(template).filter((s) => s.containerKind === 'initContainers');
      const nfsNames = new Set(nfs.map((s) => s.container));
      const related = (at?: { message: string }) => [
        { resource: template.workload, path: [...metaPath, 'annotations'] as JsonPath, message: at?.message ?? 'exclusion and native-sidecar annotations belong here' },
        ...(membership.reason.at ? [{ resource: membership.reason.at.resource, path: membership.reason.at.path, message: `the pod joins the mesh: ${membership.reason.text}` }] : []),
      ];

      for (const signal of nfs) {
        const container = inits.find((c: any) => String(c?.name) === signal.container);
        if (runAsUserOf(template, container) === proxyUid(mesh)) continue;
        const ports = nfsPorts(signal);
        const capture = model.outboundCapture(template, mesh, ports, signal.server);
        if (capture.verdict !== 'captured') continue;
        const evidence = signal.evidence.map((e) => e.text).join(', ');
        // A strong signal's first evidence is the mount command; otherwise the first hint (privilege, image, env).
        const path = signal.evidence[0].path;
        if (membership.state === 'unknown') {
          if (signal.strength !== 'strong') continue;
          // A Linkerd exclusion on the pod also prepares it.
          if (model.outboundCapture(template, 'linkerd', ports, signal.server).verdict !== 'captured') continue;
          report({
            resource: template.workload, path, messageId: 'unknownMesh', severity: 'note',
            data: { kind: template.kind, workload: template.workload.name, container: signal.container, evidence, why: membership.reason.text, namespace: membership.namespace },
            related: related(),
          });
          continue;
        }
        const unsure = membership.nativeSidecar === 'unknown';
        const severity: Severity = signal.strength === 'strong' && !unsure ? 'error' : 'warning';
        report({
          resource: template.workload, path, messageId: 'nfs', severity,
          data: {
            kind: template.kind, workload: template.workload.name, container: signal.container, evidence,
            membership: membership.reason.text, mesh: MESH_NAMES[mesh], native: membership.nativeReason, unsure, ports: ports.join(' and '),
          },
          related: related(),
        });
      }

      if (membership.state !== 'in-mesh' || anyOutboundExclusion(template, mesh)) continue;
      inits.forEach((container: any, index: number) => {
        if (!container || typeof container !== 'object' || nfsNames.has(String(container.name))) return;
        if (runAsUserOf(template, container) === proxyUid(mesh)) return;
        const base: JsonPath = [...template.specPath, 'initContainers', index];
        const fetch = fetchCommand(container, base);
        if (!fetch) return;
        report({
          resource: template.workload, path: fetch.path, messageId: 'fetch', severity: 'note',
          data: {
            kind: template.kind, workload: template.workload.name, container: String(container.name ?? `#${index}`), command: fetch.text,
            membership: membership.reason.text, mesh: MESH_NAMES[mesh], native: membership.nativeReason,
          },
          related: related(),
        });
      });
    }
  },
});
