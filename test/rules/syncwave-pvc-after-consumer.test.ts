import rule from '../../rules/syncwave-pvc-after-consumer.js';
import { ruleTester } from '../helpers/rule-tester.js';

const pvc = (annotations = '') => `apiVersion: v1
kind: PersistentVolumeClaim
metadata:
  name: data${annotations ? `\n  annotations:\n${annotations.split('\n').map((l) => `    ${l}`).join('\n')}` : ''}
spec:
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 1Gi}}
---
`;

const workload = (kind: string, annotations = '') => {
  const meta = `metadata:\n  name: app${annotations ? `\n  annotations:\n${annotations.split('\n').map((l) => `    ${l}`).join('\n')}` : ''}`;
  const pod = `containers: [{name: app, image: app:1, volumeMounts: [{name: data, mountPath: /data}]}]
      volumes: [{name: data, persistentVolumeClaim: {claimName: data}}]`;
  if (kind === 'Job') return `apiVersion: batch/v1\nkind: Job\n${meta}\nspec:\n  template:\n    spec:\n      restartPolicy: Never\n      ${pod}\n`;
  return `apiVersion: apps/v1\nkind: ${kind}\n${meta}\nspec:\n  selector: {matchLabels: {app: app}}\n  template:\n    metadata: {labels: {app: app}}\n    spec:\n      ${pod}\n`;
};

ruleTester(rule, {
  valid: [
    ...rule.meta.examples.valid.map((code, i) => ({ name: `documented valid example ${i + 1}`, code })),
    { name: 'same wave', code: pvc('argocd.argoproj.io/sync-wave: "1"') + workload('Deployment', 'argocd.argoproj.io/sync-wave: "1"') },
    { name: 'no waves at all', code: pvc() + workload('Deployment') },
    { name: 'consumer in a later wave', code: pvc() + workload('StatefulSet', 'argocd.argoproj.io/sync-wave: "5"') },
    { name: 'a hook consumer runs in its own phase', code: pvc('argocd.argoproj.io/sync-wave: "3"') + workload('Job', 'argocd.argoproj.io/hook: PostSync') },
    { name: 'a non-integer wave counts as 0', code: pvc('argocd.argoproj.io/sync-wave: "one"') + workload('Deployment') },
    { name: 'a claim that is a hook is pvc-as-hook\'s', code: pvc('argocd.argoproj.io/sync-wave: "3"\nhelm.sh/hook: pre-install') + workload('Deployment') },
  ],
  invalid: [
    ...rule.meta.examples.invalid.map((code, i) => ({
      name: `documented invalid example ${i + 1}`, code,
      errors: [{ messageId: 'later', severity: 'warning' as const, line: 6, messageIncludes: ['sync-wave 2', 'Deployment "web" (wave 0, no sync-wave)'] }],
    })),
    {
      name: 'negative consumer wave, PruneLast mentioned',
      code: pvc('argocd.argoproj.io/sync-wave: "0"\nargocd.argoproj.io/sync-options: PruneLast=true') + workload('StatefulSet', 'argocd.argoproj.io/sync-wave: "-2"'),
      errors: [{ messageId: 'later', line: 6, messageIncludes: ['sync-wave 0', 'StatefulSet "app" (sync-wave -2)', 'PruneLast=true only defers pruning'] }],
    },
    {
      name: 'the earliest consumer is named',
      code: pvc('argocd.argoproj.io/sync-wave: "4"') + workload('Deployment', 'argocd.argoproj.io/sync-wave: "2"') + '---\n' + workload('Job', 'argocd.argoproj.io/sync-wave: "1"').replace('name: app', 'name: migrate'),
      errors: [{ messageId: 'later', messageIncludes: ['Job "migrate" (sync-wave 1)'] }],
    },
  ],
});
