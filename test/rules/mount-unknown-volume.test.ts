import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import rule from '../../rules/mount-unknown-volume.js';
import { lintText, ruleTester } from '../helpers/rule-tester.js';

const deployment = (mountName: string, volumes = `      volumes:
        - name: data
          persistentVolumeClaim: {claimName: data}
`) => `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: shop}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
        - name: web
          image: nginx
          volumeMounts:
            - name: ${mountName}
              mountPath: /data
${volumes}`;

const statefulSet = (mountName: string, podVolumes = '') => `apiVersion: apps/v1
kind: StatefulSet
metadata: {name: pg, namespace: db}
spec:
  serviceName: pg
  selector: {matchLabels: {app: pg}}
  template:
    metadata: {labels: {app: pg}}
    spec:
      initContainers:
        - name: init
          image: busybox
          volumeMounts:
            - name: ${mountName}
              mountPath: /data
      containers:
        - name: pg
          image: postgres
${podVolumes}  volumeClaimTemplates:
    - metadata: {name: data}
      spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}
`;

ruleTester(rule, {
  valid: [
    { name: 'mount of a declared volume', code: deployment('data') },
    { name: 'StatefulSet mount of a claim template name', code: statefulSet('data') },
    {
      name: 'StatefulSet mount of a pod volume',
      code: statefulSet('config', `      volumes:
        - name: config
          configMap: {name: pg-config}
`),
    },
    {
      name: 'a Kustomize patch fragment (no selector, no image) is not judged',
      code: `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  template:
    spec:
      containers:
        - name: web
          volumeMounts:
            - name: extra
              mountPath: /extra
`,
    },
    {
      name: 'a device of a declared claim',
      code: `apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  containers:
    - name: c
      image: busybox
      volumeDevices:
        - name: raw
          devicePath: /dev/xvda
  volumes:
    - name: raw
      persistentVolumeClaim: {claimName: raw}
`,
    },
    {
      name: 'extensions/v1beta1 DaemonSet without selector is a whole object and is clean when wired',
      code: `apiVersion: extensions/v1beta1
kind: DaemonSet
metadata: {name: agent}
spec:
  template:
    metadata: {labels: {app: agent}}
    spec:
      containers:
        - name: agent
          image: agent:1
          volumeMounts: [{name: host, mountPath: /host}]
      volumes:
        - name: host
          hostPath: {path: /}
`,
    },
  ],
  invalid: [
    {
      name: 'Deployment mount with a typo, rejected at apply, with a suggestion',
      code: deployment('dta'),
      errors: [{
        messageId: 'unknown', severity: 'error', line: 13, resource: 'Deployment/shop/web',
        path: ['spec', 'template', 'spec', 'containers', 0, 'volumeMounts', 0, 'name'],
        messageIncludes: ['container "web"', 'volume "dta"', 'did you mean "data"', 'rejects the Deployment at apply', 'Not found'],
      }],
    },
    {
      name: 'a volumes list at the Deployment spec level is not the pod spec',
      code: deployment('data', `  volumes:
    - name: data
      persistentVolumeClaim: {claimName: data}
`),
      errors: [{ messageId: 'unknown', line: 13, messageIncludes: ['the volumes list at spec.volumes is not part of it', 'spec.template.spec.volumes'] }],
    },
    {
      name: 'StatefulSet init container mounting an undeclared name fails at pod creation before v1.34',
      code: statefulSet('pgdata'),
      errors: [{
        messageId: 'unknown', line: 14, resource: 'StatefulSet/db/pg',
        messageIncludes: ['init container "init"', 'neither the pod\'s volumes nor the volumeClaimTemplates', 'did you mean "data"', 'FailedCreate', 'v1.34'],
      }],
    },
    {
      name: 'a device of an undeclared volume',
      code: `apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  containers:
    - name: c
      image: busybox
      volumeDevices:
        - name: raw
          devicePath: /dev/xvda
`,
      errors: [{ messageId: 'unknown', line: 9, messageIncludes: ['maps a block device from volume "raw"', 'the pod spec has no volumes', 'rejects the Pod at apply', 'volumeDevices[].name'] }],
    },
    {
      name: 'ephemeral container mount of an undeclared volume',
      code: `apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  containers:
    - name: c
      image: busybox
  ephemeralContainers:
    - name: debug
      image: busybox
      volumeMounts:
        - name: data
          mountPath: /data
  volumes:
    - name: config
      configMap: {name: c}
`,
      errors: [{ messageId: 'unknown', line: 12, messageIncludes: ['ephemeral container "debug"'] }],
    },
    {
      name: 'Rollout: accepted by the API server, InvalidSpec in the controller',
      code: `apiVersion: argoproj.io/v1alpha1
kind: Rollout
metadata: {name: web}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
        - name: web
          image: nginx
          volumeMounts: [{name: cache, mountPath: /cache}]
`,
      errors: [{ messageId: 'unknown', line: 12, messageIncludes: ['marks it InvalidSpec'] }],
    },
  ],
});

const related = suite('mount-unknown-volume related locations');
related('the suggested volume is a related location', () => {
  const [finding] = lintText(rule, deployment('dta'));
  assert.equal(finding.related.map((r) => [r.message, r.location.region.startLine]), [['volume "data"', 16]]);
});
related.run();
