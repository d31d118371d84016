import rule from '../../rules/cronjob-rwo-concurrency.js';
import { ruleTester } from '../helpers/rule-tester.js';

const ebs = `apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: gp3}
provisioner: ebs.csi.aws.com
`;
const efs = `apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: efs}
provisioner: efs.csi.aws.com
`;
const pvc = (modes: string, storageClass = 'gp3') => `---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: out}
spec:
  storageClassName: ${storageClass}
  accessModes: [${modes}]
  resources: {requests: {storage: 1Gi}}
`;
const cronJob = (opts: { policy?: string; readOnly?: boolean; claim?: string } = {}) => `---
apiVersion: batch/v1
kind: CronJob
metadata: {name: export}
spec:
  schedule: "*/5 * * * *"${opts.policy ? `\n  concurrencyPolicy: ${opts.policy}` : ''}
  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: OnFailure
          containers:
            - name: export
              image: exporter
              volumeMounts: [{name: out, mountPath: /out${opts.readOnly ? ', readOnly: true' : ''}}]
          volumes:
            - name: out
              persistentVolumeClaim: {claimName: ${opts.claim ?? 'out'}}
`;

ruleTester(rule, {
  valid: [
    { name: 'concurrencyPolicy Forbid', code: ebs + pvc('ReadWriteOnce') + cronJob({ policy: 'Forbid' }) },
    { name: 'concurrencyPolicy Replace', code: ebs + pvc('ReadWriteOnce') + cronJob({ policy: 'Replace' }) },
    { name: 'a ReadWriteMany claim', code: efs + pvc('ReadWriteMany', 'efs') + cronJob() },
    { name: 'read-only mount', code: ebs + pvc('ReadWriteOnce') + cronJob({ readOnly: true }) },
    { name: 'claim not in the repo', code: cronJob({ claim: 'elsewhere' }) },
  ],
  invalid: [
    {
      name: 'no concurrencyPolicy on an attachable ReadWriteOnce claim',
      code: ebs + pvc('ReadWriteOnce') + cronJob(),
      errors: [{ messageId: 'overlap', severity: 'warning', line: 17, path: ['spec', 'concurrencyPolicy'], messageIncludes: ['no concurrencyPolicy (Allow by default)', 'Multi-Attach', 'ebs.csi.aws.com'] }],
    },
    {
      name: 'explicit Allow is reported at the field',
      code: ebs + pvc('ReadWriteOnce') + cronJob({ policy: 'Allow' }),
      errors: [{ messageId: 'overlap', line: 19, messageIncludes: ['concurrencyPolicy: Allow'] }],
    },
    {
      name: 'ReadWriteOncePod keeps the overlapping run Pending',
      code: ebs + pvc('ReadWriteOncePod') + cronJob(),
      errors: [{ messageId: 'overlap', messageIncludes: ['ReadWriteOncePod', 'stays Pending'] }],
    },
    {
      name: 'ReadWriteOnce on EFS: nothing enforced, runs write at once',
      code: efs + pvc('ReadWriteOnce', 'efs') + cronJob(),
      errors: [{ messageId: 'overlap', messageIncludes: ['nothing enforces ReadWriteOnce'] }],
    },
  ],
});
