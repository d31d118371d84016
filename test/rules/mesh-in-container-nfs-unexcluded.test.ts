import rule from '../../rules/mesh-in-container-nfs-unexcluded.js';
import { ruleTester } from '../helpers/rule-tester.js';

const MOUNT = 'mount -t nfs4 -o nfsvers=4.1,hard fs-0123456789abcdef0.efs.eu-west-1.amazonaws.com:/ /data && exec app';

const namespace = (name: string, labels = '', annotations = '') => `apiVersion: v1
kind: Namespace
metadata:
  name: ${name}${labels ? `\n  labels: {${labels}}` : ''}${annotations ? `\n  annotations: {${annotations}}` : ''}
---
`;

interface PodOpts {
  ns?: string;
  labels?: string;
  annotations?: string;
  command?: string;
  privileged?: boolean;
  init?: boolean;
  extra?: string;
  spec?: string;
  image?: string;
  env?: string;
}

const deployment = (o: PodOpts = {}) => {
  const container = `        - name: worker
          image: ${o.image ?? 'registry.example.com/worker:1'}
          securityContext: {privileged: ${o.privileged ?? true}}${o.command !== '' ? `\n          command: ["/bin/sh", "-c", ${JSON.stringify(o.command ?? MOUNT)}]` : ''}${o.env ? `\n          env: [${o.env}]` : ''}`;
  return `apiVersion: apps/v1
kind: Deployment
metadata: {name: worker, namespace: ${o.ns ?? 'jobs'}}
spec:
  selector: {matchLabels: {app: worker}}
  template:
    metadata:
      labels: {app: worker${o.labels ? `, ${o.labels}` : ''}}${o.annotations !== undefined ? `\n      annotations:\n${o.annotations.split('\n').map((l) => `        ${l}`).join('\n')}` : ''}
    spec:${o.spec ? `\n      ${o.spec}` : ''}
${o.init ? `      initContainers:\n${container}\n      containers:\n        - name: app\n          image: registry.example.com/app:1` : `      containers:\n${container}`}${o.extra ?? ''}
`;
};

const injected = namespace('jobs', 'istio-injection: enabled');

ruleTester(rule, {
  valid: [
    ...rule.meta.examples.valid.map((code, i) => ({ name: `documented valid example ${i + 1}`, code })),
    { name: 'pod opts out with the inject label', code: injected + deployment({ labels: 'sidecar.istio.io/inject: "false"' }) },
    { name: 'pod opts out with the deprecated inject annotation', code: injected + deployment({ annotations: 'sidecar.istio.io/inject: "false"' }) },
    { name: 'namespace istio-injection=disabled wins over the pod label', code: namespace('jobs', 'istio-injection: disabled') + deployment({ labels: 'sidecar.istio.io/inject: "true"' }) },
    { name: 'namespace in the repo without injection labels', code: namespace('jobs') + deployment() },
    { name: 'hostNetwork pods are never injected', code: injected + deployment({ spec: 'hostNetwork: true' }) },
    {
      name: 'kubelet-mounted nfs volume is not a signal',
      code: injected + deployment({ command: '', privileged: false, extra: '\n      volumes: [{name: share, nfs: {server: nfs.example.internal, path: /exports}}]' }),
    },
    { name: 'mount of a localhost export never leaves the pod', code: injected + deployment({ command: 'mount -t nfs4 localhost:/exports /data' }) },
    { name: 'umount is not a mount', code: injected + deployment({ command: 'umount /data || true; exec app' }) },
    { name: 'excludeOutboundIPRanges holds the literal server IP', code: injected + deployment({ command: 'mount -t nfs4 10.0.5.20:/exports /data', annotations: 'traffic.sidecar.istio.io/excludeOutboundIPRanges: "10.0.5.0/24"' }) },
    { name: 'includeOutboundIPRanges empty redirects nothing', code: injected + deployment({ annotations: 'traffic.sidecar.istio.io/includeOutboundIPRanges: ""' }) },
    { name: 'an IP-range rule with a server name pvlint cannot resolve is not judged', code: injected + deployment({ annotations: 'traffic.sidecar.istio.io/excludeOutboundIPRanges: "10.0.0.0/8"' }) },
    { name: 'Linkerd skip-outbound-ports on the namespace', code: namespace('jobs', '', 'linkerd.io/inject: enabled, config.linkerd.io/skip-outbound-ports: "2049"') + deployment() },
    { name: 'Linkerd skip-outbound-ports range on the pod', code: namespace('jobs', '', 'linkerd.io/inject: enabled') + deployment({ annotations: 'config.linkerd.io/skip-outbound-ports: "2000-2100"' }) },
    { name: 'medium hints without privilege cannot mount', code: injected + deployment({ command: '', privileged: false, env: '{name: NFS_SERVER, value: nfs.example.internal}', image: 'registry.example.com/nfs-client:1' }) },
    { name: 'unknown namespace and only medium hints', code: deployment({ command: '', env: '{name: NFS_SERVER, value: nfs.example.internal}' }) },
    { name: 'an init container under a classic sidecar is left to mesh-init-container-network', code: injected + deployment({ init: true }) },
    { name: 'a URL is not an NFS source', code: injected + deployment({ command: 'mount -o bind /a /b; curl -s http://example.com:/x' }) },
  ],
  invalid: [
    {
      name: 'a native sidecar (pod annotation) is a documented fix for the shutdown hang: a warning, not an error',
      code: injected + deployment({ annotations: 'sidecar.istio.io/nativeSidecar: "true"' }),
      errors: [{ messageId: 'capturedNative', severity: 'warning', messageIncludes: ['native sidecar (the pod template has annotation sidecar.istio.io/nativeSidecar: "true")', 'excludeOutboundPorts: "2049"'] }],
    },
    {
      name: 'native sidecars on for the cluster (cluster.mesh.nativeSidecars: true): a warning',
      code: injected + deployment(),
      model: { meshDefaults: { istioNativeSidecars: true } },
      errors: [{ messageId: 'capturedNative', severity: 'warning', messageIncludes: ['native sidecars are configured on for Istio'] }],
    },
    ...rule.meta.examples.invalid.map((code, i) => ({
      name: `documented invalid example ${i + 1}`, code,
      errors: [{ messageId: 'captured', severity: 'error' as const, line: 13, messageIncludes: ['container "transcoder"', 'namespace "media" has label istio-injection=enabled', 'Terminating', 'excludeOutboundPorts: "2049"'] }],
    })),
    {
      name: 'reports at the annotations block when there is one',
      code: injected + deployment({ annotations: 'prometheus.io/scrape: "true"' }),
      errors: [{ messageId: 'captured', severity: 'error', line: 15, path: ['spec', 'template', 'metadata', 'annotations'] }],
    },
    {
      name: 'pod inject label in a namespace the repo does not show',
      code: deployment({ labels: 'sidecar.istio.io/inject: "true"' }),
      errors: [{ messageId: 'captured', severity: 'error', messageIncludes: ['label sidecar.istio.io/inject: "true"'] }],
    },
    {
      name: 'namespace revision label',
      code: namespace('jobs', 'istio.io/rev: canary') + deployment(),
      errors: [{ messageId: 'captured', messageIncludes: ['istio.io/rev=canary'] }],
    },
    {
      name: 'an exclusion that lists other ports',
      code: injected + deployment({ annotations: 'traffic.sidecar.istio.io/excludeOutboundPorts: "5432"' }),
      errors: [{ messageId: 'partial', severity: 'error', line: 16, messageIncludes: ['"5432"', 'port 2049', 'excludeOutboundPorts: "5432,2049"'] }],
    },
    {
      name: 'NFSv3 needs the portmapper too',
      code: injected + deployment({ command: 'mount -t nfs -o nfsvers=3,nolock nfs.example.internal:/exports /data', annotations: 'traffic.sidecar.istio.io/excludeOutboundPorts: "2049"' }),
      errors: [{ messageId: 'partial', messageIncludes: ['port 111'] }],
    },
    {
      name: 'includeOutboundPorts forces 2049 through the proxy whatever the IP ranges say',
      code: injected + deployment({ command: 'mount -t nfs4 10.0.5.20:/exports /data', annotations: 'traffic.sidecar.istio.io/excludeOutboundIPRanges: "10.0.5.0/24"\ntraffic.sidecar.istio.io/includeOutboundPorts: "2049"' }),
      errors: [{ messageId: 'captured' }],
    },
    {
      name: 'Linkerd namespace',
      code: namespace('jobs', '', 'linkerd.io/inject: enabled') + deployment(),
      errors: [{ messageId: 'captured', messageIncludes: ['a Linkerd proxy', 'config.linkerd.io/skip-outbound-ports: "2049"'] }],
    },
    {
      name: 'mount.efs helper with an efs-utils image',
      code: injected + deployment({ command: 'mount.efs fs-0123456789abcdef0:/ /data', image: 'amazon/efs-utils:latest' }),
      errors: [{ messageId: 'captured', severity: 'error' }],
    },
    {
      name: 'privileged NFS client image with an NFS_SERVER env: warning',
      code: injected + deployment({ command: '', image: 'registry.example.com/nfs-client:2', env: '{name: NFS_SERVER, value: nfs.example.internal}' }),
      errors: [{ messageId: 'captured', severity: 'warning', messageIncludes: ['env NFS_SERVER'] }],
    },
    {
      name: 'ambient namespace: note',
      code: namespace('jobs', 'istio.io/dataplane-mode: ambient') + deployment(),
      errors: [{ messageId: 'ambient', severity: 'note' }],
    },
    {
      name: 'namespace not in the repo: note that says so',
      code: deployment(),
      errors: [{ messageId: 'unknownMesh', severity: 'note', messageIncludes: ['the labels of namespace "jobs" are not in the repo'] }],
    },
    {
      name: 'init container with a native sidecar goes through the running proxy',
      code: injected + deployment({ init: true, annotations: 'sidecar.istio.io/nativeSidecar: "true"' }),
      errors: [{ messageId: 'capturedNative', severity: 'warning', messageIncludes: ['init container "worker"'] }],
    },
    {
      name: 'a pre-injected istio-proxy container puts the pod in the mesh',
      code: namespace('jobs') + deployment({ extra: '\n        - name: istio-proxy\n          image: docker.io/istio/proxyv2:1.22.0' }),
      errors: [{ messageId: 'captured', messageIncludes: ['already contains the istio-proxy container'] }],
    },
  ],
});
