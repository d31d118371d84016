// One Flux Kustomization's build, as kustomize-controller makes it (fluxcd/pkg kustomize_generator.go): the
// directory's own kustomization, or one generated from every manifest below it when it has none; then the spec's
// overlays (targetNamespace, namePrefix/nameSuffix, patches, images, components) on top; load restrictor none.
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { enterable, realpathOrUndefined } from './link-loops.js';
import { parseAllDocuments, stringify } from 'yaml';
import { includedKustomizations, kustomizationFileIn, loadKustomization } from '../render/kustomization.js';
import type { WrapperFiles } from '../render/kustomize-render.js';
import type { SourceCache } from '../render/source-cache.js';

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
 * kustomization becomes one entry and is not entered. A directory link that leads back to a directory the walk is
 * inside (`loop -> .`, `up -> ..`) is not entered again: each such loop would otherwise multiply the walk without end.
 */
export function generatedEntries(dir: string): string[] {
  const entries: string[] = [];
  // The real paths of the directories being walked, outermost first; a child that is no link is its parent's plus its name.
  const inside: string[] = [];
  const walk = (current: string, real: string) => {
    let names: { name: string; link: boolean }[];
    try {
      names = readdirSync(current, { withFileTypes: true })
        .map((entry) => ({ name: entry.name, link: entry.isSymbolicLink() }))
        .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    } catch {
      return;
    }
    inside.push(real);
    for (const { name, link } of names) {
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
        else {
          const childReal = enterable(abs, real, link, inside);
          if (childReal !== undefined) walk(abs, childReal);
        }
      } else if (info.isFile() && MANIFEST.test(name)) {
        entries.push(abs);
      }
    }
    inside.pop();
  };
  const real = realpathOrUndefined(dir);
  if (real !== undefined) walk(dir, real);
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

/**
 * The wrapper kustomization that reproduces the controller's build of `plan`, and with it an empty OpenAPI schema when kustomize's built-in one cannot change the output.
 *
 * A strategic-merge patch makes kustomize parse its built-in Kubernetes schema (~0.08 s of CPU per process: a
 * build with patches takes 3 × as long as one without), and Flux repositories put the same HelmRelease patch on
 * every Kustomization. That schema only gives merge keys and strategies for Kubernetes' own types; it says nothing
 * about a custom resource. So when every patch the build applies is a strategic merge onto a custom resource group
 * (or a JSON 6902 patch, which reads no schema), the patch holds no list (list merging is what the schema decides)
 * and no `$patch`-style directive, and no kustomization the build reaches has patches, plugins, CRDs or a schema of
 * its own, the build is given an empty schema (`openapi: path:`), which kustomize parses instead of the built-in
 * one: same output, a third of the time. Namespace scoping does not depend on it (kustomize answers that from its
 * own precomputed table for built-in kinds, and finds nothing for custom ones either way).
 */
export function fluxWrapper(plan: FluxBuildPlan, relative: (absPath: string) => string, cache: SourceCache): string | WrapperFiles {
  const document = fluxWrapperDocument(plan, relative);
  if (!plan.spec.patches?.length || !plan.spec.patches.every(schemaFreePatch) || reachMayUseSchema(plan, cache)) return stringify(document);
  document.openapi = { path: EMPTY_SCHEMA_FILE };
  return { kustomization: stringify(document), files: { [EMPTY_SCHEMA_FILE]: '{"definitions":{}}\n' } };
}

const EMPTY_SCHEMA_FILE = 'pvlint-empty-openapi.json';

/** Kubernetes' own API groups (the only ones kustomize's built-in schema describes): the core group, the groups without a dot (apps, batch, policy...) and `*.k8s.io`. */
function builtinGroup(group: string): boolean {
  return !group.includes('.') || group === 'k8s.io' || group.endsWith('.k8s.io');
}

function groupOf(apiVersion: unknown): string | undefined {
  if (typeof apiVersion !== 'string') return undefined;
  const slash = apiVersion.lastIndexOf('/');
  return slash === -1 ? '' : apiVersion.slice(0, slash);
}

/** True for a value holding no list, no `$`-directive and no embedded object with its own apiVersion and kind. */
function plainMapTree(value: unknown, top: boolean): boolean {
  if (Array.isArray(value)) return false;
  if (value === null || typeof value !== 'object') return true;
  const map = value as Record<string, unknown>;
  if (!top && 'apiVersion' in map && 'kind' in map) return false;
  for (const [key, field] of Object.entries(map)) {
    if (key.startsWith('$') || !plainMapTree(field, false)) return false;
  }
  return true;
}

/** A patch whose result does not depend on kustomize's built-in schema (see fluxWrapper). */
function schemaFreePatch(patch: unknown): boolean {
  const { patch: text, target } = patch as { patch: string; target?: any };
  let objects: unknown[];
  try {
    const documents = parseAllDocuments(text);
    if (!Array.isArray(documents) || documents.some((d) => d.errors.length > 0)) return false;
    objects = documents.map((d) => d.toJS());
  } catch {
    return false;
  }
  // A JSON 6902 patch (a list of operations) is applied without any schema.
  if (objects.length === 1 && Array.isArray(objects[0])) return true;
  if (objects.length === 0) return false;
  for (const object of objects) {
    if (object === null || typeof object !== 'object' || Array.isArray(object) || !plainMapTree(object, true)) return false;
    const group = target !== undefined && target !== null ? (typeof target.group === 'string' ? target.group : undefined) : groupOf((object as any).apiVersion);
    if (group === undefined || builtinGroup(group)) return false;
  }
  return true;
}

/** Keys of a kustomization that may apply a strategic merge, load schemas or run plugins. */
const SCHEMA_KEYS = ['patches', 'patchesStrategicMerge', 'patchesJson6902', 'openapi', 'crds', 'generators', 'transformers', 'validators'];

/** True unless every kustomization the build reaches is known and none of them may need the built-in schema. */
function reachMayUseSchema(plan: FluxBuildPlan, cache: SourceCache): boolean {
  const pending = [...(plan.generated ? plan.generated.filter((entry) => kustomizationFileIn(entry)) : [plan.dir]), ...plan.components];
  const seen = new Set<string>();
  while (pending.length > 0) {
    const dir = pending.pop()!;
    if (seen.has(dir)) continue;
    seen.add(dir);
    const k = loadKustomization(cache, dir);
    if (!k) return true;
    const data = k.data ?? {};
    if (SCHEMA_KEYS.some((key) => data[key] !== undefined && data[key] !== null)) return true;
    if ([...k.resources, ...k.components].some((e) => e.type === 'remote')) return true;
    pending.push(...includedKustomizations(k));
  }
  return false;
}

/** The wrapper kustomization's content. */
function fluxWrapperDocument(plan: FluxBuildPlan, relative: (absPath: string) => string): Record<string, unknown> {
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
  return document;
}
