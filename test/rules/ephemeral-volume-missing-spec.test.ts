import rule from '../../rules/ephemeral-volume-missing-spec.js';
import { ruleTester } from '../helpers/rule-tester.js';

const pod = (ephemeral: string) => `apiVersion: v1
kind: Pod
metadata: {name: builder, namespace: ci}
spec:
  containers:
    - name: builder
      image: kaniko
      volumeMounts: [{name: scratch, mountPath: /workspace}]
  volumes:
    - name: scratch
      ephemeral:
${ephemeral}`;

ruleTester(rule, {
  valid: [
    { name: 'template with spec', code: pod('        volumeClaimTemplate:\n          spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}\n') },
    { name: 'an incomplete spec is claim-spec-invalid\'s finding', code: pod('        volumeClaimTemplate:\n          spec: {storageClassName: gp3}\n') },
    {
      name: 'a CSI inline volume is another volume type',
      code: `apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  containers: [{name: c, image: busybox, volumeMounts: [{name: s, mountPath: /s}]}]
  volumes:
    - name: s
      csi: {driver: secrets-store.csi.k8s.io}
`,
    },
  ],
  invalid: [
    {
      name: 'claim fields written directly under volumeClaimTemplate',
      code: pod('        volumeClaimTemplate:\n          accessModes: [ReadWriteOnce]\n          resources: {requests: {storage: 1Gi}}\n'),
      errors: [{
        messageId: 'noSpec', severity: 'error', line: 12, resource: 'Pod/ci/builder',
        path: ['spec', 'volumes', 0, 'ephemeral', 'volumeClaimTemplate'],
        messageIncludes: ['ephemeral volume "scratch" has no spec', 'accessModes, resources must go under volumeClaimTemplate.spec', 'rejects the Pod at apply'],
      }],
    },
    {
      name: 'template with metadata only',
      code: pod('        volumeClaimTemplate:\n          metadata: {labels: {app: builder}}\n'),
      errors: [{ messageId: 'noSpec', line: 12 }],
    },
    {
      name: 'ephemeral without volumeClaimTemplate',
      code: pod('        readOnly: true\n'),
      errors: [{ messageId: 'noTemplate', line: 11, messageIncludes: ['volumeClaimTemplate: Required value'] }],
    },
    {
      name: 'empty ephemeral in a StatefulSet template',
      code: `apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db}
spec:
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec:
      containers: [{name: db, image: db, volumeMounts: [{name: tmp, mountPath: /tmp}]}]
      volumes:
        - name: tmp
          ephemeral: {}
`,
      errors: [{ messageId: 'noTemplate', line: 12, messageIncludes: ['FailedCreate'] }],
    },
  ],
});
