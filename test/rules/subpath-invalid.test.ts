import rule from '../../rules/subpath-invalid.js';
import { ruleTester } from '../helpers/rule-tester.js';

const deployment = (mount: string) => `apiVersion: apps/v1
kind: Deployment
metadata: {name: wiki, namespace: docs}
spec:
  selector: {matchLabels: {app: wiki}}
  template:
    metadata: {labels: {app: wiki}}
    spec:
      containers:
        - name: wiki
          image: wiki
          volumeMounts:
            - name: data
              mountPath: /wiki/data
${mount}      volumes:
        - name: data
          persistentVolumeClaim: {claimName: wiki-data}
`;

ruleTester(rule, {
  valid: [
    { name: 'stays quiet on subPathExpr built from the downward API', code: deployment('              subPathExpr: $(POD_NAMESPACE)/$(POD_NAME)\n') },
    { name: 'relative subPath', code: deployment('              subPath: wiki/data\n') },
    { name: 'dots inside names are not backsteps', code: deployment('              subPath: ..data/a..b/.hidden\n') },
    { name: 'relative subPathExpr', code: deployment('              subPathExpr: $(POD_NAME)\n') },
    { name: 'no subPath', code: deployment('') },
    { name: 'empty subPath is the volume root', code: deployment('              subPath: ""\n') },
  ],
  invalid: [
    {
      name: 'absolute subPath',
      code: deployment('              subPath: /wiki\n'),
      errors: [{
        messageId: 'absolute', severity: 'error', line: 15, resource: 'Deployment/docs/wiki',
        path: ['spec', 'template', 'spec', 'containers', 0, 'volumeMounts', 0, 'subPath'],
        messageIncludes: ['container "wiki"', 'subPath "/wiki"', 'must be a relative path', 'rejects the Deployment at apply'],
      }],
    },
    {
      name: 'subPath climbing out of the volume',
      code: deployment('              subPath: data/../../etc\n'),
      errors: [{ messageId: 'backstep', line: 15, messageIncludes: ['must not contain \'..\''] }],
    },
    {
      name: 'absolute subPath with a backstep: both messages',
      code: deployment('              subPath: /../etc\n'),
      errors: [{ messageId: 'absolute', line: 15 }, { messageId: 'backstep', line: 15 }],
    },
    {
      name: 'subPathExpr is checked too',
      code: deployment('              subPathExpr: ../$(POD_NAME)\n'),
      errors: [{ messageId: 'backstep', line: 15, path: ['spec', 'template', 'spec', 'containers', 0, 'volumeMounts', 0, 'subPathExpr'] }],
    },
    {
      name: 'subPath and subPathExpr together',
      code: deployment('              subPath: logs\n              subPathExpr: $(POD_NAME)\n'),
      errors: [{ messageId: 'both', line: 16, messageIncludes: ['mutually exclusive'] }],
    },
    {
      name: 'ephemeral container with a subPath',
      code: `apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  containers: [{name: c, image: busybox}]
  ephemeralContainers:
    - name: debug
      image: busybox
      volumeMounts:
        - name: data
          mountPath: /data
          subPath: logs
  volumes:
    - name: data
      emptyDir: {}
`,
      errors: [{ messageId: 'ephemeral', line: 12, messageIncludes: ['ephemeral container "debug"', 'cannot be set for an Ephemeral Container'] }],
    },
  ],
});
