// The values a HelmRelease gives helm, merged as helm-controller merges them (fluxcd/pkg chartutil
// `ChartValuesFromReferences`): `valuesFrom` in list order, deep-merged, then inline `spec.values` on top, then the
// `targetPath` entries, which win over everything. Every scalar keeps where it was written, for locating findings.
import { parse } from 'yaml';
import type { JsonPath, Position, Resource } from '../../types.js';
import { coalesceValues } from '../coalesce-values.js';

export type Scalar = string | number | boolean | null;

/** A values text held by an object (a ConfigMap's `values.yaml: |`): its scalars are written inside that text. */
export interface EmbeddedValues {
  resource: Resource;
  textPath: JsonPath;
}

/** Where a scalar of the values is written: a field of an object, or a path inside a values text an object holds. */
export type ValueWhere = Position | { embedded: EmbeddedValues; path: JsonPath };

/** One scalar of the merged values and the place a user edits to change it (`W`: how that place is recorded). */
export interface ValueLeaf<W = ValueWhere> {
  path: (string | number)[];
  value: Scalar;
  at: W;
}

export interface MergedValues {
  values: Record<string, unknown>;
  leaves: ValueLeaf[];
  /** Why a `valuesFrom` entry was not used (missing object or key; not `optional`). */
  problems: string[];
  /** `valuesFrom` objects that exist only in the cluster (`optional: true`, or a Secret not in the repository). */
  skipped: string[];
}

const isMap = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * Scalars of `value`, each with its path below `prefix` and where it is written (`at(path)`): how values of any
 * source (an Argo CD Application's `helm.valuesObject`, a kustomization's `valuesInline`) become locatable leaves.
 */
export function leavesOf<W = ValueWhere>(value: unknown, prefix: (string | number)[], at: (p: (string | number)[]) => W, out: ValueLeaf<W>[]): void {
  if (Array.isArray(value)) value.forEach((item, i) => leavesOf(item, [...prefix, i], at, out));
  else if (isMap(value)) for (const [key, item] of Object.entries(value)) leavesOf(item, [...prefix, key], at, out);
  else if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) out.push({ path: prefix, value: value as Scalar, at: at(prefix) });
}

/** helm's `--set` path syntax: `a.b[0].c`, `\.` for a literal dot. */
export function parseTargetPath(text: string): (string | number)[] {
  const segments: (string | number)[] = [];
  let current = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\\' && i + 1 < text.length) current += text[++i];
    else if (c === '.') {
      if (current !== '') segments.push(current);
      current = '';
    } else if (c === '[') {
      const close = text.indexOf(']', i);
      if (current !== '') segments.push(current);
      current = '';
      const index = Number(text.slice(i + 1, close === -1 ? text.length : close));
      segments.push(Number.isInteger(index) ? index : text.slice(i + 1, close));
      i = close === -1 ? text.length : close;
    } else current += c;
  }
  if (current !== '') segments.push(current);
  return segments;
}

function setAt(target: Record<string, unknown>, segments: (string | number)[], value: unknown): void {
  let node: any = target;
  segments.forEach((segment, i) => {
    if (i === segments.length - 1) {
      node[segment] = value;
      return;
    }
    const nextIsIndex = typeof segments[i + 1] === 'number';
    if (node[segment] === null || typeof node[segment] !== 'object') node[segment] = nextIsIndex ? [] : {};
    node = node[segment];
  });
}

/** `--set` values are typed as helm's strvals types them: integers, booleans and null; everything else stays text. */
export function typedSetValue(text: string): unknown {
  if (text === 'true') return true;
  if (text === 'false') return false;
  if (text === 'null') return null;
  if (/^-?(?:0|[1-9]\d*)$/.test(text) && Number.isSafeInteger(Number(text))) return Number(text);
  return text;
}

/** The text of `key` in a ConfigMap's `data` or a Secret's `stringData` / `data` (base64). */
function objectValue(object: Resource, key: string): { text: string; path: JsonPath } | undefined {
  const o = object.object;
  if (typeof o?.data?.[key] === 'string' && object.kind === 'ConfigMap') return { text: o.data[key], path: ['data', key] };
  if (object.kind === 'Secret') {
    if (typeof o?.stringData?.[key] === 'string') return { text: o.stringData[key], path: ['stringData', key] };
    if (typeof o?.data?.[key] === 'string') return { text: Buffer.from(o.data[key], 'base64').toString('utf8'), path: ['data', key] };
  }
  return undefined;
}

/** SOPS-encrypted Secrets hold ciphertext: their values are not usable. */
const isEncrypted = (object: Resource) => isMap(object.object?.sops);

export function mergeReleaseValues(release: Resource, namespace: string, objects: readonly Resource[]): MergedValues {
  const spec = release.object?.spec ?? {};
  const merged: Record<string, unknown> = {};
  const written: ValueLeaf[] = [];
  const problems: string[] = [];
  const skipped: string[] = [];
  const targetPaths: { segments: (string | number)[]; value: unknown; at: Position }[] = [];
  const entries: unknown[] = Array.isArray(spec.valuesFrom) ? spec.valuesFrom : [];
  entries.forEach((entry) => {
    if (!isMap(entry)) return;
    const kind = entry.kind === 'Secret' ? 'Secret' : 'ConfigMap';
    const name = typeof entry.name === 'string' ? entry.name : '';
    const key = typeof entry.valuesKey === 'string' && entry.valuesKey !== '' ? entry.valuesKey : 'values.yaml';
    const optional = entry.optional === true;
    const object = objects.find((o) => o.kind === kind && o.name === name && (o.namespace ?? namespace) === namespace);
    if (!object || (kind === 'Secret' && isEncrypted(object))) {
      skipped.push(`${kind}/${name}${optional ? ' (optional)' : ''}${object ? ' (encrypted)' : ''}`);
      return;
    }
    const found = objectValue(object, key);
    if (!found) {
      if (!optional) problems.push(`${kind}/${name} has no key "${key}"`);
      return;
    }
    const at: Position = { resource: object, path: found.path };
    const embedded: EmbeddedValues = { resource: object, textPath: found.path };
    if (typeof entry.targetPath === 'string' && entry.targetPath !== '') {
      targetPaths.push({ segments: parseTargetPath(entry.targetPath), value: entry.literal === true ? found.text : typedSetValue(found.text.trim()), at });
      return;
    }
    let parsed: unknown;
    try {
      parsed = parse(found.text);
    } catch (error) {
      problems.push(`${kind}/${name} key "${key}" is not YAML: ${String((error as Error).message).split('\n')[0]}`);
      return;
    }
    if (parsed == null) return;
    if (!isMap(parsed)) {
      problems.push(`${kind}/${name} key "${key}" is not a map of values`);
      return;
    }
    coalesceValues(merged, parsed);
    leavesOf(parsed, [], (p) => ({ embedded, path: p }), written);
  });
  if (isMap(spec.values)) {
    coalesceValues(merged, spec.values);
    leavesOf(spec.values, [], (p) => ({ resource: release, path: ['spec', 'values', ...p] }), written);
  }
  for (const { segments, value, at } of targetPaths) {
    setAt(merged, segments, value);
    leavesOf(value, segments, () => at, written);
  }
  // The last writer of each path is the one whose value helm sees.
  const leaves = new Map<string, ValueLeaf>();
  for (const leaf of written) leaves.set(JSON.stringify(leaf.path), leaf);
  const current = [...leaves.values()].filter((leaf) => valueAt(merged, leaf.path) === leaf.value);
  return { values: merged, leaves: current, problems, skipped };
}

/** The value at `p` inside plain JSON, or undefined. */
export function valueAt(root: unknown, p: readonly (string | number)[]): unknown {
  let node: any = root;
  for (const segment of p) {
    if (node === null || typeof node !== 'object') return undefined;
    node = node[segment];
  }
  return node;
}
