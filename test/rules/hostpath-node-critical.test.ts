import rule from '../../rules/hostpath-node-critical.js';
import { ruleTester } from '../helpers/rule-tester.js';

const workload = (kind: string, path: string) => `apiVersion: apps/v1
kind: ${kind}
metadata: {name: tool, namespace: ci}
spec:
  selector: {matchLabels: {app: tool}}
  template:
    metadata: {labels: {app: tool}}
    spec:
      containers: [{name: tool, image: tool, volumeMounts: [{name: host, mountPath: /host}]}]
      volumes: [{name: host, hostPath: {path: ${path}}}]
`;
const namespace = (level: string) => `apiVersion: v1
kind: Namespace
metadata:
  name: ci
  labels: {pod-security.kubernetes.io/enforce: ${level}}
---
`;

ruleTester(rule, {
  valid: [
    { name: 'a DaemonSet node agent', code: workload('DaemonSet', '/') },
    { name: 'an ordinary host directory (hostpath-in-replicated-workload\'s)', code: workload('Deployment', '/var/log') },
    { name: 'a path below /var/run that is not the runtime', code: workload('Deployment', '/var/run/secrets-store') },
    ...rule.meta.examples.valid.map((code, i) => ({ name: `documented valid example ${i + 1}`, code })),
  ],
  invalid: [
    {
      name: 'the node root in a Deployment',
      code: workload('Deployment', '/'),
      errors: [{ messageId: 'critical', severity: 'warning', path: ['spec', 'template', 'spec', 'volumes', 0, 'hostPath', 'path'], messageIncludes: ['the node\'s root filesystem (hostPath /)'] }],
    },
    { name: 'the containerd socket with a trailing slash', code: workload('StatefulSet', '/run/containerd/containerd.sock/'), errors: [{ messageId: 'critical', messageIncludes: ['the containerd socket'] }] },
    {
      name: 'a namespace enforcing baseline rejects the pod',
      code: namespace('baseline') + workload('Deployment', '/var/run/docker.sock'),
      errors: [{ messageId: 'critical', severity: 'error', messageIncludes: ['enforces the baseline Pod Security level', 'rejects its pods'] }],
    },
    { name: 'privileged enforcement stays a warning', code: namespace('privileged') + workload('Deployment', '/'), errors: [{ messageId: 'critical', severity: 'warning' }] },
    ...rule.meta.examples.invalid.map((code, i) => ({ name: `documented invalid example ${i + 1}`, code, errors: [{ messageId: 'critical' }] })),
  ],
});
