// Where the values an Argo CD Application gives a Helm chart are written, recorded on the chart's objects for the
// locate stage (src/locate/argocd-helm-values-locator.ts): the repo-server runs `helm template` with the chart's
// values.yaml, then `valueFiles` in order, then `values` or `valuesObject`, then `parameters` (argo-cd
// reposerver/repository/repository.go: helmTemplate; [ARGO:helm §Helm Value Precedence]). Helm keeps no line
// mapping, so a field of a rendered object is matched against those scalars; one set by the Application (its
// inline values, its parameters, a file it lists in valueFiles) is the line a reviewer edits, wherever the chart's
// own template or dependency puts the object.
import { parse } from 'yaml';
import { deriveResource, makeResource, type DerivedSource } from '../load/parse-resources.js';
import { leavesOf, parseTargetPath, typedSetValue, valueAt, type ValueLeaf, type ValueWhere } from '../render/helm-release/release-values.js';
import type { KustomizeSource } from '../render/kustomize-source.js';
import type { HelmDependencySource, ValuesFilePlace } from '../render/dependency-source.js';
import { firstMapDocument, type SourceCache } from '../render/source-cache.js';
import type { JsonPath, Origin, Resource } from '../types.js';

/** One scalar the chart is given: where it is written, and which input of the Application wrote it. */
export interface ArgoValuePlace {
  /** A values file (the chart's values.yaml, or one of valueFiles). */
  file?: ValuesFilePlace;
  /** A field of the Application (valuesObject, a parameter) or a line of its `values: |` text. */
  field?: ValueWhere;
  /** How the note names the input: `valueFiles`, `helm.values`, … */
  input: string;
  /** Written by the Application (valueFiles, inline values, parameters), not the chart's own default. */
  byApplication: boolean;
}

export interface ArgoHelmValuesSource extends Origin {
  kind: 'argocd-helm-values';
  cache: SourceCache;
  /** The object as the chart rendered it: located by its own origin when no value of the Application explains a field. */
  rendered: Resource;
  leaves: readonly ValueLeaf<ArgoValuePlace>[];
  application: string;
}

/** Where the fields of one source of an Application are written: the object that holds them and the path to the source. */
export interface SourceAt {
  holder: Resource;
  path: JsonPath;
}

/**
 * The object a user edits for `resource`: a copy with a defaulted namespace is the object it was copied from (the copy
 * keeps the same lines, but only the original may be parsed again for text embedded in it).
 */
export function writtenObject(resource: Resource): Resource {
  let current = resource;
  while (current.sourceOrigin?.kind === 'derived') current = (current.sourceOrigin as DerivedSource).from;
  return current;
}

/**
 * The object whose node holds the text at `textPath`, so that lines inside the text can be told: `holder` itself, or,
 * for an Application a kustomization built (app-of-apps through a kustomization), its document in the base file when
 * the build left that text as written there.
 */
function textHolder(holder: Resource, textPath: JsonPath, text: string): Resource {
  const origin = holder.sourceOrigin as KustomizeSource | undefined;
  if (origin?.kind !== 'kustomize' || origin.from !== 'base') return holder;
  const { source, doc } = origin.base.match;
  if (!doc || valueAt(doc.object, textPath) !== text) return holder;
  return makeResource(source.file, doc.docIndex, doc.node, doc.object);
}

/**
 * The source at `index` of `app` (undefined: `spec.source`), written in `at`: the Application itself, or the
 * ApplicationSet whose template made it.
 */
export function sourceAt(at: Resource, index: number | undefined): SourceAt {
  const template = at.kind === 'ApplicationSet' ? ['spec', 'template'] : [];
  return { holder: at, path: [...template, ...(index === undefined ? ['spec', 'source'] : ['spec', 'sources', index])] };
}

function fileLeaves(cache: SourceCache, file: string, input: string, byApplication: boolean, out: ValueLeaf<ArgoValuePlace>[]): void {
  const document = firstMapDocument(cache.get(file));
  if (!document) return;
  leavesOf<ArgoValuePlace>(document.object, [], (p) => ({ file: { file, path: p }, input, byApplication }), out);
}

/** Argo CD passes parameters as `--set` (`--set-string` with forceString): helm's strvals path syntax and typing. */
export function parameterValue(parameter: { value?: unknown; forceString?: unknown }): unknown {
  const text = String(parameter.value ?? '');
  return parameter.forceString ? text : typedSetValue(text);
}

/**
 * The scalars the chart at `chartDir` (undefined: a chart of a Helm repository) is given by the Application source `source` (written at `at`), later inputs
 * winning: the chart's values.yaml, `valueFiles` (absolute, as resolved), `values` or `valuesObject`, `parameters`.
 */
export function argoValueLeaves(cache: SourceCache, chartDir: string | undefined, valueFiles: readonly string[], source: any, at: SourceAt): ValueLeaf<ArgoValuePlace>[] {
  const written: ValueLeaf<ArgoValuePlace>[] = [];
  // A chart of a Helm repository: its values.yaml is not in the repository.
  const chartValues = chartDir === undefined ? undefined : `${chartDir}/values.yaml`;
  if (chartValues) fileLeaves(cache, chartValues, 'the chart\'s values.yaml', false, written);
  for (const file of valueFiles) fileLeaves(cache, file, file === chartValues ? 'the chart\'s values.yaml' : `valueFiles entry ${cache.displayPath(file)}`, file !== chartValues, written);
  const helm = source?.helm ?? {};
  const holder = writtenObject(at.holder);
  const helmPath = [...at.path, 'helm'];
  if (helm.valuesObject && typeof helm.valuesObject === 'object') {
    leavesOf<ArgoValuePlace>(helm.valuesObject, [], (p) => ({ field: { resource: holder, path: [...helmPath, 'valuesObject', ...p] }, input: 'helm.valuesObject', byApplication: true }), written);
  } else if (typeof helm.values === 'string') {
    let parsed: unknown;
    try {
      parsed = parse(helm.values);
    } catch {
      parsed = undefined;
    }
    const textPath = [...helmPath, 'values'];
    const embedded = { resource: textHolder(holder, textPath, helm.values), textPath };
    if (parsed && typeof parsed === 'object') leavesOf<ArgoValuePlace>(parsed, [], (p) => ({ field: { embedded, path: p }, input: 'helm.values', byApplication: true }), written);
  }
  (Array.isArray(helm.parameters) ? helm.parameters : []).forEach((parameter: any, i: number) => {
    if (typeof parameter?.name !== 'string') return;
    leavesOf<ArgoValuePlace>(parameterValue(parameter), parseTargetPath(parameter.name), () => ({ field: { resource: holder, path: [...helmPath, 'parameters', i, 'value'] }, input: 'helm.parameters', byApplication: true }), written);
  });
  // The last writer of each path is the one helm sees.
  const last = new Map<string, ValueLeaf<ArgoValuePlace>>();
  for (const leaf of written) last.set(JSON.stringify(leaf.path), leaf);
  return [...last.values()];
}

/**
 * A chart's rendered object as the Application's objects: its fields are located through the values the Application
 * gives. A dependency's own record keeps only the values files Argo CD reads (not the file pvlint wrote the inline
 * values to).
 */
export function withArgoHelmValues(cache: SourceCache, resource: Resource, leaves: readonly ValueLeaf<ArgoValuePlace>[], files: ReadonlySet<string>, application: string): Resource {
  let rendered = resource;
  const dependency = resource.sourceOrigin?.kind === 'helm-dependency' ? (resource.sourceOrigin as HelmDependencySource) : undefined;
  if (dependency) {
    const own: HelmDependencySource = { ...dependency, valuesFiles: dependency.valuesFiles.filter((f) => files.has(f)), leaves: dependency.leaves.filter((l) => files.has(l.at.file)) };
    rendered = deriveResource(resource, { sourceOrigin: own });
  }
  if (!leaves.some((leaf) => leaf.at.byApplication)) return rendered;
  const origin: ArgoHelmValuesSource = { kind: 'argocd-helm-values', cache, rendered, leaves, application };
  return deriveResource(resource, { sourceOrigin: origin });
}
