import rule from '../../rules/pvc-as-hook.js';
import { ruleTester } from '../helpers/rule-tester.js';

const pvc = (annotations: string, kind = 'PersistentVolumeClaim') => `apiVersion: v1
kind: ${kind}
metadata:
  name: cache
  annotations:
${annotations.split('\n').map((l) => `    ${l}`).join('\n')}
spec:
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 1Gi}}
`;

ruleTester(rule, {
  valid: [
    ...rule.meta.examples.valid.map((code, i) => ({ name: `documented valid example ${i + 1}`, code })),
    { name: 'Argo CD Skip is never applied', code: pvc('argocd.argoproj.io/hook: Skip') },
    { name: 'a sync wave is not a hook', code: pvc('argocd.argoproj.io/sync-wave: "-1"') },
  ],
  invalid: [
    ...rule.meta.examples.invalid.map((code, i) => ({
      name: `documented invalid example ${i + 1}`, code,
      errors: [{ messageId: 'deleted', severity: 'error' as const, line: 6, messageIncludes: ['before-hook-creation (the default delete policy)', 'on every upgrade'] }],
    })),
    {
      name: 'hook-succeeded deletes it right away',
      code: pvc('helm.sh/hook: post-install\nhelm.sh/hook-delete-policy: hook-succeeded'),
      errors: [{ messageId: 'deleted', messageIncludes: ['hook-succeeded deletes it as soon as the hook has run'] }],
    },
    {
      name: 'hook-failed only: orphaned, warning',
      code: pvc('helm.sh/hook: pre-install\nhelm.sh/hook-delete-policy: hook-failed'),
      errors: [{ messageId: 'orphaned', severity: 'warning', messageIncludes: ['a failed hook run deletes it'] }],
    },
    {
      name: 'keep does not stop hook deletion',
      code: pvc('helm.sh/hook: pre-upgrade\nhelm.sh/resource-policy: keep'),
      errors: [{ messageId: 'deleted' }],
    },
    {
      name: 'Argo CD PreSync hook defaults to BeforeHookCreation',
      code: pvc('argocd.argoproj.io/hook: PreSync'),
      errors: [{ messageId: 'deleted', line: 6, messageIncludes: ['Argo CD hook', 'BeforeHookCreation (the default delete policy)', 'every sync'] }],
    },
    {
      name: 'a PersistentVolume hook',
      code: pvc('helm.sh/hook: pre-install', 'PersistentVolume'),
      errors: [{ messageId: 'deleted', severity: 'warning', messageIncludes: ['PersistentVolume "cache"', 'on a re-install'] }],
    },
    {
      // Helm runs an install hook again only on a re-install (Chart Hooks docs): the claim survives upgrades.
      name: 'an install-only Helm hook is a warning',
      code: pvc('helm.sh/hook: pre-install\nhelm.sh/resource-policy: keep'),
      errors: [{ messageId: 'deleted', severity: 'warning', messageIncludes: ['on a re-install'] }],
    },
    {
      // Argo CD maps pre-install to PreSync and runs it on every sync.
      name: 'an install-only Helm hook where the repo shows Argo CD is an error',
      code: pvc('helm.sh/hook: pre-install') + `---
apiVersion: argoproj.io/v1alpha1
kind: Application
metadata: {name: app, namespace: argocd}
spec:
  project: default
  source: {repoURL: https://example.com/repo.git, path: apps/x, targetRevision: HEAD}
  destination: {server: https://kubernetes.default.svc, namespace: app}
`,
      errors: [{ messageId: 'deleted', severity: 'error' }],
    },
  ],
});
