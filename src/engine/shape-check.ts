// Shape checks: before the rules run, every storage object (PVC, PV, StorageClass, CSIDriver, snapshots,
// workloads with their pod templates and claim templates, HPAs, Namespaces) is validated against the JSON
// Schemas in schemas/resources/ (Ajv standalone code the build generates, loaded on first use). Only JSON types are checked:
// what the API server refuses when it decodes the object (`replicas: "3"` is a string, not an int32;
// `accessModes: ReadWriteOnce` is not a list). Values are the rules' business.
//
// A wrong type is a `pvlint/shape` error at the field. The rules then see the object without that field (so they
// can trust every field they read: no rule ever meets a string where it expects a list) and nothing else is
// reported about that object: the API server would reject it, and a finding computed from a field that is not
// there could mislead. Other objects still see it, so references to it resolve. YAML 1.1 booleans (`yes`, `on`)
// in boolean fields are read as booleans, as kubectl's YAML reader does. A storage size without a unit
// (`storage: 10`, ten bytes) is a note and changes nothing.
import type { ErrorObject, ValidateFunction } from 'ajv';
import { isPlaceholder } from '../model/placeholder.js';
import { unitlessBytes } from './unitless-bytes.js';
import type { JsonPath, RawFinding, Resource, Severity } from '../types.js';
import { ownEntry } from './own-entry.js';

export const SHAPE_RULE_ID = 'pvlint/shape';
export const SHAPE_FIX =
  'Write the field with the type the Kubernetes API expects (the message says which). Until then pvlint lints the object as if the field were absent and reports nothing else about it.';

const WORKLOADS = ['Pod', 'Deployment', 'ReplicaSet', 'ReplicationController', 'StatefulSet', 'DaemonSet', 'Job', 'CronJob', 'Rollout'];

/** The schema of each kind that is checked. */
export const SHAPE_SCHEMAS: Readonly<Record<string, string>> = Object.freeze({
  PersistentVolumeClaim: 'persistentvolumeclaim.schema.json',
  PersistentVolume: 'persistentvolume.schema.json',
  StorageClass: 'storageclass.schema.json',
  CSIDriver: 'csidriver.schema.json',
  VolumeSnapshot: 'volumesnapshot.schema.json#/definitions/VolumeSnapshot',
  VolumeSnapshotClass: 'volumesnapshot.schema.json#/definitions/VolumeSnapshotClass',
  Namespace: 'namespace.schema.json',
  HorizontalPodAutoscaler: 'horizontalpodautoscaler.schema.json',
  ...Object.fromEntries(WORKLOADS.map((kind) => [kind, `workloads.schema.json#/definitions/${kind}`])),
});

/**
 * Fields that no storage rule reads. A wrong type there still makes the API server reject the object, but that is a
 * general manifest problem, not a storage one: a note, and the storage findings about the object are still reported.
 */
const NON_STORAGE_FIELDS = new Set([
  'ports', 'livenessProbe', 'readinessProbe', 'startupProbe', 'env', 'envFrom', 'imagePullPolicy', 'workingDir',
  'capabilities', 'allowPrivilegeEscalation', 'readOnlyRootFilesystem', 'hostIPC', 'hostPID', 'priorityClassName',
  'schedulerName', 'serviceAccountName', 'tolerations', 'topologySpreadConstraints',
]);

function readByStorageRules(path: JsonPath): boolean {
  return !path.some((segment) => typeof segment === 'string' && NON_STORAGE_FIELDS.has(segment));
}

/** How many shape findings one object gets at most (the last one says how many more there are). */
const MAX_PER_OBJECT = 10;
const YAML11_BOOLEANS: Record<string, boolean> = {
  y: true, Y: true, yes: true, Yes: true, YES: true, on: true, On: true, ON: true,
  n: false, N: false, no: false, No: false, NO: false, off: false, Off: false, OFF: false,
};

let validators: Promise<(kind: string) => ValidateFunction | undefined> | undefined;

async function loadValidators(): Promise<(kind: string) => ValidateFunction | undefined> {
  // Compiled by the build (scripts/build-validators.mjs), one export per kind of SHAPE_SCHEMAS; imported by URL, as
  // it is not a TypeScript source. Loaded only when a storage object is linted.
  const compiled = (await import(new URL('../generated/shape-validators.js', import.meta.url).href)) as Record<string, ValidateFunction>;
  return (kind: string) => (Object.prototype.hasOwnProperty.call(SHAPE_SCHEMAS, kind) ? compiled[kind] : undefined);
}

function pathOf(object: unknown, pointer: string): JsonPath {
  if (pointer === '') return [];
  const path: (string | number)[] = [];
  let value: any = object;
  for (const raw of pointer.slice(1).split('/')) {
    const segment = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    const key: string | number = Array.isArray(value) && /^\d+$/.test(segment) ? Number(segment) : segment;
    path.push(key);
    value = value != null && typeof value === 'object' ? value[key as any] : undefined;
  }
  return path;
}

function valueAt(object: unknown, path: JsonPath): unknown {
  let value: any = object;
  for (const segment of path) value = value != null && typeof value === 'object' ? value[segment as any] : undefined;
  return value;
}

/** `spec.template.spec.volumes[0].persistentVolumeClaim.claimName` */
export function dottedPath(path: JsonPath): string {
  let text = '';
  for (const segment of path) text += typeof segment === 'number' ? `[${segment}]` : `${text === '' ? '' : '.'}${segment}`;
  return text;
}

function describe(value: unknown): string {
  if (typeof value === 'string') return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  if (typeof value === 'number' || typeof value === 'boolean') return `the ${typeof value} ${String(value)}`;
  if (Array.isArray(value)) return 'a list';
  if (value !== null && typeof value === 'object') return 'a map';
  return String(value);
}

const TYPE_WORDS: Record<string, string> = { integer: 'an integer', string: 'a string', boolean: 'true or false', object: 'a map', array: 'a list', number: 'a number' };

function expected(types: string[]): string {
  const wanted = types.filter((t) => t !== 'null');
  if (wanted.includes('string') && wanted.includes('number')) return 'a quantity (a string such as "10Gi", or a number)';
  return wanted.map((t) => ownEntry(TYPE_WORDS, t) ?? t).join(' or ');
}

function hint(types: string[], value: unknown): string {
  if (types.includes('integer') && typeof value === 'string' && /^\s*-?\d+\s*$/.test(value)) return `write ${value.trim()} without quotes`;
  if (types.includes('integer') && typeof value === 'number') return 'write a whole number';
  if (types.includes('boolean') && typeof value === 'string' && /^(?:true|false)$/i.test(value.trim())) return `write ${value.trim().toLowerCase()} without quotes`;
  if (types.includes('string') && (typeof value === 'number' || typeof value === 'boolean')) return `quote it: "${String(value)}"`;
  if (types.includes('array') && typeof value === 'string') return `write it as a list: [${value}]`;
  if (types.includes('array')) return 'write it as a list';
  if (types.includes('object')) return 'write it as a map of fields';
  return `write ${expected(types)}`;
}

/** What pvlint does with the object meanwhile: nothing more for a storage field, the storage checks for another. */
function until(severity: Severity, kind: string, field: string): string {
  return severity === 'error'
    ? `Until then pvlint reads the ${kind} without ${field} and reports nothing else about it.`
    : `No storage rule reads ${field}, so pvlint still checks the ${kind}'s storage.`;
}

interface Issue {
  path: JsonPath;
  severity: Severity;
  messageId: 'wrongType' | 'outOfRange' | 'unitlessStorage';
  message: string;
}

function issuesOf(resource: Resource, errors: readonly ErrorObject[]): { issues: Issue[]; booleans: { path: JsonPath; value: boolean }[]; placeholders: JsonPath[] } {
  const issues: Issue[] = [];
  const booleans: { path: JsonPath; value: boolean }[] = [];
  const placeholders: JsonPath[] = [];
  const seen = new Set<string>();
  const object = resource.object;
  const kind = resource.kind;
  for (const error of errors) {
    const path = pathOf(object, error.instancePath);
    const key = `${error.instancePath}\u0000${error.keyword}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const value = valueAt(object, path);
    const field = dottedPath(path);
    if (isPlaceholder(value)) {
      // `replicas: ${REPLICAS}`: a template fills it in later; its type says nothing. Rules read the object without it.
      placeholders.push(path);
      continue;
    }
    const severity: Severity = readByStorageRules(path) ? 'error' : 'note';
    if (error.keyword === 'type') {
      const types = (Array.isArray(error.params.type) ? error.params.type : String(error.params.type).split(',')).map(String);
      if (types.includes('boolean') && typeof value === 'string' && Object.hasOwn(YAML11_BOOLEANS, value)) {
        booleans.push({ path, value: YAML11_BOOLEANS[value] });
        continue;
      }
      issues.push({
        path,
        severity,
        messageId: 'wrongType',
        message:
          `${field} is ${describe(value)}, not ${expected(types)}: the API server cannot decode it and rejects the ${kind}; ${hint(types, value)}. ` +
          until(severity, kind, field),
      });
    } else if (error.keyword === 'minimum' || error.keyword === 'maximum') {
      issues.push({
        path,
        severity,
        messageId: 'outOfRange',
        message:
          `${field} is ${describe(value)}, outside the 32-bit integer range: the API server cannot decode it and rejects the ${kind}. ` +
          until(severity, kind, field),
      });
    } else if (error.keyword === 'pvlintStorage') {
      const bytes = unitlessBytes(value);
      issues.push({
        path,
        severity: 'note',
        messageId: 'unitlessStorage',
        message: `${field} is ${typeof value === 'number' ? value : JSON.stringify(value)} with no unit: Kubernetes reads it as ${bytes} byte${bytes === 1 ? '' : 's'}. Write the unit you mean, e.g. ${String(value).trim()}Gi.`,
      });
    }
  }
  return { issues, booleans, placeholders };
}

function setAt(object: any, path: JsonPath, value: unknown, remove: boolean): void {
  let parent = object;
  for (const segment of path.slice(0, -1)) {
    parent = parent?.[segment as any];
    if (parent === null || typeof parent !== 'object') return;
  }
  const last = path[path.length - 1];
  if (Array.isArray(parent)) parent[last as number] = remove ? undefined : value;
  else if (remove) delete parent[last as any];
  else parent[last as any] = value;
}

export interface ShapeResult {
  /** The resources as rules should see them: sanitised copies where a field had the wrong type. */
  resources: Resource[];
  findings: RawFinding[];
  /** The resources given that have no shape problem at all. */
  clean: Set<Resource>;
  /** Objects the API server would reject (the sanitised copies of `resources`): rules see them but report nothing about them. */
  rejected: ReadonlySet<Resource>;
}

/**
 * Validates the storage objects of one scope, except those `knownClean` says an earlier run validated without a
 * problem (`--cache`). Never throws: an object the validator cannot handle (it should not
 * happen) is passed through unchanged.
 */
export async function checkShapes(resources: readonly Resource[], scope: string, knownClean: (resource: Resource) => boolean = () => false): Promise<ShapeResult> {
  const needsCheck = (r: Resource) => Object.prototype.hasOwnProperty.call(SHAPE_SCHEMAS, r.kind) && !knownClean(r);
  if (!resources.some(needsCheck)) return { resources: [...resources], findings: [], clean: new Set(resources), rejected: new Set() };
  validators ??= loadValidators();
  const validatorFor = await validators;
  const findings: RawFinding[] = [];
  const out: Resource[] = [];
  const clean = new Set<Resource>();
  const rejected = new Set<Resource>();
  for (const resource of resources) {
    if (!needsCheck(resource)) {
      out.push(resource);
      clean.add(resource);
      continue;
    }
    let validate: ValidateFunction | undefined;
    let valid = true;
    try {
      validate = validatorFor(resource.kind);
      valid = validate ? (validate(resource.object) as boolean) : true;
    } catch {
      valid = true;
    }
    if (valid || !validate?.errors) {
      out.push(resource);
      clean.add(resource);
      continue;
    }
    const { issues, booleans, placeholders } = issuesOf(resource, validate.errors);
    const errors = issues.filter((issue) => issue.severity === 'error');
    // Wrong types in fields no storage rule reads (notes): removed too, so no rule meets an unexpected type.
    const removed = issues.filter((issue) => issue.messageId !== 'unitlessStorage').map((issue) => issue.path);
    let seen = resource;
    if (removed.length > 0 || booleans.length > 0 || placeholders.length > 0) {
      const object = structuredClone(resource.object);
      for (const b of booleans) setAt(object, b.path, b.value, false);
      for (const path of [...removed, ...placeholders]) setAt(object, path, undefined, true);
      seen = { ...resource, object };
      if (errors.length > 0) rejected.add(seen);
    }
    out.push(seen);
    const shown = issues.slice(0, MAX_PER_OBJECT);
    shown.forEach((issue, i) => {
      const more = i === shown.length - 1 && issues.length > shown.length ? ` (${issues.length - shown.length} more shape problems in this object)` : '';
      findings.push({
        ruleId: SHAPE_RULE_ID,
        severity: issue.severity,
        messageId: issue.messageId,
        message: issue.message + more,
        data: { field: dottedPath(issue.path) },
        fix: issue.messageId === 'unitlessStorage' ? 'Add the unit you mean (Gi, Mi, G, M) to the size.' : SHAPE_FIX,
        // The object the model holds (without the fields it cannot decode): what suppressions and the graph match.
        resource: seen,
        path: issue.path,
        related: [],
        environments: [scope],
      });
    });
  }
  return { resources: out, findings, clean, rejected };
}
