// R45: a meshed pod mounts NFS/EFS from inside a container, and nothing excludes the NFS port from the proxy.
import { defineRule } from '../src/define-rule.js';
import { containerWord, inContainerNfsMounts, nfsPorts, type NfsSignal } from '../src/model/container-nfs.js';
import { annotationsOf } from '../src/model/gitops.js';
import {
  ISTIO_EXCLUDE_OUTBOUND_PORTS, LINKERD_SKIP_OUTBOUND_PORTS, MESH_NAMES, podMetadataOf, podMetadataPath, type MeshKind,
} from '../src/model/mesh.js';
import { WORKLOAD_KINDS } from '../src/model/pod-templates.js';
import type { JsonPath, Severity } from '../src/types.js';

function exclusionHint(mesh: MeshKind, ports: number[]): string {
  const list = ports.join(',');
  return mesh === 'linkerd' ? `${LINKERD_SKIP_OUTBOUND_PORTS}: "${list}"` : `${ISTIO_EXCLUDE_OUTBOUND_PORTS}: "${list}"`;
}

function describeSignals(signals: NfsSignal[]): string {
  return signals
    .map((s) => `${containerWord(s.containerKind)} "${s.container}" (${s.evidence.map((e) => e.text).join(', ')})`)
    .join(' and ');
}

export default defineRule({
  id: 'mesh-in-container-nfs-unexcluded',
  meta: {
    catalogueId: 'R45',
    severity: 'error',
    severities: ['note', 'warning'],
    kinds: [...WORKLOAD_KINDS],
    summary: 'A container in a service-mesh pod mounts NFS/EFS itself, and the NFS port is not excluded from the proxy.',
    why:
      'Kubelet mounts `nfs` volumes and NFS/EFS CSI volumes in the node\'s network namespace, outside the mesh. A privileged ' +
      'container that runs `mount -t nfs4` or `mount -t efs` itself opens the NFS connection from the pod\'s network namespace, ' +
      'where the Istio sidecar (iptables set up by istio-init or the Istio CNI), ztunnel in ambient mode, or the Linkerd proxy ' +
      'captures it. Mounts then hang or fail, the proxy rewrites source ports (exports with `secure` refuse them), proxy ' +
      'restarts drop the long-lived NFS session, and on shutdown the sidecar can exit before the application has flushed and ' +
      'unmounted: a `hard` mount blocks and the pod hangs in Terminating.',
    trigger:
      'A pod template that is in a mesh (pod label `sidecar.istio.io/inject`, namespace `istio-injection` / `istio.io/rev` labels ' +
      'from a Namespace in the repo, `istio.io/dataplane-mode: ambient`, `linkerd.io/inject`, or an `istio-proxy` / ' +
      '`linkerd-proxy` container already in the template) has a container whose command, args or lifecycle exec runs an NFS ' +
      'or EFS mount (`mount -t nfs|nfs4|efs`, `mount.nfs`, `mount.efs`, `nfsvers=`, or `mount host:/export`) — error — or that ' +
      'is privileged (or adds SYS_ADMIN) and shows another NFS hint (NFS_SERVER/EFS_ID-style env, an `fs-…` ID or `host:/path` ' +
      'value, an nfs-client/nfs-common/efs-utils image, an NFS/EFS host alias) — warning; and no exclusion lets port 2049 ' +
      '(NFSv3: also 111) bypass the proxy. Ambient pods are a note (whether ztunnel honours the sidecar exclusion annotations ' +
      'is unverified). When the proxy runs as a native sidecar (`sidecar.istio.io/nativeSidecar: "true"`, `cluster.mesh.nativeSidecars: ' +
      'true`, a Linkerd native-sidecar annotation, or an `istio-proxy` init container with `restartPolicy: Always`) it outlives the app ' +
      'at shutdown, one of the documented fixes: warning instead of error (note for weak hints). When the pod\'s namespace is not in the repo, membership is unknown and a mount command is reported as a note.',
    exceptions:
      'Silent when `traffic.sidecar.istio.io/excludeOutboundPorts` (Linkerd: `config.linkerd.io/skip-outbound-ports`, on the ' +
      'pod or its namespace) lists every NFS port, when `excludeOutboundIPRanges` holds the server\'s literal IP or ' +
      '`includeOutboundIPRanges` leaves it out (unless `includeOutboundPorts` forces 2049), or when an IP-range annotation is set ' +
      'and the server is a name pvlint cannot resolve. Never fires for `hostNetwork` pods, pods opted out ' +
      '(`sidecar.istio.io/inject: "false"`, `istio-injection=disabled`, `linkerd.io/inject: disabled`), mounts of `localhost`, ' +
      'or kubelet-mounted NFS (`volumes[].nfs`, NFS/EFS PersistentVolumes). Init containers are left to ' +
      'mesh-init-container-network unless the proxy runs as a native sidecar or in ambient mode.',
    fix:
      'Prefer a PersistentVolume (NFS CSI, EFS CSI or an in-tree `nfs` volume) so kubelet mounts the export on the node, and drop ' +
      'the privileged mount. Otherwise add `traffic.sidecar.istio.io/excludeOutboundPorts: "2049"` to the pod template ' +
      '(NFSv3: `"111,2049"` plus the mountd port, or `excludeOutboundIPRanges: "<server>/32"`), ' +
      '`config.linkerd.io/skip-outbound-ports: "2049"` for Linkerd, or take the pod out of the mesh.',
    reportsAt:
      'The pod template\'s `metadata.annotations` block, where the exclusion annotation belongs (its parent `metadata` when ' +
      'the template has no annotations; the existing exclusion annotation when it lists some ports but not all). Related ' +
      'locations: the mount command and the label that puts the pod in the mesh.',
    references: [
      { title: 'Istio: Resource Annotations (traffic.sidecar.istio.io/excludeOutboundPorts, includeOutboundIPRanges)', url: 'https://istio.io/latest/docs/reference/config/annotations/' },
      { title: 'Istio: Install the Istio CNI node agent (traffic redirection inside the pod network namespace)', url: 'https://istio.io/latest/docs/setup/additional-setup/cni/' },
      { title: 'Istio: Installing the Sidecar, "Controlling the injection policy"', url: 'https://istio.io/latest/docs/setup/additional-setup/sidecar-injection/' },
      { title: 'istio/istio#39578: NFS mounts from inside a meshed pod fail', url: 'https://github.com/istio/istio/issues/39578' },
      { title: 'istio/istio#39032: excluding NFS ports 111, 2049 from sidecar capture', url: 'https://github.com/istio/istio/issues/39032' },
      { title: 'Linkerd: Proxy Configuration (config.linkerd.io/skip-outbound-ports)', url: 'https://linkerd.io/2/reference/proxy-configuration/' },
      { title: 'Linkerd: Native sidecars', url: 'https://linkerd.io/2/features/native-sidecars' },
      { title: 'AKS docs: native sidecar mode for Istio ("the sidecar always starts before the main application… shuts down gracefully after the main app")', url: 'https://learn.microsoft.com/azure/aks/istio-native-sidecar' },
      { title: 'csi-driver-nfs node DaemonSet: hostNetwork mounts', url: 'https://github.com/kubernetes-csi/csi-driver-nfs/blob/master/charts/latest/csi-driver-nfs/templates/csi-nfs-node.yaml' },
    ],
    messages: {
      captured: (d: { kind: string; workload: string; signals: string; membership: string; mesh: string; ports: string; v3: boolean; hint: string }) =>
        `${d.kind} "${d.workload}": ${d.signals} mounts NFS from inside the pod, and ${d.membership}, so ${d.mesh} intercepts the NFS ` +
        `connection (port ${d.ports}${d.v3 ? '; NFSv3 also needs mountd and lockd ports' : ''}): mounts can hang or fail, and when the pod stops ` +
        `the proxy can exit before the NFS flush, leaving the pod stuck in Terminating. Nothing excludes the port; add ${d.hint}.`,
      partial: (d: { kind: string; workload: string; signals: string; membership: string; mesh: string; annotation: string; value: string; missing: string; hint: string }) =>
        `${d.kind} "${d.workload}": ${d.signals} mounts NFS from inside the pod, and ${d.membership}; ${d.annotation}: "${d.value}" ` +
        `does not list port ${d.missing}, so ${d.mesh} still intercepts that NFS traffic. Use ${d.hint}.`,
      capturedNative: (d: { kind: string; workload: string; signals: string; membership: string; mesh: string; ports: string; native: string; hint: string }) =>
        `${d.kind} "${d.workload}": ${d.signals} mounts NFS from inside the pod, and ${d.membership}, so ${d.mesh} intercepts the NFS ` +
        `connection (port ${d.ports}). The proxy runs as a native sidecar (${d.native}), so it starts before and stops after the app ` +
        `containers and the mount is not cut at shutdown; a proxy restart still drops the NFS session, and exports with \`secure\` refuse ` +
        `the proxy's source ports. Add ${d.hint} to let NFS bypass the proxy.`,
      ambient: (d: { kind: string; workload: string; signals: string; membership: string }) =>
        `${d.kind} "${d.workload}": ${d.signals} mounts NFS from inside the pod, and ${d.membership}, so ztunnel intercepts the NFS ` +
        'connection from the pod\'s network namespace; whether ambient mode honours traffic.sidecar.istio.io exclusions is unverified. ' +
        'Mount the export through a PersistentVolume, or label the pod istio.io/dataplane-mode: none.',
      unknownMesh: (d: { kind: string; workload: string; signals: string; namespace: string; why: string; hint: string }) =>
        `${d.kind} "${d.workload}": ${d.signals} mounts NFS from inside the pod, and ${d.why}. If namespace "${d.namespace}" is in a ` +
        `service mesh (e.g. istio-injection=enabled), the proxy intercepts the NFS connection and the pod can hang in Terminating; ` +
        `add ${d.hint} or mount the export through a PersistentVolume.`,
    },
    examples: {
      invalid: [
        `apiVersion: v1
kind: Namespace
metadata:
  name: media
  labels: {istio-injection: enabled}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: transcoder, namespace: media}
spec:
  selector: {matchLabels: {app: transcoder}}
  template:
    metadata:
      labels: {app: transcoder}
    spec:
      containers:
        - name: transcoder
          image: registry.example.com/transcoder:2.1
          securityContext: {privileged: true}
          command: ["/bin/sh", "-c"]
          args: ["mount -t nfs4 -o nfsvers=4.1,hard fs-0123456789abcdef0.efs.eu-west-1.amazonaws.com:/ /media && exec transcoder"]
`,
      ],
      valid: [
        `apiVersion: v1
kind: Namespace
metadata:
  name: media
  labels: {istio-injection: enabled}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: transcoder, namespace: media}
spec:
  selector: {matchLabels: {app: transcoder}}
  template:
    metadata:
      labels: {app: transcoder}
      annotations:
        traffic.sidecar.istio.io/excludeOutboundPorts: "2049"
    spec:
      containers:
        - name: transcoder
          image: registry.example.com/transcoder:2.1
          securityContext: {privileged: true}
          command: ["/bin/sh", "-c"]
          args: ["mount -t nfs4 -o nfsvers=4.1,hard fs-0123456789abcdef0.efs.eu-west-1.amazonaws.com:/ /media && exec transcoder"]
`,
      ],
    },
  },
  check({ model, report }) {
    for (const template of model.templates) {
      const all = inContainerNfsMounts(template);
      if (all.length === 0) continue;
      const membership = model.meshOf(template);
      if (membership.state === 'not-in-mesh' || !membership.mesh) continue;
      const mesh = membership.mesh;
      // Init containers run before a classic sidecar starts: that case is mesh-init-container-network's.
      const proxyRunsForInit = mesh === 'istio-ambient' || membership.nativeSidecar === 'yes';
      const signals = all.filter((s) => s.containerKind === 'containers' || (s.containerKind === 'initContainers' && proxyRunsForInit));
      if (signals.length === 0) continue;

      const ports = [...new Set(signals.flatMap(nfsPorts))].sort((a, b) => a - b);
      const server = signals.find((s) => s.server)?.server;
      const strong = signals.some((s) => s.strength === 'strong');
      const v3 = signals.some((s) => s.version === '3');
      const metaPath = podMetadataPath(template);
      const annotations = annotationsOf(podMetadataOf(template));
      const base = { kind: template.kind, workload: template.workload.name, signals: describeSignals(signals) };
      const related = [
        ...signals.map((s) => ({ resource: template.workload, path: s.evidence[0].path, message: `${containerWord(s.containerKind)} "${s.container}" mounts NFS here` })),
        ...(membership.reason.at ? [{ resource: membership.reason.at.resource, path: membership.reason.at.path, message: `the pod joins the mesh: ${membership.reason.text}` }] : []),
      ];

      if (membership.state === 'unknown') {
        if (!strong) continue;
        // Either mesh's exclusion clears it: the pod is prepared for capture.
        const istio = model.outboundCapture(template, 'istio-sidecar', ports, server);
        const link = model.outboundCapture(template, 'linkerd', ports, server);
        if (istio.verdict !== 'captured' || link.verdict !== 'captured') continue;
        report({
          resource: template.workload, path: [...metaPath, 'annotations'], messageId: 'unknownMesh', severity: 'note',
          data: { ...base, namespace: membership.namespace, why: membership.reason.text, hint: exclusionHint(mesh === 'linkerd' ? 'linkerd' : 'istio-sidecar', ports) },
          related,
        });
        continue;
      }

      if (mesh === 'istio-ambient') {
        report({
          resource: template.workload, path: [...metaPath, 'labels'], messageId: 'ambient', severity: 'note',
          data: { ...base, membership: membership.reason.text },
          related,
        });
        continue;
      }

      const capture = model.outboundCapture(template, mesh, ports, server);
      if (capture.verdict !== 'captured') continue;
      // A native sidecar outlives the app containers (one of the documented fixes for the shutdown hang); what is
      // left (a proxy restart, `secure` exports) depends on things the repo does not show.
      const native = membership.nativeSidecar === 'yes';
      const severity: Severity = native ? (strong ? 'warning' : 'note') : strong ? 'error' : 'warning';
      const annotation = mesh === 'linkerd' ? LINKERD_SKIP_OUTBOUND_PORTS : ISTIO_EXCLUDE_OUTBOUND_PORTS;
      const existing = annotations[annotation];
      const meshName = MESH_NAMES[mesh];
      if (existing !== undefined && existing.trim() !== '') {
        const missing = capture.missing.join(', ');
        const path: JsonPath = [...metaPath, 'annotations', annotation];
        report({
          resource: template.workload, path, messageId: 'partial', severity,
          data: { ...base, membership: membership.reason.text, mesh: meshName, annotation, value: existing, missing, hint: `${annotation}: "${[...existing.split(',').map((p) => p.trim()).filter(Boolean), ...capture.missing.map(String)].join(',')}"` },
          related,
        });
        continue;
      }
      if (native) {
        report({
          resource: template.workload, path: [...metaPath, 'annotations'], messageId: 'capturedNative', severity,
          data: { ...base, membership: membership.reason.text, mesh: meshName, ports: ports.join(' and '), native: membership.nativeReason, hint: exclusionHint(mesh, ports) },
          related,
        });
        continue;
      }
      report({
        resource: template.workload, path: [...metaPath, 'annotations'], messageId: 'captured', severity,
        data: { ...base, membership: membership.reason.text, mesh: meshName, ports: ports.join(' and '), v3, hint: exclusionHint(mesh, ports) },
        related,
      });
    }
  },
});
