// R47: an in-cluster NFS server pod gets an Istio sidecar, while kubelet (outside the mesh) mounts its exports.
import { defineRule } from '../src/define-rule.js';
import { ISTIO_EXCLUDE_INBOUND_PORTS, inboundExcluded, podMetadataPath } from '../src/model/mesh.js';
import { podLabelsOf } from '../src/model/placement.js';
import { WORKLOAD_KINDS, type PodTemplate } from '../src/model/pod-templates.js';
import type { StorageModel } from '../src/model/storage-model.js';
import type { JsonPath, Resource } from '../src/types.js';

const NFS_PORT = 2049;
const SERVER_IMAGE = /nfs-server|nfs-ganesha|(?:^|\/)ganesha\b/i;

interface Consumer {
  resource: Resource;
  path: JsonPath;
  server: string;
  what: string;
}

/** Every NFS server address a kubelet mount in the scope uses: PV `nfs.server`, NFS CSI `volumeAttributes.server`, class `parameters.server`, pod `volumes[].nfs.server`. */
function kubeletNfsConsumers(model: StorageModel): Consumer[] {
  const consumers: Consumer[] = [];
  for (const pv of model.ofKind('PersistentVolume')) {
    const spec = pv.object?.spec ?? {};
    if (typeof spec.nfs?.server === 'string') consumers.push({ resource: pv, path: ['spec', 'nfs', 'server'], server: spec.nfs.server, what: `PersistentVolume "${pv.name}"` });
    const attrs = spec.csi?.volumeAttributes;
    if (spec.csi?.driver === 'nfs.csi.k8s.io' && typeof attrs?.server === 'string') {
      consumers.push({ resource: pv, path: ['spec', 'csi', 'volumeAttributes', 'server'], server: attrs.server, what: `PersistentVolume "${pv.name}"` });
    }
  }
  for (const sc of model.ofKind('StorageClass')) {
    const server = sc.object?.parameters?.server;
    if (typeof server === 'string') consumers.push({ resource: sc, path: ['parameters', 'server'], server, what: `StorageClass "${sc.name}"` });
  }
  for (const template of model.templates) {
    for (const volume of template.volumes) {
      if (volume.source !== 'nfs') continue;
      const server = (template.spec.volumes?.[volume.index] as any)?.nfs?.server;
      if (typeof server === 'string') {
        consumers.push({ resource: template.workload, path: [...volume.path, 'nfs', 'server'], server, what: `${template.kind} "${template.workload.name}" (volume "${volume.name}")` });
      }
    }
  }
  return consumers;
}

/** Whether the template serves NFS: a container port 2049, or an NFS server image. */
function servesNfs(template: PodTemplate): string | undefined {
  for (const container of Array.isArray(template.spec?.containers) ? template.spec.containers : []) {
    const ports = Array.isArray(container?.ports) ? container.ports : [];
    if (ports.some((p: any) => p?.containerPort === NFS_PORT)) return `container "${container.name}" listens on port ${NFS_PORT}`;
    if (typeof container?.image === 'string' && SERVER_IMAGE.test(container.image)) return `container "${container.name}" runs ${container.image}`;
  }
  return undefined;
}

function namedPortIs2049(template: PodTemplate, name: string): boolean {
  return (Array.isArray(template.spec?.containers) ? template.spec.containers : []).some((c: any) =>
    (Array.isArray(c?.ports) ? c.ports : []).some((p: any) => p?.name === name && p?.containerPort === NFS_PORT));
}

/** Services in the template's namespace that select its pods and route a port to 2049. */
function nfsServicesOf(model: StorageModel, template: PodTemplate, namespace: string): Resource[] {
  const labels = podLabelsOf(template);
  return model.ofKind('Service').filter((svc) => {
    if ((model.namespaceOf(svc) ?? model.defaultNamespace) !== namespace) return false;
    const selector = svc.object?.spec?.selector;
    if (!selector || typeof selector !== 'object' || Object.keys(selector).length === 0) return false;
    if (!Object.entries(selector).every(([k, v]) => labels[k] !== undefined && String(labels[k]) === String(v))) return false;
    const ports = Array.isArray(svc.object?.spec?.ports) ? svc.object.spec.ports : [];
    return ports.some((p: any) => {
      const target = p?.targetPort ?? p?.port;
      return target === NFS_PORT || String(target) === String(NFS_PORT) || (typeof target === 'string' && namedPortIs2049(template, target));
    });
  });
}

function addressesOf(svc: Resource, namespace: string): Set<string> {
  const names = [`${svc.name}.${namespace}`, `${svc.name}.${namespace}.svc`, `${svc.name}.${namespace}.svc.cluster.local`];
  const ip = svc.object?.spec?.clusterIP;
  if (typeof ip === 'string' && ip !== '' && ip !== 'None') names.push(ip);
  return new Set(names.map((n) => n.toLowerCase()));
}

export default defineRule({
  id: 'mesh-nfs-server-in-mesh',
  meta: {
    catalogueId: 'R47',
    severity: 'warning',
    severities: ['note'],
    // Services: the ones routing to the NFS server's port 2049.
    kinds: [...WORKLOAD_KINDS, 'Service'],
    summary: 'An in-cluster NFS server that kubelet mounts from runs with an Istio sidecar intercepting port 2049.',
    why:
      'Kubelet mounts `nfs` volumes and NFS CSI volumes from the node\'s network namespace, outside the mesh. When the NFS server ' +
      'pod has an Istio sidecar, its inbound port 2049 is captured: with STRICT mTLS the plaintext mount from the node is refused ' +
      '("mount operation is initiated by kubernetes and not by container itself therefore it can\'t access mTLS enabled services"), ' +
      'and even in PERMISSIVE mode the server sees the proxy\'s address and an unprivileged source port, which exports with client ' +
      'restrictions or `secure` reject.',
    trigger:
      'A pod template with an Istio sidecar (injection read as in mesh-in-container-nfs-unexcluded) that listens on containerPort 2049 or runs an NFS server image ' +
      '(nfs-server, nfs-ganesha), selected by a Service that routes to 2049, where a PersistentVolume `nfs.server`, an NFS CSI ' +
      '`volumeAttributes.server`, a StorageClass `parameters.server` or a pod `volumes[].nfs.server` names that Service ' +
      '(`name.namespace`, `.svc`, `.svc.cluster.local`) or its clusterIP, and `traffic.sidecar.istio.io/excludeInboundPorts` does ' +
      'not list 2049 (nor does an `includeInboundPorts` list leave it out).',
    exceptions:
      'Servers not injected (`sidecar.istio.io/inject: "false"`, `hostNetwork`, a namespace without injection) and servers nobody ' +
      'mounts through kubelet in the repo are not reported; neither are Linkerd and ambient pods, whose proxies pass plaintext TCP ' +
      'from outside the mesh by default. A server whose namespace is not in the repo is a note.',
    fix:
      'Keep the NFS server out of the mesh (`sidecar.istio.io/inject: "false"` on its pod template), or add ' +
      '`traffic.sidecar.istio.io/excludeInboundPorts: "2049"` (NFSv3: also 111 and the mountd port) and allow plaintext on that port ' +
      '(PeerAuthentication portLevelMtls PERMISSIVE).',
    reportsAt: 'The NFS server\'s pod template `metadata.annotations` (where the exclusion or the opt-out belongs), with the Service and the mounting objects as related locations.',
    references: [
      { title: 'istio/istio#6523: NFS server in the mesh cannot be mounted by kubelet', url: 'https://github.com/istio/istio/issues/6523' },
      { title: 'Istio: Resource Annotations (traffic.sidecar.istio.io/excludeInboundPorts)', url: 'https://istio.io/latest/docs/reference/config/annotations/' },
      { title: 'Kubernetes docs: Volumes, "nfs"', url: 'https://kubernetes.io/docs/concepts/storage/volumes/#nfs' },
      { title: 'csi-driver-nfs node DaemonSet: hostNetwork mounts', url: 'https://github.com/kubernetes-csi/csi-driver-nfs/blob/master/charts/latest/csi-driver-nfs/templates/csi-nfs-node.yaml' },
    ],
    messages: {
      inMesh: (d: { kind: string; workload: string; serves: string; membership: string; service: string; consumers: string }) =>
        `${d.kind} "${d.workload}" serves NFS (${d.serves}) and ${d.membership}, so its Istio sidecar captures inbound port 2049; ${d.consumers} ` +
        `mount it through Service "${d.service}" from the node, outside the mesh: with STRICT mTLS the mount is refused, and otherwise the server ` +
        `sees the proxy's address and port. Add ${ISTIO_EXCLUDE_INBOUND_PORTS}: "2049" or sidecar.istio.io/inject: "false".`,
      unknownMesh: (d: { kind: string; workload: string; serves: string; why: string; service: string; consumers: string; namespace: string }) =>
        `${d.kind} "${d.workload}" serves NFS (${d.serves}) that ${d.consumers} mount through Service "${d.service}", and ${d.why}; if namespace ` +
        `"${d.namespace}" is Istio-injected, the sidecar captures port 2049 and kubelet's mounts from the node fail or are rewritten.`,
    },
    examples: {
      invalid: [
        `apiVersion: v1
kind: Namespace
metadata:
  name: storage
  labels: {istio-injection: enabled}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: nfs-server, namespace: storage}
spec:
  selector: {matchLabels: {app: nfs-server}}
  template:
    metadata:
      labels: {app: nfs-server}
    spec:
      containers:
        - name: nfs
          image: registry.example.com/nfs-server:2.6
          securityContext: {privileged: true}
          ports: [{name: nfs, containerPort: 2049}]
---
apiVersion: v1
kind: Service
metadata: {name: nfs, namespace: storage}
spec:
  selector: {app: nfs-server}
  ports: [{name: nfs, port: 2049}]
---
apiVersion: v1
kind: PersistentVolume
metadata: {name: shared}
spec:
  capacity: {storage: 10Gi}
  accessModes: [ReadWriteMany]
  nfs: {server: nfs.storage.svc.cluster.local, path: /exports}
`,
      ],
      valid: [
        `apiVersion: v1
kind: Namespace
metadata:
  name: storage
  labels: {istio-injection: enabled}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: nfs-server, namespace: storage}
spec:
  selector: {matchLabels: {app: nfs-server}}
  template:
    metadata:
      labels: {app: nfs-server, sidecar.istio.io/inject: "false"}
    spec:
      containers:
        - name: nfs
          image: registry.example.com/nfs-server:2.6
          securityContext: {privileged: true}
          ports: [{name: nfs, containerPort: 2049}]
---
apiVersion: v1
kind: Service
metadata: {name: nfs, namespace: storage}
spec:
  selector: {app: nfs-server}
  ports: [{name: nfs, port: 2049}]
---
apiVersion: v1
kind: PersistentVolume
metadata: {name: shared}
spec:
  capacity: {storage: 10Gi}
  accessModes: [ReadWriteMany]
  nfs: {server: nfs.storage.svc.cluster.local, path: /exports}
`,
      ],
    },
  },
  check({ model, report }) {
    let consumers: Consumer[] | undefined;
    for (const template of model.templates) {
      const serves = servesNfs(template);
      if (!serves) continue;
      const membership = model.meshOf(template);
      if (membership.state === 'not-in-mesh' || membership.mesh !== 'istio-sidecar') continue;
      if (inboundExcluded(template, 'istio-sidecar', NFS_PORT)) continue;
      const namespace = membership.namespace;
      consumers ??= kubeletNfsConsumers(model);
      // Nobody mounts NFS through kubelet: no Service can matter, and reading them costs a parse of every one.
      if (consumers.length === 0) return;
      for (const svc of nfsServicesOf(model, template, namespace)) {
        const addresses = addressesOf(svc, namespace);
        const users = consumers.filter((c) => addresses.has(c.server.trim().toLowerCase()) ||
          // A pod in the same namespace may use the short name.
          (c.resource.kind !== 'PersistentVolume' && c.resource.kind !== 'StorageClass' && c.server.trim().toLowerCase() === svc.name.toLowerCase() &&
            (model.namespaceOf(c.resource) ?? model.defaultNamespace) === namespace));
        if (users.length === 0) continue;
        const what = [...new Set(users.map((u) => u.what))];
        const consumersText = what.length === 1 ? what[0] : `${what.slice(0, -1).join(', ')} and ${what[what.length - 1]}`;
        const related = [
          { resource: svc, path: ['spec', 'selector'] as JsonPath, message: `Service "${svc.name}" routes to the NFS server` },
          ...users.map((u) => ({ resource: u.resource, path: u.path, message: `${u.what} mounts ${u.server} through kubelet` })),
          ...(membership.reason.at ? [{ resource: membership.reason.at.resource, path: membership.reason.at.path, message: `the pod joins the mesh: ${membership.reason.text}` }] : []),
        ];
        const path: JsonPath = [...podMetadataPath(template), 'annotations'];
        if (membership.state === 'unknown') {
          report({
            resource: template.workload, path, messageId: 'unknownMesh', severity: 'note',
            data: { kind: template.kind, workload: template.workload.name, serves, why: membership.reason.text, service: svc.name, consumers: consumersText, namespace },
            related,
          });
        } else {
          report({
            resource: template.workload, path, messageId: 'inMesh',
            data: { kind: template.kind, workload: template.workload.name, serves, membership: membership.reason.text, service: svc.name, consumers: consumersText },
            related,
          });
        }
        break;
      }
    }
  },
});
