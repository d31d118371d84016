// R41: a stand-alone PVC (or a Delete-policy PV) that the Helm / Argo CD / Flux tooling managing it would delete; the
// environment's record of what applies it (model/gitops.ts appliedEvidence) names that tool.
import { defineRule } from '../src/define-rule.js';
import { ARGO_SYNC_OPTIONS, TOOL_NAMES } from '../src/model/gitops.js';
import { reclaimOfVolume, type DatabaseVolume } from '../src/model/stateful-data.js';
import type { JsonPath, Resource, Severity } from '../src/types.js';

function list(items: string[]): string {
  return items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

export default defineRule({
  id: 'gitops-pvc-prune-unprotected',
  meta: {
    catalogueId: 'R41',
    severity: 'note',
    severities: ['warning'],
    kinds: ['PersistentVolumeClaim', 'PersistentVolume'],
    summary: 'A PersistentVolumeClaim managed by Helm, Argo CD or Flux lacks the annotation that stops that tool from deleting it.',
    why:
      'A claim that is part of a Helm release or a GitOps application is deleted by the tooling when it disappears from the ' +
      'rendered output or the release/application is removed, and with reclaimPolicy Delete its data goes too. Protection is ' +
      'tool-specific and not interchangeable: Helm honours `helm.sh/resource-policy: keep`; Argo CD prunes unless ' +
      '`argocd.argoproj.io/sync-options: Prune=false` (or Prune=confirm) and deletes with the Application unless `Delete=false` ' +
      '(or Delete=confirm, or — since 2.8 — `helm.sh/resource-policy: keep`), and `keep` does not stop pruning; Flux garbage-collects ' +
      'unless `kustomize.toolkit.fluxcd.io/prune: disabled`.',
    trigger:
      'A PersistentVolumeClaim, or a PersistentVolume with `persistentVolumeReclaimPolicy: Delete`, that a tool manages as far as ' +
      'the repo shows and that lacks that tool\'s protection for at least one deleting operation. In a GitOps environment the ' +
      'object that applies it decides: an Argo CD Application (for a Helm source too: Argo CD renders the chart with `helm ' +
      'template` and applies the output itself, so there is no Helm release and `helm uninstall` never runs), a Flux Kustomization ' +
      'with `prune: true` (one with `prune: false` deletes nothing), or a Flux HelmRelease (helm-controller installs a real Helm ' +
      'release and honours `helm.sh/resource-policy: keep` on uninstall; kustomize-controller\'s prune label does not reach the ' +
      'chart\'s objects). Elsewhere, markers: Helm (`app.kubernetes.io/managed-by: Helm` or `helm.sh/chart` labels, or a Helm ' +
      'render), Argo CD (an `argocd.argoproj.io/*` annotation on it or on another object in its directory, or an Application whose ' +
      'source path holds it), Flux (a `kustomize.toolkit.fluxcd.io/*` label or annotation, or a pruning Flux Kustomization whose ' +
      'path holds it). Note; warning when the claim holds database ' +
      'data on a reclaimPolicy Delete volume, or when only `helm.sh/resource-policy: keep` protects it under Argo CD (pruning still ' +
      'deletes it).',
    exceptions:
      'Claims created from StatefulSet volumeClaimTemplates are not in Git and are not reported (see argocd-vct-tracking-metadata); ' +
      'neither are claims without any sign of a managing tool. When Argo CD manages an object, Helm labels mean Argo CD renders the ' +
      'chart and there is no Helm release to uninstall. Objects that are Helm or Argo CD hooks are pvc-as-hook\'s.',
    fix:
      'Add the annotation for every tool in play — often all of them: `helm.sh/resource-policy: keep`, ' +
      '`argocd.argoproj.io/sync-options: Prune=false,Delete=false`, `kustomize.toolkit.fluxcd.io/prune: disabled` — and use a ' +
      'reclaimPolicy Retain class for data that must survive.',
    reportsAt: 'The claim\'s `metadata.annotations` (its `argocd.argoproj.io/sync-options` annotation when present; `metadata` when it has no annotations).',
    references: [
      { title: 'Helm docs: Chart Development Tips and Tricks, "Tell Helm Not To Uninstall a Resource"', url: 'https://helm.sh/docs/howto/charts_tips_and_tricks/#tell-helm-not-to-uninstall-a-resource' },
      { title: 'Argo CD docs: Sync Options (Prune=false, Delete=false)', url: 'https://argo-cd.readthedocs.io/en/stable/user-guide/sync-options/' },
      { title: 'argoproj/argo-cd#9853: Prune=false does not protect on Application deletion', url: 'https://github.com/argoproj/argo-cd/issues/9853' },
      { title: 'argoproj/argo-cd#13157: respect helm.sh/resource-policy: keep on Application deletion', url: 'https://github.com/argoproj/argo-cd/issues/13157' },
      { title: 'Flux docs: Kustomization, "Garbage collection" (kustomize.toolkit.fluxcd.io/prune: disabled)', url: 'https://fluxcd.io/flux/components/kustomize/kustomizations/#prune' },
      { title: 'Argo CD docs: Helm ("Helm is only used to inflate charts with helm template. The lifecycle of the application is handled by Argo CD instead of Helm.")', url: 'https://argo-cd.readthedocs.io/en/stable/user-guide/helm/' },
      { title: 'Flux docs: HelmRelease (helm-controller installs, upgrades and uninstalls a Helm release)', url: 'https://fluxcd.io/flux/components/helm/helmreleases/' },
    ],
    messages: {
      exposed: (d: { kind: string; name: string; tools: string; operations: string; protect: string; data: string }) =>
        `${d.kind} "${d.name}" is managed by ${d.tools}, and ${d.operations} would delete it${d.data}; add ${d.protect}.`,
      keepOnly: (d: { kind: string; name: string; data: string }) =>
        `${d.kind} "${d.name}" is managed by Argo CD and protected only by helm.sh/resource-policy: keep, which Argo CD honours on Application ` +
        `deletion but not when pruning: removing it from Git with pruning on deletes it${d.data}; add ${ARGO_SYNC_OPTIONS}: Prune=false.`,
    },
    examples: {
      invalid: [
        `apiVersion: v1
kind: PersistentVolumeClaim
metadata:
  name: media
  annotations:
    argocd.argoproj.io/sync-wave: "-1"
spec:
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 50Gi}}
`,
      ],
      valid: [
        `apiVersion: v1
kind: PersistentVolumeClaim
metadata:
  name: media
  annotations:
    argocd.argoproj.io/sync-wave: "-1"
    argocd.argoproj.io/sync-options: Prune=false,Delete=false
spec:
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 50Gi}}
`,
      ],
    },
  },
  check({ model, report }) {
    const candidates: Resource[] = [
      ...model.claimsOf(),
      ...model.ofKind('PersistentVolume').filter((pv) => { const r = reclaimOfVolume(pv); return r.policy === 'Delete' && !r.defaulted; }),
    ];
    for (const resource of candidates) {
      const annotations = resource.object?.metadata?.annotations ?? {};
      if (annotations['helm.sh/hook'] != null || annotations['argocd.argoproj.io/hook'] != null) continue;
      const { tools, exposures, protection } = model.deletionExposure(resource);
      if (exposures.length === 0) continue;

      // What is at stake: database data, and whether the volume goes with the claim.
      let db: DatabaseVolume | undefined;
      let deletesData = false;
      if (resource.kind === 'PersistentVolumeClaim') {
        const namespace = model.namespaceOf(resource) ?? model.defaultNamespace;
        for (const use of model.usesOfClaim(namespace, resource.name)) {
          db = model.databaseVolumes(use.template).get(use.volume.name);
          if (db) break;
        }
        deletesData = model.reclaimOfClaim(resource.object, resource).policy === 'Delete';
      } else {
        deletesData = true;
      }
      const data = db
        ? `, and with it the ${db.product} data${deletesData ? ' (reclaimPolicy Delete removes the volume too)' : ''}`
        : deletesData ? ' and, with reclaimPolicy Delete, the volume and its data' : '';
      const severityFor = (keepOnly: boolean): Severity => (keepOnly || (db && deletesData) ? 'warning' : 'note');
      const path: JsonPath = annotations[ARGO_SYNC_OPTIONS] != null ? ['metadata', 'annotations', ARGO_SYNC_OPTIONS] : ['metadata', 'annotations'];
      const related = tools
        .filter((t) => t.at && t.at.resource !== resource)
        .map((t) => ({ resource: t.at!.resource, path: t.at!.path, message: `${TOOL_NAMES[t.tool]} manages it: ${t.why}` }));

      const argo = exposures.filter((e) => e.tool === 'argocd');
      const keepOnly = tools.some((t) => t.tool === 'argocd') && protection.helmKeep && !protection.argoPrune && argo.length === 1;
      if (keepOnly && exposures.length === 1) {
        report({ resource, path, messageId: 'keepOnly', severity: 'warning', data: { kind: resource.kind, name: resource.name, data }, related });
        continue;
      }
      const protect: string[] = [];
      for (const e of exposures) {
        if (e.tool !== 'argocd') protect.push(e.protect);
      }
      const argoTokens = argo.map((e) => e.protect.slice(`${ARGO_SYNC_OPTIONS}: `.length));
      if (argoTokens.length > 0) protect.push(`${ARGO_SYNC_OPTIONS}: ${argoTokens.join(',')}`);
      const managed = list(tools.map((t) => `${TOOL_NAMES[t.tool]} (${t.why})`));
      report({
        resource, path, messageId: 'exposed', severity: severityFor(keepOnly),
        data: {
          kind: resource.kind, name: resource.name, tools: managed,
          operations: list(exposures.map((e) => e.operation)),
          protect: list([...new Set(protect)]),
          data,
        },
        related,
      });
    }
  },
});
