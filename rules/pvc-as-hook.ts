// R40: a PersistentVolumeClaim (or PersistentVolume) created as a Helm or Argo CD hook.
import { defineRule } from '../src/define-rule.js';
import { hooksOf, type HookInfo } from '../src/model/gitops.js';
import type { JsonPath } from '../src/types.js';

const DELETING = new Set(['before-hook-creation', 'hook-succeeded', 'BeforeHookCreation', 'HookSucceeded']);

const HELM_EVENTS: Readonly<Record<string, string>> = {
  'pre-install': 'install', 'post-install': 'install', 'pre-upgrade': 'upgrade', 'post-upgrade': 'upgrade',
  'pre-rollback': 'rollback', 'post-rollback': 'rollback', 'pre-delete': 'uninstall', 'post-delete': 'uninstall', test: 'helm test',
};

/** `on every upgrade`, `on every upgrade and rollback`, `on a re-install`. */
function helmEvents(hooks: readonly string[]): string {
  const events = [...new Set(hooks.map((h) => HELM_EVENTS[h]).filter((e): e is string => e !== undefined && e !== 'install'))];
  if (events.length === 0) return 'on a re-install';
  return `on every ${events.join(' and ')}`;
}

function consequence(hook: HookInfo): string {
  const policies = hook.effectivePolicies;
  const parts: string[] = [];
  const defaulted = hook.deletePolicies.length === 0 ? ' (the default delete policy)' : '';
  if (policies.some((p) => p === 'before-hook-creation' || p === 'BeforeHookCreation')) {
    parts.push(hook.tool === 'helm'
      ? `before-hook-creation${defaulted} deletes it and creates a new, empty one each time the hook runs again (${helmEvents(hook.hooks)})`
      : `BeforeHookCreation${defaulted} deletes it and creates a new, empty one on every sync that runs the hook`);
  }
  if (policies.some((p) => p === 'hook-succeeded' || p === 'HookSucceeded')) {
    parts.push(`${hook.tool === 'helm' ? 'hook-succeeded' : 'HookSucceeded'} deletes it as soon as the hook has run`);
  }
  return parts.join(', and ');
}

export default defineRule({
  id: 'pvc-as-hook',
  meta: {
    catalogueId: 'R40',
    severity: 'error',
    severities: ['warning'],
    kinds: ['PersistentVolumeClaim', 'PersistentVolume'],
    summary: 'A PersistentVolumeClaim or PersistentVolume is a Helm or Argo CD hook, so the tool deletes and re-creates it.',
    why:
      'Hook resources are not part of the Helm release or the Argo CD application: they are created when the hook phase runs ' +
      'and removed by the hook delete policy. Helm and Argo CD both default to before-hook-creation / BeforeHookCreation, which ' +
      'deletes the previous object before the hook runs again — for a claim that means deleting the volume\'s claim (and, with ' +
      'reclaimPolicy Delete, its data) on every upgrade or sync, or hanging in Terminating while pods still use it. ' +
      'hook-succeeded deletes it right after the hook. Without a deleting policy the claim is orphaned: never updated, never ' +
      'removed with the release. `helm.sh/resource-policy: keep` does not stop hook deletion.',
    trigger:
      'A PersistentVolumeClaim or PersistentVolume with `helm.sh/hook`, or with `argocd.argoproj.io/hook` other than `Skip` alone: ' +
      'error when the effective delete policy (`helm.sh/hook-delete-policy` / `argocd.argoproj.io/hook-delete-policy`, default ' +
      'before-hook-creation) includes before-hook-creation or hook-succeeded; warning otherwise (hook-failed only), and a ' +
      'warning for a Helm hook that runs only on install (`pre-install` / `post-install`) with before-hook-creation when the ' +
      'repo shows no Argo CD: Helm runs it again, and recreates the claim empty, only on a re-install — Argo CD maps it to ' +
      'PreSync and runs it on every sync.',
    exceptions: 'Objects whose only Argo CD hook is `Skip` (never applied) and claims created from StatefulSet volumeClaimTemplates are not reported.',
    fix:
      'Make the claim a normal release resource — remove the hook annotations, add `helm.sh/resource-policy: keep` (and Argo CD ' +
      '`argocd.argoproj.io/sync-options: Prune=false,Delete=false`) — and order it before its consumers with an Argo CD sync wave ' +
      'if needed; or use StatefulSet volumeClaimTemplates.',
    reportsAt: 'The `helm.sh/hook` or `argocd.argoproj.io/hook` annotation.',
    references: [
      { title: 'Helm docs: Chart Hooks (hook resources are not managed with the release; hook deletion policies)', url: 'https://helm.sh/docs/topics/charts_hooks/' },
      { title: 'Argo CD docs: Resource Hooks (hook deletion policies)', url: 'https://argo-cd.readthedocs.io/en/stable/user-guide/resource_hooks/' },
      { title: 'gitops-engine pkg/sync/hook/delete_policy.go (BeforeHookCreation by default)', url: 'https://github.com/argoproj/gitops-engine/blob/master/pkg/sync/hook/delete_policy.go' },
      { title: 'helm pkg/action/hooks.go (deleteHookByPolicy)', url: 'https://github.com/helm/helm/blob/main/pkg/action/hooks.go' },
    ],
    messages: {
      deleted: (d: { kind: string; name: string; tool: string; hooks: string; consequence: string }) =>
        `${d.kind} "${d.name}" is a ${d.tool} hook (${d.hooks}), not part of the release: ${d.consequence}. Its data goes with it, ` +
        'or the claim hangs in Terminating while pods still use it.',
      orphaned: (d: { kind: string; name: string; tool: string; hooks: string; policies: string; failed: boolean }) =>
        `${d.kind} "${d.name}" is a ${d.tool} hook (${d.hooks}) with delete policy ${d.policies}: it is not part of the release, so it is ` +
        `never updated or removed with it${d.failed ? ', and a failed hook run deletes it' : ''}.`,
    },
    examples: {
      invalid: [
        `apiVersion: v1
kind: PersistentVolumeClaim
metadata:
  name: cache
  annotations:
    helm.sh/hook: pre-install,pre-upgrade
spec:
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 10Gi}}
`,
      ],
      valid: [
        `apiVersion: v1
kind: PersistentVolumeClaim
metadata:
  name: cache
  annotations:
    helm.sh/resource-policy: keep
spec:
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 10Gi}}
`,
      ],
    },
  },
  check({ model, report }) {
    for (const resource of [...model.ofKind('PersistentVolumeClaim'), ...model.ofKind('PersistentVolume')]) {
      const hooks = hooksOf(resource.object?.metadata);
      if (hooks.length === 0) continue;
      const deleting = hooks.find((h) => h.effectivePolicies.some((p) => DELETING.has(p)));
      const hook = deleting ?? hooks[0];
      const path: JsonPath = ['metadata', 'annotations', hook.annotation];
      const base = { kind: resource.kind, name: resource.name, tool: hook.tool === 'helm' ? 'Helm' : 'Argo CD', hooks: `${hook.annotation}: ${hook.hooks.join(',')}` };
      if (deleting) {
        // Helm runs an install-only hook again only on a re-install, and keeps no record of it on uninstall: the claim
        // is recreated empty only then. Argo CD maps install hooks to PreSync and runs them on every sync.
        const installOnly = deleting.tool === 'helm' && helmEvents(deleting.hooks) === 'on a re-install' &&
          !deleting.effectivePolicies.some((p) => p === 'hook-succeeded') && !model.scopeUsesArgo();
        report({ resource, path, messageId: 'deleted', severity: installOnly ? 'warning' : 'error', data: { ...base, consequence: consequence(deleting) } });
      } else {
        report({ resource, path, messageId: 'orphaned', severity: 'warning', data: { ...base, policies: hook.effectivePolicies.join(','), failed: hook.effectivePolicies.some((p) => p === 'hook-failed' || p === 'HookFailed') } });
      }
    }
  },
});
