// R43: Argo CD tracking metadata in a StatefulSet volumeClaimTemplate, copied onto every generated claim.
import { defineRule } from '../src/define-rule.js';
import { ARGO_INSTANCE_LABEL, ARGO_TRACKING_ID, INSTANCE_LABEL, annotationsOf, labelsOf } from '../src/model/gitops.js';
import type { JsonPath, Severity } from '../src/types.js';

export default defineRule({
  id: 'argocd-vct-tracking-metadata',
  meta: {
    catalogueId: 'R43',
    severity: 'warning',
    severities: ['note'],
    kinds: ['StatefulSet'],
    summary: 'A StatefulSet volumeClaimTemplate carries Argo CD tracking metadata, which marks the generated claims for pruning.',
    why:
      'The StatefulSet controller copies the labels and annotations of `volumeClaimTemplates[].metadata` onto every claim it creates. ' +
      'When they include the metadata Argo CD tracks its resources by — the `app.kubernetes.io/instance` label (label tracking, the ' +
      'default before Argo CD 3.0) or the configured `argocd.argoproj.io/instance` label, or the `argocd.argoproj.io/tracking-id` ' +
      'annotation — Argo CD sees claims that belong to the application but are not in Git: it marks them "requires pruning", shows ' +
      'the application OutOfSync, and prunes them (with their data, under reclaimPolicy Delete) when pruning is on.',
    trigger:
      'A `volumeClaimTemplates[].metadata` with label `argocd.argoproj.io/instance` or annotation `argocd.argoproj.io/tracking-id` ' +
      '(warning), or with label `app.kubernetes.io/instance` when Argo CD manages the StatefulSet as far as the repo shows (an ' +
      '`argocd.argoproj.io/*` annotation on it or next to it, or an Application whose source path holds it) — a note, since it only matters under label tracking and when its value is the application\'s name.',
    exceptions:
      '`app.kubernetes.io/instance` on a StatefulSet without any sign of Argo CD is not reported (Helm charts set it for their own ' +
      'selectors). The rule cannot see the Argo CD version or tracking method, nor whether automated pruning is on.',
    fix:
      'Remove tracking labels and annotations from the volumeClaimTemplates, or switch Argo CD to annotation tracking ' +
      '(`application.resourceTrackingMethod: annotation`, the default in Argo CD 3.x) and keep the annotation off the templates.',
    reportsAt: 'The tracking label or annotation inside `spec.volumeClaimTemplates[].metadata`.',
    references: [
      { title: 'Argo CD docs: Resource Tracking (label vs annotation tracking)', url: 'https://argo-cd.readthedocs.io/en/stable/user-guide/resource_tracking/' },
      { title: 'argoproj/argo-cd#3050: PVC created by volumeClaimTemplates always pruned', url: 'https://github.com/argoproj/argo-cd/issues/3050' },
      { title: 'argoproj/argo-cd#1729: volumeClaimTemplates with app.kubernetes.io/instance shown OutOfSync', url: 'https://github.com/argoproj/argo-cd/issues/1729' },
      { title: 'argoproj/argo-cd#8683: copied tracking annotations make resources require pruning', url: 'https://github.com/argoproj/argo-cd/issues/8683' },
    ],
    messages: {
      tracking: (d: { sts: string; template: string; key: string; value: string; kind: string }) =>
        `StatefulSet "${d.sts}" puts ${d.kind} ${d.key}: ${d.value} on volumeClaimTemplate "${d.template}"; every claim it creates carries it, ` +
        'so Argo CD counts the claims as application resources missing from Git, shows them as requiring pruning, and prunes them — and their data — when pruning runs.',
      instanceLabel: (d: { sts: string; template: string; value: string }) =>
        `StatefulSet "${d.sts}" puts label app.kubernetes.io/instance: ${d.value} on volumeClaimTemplate "${d.template}"; under Argo CD label tracking ` +
        `(the default before 3.0) and an Application named "${d.value}", the generated claims are treated as resources missing from Git and can be pruned.`,
    },
    examples: {
      invalid: [
        `apiVersion: apps/v1
kind: StatefulSet
metadata: {name: queue}
spec:
  serviceName: queue
  selector: {matchLabels: {app: queue}}
  template:
    metadata: {labels: {app: queue}}
    spec:
      containers: [{name: queue, image: rabbitmq:3.13, volumeMounts: [{name: data, mountPath: /var/lib/rabbitmq}]}]
  volumeClaimTemplates:
    - metadata:
        name: data
        labels:
          argocd.argoproj.io/instance: queue
      spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 8Gi}}}
`,
      ],
      valid: [
        `apiVersion: apps/v1
kind: StatefulSet
metadata: {name: queue}
spec:
  serviceName: queue
  selector: {matchLabels: {app: queue}}
  template:
    metadata: {labels: {app: queue}}
    spec:
      containers: [{name: queue, image: rabbitmq:3.13, volumeMounts: [{name: data, mountPath: /var/lib/rabbitmq}]}]
  volumeClaimTemplates:
    - metadata:
        name: data
        labels: {app: queue}
      spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 8Gi}}}
`,
      ],
    },
  },
  check({ model, report }) {
    for (const template of model.templates) {
      if (template.kind !== 'StatefulSet') continue;
      for (const vct of template.claimTemplates) {
        const meta = vct.object?.metadata;
        const labels = labelsOf(meta);
        const annotations = annotationsOf(meta);
        const at = (section: 'labels' | 'annotations', key: string): JsonPath => [...vct.path, 'metadata', section, key];
        const base = { sts: template.workload.name, template: vct.name };
        const found: { key: string; value: string; kind: string; path: JsonPath }[] = [];
        if (labels[ARGO_INSTANCE_LABEL] !== undefined) found.push({ key: ARGO_INSTANCE_LABEL, value: labels[ARGO_INSTANCE_LABEL], kind: 'label', path: at('labels', ARGO_INSTANCE_LABEL) });
        if (annotations[ARGO_TRACKING_ID] !== undefined) found.push({ key: ARGO_TRACKING_ID, value: annotations[ARGO_TRACKING_ID], kind: 'annotation', path: at('annotations', ARGO_TRACKING_ID) });
        for (const hit of found) {
          report({ resource: template.workload, path: hit.path, messageId: 'tracking', data: { ...base, key: hit.key, value: hit.value, kind: hit.kind } });
        }
        if (found.length === 0 && labels[INSTANCE_LABEL] !== undefined) {
          if (!model.managingTools(template.workload).some((t) => t.tool === 'argocd')) continue;
          const severity: Severity = 'note';
          report({ resource: template.workload, path: at('labels', INSTANCE_LABEL), messageId: 'instanceLabel', severity, data: { ...base, value: labels[INSTANCE_LABEL] } });
        }
      }
    }
  },
});
