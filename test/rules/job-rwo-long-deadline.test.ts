import rule from '../../rules/job-rwo-long-deadline.js';
import { ruleTester } from '../helpers/rule-tester.js';

const sc = (name: string, provisioner: string) => `---
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: ${name}}
provisioner: ${provisioner}
`;
const pvc = (modes: string, storageClass: string) => `---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: data}
spec:
  storageClassName: ${storageClass}
  accessModes: [${modes}]
  resources: {requests: {storage: 10Gi}}
`;
const app = `---
apiVersion: apps/v1
kind: Deployment
metadata: {name: app}
spec:
  strategy: {type: Recreate}
  selector: {matchLabels: {app: app}}
  template:
    metadata: {labels: {app: app}}
    spec:
      containers: [{name: app, image: app, volumeMounts: [{name: data, mountPath: /data}]}]
      volumes: [{name: data, persistentVolumeClaim: {claimName: data}}]
`;
const job = (opts: { deadline?: number; podDeadline?: number; readOnly?: boolean } = {}) => `---
apiVersion: batch/v1
kind: Job
metadata: {name: backup}
spec:${opts.deadline !== undefined ? `\n  activeDeadlineSeconds: ${opts.deadline}` : ''}
  template:
    spec:${opts.podDeadline !== undefined ? `\n      activeDeadlineSeconds: ${opts.podDeadline}` : ''}
      restartPolicy: Never
      containers: [{name: backup, image: restic, volumeMounts: [{name: data, mountPath: /data${opts.readOnly ? ', readOnly: true' : ''}}]}]
      volumes: [{name: data, persistentVolumeClaim: {claimName: data}}]
`;
const cronJob = (deadline?: number) => `---
apiVersion: batch/v1
kind: CronJob
metadata: {name: nightly}
spec:
  schedule: "0 3 * * *"
  concurrencyPolicy: Forbid
  jobTemplate:
    spec:${deadline !== undefined ? `\n      activeDeadlineSeconds: ${deadline}` : ''}
      template:
        spec:
          restartPolicy: OnFailure
          containers: [{name: backup, image: restic, volumeMounts: [{name: data, mountPath: /data}]}]
          volumes: [{name: data, persistentVolumeClaim: {claimName: data}}]
`;
const ebs = sc('gp3', 'ebs.csi.aws.com') + pvc('ReadWriteOnce', 'gp3');

ruleTester(rule, {
  valid: [
    { name: 'a deadline within the limit', code: ebs + app + job({ deadline: 1800 }) },
    { name: 'a deadline exactly at the limit', code: ebs + app + job({ deadline: 3600 }) },
    { name: 'a pod-level deadline within the limit when the Job sets none', code: ebs + app + job({ podDeadline: 900 }) },
    { name: 'the claim is used by the Job alone', code: ebs + job() },
    { name: 'the same Job written twice (a base and a copy side by side) is not another user of the claim', code: ebs + job() + job() },
    { name: 'a ReadWriteMany claim', code: sc('efs', 'efs.csi.aws.com') + pvc('ReadWriteMany', 'efs') + app + job() },
    { name: 'ReadWriteOnce on a driver without attach holds nothing', code: sc('efs', 'efs.csi.aws.com') + pvc('ReadWriteOnce', 'efs') + app + job() },
    { name: 'a longer deadline accepted by the option', code: ebs + app + job({ deadline: 86400 }), options: { maxDeadlineSeconds: 86400 } },
    { name: 'a CronJob run with a short deadline', code: ebs + app + cronJob(1800) },
  ],
  invalid: [
    {
      name: 'the seed incident: activeDeadlineSeconds 86400',
      code: ebs + app + job({ deadline: 86400 }),
      errors: [{ messageId: 'longDeadline', severity: 'warning', line: 31, path: ['spec', 'activeDeadlineSeconds'], messageIncludes: ['86400 s (1 day)', 'Deployment "app"', 'Multi-Attach'] }],
    },
    {
      name: 'no activeDeadlineSeconds at all',
      code: ebs + app + job(),
      errors: [{ messageId: 'noDeadline', line: 30, messageIncludes: ['sets no activeDeadlineSeconds', 'at most 3600 s'] }],
    },
    {
      name: 'a read-only mount holds an attachable volume too',
      code: ebs + app + job({ readOnly: true }),
      errors: [{ messageId: 'noDeadline' }],
    },
    {
      name: 'a pod-level deadline above the limit does not bound the run',
      code: ebs + app + job({ podDeadline: 7200 }),
      errors: [{ messageId: 'noDeadline' }],
    },
    {
      name: 'a CronJob without a deadline in its job template',
      code: ebs + app + cronJob(),
      errors: [{ messageId: 'noDeadline', path: ['spec', 'jobTemplate', 'spec', 'activeDeadlineSeconds'], messageIncludes: ['CronJob "nightly"'] }],
    },
    {
      name: 'a lower limit from the option',
      code: ebs + app + job({ deadline: 1800 }), options: { maxDeadlineSeconds: 600 },
      errors: [{ messageId: 'longDeadline', messageIncludes: ['limit of 600 s'] }],
    },
    {
      name: 'an unknown driver gives a note',
      code: pvc('ReadWriteOnce', 'unknown-class') + app + job(),
      errors: [{ messageId: 'noDeadline', severity: 'note' }],
    },
  ],
});
