import rule from '../../rules/mesh-init-container-network.js';
import { ruleTester } from '../helpers/rule-tester.js';

const MOUNT = 'mount -t nfs4 nfs.example.internal:/assets /assets';

const namespace = (labels = 'istio-injection: enabled', annotations = '') => `apiVersion: v1
kind: Namespace
metadata:
  name: render
  labels: {${labels}}${annotations ? `\n  annotations: {${annotations}}` : ''}
---
`;

const deployment = (o: { annotations?: string; command?: string; init?: string; runAsUser?: number } = {}) => `apiVersion: apps/v1
kind: Deployment
metadata: {name: renderer, namespace: render}
spec:
  selector: {matchLabels: {app: renderer}}
  template:
    metadata:
      labels: {app: renderer}${o.annotations ? `\n      annotations: {${o.annotations}}` : ''}
    spec:
      initContainers:
        - name: prepare
          image: registry.example.com/tools:1
          securityContext: {privileged: true${o.runAsUser !== undefined ? `, runAsUser: ${o.runAsUser}` : ''}}
          command: ["sh", "-c", ${JSON.stringify(o.command ?? MOUNT)}]${o.init ?? ''}
      containers:
        - name: renderer
          image: registry.example.com/renderer:3
`;

ruleTester(rule, {
  valid: [
    ...rule.meta.examples.valid.map((code, i) => ({ name: `documented valid example ${i + 1}`, code })),
    { name: 'native sidecar annotation', code: namespace() + deployment({ annotations: 'sidecar.istio.io/nativeSidecar: "true"' }) },
    { name: 'port 2049 excluded', code: namespace() + deployment({ annotations: 'traffic.sidecar.istio.io/excludeOutboundPorts: "2049"' }) },
    { name: 'init container runs as the Istio proxy UID', code: namespace() + deployment({ runAsUser: 1337 }) },
    { name: 'ambient pods: ztunnel runs before any pod', code: namespace('istio.io/dataplane-mode: ambient') + deployment() },
    { name: 'namespace outside the mesh', code: namespace('team: render') + deployment() },
    { name: 'download with an outbound exclusion present', code: namespace() + deployment({ command: 'curl -fsSL https://example.com/model.bin -o /models/model.bin', annotations: 'traffic.sidecar.istio.io/excludeOutboundIPRanges: "0.0.0.0/0"' }) },
    { name: 'download in a namespace the repo does not show', code: deployment({ command: 'wget -q https://example.com/a.tgz' }) },
    { name: 'no network at all', code: namespace() + deployment({ command: 'cp -r /defaults/. /config/' }) },
    { name: 'Linkerd init container running as the proxy UID', code: namespace('team: render', 'linkerd.io/inject: enabled') + deployment({ runAsUser: 2102 }) },
  ],
  invalid: [
    ...rule.meta.examples.invalid.map((code, i) => ({
      name: `documented invalid example ${i + 1}`, code,
      errors: [{ messageId: 'nfs', severity: 'error' as const, line: 22, messageIncludes: ['init container "fetch-assets"', 'sidecar.istio.io/nativeSidecar: "false"'] }],
    })),
    {
      name: 'Istio version decides: warning',
      code: namespace() + deployment(),
      errors: [{ messageId: 'nfs', severity: 'warning', line: 20, path: ['spec', 'template', 'spec', 'initContainers', 0, 'command'], messageIncludes: ['unless the cluster runs Istio 1.27+'] }],
    },
    {
      name: 'Linkerd without native sidecars: error',
      code: namespace('team: render', 'linkerd.io/inject: enabled') + deployment(),
      errors: [{ messageId: 'nfs', severity: 'error', messageIncludes: ['a Linkerd proxy'] }],
    },
    {
      name: 'an exclusion of other ports does not help',
      code: namespace() + deployment({ annotations: 'traffic.sidecar.istio.io/excludeOutboundPorts: "443"' }),
      errors: [{ messageId: 'nfs', severity: 'warning' }],
    },
    {
      name: 'download commands are a note',
      code: namespace() + deployment({ command: 'git clone https://example.com/site.git /site' }),
      errors: [{ messageId: 'fetch', severity: 'note', messageIncludes: ['git clone https://example.com/site.git /site'] }],
    },
    {
      name: 'NFS mount in a namespace the repo does not show: note',
      code: deployment(),
      errors: [{ messageId: 'unknownMesh', severity: 'note', messageIncludes: ['namespace "render" are not in the repo'] }],
    },
  ],
});
