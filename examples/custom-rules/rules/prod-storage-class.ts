// A custom rule in TypeScript, loaded by pvlint without a build step (its types are erased on load).
// Claims in the production namespaces must use one of the StorageClasses the platform team allows (encrypted,
// with backups): a PersistentVolumeClaim or StatefulSet volumeClaimTemplate with another class, or without a class
// while the cluster's default class is not allowed, is reported at its storageClassName.
import { defineRule, type JsonPath, type Resource, type StorageModel } from 'pvlint';

interface Options {
  /** Namespaces that hold production workloads. */
  namespaces: string[];
  /** The classes their claims may use. */
  allowedClasses: string[];
}

const DEFAULTS = { namespaces: ['prod'], allowedClasses: ['gp3-encrypted'] } satisfies Options;

const messages = {
  notAllowed: (d: { claim: string; namespace: string; storageClass: string; allowed: string }) =>
    `${d.claim} in namespace "${d.namespace}" uses StorageClass "${d.storageClass}"; claims in this namespace must use one of: ${d.allowed}.`,
  defaultNotAllowed: (d: { claim: string; namespace: string; storageClass: string; allowed: string }) =>
    `${d.claim} in namespace "${d.namespace}" sets no storageClassName, so it gets the default class "${d.storageClass}"; ` +
    `claims in this namespace must use one of: ${d.allowed}.`,
};

/** A claim-shaped object: a PVC, or a StatefulSet's volumeClaimTemplate. */
type Claim = { resource: Resource; path: JsonPath; object: unknown; label: string };

function claimsOf(model: StorageModel): Claim[] {
  const claims: Claim[] = model.claimsOf().map((pvc) => ({ resource: pvc, path: [], object: pvc.object, label: `PersistentVolumeClaim "${pvc.name}"` }));
  for (const template of model.templates) {
    for (const claimTemplate of template.claimTemplates) {
      claims.push({
        resource: template.workload,
        path: claimTemplate.path,
        object: claimTemplate.object,
        label: `volumeClaimTemplate "${claimTemplate.name}" of ${template.kind} "${template.workload.name}"`,
      });
    }
  }
  return claims;
}

export default defineRule<typeof messages, Options>({
  id: 'acme/prod-storage-class',
  meta: {
    severity: 'error',
    kinds: ['PersistentVolumeClaim', 'StatefulSet'],
    summary: 'A claim in a production namespace uses a StorageClass the platform team does not allow there.',
    why: 'Production data must live on encrypted volumes that the backup policy covers; other classes are neither.',
    trigger: 'A PVC or volumeClaimTemplate in one of `namespaces` whose effective class (its own, else the default class) is not in `allowedClasses`.',
    exceptions: 'Claims whose class cannot be known (no class and no default class in the repo or the configuration).',
    fix: 'Set storageClassName to one of the allowed classes.',
    reportsAt: 'The claim\'s `spec.storageClassName`, or `spec` when it sets none.',
    references: [],
    messages,
    examples: {
      invalid: ['apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: data, namespace: prod}\nspec: {storageClassName: fast}\n'],
      valid: ['apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: data, namespace: prod}\nspec: {storageClassName: gp3-encrypted}\n'],
    },
    options: {
      schema: {
        type: 'object',
        properties: {
          namespaces: { type: 'array', items: { type: 'string', minLength: 1 } },
          allowedClasses: { type: 'array', items: { type: 'string', minLength: 1 }, minItems: 1 },
        },
        additionalProperties: false,
      },
      defaults: DEFAULTS,
    },
  },
  check({ model, options, report }) {
    const allowed = new Set<string>(options.allowedClasses);
    for (const claim of claimsOf(model)) {
      const namespace = model.namespaceOf(claim.resource)!;
      if (!options.namespaces.includes(namespace)) continue;
      const effective = model.effectiveClassOfClaim(claim.object);
      if (effective.name === undefined || allowed.has(effective.name)) continue;
      const data = { claim: claim.label, namespace, storageClass: effective.name, allowed: [...allowed].join(', ') };
      const own = model.classOfClaim(claim.object);
      report({
        resource: claim.resource,
        path: own.set && own.via === 'annotation'
          ? [...claim.path, 'metadata', 'annotations', 'volume.beta.kubernetes.io/storage-class']
          : own.set ? [...claim.path, 'spec', 'storageClassName'] : [...claim.path, 'spec'],
        messageId: effective.defaulted ? 'defaultNotAllowed' : 'notAllowed',
        data,
      });
    }
  },
});
