// Where a pod template's pods may run, as far as its own spec says (catalogue §5 `coLocated`): a required pin to one
// node, and required pod (anti-)affinity on `kubernetes.io/hostname`.
import { singleHostOfNodeSelectorTerms } from './claims.js';
import { getPath, type PodTemplate } from './pod-templates.js';
import { toLabelSelector } from './label-selector.js';
import { matchSelector } from './selector.js';
import type { ModelView } from './model-view.js';

const HOSTNAME = 'kubernetes.io/hostname';

/** The one node every pod of the template must run on: `nodeName`, a hostname nodeSelector, or required nodeAffinity. */
export function nodePinOf(template: PodTemplate): string | undefined {
  const spec = template.spec;
  if (typeof spec?.nodeName === 'string' && spec.nodeName !== '') return spec.nodeName;
  const selected = spec?.nodeSelector?.[HOSTNAME];
  if (selected != null && selected !== '') return String(selected);
  return singleHostOfNodeSelectorTerms(spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms);
}

/** Labels of the template's pods. */
export function podLabelsOf(template: PodTemplate): Record<string, unknown> {
  const labels = getPath(template.workload.object, [...template.specPath.slice(0, -1), 'metadata', 'labels']);
  return labels && typeof labels === 'object' && !Array.isArray(labels) ? labels : {};
}

interface Placed {
  template: PodTemplate;
  namespace: string;
}

function hostnameTerms(template: PodTemplate, kind: 'podAffinity' | 'podAntiAffinity'): any[] {
  const terms = template.spec?.affinity?.[kind]?.requiredDuringSchedulingIgnoredDuringExecution;
  return Array.isArray(terms) ? terms.filter((t) => t?.topologyKey === HOSTNAME) : [];
}

/** Whether a pod affinity term of `from` selects the pods of `target` (namespaces + labelSelector; null selector = none). */
function termSelects(term: any, from: Placed, target: Placed): boolean {
  const namespaces: string[] = Array.isArray(term?.namespaces) ? term.namespaces.map(String) : [];
  const namespaceSelector = term?.namespaceSelector;
  let inNamespace: boolean;
  if (namespaces.includes(target.namespace)) inNamespace = true;
  else if (namespaceSelector && typeof namespaceSelector === 'object') {
    // An empty namespaceSelector selects every namespace; a non-empty one needs Namespace labels we may not have.
    const parsed = toLabelSelector(namespaceSelector);
    inNamespace = 'selector' in parsed && Object.keys(parsed.selector.matchLabels ?? {}).length === 0 && (parsed.selector.matchExpressions ?? []).length === 0;
  } else inNamespace = namespaces.length === 0 && from.namespace === target.namespace;
  if (!inNamespace) return false;
  // A null labelSelector selects no pods.
  if (term?.labelSelector == null) return false;
  const parsed = toLabelSelector(term.labelSelector);
  return 'selector' in parsed && matchSelector(parsed.selector, podLabelsOf(target.template)).matches;
}

function placed(model: ModelView, template: PodTemplate): Placed {
  return { template, namespace: model.namespaceOf(template.workload) ?? model.defaultNamespace };
}

/** Required podAffinity on kubernetes.io/hostname that makes the template's pods follow `target`'s pods. */
export function followsOnHost(model: ModelView, template: PodTemplate, target: PodTemplate): boolean {
  const from = placed(model, template);
  const to = placed(model, target);
  return hostnameTerms(template, 'podAffinity').some((term) => termSelects(term, from, to));
}

/** Required podAntiAffinity on kubernetes.io/hostname that forces the template's pods apart from `target`'s pods. */
export function repelsOnHost(model: ModelView, template: PodTemplate, target: PodTemplate): boolean {
  const from = placed(model, template);
  const to = placed(model, target);
  return hostnameTerms(template, 'podAntiAffinity').some((term) => termSelects(term, from, to));
}

/** All pods of one template share a node: it is pinned to one node, or its pods require each other on the host. */
export function selfCoLocated(model: ModelView, template: PodTemplate): boolean {
  return nodePinOf(template) !== undefined || followsOnHost(model, template, template);
}

/**
 * §5 `coLocated(templates)`: all pods of all templates must run on one node. Either every template has the same
 * required node pin, or one anchor template's pods all share a node and every other template requires (podAffinity on
 * kubernetes.io/hostname) to run next to the anchor's pods.
 */
export function coLocated(model: ModelView, templates: readonly PodTemplate[], multiPod: (t: PodTemplate) => boolean): boolean {
  if (templates.length === 0) return true;
  const pins = templates.map(nodePinOf);
  if (pins[0] !== undefined && pins.every((pin) => pin === pins[0])) return true;
  return templates.some((anchor) => {
    if (multiPod(anchor) && !selfCoLocated(model, anchor)) return false;
    return templates.every((other) => {
      if (other === anchor) return true;
      const anchorPin = nodePinOf(anchor);
      if (anchorPin !== undefined && nodePinOf(other) === anchorPin) return true;
      return followsOnHost(model, other, anchor);
    });
  });
}
