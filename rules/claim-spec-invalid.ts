// A PVC, a StatefulSet claim template or a generic ephemeral volume's claim template that claim validation rejects:
// no access modes, no storage request, an unknown access mode, a storage request that is zero or not a quantity.
import { defineRule } from '../src/define-rule.js';
import { ACCESS_MODES } from '../src/model/claims.js';
import { WORKLOAD_KINDS, getPath, type PodTemplate } from '../src/model/pod-templates.js';
import { isPlaceholder } from '../src/model/placeholder.js';
import { parseQuantity } from '../src/model/quantity.js';
import { containerLabel, podSpecRejection } from '../src/model/wiring.js';
import type { JsonPath, Resource } from '../src/types.js';


interface Target {
  resource: Resource;
  /** Path of the claim spec inside the resource. */
  specPath: JsonPath;
  spec: any;
  /** "PersistentVolumeClaim \"x\"", "volumeClaimTemplate \"data\" of StatefulSet \"pg\"", … */
  label: string;
  when: string;
  related: { resource: Resource; path: JsonPath; message: string }[];
}

function isObject(value: unknown): value is Record<string, any> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const VCT_REJECTION =
  'Kubernetes versions without claim-template validation (kubernetes PR #132212) accept the StatefulSet, then fail to ' +
  'create each replica\'s PVC (FailedCreate: "failed to create PVC …"), so no pod starts; newer ones reject it at create';

/** Kubernetes' IsDNS1123Subdomain, which object-meta validation applies to a PersistentVolumeClaim's name. */
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** Why a claim name is invalid; nothing for a valid one, an absent one (generateName) or a placeholder filled in later. */
function claimNameProblem(name: unknown): string | undefined {
  if (typeof name !== 'string' || name === '' || isPlaceholder(name)) return undefined;
  if (name.length > 253) return `has a name of ${name.length} characters`;
  if (DNS_SUBDOMAIN.test(name)) return undefined;
  return /[A-Z]/.test(name) && DNS_SUBDOMAIN.test(name.toLowerCase()) ? 'has a name with uppercase letters' : 'has a name that is not a DNS subdomain';
}

/** API groups of data-source kinds, for the hint when `apiGroup` is left out. */
const DATA_SOURCE_GROUPS: Readonly<Record<string, string>> = {
  VolumeSnapshot: 'snapshot.storage.k8s.io',
  ReplicationDestination: 'volsync.backube',
  VolumeImportSource: 'cdi.kubevirt.io',
  VolumeUploadSource: 'cdi.kubevirt.io',
  VolumeCloneSource: 'cdi.kubevirt.io',
};

/** What claim validation (validateDataSource, ValidatePersistentVolumeClaimSpec) rejects in a data source, and where. */
function dataSourceProblems(spec: Record<string, any>): { path: JsonPath; reason: string }[] {
  const problems: { path: JsonPath; reason: string }[] = [];
  const refs: Record<string, Record<string, any>> = {};
  for (const field of ['dataSource', 'dataSourceRef'] as const) {
    const ref = spec[field];
    if (!isObject(ref)) continue;
    refs[field] = ref;
    const { kind, apiGroup } = ref;
    if (typeof kind !== 'string' || kind === '' || isPlaceholder(kind) || isPlaceholder(apiGroup)) continue;
    if ((apiGroup == null || apiGroup === '') && kind !== 'PersistentVolumeClaim') {
      const group = DATA_SOURCE_GROUPS[kind];
      problems.push({
        path: [field, 'kind'],
        reason: `${field} names kind "${kind}" without an apiGroup, which only PersistentVolumeClaim may do ("must be ` +
          `'PersistentVolumeClaim' when referencing the default apiGroup")${group ? `; set apiGroup: ${group}` : ''}`,
      });
    } else if (typeof apiGroup === 'string' && apiGroup !== '' && !DNS_SUBDOMAIN.test(apiGroup)) {
      const slash = apiGroup.indexOf('/');
      problems.push({
        path: [field, 'apiGroup'],
        reason: `${field}.apiGroup "${apiGroup}" is not a DNS subdomain` +
          `${slash > 0 ? ` (an API group carries no version: apiGroup: ${apiGroup.slice(0, slash)})` : ''}`,
      });
    }
  }
  const { dataSource, dataSourceRef } = refs;
  if (dataSource && dataSourceRef) {
    if (typeof dataSourceRef.namespace === 'string' && dataSourceRef.namespace !== '') {
      problems.push({ path: ['dataSource'], reason: 'dataSource is set beside a dataSourceRef with a namespace ("may not be specified when dataSourceRef.namespace is specified")' });
    } else {
      const group = (ref: Record<string, any>) => (ref.apiGroup == null ? '' : ref.apiGroup);
      const differs = (['kind', 'name'] as const).some((key) => dataSource[key] !== dataSourceRef[key]) || group(dataSource) !== group(dataSourceRef);
      const values = [dataSource.kind, dataSource.name, dataSource.apiGroup, dataSourceRef.kind, dataSourceRef.name, dataSourceRef.apiGroup];
      if (differs && !values.some(isPlaceholder)) {
        problems.push({
          path: ['dataSource'],
          reason: `dataSource (${dataSource.kind} "${dataSource.name}") and dataSourceRef (${dataSourceRef.kind} "${dataSourceRef.name}") differ ("must match dataSourceRef"); keep only dataSourceRef`,
        });
      }
    }
  }
  return problems;
}

function firstUseOf(template: PodTemplate, name: string) {
  const use = template.uses.find((u) => u.volumeName === name);
  return use ? [{ resource: template.workload, path: [...use.path, 'name'], message: `mounted by ${containerLabel(use)}` }] : [];
}

export default defineRule({
  id: 'claim-spec-invalid',
  meta: {
    severity: 'error',
    kinds: ['PersistentVolumeClaim', ...WORKLOAD_KINDS],
    summary: 'A PVC or claim template without access modes or without a storage request (or with an invalid one), with an invalid data source, or a PVC with an invalid name.',
    why:
      'Claim validation (`ValidatePersistentVolumeClaimSpec`) requires `spec.accessModes` ("at least 1 access mode is ' +
      'required"), each mode one of ReadWriteOnce, ReadOnlyMany, ReadWriteMany, ReadWriteOncePod (and ReadWriteOncePod alone), ' +
      'and `spec.resources.requests.storage` (`spec.resources[storage]: Required value`) greater than zero. It checks them ' +
      'unconditionally: a claim that clones with `dataSource`/`dataSourceRef` or pre-binds a PV with `volumeName` needs them ' +
      'too, and `resources.limits.storage` does not stand in for the request. A PersistentVolumeClaim is rejected at apply. ' +
      'The claim template of a generic ephemeral volume is validated with the pod spec (at apply for Pods and for Deployment, ' +
      'Job, DaemonSet… templates). A StatefulSet\'s `volumeClaimTemplates` were not validated for years: the StatefulSet is ' +
      'accepted and the controller fails to create each replica\'s PVC, so no pod ever starts, with only FailedCreate events ' +
      '(`failed to create PVC data-web-0: … spec.accessModes: Required value: at least 1 access mode is required`, ' +
      'kubernetes issue #132211); newer API servers validate the templates at create (PR #132212). A claim\'s name, like ' +
      'every PersistentVolumeClaim\'s, must be a DNS subdomain (`ValidateObjectMeta` with `NameIsDNSSubdomain`).',
    trigger:
      'A PersistentVolumeClaim, a StatefulSet `volumeClaimTemplates[]` entry, or a generic ephemeral volume\'s ' +
      '`ephemeral.volumeClaimTemplate` (when it has a `spec`) whose spec lacks `accessModes` or has an empty list, lists a ' +
      'mode the API does not know, combines ReadWriteOncePod with another mode, lacks `resources.requests.storage`, or has a ' +
      'storage request that is not a quantity or not greater than zero; a PersistentVolumeClaim whose `metadata.name` is ' +
      'not a DNS subdomain (uppercase letters, `_`, a leading or trailing `-`, over 253 characters), which object-meta ' +
      'validation rejects; a `dataSource` / `dataSourceRef` that names a kind other than PersistentVolumeClaim without ' +
      '`apiGroup`, or whose `apiGroup` is not a DNS subdomain (`volsync.backube/v1alpha1`: a version written into it), or a ' +
      '`dataSource` that differs from the `dataSourceRef` beside it (or stands beside one with a `namespace`). ' +
      'Placeholders (`${VAR}`, `{{ … }}`, `@VAR@`) are not values and are not judged.',
    exceptions:
      'A PVC document that has a twin in the same scope (same namespace and name) which sets the missing field is taken ' +
      'for a Kustomize patch of that claim and not reported. A generic ephemeral volume without `spec` at all is reported ' +
      'by ephemeral-volume-missing-spec instead.',
    fix:
      'Set `accessModes` (usually `[ReadWriteOnce]`) and `resources.requests.storage` (for example `10Gi`) in the claim\'s ' +
      '`spec`, also when the claim is cloned or pre-bound to a PV (use the source\'s or the PV\'s size).',
    reportsAt: 'The missing or invalid field (`spec.accessModes`, `spec.resources.requests.storage`, `metadata.name`, the data source\'s `kind` or `apiGroup`, `spec.dataSource`), or the closest existing parent when it is absent; related: a container that mounts the claim.',
    references: [
      { title: 'Kubernetes API validation: ValidatePersistentVolumeClaimSpec', url: 'https://github.com/kubernetes/kubernetes/blob/master/pkg/apis/core/validation/validation.go' },
      { title: 'kubernetes/kubernetes issue #132211: StatefulSet volumeClaimTemplates not validated when creating', url: 'https://github.com/kubernetes/kubernetes/issues/132211' },
      { title: 'kubernetes/kubernetes PR #132212: validation of volumeClaimTemplates in StatefulSet', url: 'https://github.com/kubernetes/kubernetes/pull/132212' },
      { title: 'Kubernetes docs: PersistentVolumeClaims', url: 'https://kubernetes.io/docs/concepts/storage/persistent-volumes/#persistentvolumeclaims' },
    ],
    messages: {
      noAccessModes: (d: { target: string; empty: boolean; when: string }) =>
        `${d.target} ${d.empty ? 'has an empty accessModes list' : 'sets no accessModes'}; claim validation fails with ` +
        `"spec.accessModes: Required value: at least 1 access mode is required", and ${d.when}.`,
      badAccessMode: (d: { target: string; mode: string; when: string }) =>
        `${d.target} requests access mode "${d.mode}", which is not one of ${ACCESS_MODES.join(', ')}; claim validation rejects it (Unsupported value), and ${d.when}.`,
      mixedRwop: (d: { target: string; when: string }) =>
        `${d.target} combines ReadWriteOncePod with other access modes; claim validation fails with "may not use ReadWriteOncePod with other access modes", and ${d.when}.`,
      noStorage: (d: { target: string; limitsOnly: boolean; when: string }) =>
        `${d.target} has no resources.requests.storage${d.limitsOnly ? ' (only limits.storage, which does not count)' : ''}; ` +
        `claim validation fails with "spec.resources[storage]: Required value", and ${d.when}.`,
      badName: (d: { target: string; reason: string }) =>
        `${d.target} ${d.reason}: a claim's name must be a DNS subdomain (lowercase letters, digits, '-' and '.', starting ` +
        `and ending with a letter or digit, at most 253 characters), so the API server rejects it at apply and every pod ` +
        `that mounts it stays Pending with 'persistentvolumeclaim not found'.`,
      badDataSource: (d: { target: string; reason: string; when: string }) =>
        `${d.target}: ${d.reason}. Claim validation fails: ${d.when}.`,
      badStorage: (d: { target: string; value: string; reason: string; when: string }) =>
        `${d.target} requests storage ${JSON.stringify(d.value)}, which ${d.reason}, and ${d.when}.`,
    },
    examples: {
      invalid: [
        `apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: restore, namespace: db}
spec:
  storageClassName: ebs-gp3
  dataSourceRef:
    apiGroup: snapshot.storage.k8s.io
    kind: VolumeSnapshot
    name: nightly
`,
      ],
      valid: [
        `apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: restore, namespace: db}
spec:
  storageClassName: ebs-gp3
  accessModes: [ReadWriteOnce]
  resources:
    requests:
      storage: 20Gi
  dataSourceRef:
    apiGroup: snapshot.storage.k8s.io
    kind: VolumeSnapshot
    name: nightly
`,
      ],
    },
  },
  check({ model, report }) {
    const targets: Target[] = [];
    for (const pvc of model.ofKind('PersistentVolumeClaim')) {
      const namespace = model.namespaceOf(pvc) ?? model.defaultNamespace;
      const related = model.usesOfClaim(namespace, pvc.name).flatMap((use) =>
        use.uses.slice(0, 1).map((u) => ({ resource: use.template.workload, path: [...u.path, 'name'], message: `mounted by ${use.template.kind} "${use.template.workload.name}"` })),
      ).slice(0, 1);
      const nameProblem = claimNameProblem(pvc.object?.metadata?.name);
      if (nameProblem) {
        report({ resource: pvc, path: ['metadata', 'name'], messageId: 'badName', data: { target: `PersistentVolumeClaim ${JSON.stringify(pvc.name)}`, reason: nameProblem }, related });
      }
      targets.push({ resource: pvc, specPath: ['spec'], spec: pvc.object?.spec, label: `PersistentVolumeClaim "${pvc.name}"`, when: 'the API server rejects it at apply', related });
    }
    for (const template of model.templates) {
      if (template.kind === 'StatefulSet') {
        const vcts = getPath(template.workload.object, ['spec', 'volumeClaimTemplates']);
        (Array.isArray(vcts) ? vcts : []).forEach((vct: any, index: number) => {
          if (!isObject(vct)) return;
          const name = vct.metadata?.name == null ? `#${index}` : String(vct.metadata.name);
          targets.push({
            resource: template.workload,
            specPath: ['spec', 'volumeClaimTemplates', index, 'spec'],
            spec: vct.spec,
            label: `StatefulSet "${template.workload.name}": volumeClaimTemplate "${name}"`,
            when: VCT_REJECTION,
            related: firstUseOf(template, name),
          });
        });
      }
      for (const volume of template.volumes) {
        const claimTemplate = volume.ephemeralTemplate?.object;
        if (!isObject(claimTemplate) || !isObject(claimTemplate.spec)) continue;
        targets.push({
          resource: template.workload,
          specPath: [...volume.ephemeralTemplate!.path, 'spec'],
          spec: claimTemplate.spec,
          label: `${template.kind} "${template.workload.name}": ephemeral volume "${volume.name}"`,
          when: podSpecRejection(template.kind),
          related: firstUseOf(template, volume.name),
        });
      }
    }
    for (const target of targets) {
      const spec = isObject(target.spec) ? target.spec : {};
      const twins = target.resource.kind === 'PersistentVolumeClaim' ? model.twinsOf(target.resource) : [];
      const twinSets = (path: JsonPath) => twins.some((twin) => getPath(twin.object, path) != null);
      const base = { target: target.label, when: target.when };
      const modes = spec.accessModes;
      if (!Array.isArray(modes) || modes.length === 0) {
        if (!twinSets(['spec', 'accessModes'])) {
          report({
            resource: target.resource,
            path: [...target.specPath, 'accessModes'],
            messageId: 'noAccessModes',
            data: { ...base, empty: Array.isArray(modes) },
            related: target.related,
          });
        }
      } else {
        const strings = modes.map(String);
        // `${ACCESS_MODE}`: filled in later (Flux post-build, envsubst); not a mode to judge.
        const unknown = strings.find((mode) => !ACCESS_MODES.includes(mode) && !isPlaceholder(mode));
        if (unknown !== undefined) {
          report({
            resource: target.resource,
            path: [...target.specPath, 'accessModes', strings.indexOf(unknown)],
            messageId: 'badAccessMode',
            data: { ...base, mode: unknown },
            related: target.related,
          });
        } else if (strings.includes('ReadWriteOncePod') && strings.some((mode) => mode !== 'ReadWriteOncePod' && !isPlaceholder(mode))) {
          report({ resource: target.resource, path: [...target.specPath, 'accessModes'], messageId: 'mixedRwop', data: base, related: target.related });
        }
      }
      for (const problem of dataSourceProblems(spec)) {
        report({
          resource: target.resource, path: [...target.specPath, ...problem.path], messageId: 'badDataSource',
          data: { ...base, reason: problem.reason }, related: target.related,
          fix: 'Write the data source as `{apiGroup: <API group, no version>, kind: <Kind>, name: <object>}` (only a ' +
            'PersistentVolumeClaim takes no apiGroup), and set dataSourceRef alone: the API server fills in dataSource from it.',
        });
      }
      const storage = getPath(spec, ['resources', 'requests', 'storage']);
      if (storage == null || storage === '') {
        if (!twinSets(['spec', 'resources', 'requests', 'storage'])) {
          report({
            resource: target.resource,
            path: [...target.specPath, 'resources', 'requests', 'storage'],
            messageId: 'noStorage',
            data: { ...base, limitsOnly: getPath(spec, ['resources', 'limits', 'storage']) != null },
            related: target.related,
          });
        }
      } else if (!isPlaceholder(storage)) {
        const quantity = parseQuantity(storage);
        const reason = quantity === undefined ? 'is not a Kubernetes quantity (like 10Gi)' : quantity.numerator <= 0n ? 'is not greater than zero' : undefined;
        if (reason !== undefined) {
          report({
            resource: target.resource,
            path: [...target.specPath, 'resources', 'requests', 'storage'],
            messageId: 'badStorage',
            data: { ...base, value: String(storage), reason },
            related: target.related,
          });
        }
      }
    }
  },
});
