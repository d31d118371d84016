// One Flux Kustomization's build, as kustomize-controller makes it (fluxcd/pkg kustomize_generator.go): the
// directory's own kustomization, or one generated from every manifest below it when it has none; then the spec's
// overlays (targetNamespace, namePrefix/nameSuffix, patches, images, components) on top; load restrictor none.
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { stringify } from 'yaml';
import { kustomizationFileIn } from '../render/kustomization.js';

/** The parts of `spec` that change what the build prints (dependsOn, interval, wait... do not). */
export interface FluxBuildSpec {
  targetNamespace?: string;
  namePrefix?: string;
  nameSuffix?: string;
  patches?: unknown[];
  images?: unknown[];
  components?: string[];
  ignoreMissingComponents?: boolean;
}

export interface FluxBuildPlan {
  /** The directory `spec.path` names (absolute). */
  dir: string;
  /** The manifests and kustomization directories a generated kustomization lists; undefined when the directory has its own. */
  generated?: string[];
  /** Components that exist (absolute), missing ones left out when `ignoreMissingComponents`. */
  components: string[];
  spec: FluxBuildSpec;
  /** Identity of the build: the same key means the same output (the memo's key). */
  key: string;
}

const MANIFEST = /\.ya?ml$/i;

/**
 * Flux's generator walk: `*.yaml`/`*.yml` files recursively (hidden directories too), a subdirectory holding a
 * kustomization becomes one entry and is not entered.
 */
export function generatedEntries(dir: string): string[] {
  const entries: string[] = [];
  const walk = (current: string) => {
    let names: string[];
    try {
      names = readdirSync(current).sort();
    } catch {
      return;
    }
    for (const name of names) {
      if (name === '.git') continue;
      const abs = path.join(current, name);
      let info;
      try {
        info = statSync(abs);
      } catch {
        continue;
      }
      if (info.isDirectory()) {
        if (kustomizationFileIn(abs)) entries.push(abs);
        else walk(abs);
      } else if (info.isFile() && MANIFEST.test(name)) {
        entries.push(abs);
      }
    }
  };
  walk(dir);
  return entries;
}

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/** The build-relevant fields of a Kustomization's `spec`, with wrong types left out. */
export function buildSpecOf(spec: any): FluxBuildSpec {
  const text = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);
  return {
    targetNamespace: text(spec?.targetNamespace),
    namePrefix: text(spec?.namePrefix),
    nameSuffix: text(spec?.nameSuffix),
    patches: Array.isArray(spec?.patches) ? spec.patches.filter((p: any) => typeof p?.patch === 'string') : undefined,
    images: Array.isArray(spec?.images) ? spec.images.filter((i: any) => typeof i?.name === 'string') : undefined,
    components: stringList(spec?.components),
    ignoreMissingComponents: spec?.ignoreMissingComponents === true,
  };
}

export function planFluxBuild(dir: string, spec: FluxBuildSpec): FluxBuildPlan {
  const generated = kustomizationFileIn(dir) ? undefined : generatedEntries(dir);
  const components: string[] = [];
  for (const component of spec.components ?? []) {
    const abs = path.resolve(dir, component);
    let exists = false;
    try {
      exists = statSync(abs).isDirectory();
    } catch {
      exists = false;
    }
    if (exists || !spec.ignoreMissingComponents) components.push(abs);
  }
  const key = JSON.stringify({ dir, generated: generated !== undefined, spec: { ...spec, components } });
  return { dir, generated, components, spec, key };
}

/** The wrapper kustomization that reproduces the controller's build of `plan`. */
export function fluxWrapperText(plan: FluxBuildPlan, relative: (absPath: string) => string): string {
  const { spec } = plan;
  const document: Record<string, unknown> = {
    apiVersion: 'kustomize.config.k8s.io/v1beta1',
    kind: 'Kustomization',
    resources: plan.generated ? plan.generated.map(relative) : [relative(plan.dir)],
  };
  if (plan.components.length > 0) document.components = plan.components.map(relative);
  if (spec.targetNamespace) document.namespace = spec.targetNamespace;
  if (spec.namePrefix) document.namePrefix = spec.namePrefix;
  if (spec.nameSuffix) document.nameSuffix = spec.nameSuffix;
  if (spec.patches && spec.patches.length > 0) document.patches = spec.patches;
  if (spec.images && spec.images.length > 0) document.images = spec.images;
  document.buildMetadata = ['originAnnotations'];
  return stringify(document);
}
