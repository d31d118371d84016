import rule from '../../rules/emptydir-memory-unbounded.js';
import { ruleTester } from '../helpers/rule-tester.js';

const deployment = (opts: { emptyDir: string; limit?: string; readOnly?: boolean; sidecar?: boolean }) => `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
        - name: web
          image: web${opts.limit ? `\n          resources: {limits: {memory: ${opts.limit}}}` : ''}
          volumeMounts: [{name: shm, mountPath: /dev/shm${opts.readOnly ? ', readOnly: true' : ''}}]${opts.sidecar ? `
        - name: sidecar
          image: sidecar
          resources: {limits: {memory: 64Mi}}` : ''}
      volumes:
        - name: shm
          emptyDir: ${opts.emptyDir}
`;

ruleTester(rule, {
  valid: [
    { name: 'a disk-backed emptyDir', code: deployment({ emptyDir: '{}' }) },
    { name: 'sizeLimit below the writer\'s memory limit', code: deployment({ emptyDir: '{medium: Memory, sizeLimit: 256Mi}', limit: '1Gi' }) },
    { name: 'sizeLimit without a memory limit is bounded by the sizeLimit', code: deployment({ emptyDir: '{medium: Memory, sizeLimit: 256Mi}' }) },
    { name: 'only read-only mounts', code: deployment({ emptyDir: '{medium: Memory}', readOnly: true }) },
  ],
  invalid: [
    {
      name: 'no sizeLimit and a writer without a memory limit',
      code: deployment({ emptyDir: '{medium: Memory}' }),
      errors: [{ messageId: 'unboundedNoLimit', severity: 'warning', line: 15, path: ['spec', 'template', 'spec', 'volumes', 0, 'emptyDir', 'sizeLimit'], messageIncludes: ['node\'s allocatable memory'] }],
    },
    {
      name: 'no sizeLimit while the writer has a memory limit is a note',
      code: deployment({ emptyDir: '{medium: Memory}', limit: '1Gi' }),
      errors: [{ messageId: 'unbounded', severity: 'note', messageIncludes: ['OOMKilled'] }],
    },
    {
      name: 'sizeLimit above the writer\'s memory limit',
      code: deployment({ emptyDir: '{medium: Memory, sizeLimit: 2Gi}', limit: '512Mi' }),
      errors: [{ messageId: 'overLimit', severity: 'warning', messageIncludes: ['sizeLimit 2Gi', 'memory limit 512Mi'] }],
    },
    {
      name: 'a sidecar that does not mount the volume does not count',
      code: deployment({ emptyDir: '{medium: Memory}', sidecar: true }),
      errors: [{ messageId: 'unboundedNoLimit', messageIncludes: ['container "web"'] }],
    },
  ],
});
