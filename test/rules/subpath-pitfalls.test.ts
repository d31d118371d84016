import rule from '../../rules/subpath-pitfalls.js';
import { ruleTester } from '../helpers/rule-tester.js';

const configDeployment = (opts: { kind?: string; podAnnotations?: string; configMap?: string; extra?: string } = {}) => `${opts.extra ?? ''}apiVersion: apps/v1
kind: ${opts.kind ?? 'Deployment'}
metadata: {name: web}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata:
      labels: {app: web}${opts.podAnnotations ? `\n      annotations: {${opts.podAnnotations}}` : ''}
    spec:
      containers:
        - name: web
          image: nginx
          volumeMounts:
            - {name: conf, mountPath: /etc/nginx/nginx.conf, subPath: nginx.conf}
      volumes:
        - name: conf
          configMap: {name: ${opts.configMap ?? 'web-conf'}}
`;
const claimPod = (opts: { securityContext?: string; init?: boolean; volume?: string } = {}) => `apiVersion: v1
kind: Pod
metadata: {name: app}
spec:${opts.securityContext ? `\n  securityContext: ${opts.securityContext}` : ''}${opts.init ? `
  initContainers:
    - {name: prep, image: busybox, command: [sh, -c, "mkdir -p /data/app && chown 1000 /data/app"], volumeMounts: [{name: data, mountPath: /data}]}` : ''}
  containers:
    - name: app
      image: app
      volumeMounts:
        - {name: data, mountPath: /var/lib/app, subPath: app}
  volumes:
    - name: data
      ${opts.volume ?? 'persistentVolumeClaim: {claimName: data}'}
`;

/** An emptyDir subPath mounted at `mountPath` next to a ConfigMap mounted at /etc/kube-flannel/ (kubernetes#61545). */
const nestedPod = (opts: { mountPath?: string; init?: boolean } = {}) => `apiVersion: v1
kind: Pod
metadata: {name: flannel}
spec:${opts.init ? `
  initContainers:
    - {name: prep, image: busybox, command: [sh, -c, "echo {} > /run/net/net-conf.json"], volumeMounts: [{name: net, mountPath: /run/net}]}` : ''}
  containers:
    - name: flannel
      image: flannel
      volumeMounts:
        - {name: cfg, mountPath: /etc/kube-flannel/}
        - {name: net, mountPath: ${opts.mountPath ?? '/etc/kube-flannel/net-conf.json'}, subPath: net-conf.json}
  volumes:
    - {name: cfg, configMap: {name: kube-flannel-cfg}}
    - {name: net, emptyDir: {}}
`;

ruleTester(rule, {
  valid: [
    { name: 'a checksum annotation rolls pods on change', code: configDeployment({ podAnnotations: 'checksum/config: abc123' }) },
    { name: 'a Reloader annotation', code: configDeployment({ podAnnotations: 'reloader.stakater.com/auto: "true"' }) },
    { name: 'a Kustomize-generated name', code: configDeployment({ configMap: 'web-conf-7m2k9g4hbt' }) },
    { name: 'a Job is short-lived', code: configDeployment({ kind: 'Job' }).replace('  selector: {matchLabels: {app: web}}\n', '') },
    {
      name: 'an immutable ConfigMap cannot change',
      code: configDeployment({ extra: 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: web-conf}\nimmutable: true\ndata: {nginx.conf: ""}\n---\n' }),
    },
    { name: 'a non-root pod with fsGroup', code: claimPod({ securityContext: '{runAsUser: 1000, fsGroup: 1000}' }) },
    { name: 'a root container', code: claimPod({ securityContext: '{runAsUser: 0}' }) },
    { name: 'an init container prepares the directory', code: claimPod({ securityContext: '{runAsUser: 1000}', init: true }) },
    { name: 'an emptyDir root is world-writable', code: claimPod({ securityContext: '{runAsUser: 1000}', volume: 'emptyDir: {}' }) },
    { name: 'an emptyDir subPath outside the ConfigMap\'s directory', code: nestedPod({ mountPath: '/run/flannel/net-conf.json' }) },
    { name: 'an emptyDir subPath an init container writes first', code: nestedPod({ init: true }) },
  ],
  invalid: [
    {
      name: 'an emptyDir subPath inside a ConfigMap mount: a directory where the ConfigMap may hold the file',
      code: nestedPod(),
      errors: [{ messageId: 'dirInProjection', severity: 'note', line: 10, path: ['spec', 'containers', 0, 'volumeMounts', 1, 'subPath'], messageIncludes: ['has a file "net-conf.json"', '"not a directory"'] }],
    },
    {
      name: 'a ConfigMap file mounted with subPath',
      code: configDeployment(),
      errors: [{ messageId: 'noUpdates', severity: 'note', line: 14, path: ['spec', 'template', 'spec', 'containers', 0, 'volumeMounts', 0, 'subPath'], messageIncludes: ['ConfigMap "web-conf"', 'never receives updates'] }],
    },
    {
      name: 'a non-root container with a claim subPath and no fsGroup',
      code: claimPod({ securityContext: '{runAsUser: 1000, runAsNonRoot: true}' }),
      errors: [{ messageId: 'rootOwned', severity: 'note', messageIncludes: ['non-root container "app"', 'subPath "app"'] }],
    },
  ],
});
