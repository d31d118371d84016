// Where in a HelmRelease's values a failed `helm template` points. A chart's own checks (`fail`, `required`, "execution
// error at ...") and its values schema ("at '/persistence/config'") name the value they reject; helm-controller's
// install or upgrade fails on the same values, so the place to edit is that value, not the chart reference.
import type { JsonPath } from '../../types.js';

/** What the failure says about the values: the path it names (relative to the values), and whether it is the chart's own verdict. */
export interface TemplateFailure {
  valuesPath?: JsonPath;
  /** helm stopped on a `fail`/`required` of the chart or on the values schema, not on the renderer or the chart's syntax. */
  rejectsValues: boolean;
}

type PathOf = (match: RegExpExecArray, values: Record<string, unknown>) => JsonPath | undefined;

function isObject(value: unknown): value is Record<string, any> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The `volumeClaimTemplates` entry of a controller with this name, by index. */
function claimTemplate(controller: string, name: string, values: Record<string, unknown>): JsonPath {
  const templates = (values as any).controllers?.[controller]?.statefulset?.volumeClaimTemplates;
  const index = Array.isArray(templates) ? templates.findIndex((t: any) => t?.name === name) : -1;
  return index >= 0 ? ['controllers', controller, 'statefulset', 'volumeClaimTemplates', index] : ['controllers', controller, 'statefulset', 'volumeClaimTemplates'];
}

/** The persistence entry whose `type` is this value. */
function persistenceOfType(type: string, values: Record<string, unknown>): JsonPath | undefined {
  const persistence = (values as any).persistence;
  if (!isObject(persistence)) return undefined;
  const key = Object.keys(persistence).find((k) => isObject(persistence[k]) && persistence[k].type === type);
  return key === undefined ? undefined : ['persistence', key, 'type'];
}

/**
 * Messages of the bjw-s common library (app-template and the charts built on it), the charts most Flux repositories
 * deploy with. Each names the values entry it rejects.
 */
const COMMON_LIBRARY: [RegExp, PathOf][] = [
  [/No enabled controller found with this identifier\. \(persistence item: '([^']*)', controller: '([^']*)'\)/, (m) => ['persistence', m[1], 'advancedMounts', m[2]]],
  [/No (?:configmap|secret) found with this identifier\. \(persistence item '([^']*)', identifier '([^']*)'\)/, (m) => ['persistence', m[1], 'identifier']],
  [/Not a valid persistence\.type \(([^)]*)\)/, (m, values) => persistenceOfType(m[1], values)],
  [/(?:accessMode|size) is required for volumeClaimTemplate\. \(controller: ([^,]*), volumeClaimTemplate: ([^)]*)\)/, (m, values) => claimTemplate(m[1], m[2], values)],
  [/No enabled controller found with this identifier\. \(service: '([^']*)', controller: '([^']*)'\)/, (m) => ['service', m[1], 'controller']],
  [/controller field is required (?:because automatic controller detection is not possible|for Service)\. \(service: ([^)]*)\)/, (m) => ['service', m[1]]],
  [/No containers enabled for controller \(([^)]*)\)/, (m) => ['controllers', m[1], 'containers']],
  [/Not a valid controller\.type \(([^)]*)\)/, (m, values) => {
    const controllers = (values as any).controllers;
    const key = isObject(controllers) ? Object.keys(controllers).find((k) => controllers[k]?.type === m[1]) : undefined;
    return key === undefined ? undefined : ['controllers', key, 'type'];
  }],
];

/** A JSON pointer of a schema error (`at '/persistence/config/size'`) as a path. */
function pointerPath(pointer: string): JsonPath {
  return pointer.split('/').slice(1).map((segment) => {
    const text = segment.replace(/~1/g, '/').replace(/~0/g, '~');
    return /^\d+$/.test(text) ? Number(text) : text;
  });
}

export function readTemplateFailure(error: string, values: Record<string, unknown>): TemplateFailure {
  const schema = /values don't meet the specifications of the schema/.test(error);
  const execution = /execution error at \(/.test(error);
  if (!schema && !execution) return { rejectsValues: false };
  if (schema) {
    const pointer = /at '(\/[^']*)'/.exec(error);
    return { rejectsValues: true, ...(pointer && pointer[1] !== '/' ? { valuesPath: pointerPath(pointer[1]) } : {}) };
  }
  for (const [pattern, pathOf] of COMMON_LIBRARY) {
    const match = pattern.exec(error);
    if (!match) continue;
    const valuesPath = pathOf(match, values);
    if (valuesPath) return { rejectsValues: true, valuesPath };
  }
  return { rejectsValues: true };
}
