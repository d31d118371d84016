// Helm keeps no link from a rendered field to the value that set it, so a finding on an object rendered from a
// HelmRelease is traced back by comparing the field with the scalars of the release's values:
// - a candidate value equals the field (or, for a map or list field, one of its scalars; or the field's own key, as
//   `type: emptyDir` produces `emptyDir:`);
// - its key resembles the field's key (`replicas` ↔ `replicas`, `storageClass` ↔ `storageClassName`);
// - its path names things the rendered object is about: the object's name and labels, and the `name` of each list
//   item along the field's path (a volume `data` ↔ `persistence.data`, a controller label `main` ↔ `controllers.main`).
// Numbers, booleans and short strings match only with a resembling key, so a `2` elsewhere is never taken for a
// replica count. The best-scoring candidate wins; none → the values entry the object is rendered from (matchEntry),
// else the HelmRelease's chart line. Limits: a value transformed by
// a template (`size: 1Gi` rendered as `storage: 1Gi` matches; `{{ .Values.x | upper }}` does not), or spelled
// differently in the values, is not found, and two equally good candidates are told apart only by their order.
import { isMap as isYamlMap, isScalar as isYamlScalar, isSeq as isYamlSeq, type Node as YamlNode } from 'yaml';
import type { EmbeddedValues, Scalar, ValueLeaf, ValueWhere } from '../render/helm-release/release-values.js';
import type { HelmValuesSource } from '../render/helm-release/render-objects.js';
import { fileFragment, inlineFragment, type Fragment } from './fragment.js';
import { generatedDataFile } from './kustomize-locator.js';
import type { KustomizeSource } from '../render/kustomize-source.js';
import { locateHelmTemplate } from './helm-template-locator.js';
import type { LocateContext } from './locator.js';
import { valueAt } from './merge-path.js';
import type { JsonPath, Located, Resource } from '../types.js';

const isMap = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const isScalar = (v: unknown): v is Scalar => v === null || ['string', 'number', 'boolean'].includes(typeof v);

/** The scalars a field stands for: itself, or the scalars directly inside it. */
function fieldScalars(field: unknown): Scalar[] {
  if (isScalar(field)) return [field];
  if (Array.isArray(field)) return field.filter(isScalar);
  if (isMap(field)) return Object.values(field).filter(isScalar);
  return [];
}

/** Names the object and the field's path are about. */
function contextNames(object: any, p: JsonPath): Set<string> {
  const names = new Set<string>();
  const add = (v: unknown) => {
    if (typeof v === 'string' && v.length > 0) {
      names.add(v.toLowerCase());
      for (const part of v.toLowerCase().split(/[-_.]/)) if (part.length > 1) names.add(part);
    }
  };
  add(object?.metadata?.name);
  for (const v of Object.values(isMap(object?.metadata?.labels) ? object.metadata.labels : {})) add(v);
  for (let i = 1; i <= p.length; i++) {
    const node = valueAt(object, p.slice(0, i));
    if (isMap(node)) add(node.name);
  }
  return names;
}

const normalize = (key: string) => key.toLowerCase().replace(/[-_]/g, '');

/** 3: same key; 2: one contains the other; 0: unrelated. */
export function keyResemblance(leafKey: string | undefined, fieldKey: string | undefined): number {
  if (leafKey === undefined || fieldKey === undefined) return 0;
  const a = normalize(leafKey);
  const b = normalize(fieldKey);
  if (a === b) return 3;
  if (a.length >= 4 && b.length >= 4 && (a.includes(b) || b.includes(a))) return 2;
  // Charts count what the object lists: `replicaCount` sets `replicas`.
  const stem = (key: string) => key.replace(/(?:count|s)$/, '');
  if (stem(a).length >= 4 && stem(a) === stem(b)) return 2;
  return 0;
}

const sameScalar = (a: Scalar, b: Scalar) => a === b || (a !== null && b !== null && typeof a !== typeof b && String(a) === String(b));
const distinctive = (v: Scalar) => typeof v === 'string' && v.length >= 3;

export interface ValueMatch<W = ValueWhere> {
  leaf: ValueLeaf<W>;
  score: number;
}

/** The values leaf that most likely set the field at `p` of `object`, if any does. */
export function matchValue<W = ValueWhere>(leaves: readonly ValueLeaf<W>[], object: any, p: JsonPath): ValueMatch<W> | undefined {
  const field = valueAt(object, p);
  const scalars = fieldScalars(field);
  const fieldKey = [...p].reverse().find((s): s is string => typeof s === 'string');
  const context = contextNames(object, p);
  let best: ValueMatch<W> | undefined;
  for (const leaf of leaves) {
    const leafKey = [...leaf.path].reverse().find((s): s is string => typeof s === 'string');
    const resemblance = keyResemblance(leafKey, fieldKey);
    const equal = scalars.some((s) => sameScalar(s, leaf.value));
    // `type: emptyDir` in the values becomes an `emptyDir:` key in the object.
    const namesField = typeof leaf.value === 'string' && fieldKey !== undefined && normalize(leaf.value) === normalize(fieldKey) && !isScalar(field);
    const inContext = leaf.path.filter((s) => typeof s === 'string' && context.has(s.toLowerCase())).length;
    let score: number;
    if (equal && (resemblance > 0 || distinctive(leaf.value))) score = 10 + resemblance * 4 + inContext * 3;
    else if (namesField) score = 8 + inContext * 3;
    else if (field === undefined && resemblance === 3 && inContext > 0) score = 4 + inContext * 3;
    else continue;
    if (!best || score > best.score) best = { leaf, score };
  }
  return best;
}

/** Values keys under which charts conventionally configure objects of a kind (normalized: lowercase, no `-`/`_`). */
const KIND_SECTIONS: Record<string, readonly string[]> = {
  PersistentVolumeClaim: ['persistence', 'volumeclaimtemplates', 'pvc', 'storage'],
  Deployment: ['controllers', 'deployment'],
  StatefulSet: ['controllers', 'statefulset'],
  DaemonSet: ['controllers', 'daemonset'],
  CronJob: ['controllers', 'cronjob', 'cronjobs'],
  Job: ['controllers', 'job', 'jobs'],
  ConfigMap: ['configmaps', 'configmap'],
  Secret: ['secrets', 'secret'],
};

/**
 * The values entry an object is rendered from (`controllers.backup` for CronJob `sonarr-backup`), for a field no value
 * sets: the key, on the path of some values scalar, that best names the object. Charts name objects
 * `<release>-<entry>`, so the whole name counts most, then the longest `-`-separated suffix of it (`config-abs` before
 * `abs`); among equals, an entry under the section charts use for the object's kind (`persistence` for a claim), then
 * the shallower one. A key that names only the release part of the name is too weak to be taken.
 */
export function matchEntry<W = ValueWhere>(leaves: readonly ValueLeaf<W>[], object: any): { leaf: ValueLeaf<W>; depth: number } | undefined {
  const name = typeof object?.metadata?.name === 'string' ? object.metadata.name.toLowerCase() : '';
  if (name === '') return undefined;
  const parts = name.split('-');
  // Suffix → how many parts it spans (the whole name spans all of them and counts most).
  const suffixes = new Map<string, number>();
  for (let i = 0; i < parts.length; i++) {
    const suffix = parts.slice(i).join('-');
    if (suffix.length > 1) suffixes.set(suffix, i === 0 ? parts.length + 1 : parts.length - i);
  }
  const sections = KIND_SECTIONS[String(object?.kind)] ?? [];
  let best: { leaf: ValueLeaf<W>; depth: number; weight: number } | undefined;
  for (const leaf of leaves) {
    let inSection = false;
    for (let i = 0; i < leaf.path.length - 1; i++) {
      const segment = leaf.path[i];
      if (typeof segment !== 'string') continue;
      const span = suffixes.get(segment.toLowerCase());
      if (span !== undefined) {
        const weight = span * 2 + (inSection ? 1 : 0);
        if (!best || weight > best.weight || (weight === best.weight && i + 1 < best.depth)) best = { leaf, depth: i + 1, weight };
      }
      if (sections.includes(normalize(segment))) inSection = true;
    }
  }
  return best && { leaf: best.leaf, depth: best.depth };
}

/** Where the first `depth` segments of a leaf's values path are written, when its recorded place ends with that path. */
function prefixWhere(where: ValueWhere, leafPath: readonly (string | number)[], depth: number): ValueWhere | undefined {
  const cut = leafPath.length - depth;
  if (!('embedded' in where)) {
    const tail = where.path.slice(where.path.length - leafPath.length);
    if (tail.length !== leafPath.length || tail.some((s, i) => s !== leafPath[i])) return undefined;
    return { resource: where.resource, path: where.path.slice(0, where.path.length - cut) };
  }
  return { embedded: where.embedded, path: where.path.slice(0, where.path.length - cut) };
}

export function dotted(p: readonly (string | number)[]): string {
  return p.map((s, i) => (typeof s === 'number' ? `[${s}]` : i === 0 ? s : `.${s}`)).join('');
}

type Embedded = { fragment: Fragment; root: YamlNode } | undefined;

/** The values text parsed on its own, with positions mapped back into the object's file, when that is exact. */
function embeddedFragment(embedded: EmbeddedValues): Embedded {
  const { resource: object, textPath } = embedded;
  // A Secret's `data` is base64.
  if (object.kind === 'Secret' && textPath[0] === 'data') return undefined;
  // A rendered object's lines are not the repository's; a ConfigMap a kustomize generator made from a values file
  // holds that file's text, so positions are the file's own.
  if (object.sourceOrigin) {
    const origin = object.sourceOrigin as KustomizeSource;
    const source = origin.kind === 'kustomize' && textPath[0] === 'data' && typeof textPath[1] === 'string' ? generatedDataFile(origin, textPath[1]) : undefined;
    const root = source?.documents[0]?.node;
    const same = source !== undefined && (object.object as any)?.data?.[textPath[1]] === source.file.text;
    return same && root && source.documents.length === 1 ? { fragment: fileFragment(source.file, source.documents), root } : undefined;
  }
  let holder: YamlNode | undefined = object.node;
  for (const segment of textPath) {
    holder = isYamlMap(holder) || isYamlSeq(holder) ? (holder.get(segment, true) as YamlNode | undefined) : undefined;
  }
  if (!holder || !isYamlScalar(holder)) return undefined;
  const fragment = inlineFragment(object.file, holder, object.node);
  const root = fragment.documents[0]?.node;
  if (!fragment.exact || !root) return undefined;
  return { fragment, root };
}

/** Where a values scalar is written: its field, or its line inside a literal block of values (else the block's key). */
export function locateValue(where: ValueWhere, context: LocateContext): Located {
  if (!('embedded' in where)) return context.at(where.resource, where.path);
  const inside = context.remember(where.embedded, () => embeddedFragment(where.embedded));
  return inside ? inside.fragment.positionOf(inside.root, where.path) : context.at(where.embedded.resource, where.embedded.textPath);
}

/**
 * A field of an object rendered from a release: the value that set it, else the line naming the chart; the template
 * is always attached as related location.
 */
export function locateHelmValues(origin: HelmValuesSource, _resource: Resource, p: JsonPath, context: LocateContext): Located {
  const chartAt = () => context.at(origin.chart.resource, origin.chart.path);
  const extra = [{ message: `rendered from chart ${origin.label}, template ${origin.templateName}`, location: origin.template ? locateHelmTemplate(origin.template, p).location : chartAt().location }];
  const match = matchValue(origin.leaves, origin.object, p);
  if (match) {
    const located = locateValue(match.leaf.at, context);
    return { ...located, related: [...(located.related ?? []), ...extra], note: `the value ${dotted(match.leaf.path)} sets ${dotted(p)} (matched by value and key; Helm keeps no line mapping)` };
  }
  const entry = matchEntry(origin.leaves, origin.object);
  const entryAt = entry && prefixWhere(entry.leaf.at, entry.leaf.path, entry.depth);
  if (entry && entryAt) {
    const located = locateValue(entryAt, context);
    const key = dotted(entry.leaf.path.slice(0, entry.depth));
    return { ...located, related: [...(located.related ?? []), ...extra], note: `no value sets ${dotted(p)}; ${key} is the values entry ${origin.object?.kind ?? 'the object'} "${origin.object?.metadata?.name ?? ''}" is rendered from` };
  }
  const located = { ...chartAt(), note: `rendered from chart ${origin.label} (${origin.templateName}); no value sets ${dotted(p)}` };
  return { ...located, related: [...(located.related ?? []), ...extra] };
}
