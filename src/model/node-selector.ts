// Node selector algebra for PV node affinity against pod placement (catalogue §3 R06, K-PVHELP `CheckNodeAffinity`):
// nodeSelectorTerms are ORed, the requirements inside a term are ANDed. Two terms are disjoint when some key is
// required by both with value sets no node can satisfy at once; different label keys are never provably disjoint,
// except well-known aliases (zone keys, the hostname label versus the node name) which make a conflict likely.
import type { JsonPath } from '../types.js';
import type { PodTemplate } from './pod-templates.js';

export interface NodeRequirement {
  key: string;
  operator: string;
  values: string[];
  /** Where the requirement is written, inside its resource. */
  path: JsonPath;
  /** How it reads in a message: `topology.kubernetes.io/zone in (us-east-1a)`. */
  text: string;
}

/** ANDed requirements. */
export type NodeTerm = NodeRequirement[];

const HOSTNAME = 'kubernetes.io/hostname';
const NODE_NAME = 'metadata.name';

/** Label keys that name the same zone (Kubernetes' own, the deprecated beta key, and the CSI drivers' topology keys). */
const ZONE_KEYS = new Set([
  'topology.kubernetes.io/zone', 'failure-domain.beta.kubernetes.io/zone', 'topology.ebs.csi.aws.com/zone', 'topology.gke.io/zone',
  'topology.disk.csi.azure.com/zone', 'topology.cinder.csi.openstack.org/zone',
]);
const REGION_KEYS = new Set(['topology.kubernetes.io/region', 'failure-domain.beta.kubernetes.io/region']);

function text(key: string, operator: string, values: string[]): string {
  switch (operator) {
    case 'In': return `${key} in (${values.join(', ')})`;
    case 'NotIn': return `${key} notin (${values.join(', ')})`;
    case 'Exists': return `${key} exists`;
    case 'DoesNotExist': return `!${key}`;
    default: return `${key} ${operator} ${values.join(', ')}`;
  }
}

export function requirement(key: string, operator: string, values: string[], path: JsonPath): NodeRequirement {
  return { key, operator, values, path, text: text(key, operator, values) };
}

function requirementsOf(list: unknown, path: JsonPath, field: boolean): NodeRequirement[] {
  if (!Array.isArray(list)) return [];
  const result: NodeRequirement[] = [];
  list.forEach((entry: any, i: number) => {
    if (!entry || typeof entry !== 'object' || entry.key == null || entry.operator == null) return;
    const key = field && String(entry.key) === NODE_NAME ? NODE_NAME : String(entry.key);
    const values = Array.isArray(entry.values) ? entry.values.map(String) : [];
    result.push(requirement(key, String(entry.operator), values, [...path, i]));
  });
  return result;
}

/** `nodeSelectorTerms` as terms (matchExpressions and matchFields); undefined when absent or empty (no constraint). */
export function nodeSelectorTermsOf(terms: unknown, path: JsonPath): NodeTerm[] | undefined {
  if (!Array.isArray(terms) || terms.length === 0) return undefined;
  const result: NodeTerm[] = [];
  terms.forEach((term: any, i: number) => {
    if (!term || typeof term !== 'object') return;
    result.push([
      ...requirementsOf(term.matchExpressions, [...path, i, 'matchExpressions'], false),
      ...requirementsOf(term.matchFields, [...path, i, 'matchFields'], true),
    ]);
  });
  return result.length > 0 ? result : undefined;
}

/** A PV's `spec.nodeAffinity.required` as terms; undefined when the PV sets none. */
export function volumeNodeTerms(pv: { object?: any }): NodeTerm[] | undefined {
  return nodeSelectorTermsOf(pv.object?.spec?.nodeAffinity?.required?.nodeSelectorTerms, ['spec', 'nodeAffinity', 'required', 'nodeSelectorTerms']);
}

/**
 * Where the pod template's pods may run, as terms: `nodeName`, `nodeSelector` and required node affinity, each term
 * the conjunction of all three. Undefined when the pod sets no node constraint.
 */
export function podNodeTerms(template: PodTemplate): NodeTerm[] | undefined {
  const spec = template.spec ?? {};
  const common: NodeRequirement[] = [];
  if (typeof spec.nodeName === 'string' && spec.nodeName !== '') {
    common.push(requirement(NODE_NAME, 'In', [spec.nodeName], [...template.specPath, 'nodeName']));
  }
  if (spec.nodeSelector && typeof spec.nodeSelector === 'object' && !Array.isArray(spec.nodeSelector)) {
    for (const [key, value] of Object.entries(spec.nodeSelector)) {
      common.push(requirement(key, 'In', [String(value)], [...template.specPath, 'nodeSelector', key]));
    }
  }
  const affinityPath = [...template.specPath, 'affinity', 'nodeAffinity', 'requiredDuringSchedulingIgnoredDuringExecution', 'nodeSelectorTerms'];
  const affinity = nodeSelectorTermsOf(spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms, affinityPath);
  if (!affinity) return common.length > 0 ? [common] : undefined;
  return affinity.map((term) => [...common, ...term]);
}

/** How sure a conflict is: `proven` (same key), `hostname` (node name versus hostname label), `alias` (zone keys). */
export type ConflictStrength = 'proven' | 'hostname' | 'alias';

const STRENGTH_RANK: Record<ConflictStrength, number> = { proven: 3, hostname: 2, alias: 1 };

function sameKeyStrength(a: string, b: string): ConflictStrength | undefined {
  if (a === b) return 'proven';
  if ((a === HOSTNAME && b === NODE_NAME) || (a === NODE_NAME && b === HOSTNAME)) return 'hostname';
  if (ZONE_KEYS.has(a) && ZONE_KEYS.has(b)) return 'alias';
  if (REGION_KEYS.has(a) && REGION_KEYS.has(b)) return 'alias';
  return undefined;
}

/** Whether no node can satisfy both requirements (their keys taken as the same label). */
function disjoint(a: NodeRequirement, b: NodeRequirement): boolean {
  const inA = a.operator === 'In' ? new Set(a.values) : undefined;
  const inB = b.operator === 'In' ? new Set(b.values) : undefined;
  if (inA && inB) return ![...inA].some((v) => inB.has(v));
  if (inA && b.operator === 'NotIn') return [...inA].every((v) => b.values.includes(v));
  if (inB && a.operator === 'NotIn') return [...inB].every((v) => a.values.includes(v));
  const exists = (r: NodeRequirement) => r.operator === 'In' || r.operator === 'Exists' || r.operator === 'Gt' || r.operator === 'Lt';
  if (exists(a) && b.operator === 'DoesNotExist') return true;
  if (exists(b) && a.operator === 'DoesNotExist') return true;
  return false;
}

export interface TermConflict {
  strength: ConflictStrength;
  a: NodeRequirement;
  b: NodeRequirement;
}

/** The strongest pair of requirements that makes two terms disjoint, or undefined when some node may satisfy both. */
export function termConflict(a: NodeTerm, b: NodeTerm): TermConflict | undefined {
  let best: TermConflict | undefined;
  for (const ra of a) {
    for (const rb of b) {
      const strength = sameKeyStrength(ra.key, rb.key);
      if (!strength || !disjoint(ra, rb)) continue;
      if (!best || STRENGTH_RANK[strength] > STRENGTH_RANK[best.strength]) best = { strength, a: ra, b: rb };
    }
  }
  return best;
}

/**
 * Whether every term of `a` conflicts with every term of `b` (terms are ORed on both sides): then no node satisfies
 * both. The result's strength is the weakest pair's; `first` is the conflict of the first pair of terms, for messages.
 */
export function termsConflict(a: readonly NodeTerm[], b: readonly NodeTerm[]): { strength: ConflictStrength; first: TermConflict } | undefined {
  let weakest: ConflictStrength | undefined;
  let first: TermConflict | undefined;
  for (const ta of a) {
    for (const tb of b) {
      const conflict = termConflict(ta, tb);
      if (!conflict) return undefined;
      first ??= conflict;
      if (!weakest || STRENGTH_RANK[conflict.strength] < STRENGTH_RANK[weakest]) weakest = conflict.strength;
    }
  }
  return weakest && first ? { strength: weakest, first } : undefined;
}
