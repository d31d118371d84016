// The one table of locators, by origin kind. A new kind of origin (what a renderer or a GitOps step records on the
// objects it makes) is located by writing its locator and adding it here.
import type { DerivedSource } from '../load/parse-resources.js';
import type { DeclaredClassSource } from '../model/cluster-facts.js';
import type { KustomizeSource } from '../render/kustomize-source.js';
import type { HelmTemplateSource } from '../render/helm-source.js';
import type { HelmDependencySource } from '../render/dependency-source.js';
import type { HelmValuesSource } from '../render/helm-release/render-objects.js';
import type { DeletePatchLine } from '../render/kustomize-removed.js';
import type { SubstitutionSource } from '../gitops/substituted-resource.js';
import type { ArgoHelmValuesSource } from '../gitops/argocd-helm-values.js';
import { locateArgoHelmValues } from './argocd-helm-values-locator.js';
import { locateDeclaredClass } from './declared-class-locator.js';
import { locateHelmDependency } from './helm-dependency-locator.js';
import { locateSubstituted } from './flux-substitution-locator.js';
import { locateHelmTemplate } from './helm-template-locator.js';
import { locateHelmValues } from './helm-values-locator.js';
import { locateKustomized } from './kustomize-locator.js';
import type { Locator } from './locator.js';
import type { Origin } from '../types.js';

export type LocatorTable = Readonly<Record<string, Locator<any>>>;

/** A copy made after reading (a namespace defaulted, an object borrowed): where the original is, with its note. */
const locateDerived: Locator<DerivedSource> = (origin, _resource, path, context) => {
  const located = context.at(origin.from, path);
  return origin.note === undefined ? located : { ...located, note: origin.note };
};

function entry<O extends Origin>(locator: Locator<O>): Locator<any> {
  return locator;
}

export const LOCATORS: LocatorTable = {
  kustomize: entry<KustomizeSource>((origin, _resource, path) => locateKustomized(origin, path)),
  'helm-template': entry<HelmTemplateSource>((origin, _resource, path) => locateHelmTemplate(origin, path)),
  'helm-values': entry<HelmValuesSource>(locateHelmValues),
  'helm-dependency': entry<HelmDependencySource>((origin, resource, path) => locateHelmDependency(origin, resource, path)),
  'argocd-helm-values': entry<ArgoHelmValuesSource>(locateArgoHelmValues),
  'flux-substitution': entry<SubstitutionSource>(locateSubstituted),
  'declared-class': entry<DeclaredClassSource>((origin, _resource, path) => locateDeclaredClass(origin, path)),
  derived: entry(locateDerived),
  'delete-patch-line': entry<DeletePatchLine>((origin) => ({ location: origin.location })),
};
