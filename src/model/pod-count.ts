// How many pods of a workload may run at once: the workload's own count (replicas, Job/CronJob parallelism, one Pod,
// one per node for a DaemonSet) together with a HorizontalPodAutoscaler that scales it. Rules ask the model
// (`model.podCount(template)`), which finds the autoscaler; this is the only place the two are combined.
import type { JsonPath } from '../types.js';
import type { PodTemplate, Replicas } from './pod-templates.js';
import type { AutoscalerResource } from './views.js';

/** A HorizontalPodAutoscaler of the scope whose `scaleTargetRef` names the workload. */
export interface Autoscaler {
  /** `spec.maxReplicas`. */
  max: number;
  hpa: AutoscalerResource;
}

interface PodCountBase {
  /** The workload's own count as written (see Replicas), whatever an autoscaler does. */
  replicas: Replicas;
  /** An autoscaler targeting the workload, also when it allows at most one pod. */
  autoscaler?: Autoscaler;
  /**
   * Where a finding about the count points: the count field (`spec.replicas`, `spec.parallelism`, written or not);
   * `spec.replicas` when the workload has no such field or its value is not a number.
   */
  countPath: JsonPath;
}

export type PodCount = PodCountBase & (
  /** One pod on every eligible node (DaemonSet). */
  | { kind: 'per-node' }
  /** An autoscaler allows more than one pod: up to `max`. */
  | { kind: 'autoscaled'; max: number; hpa: AutoscalerResource }
  /** A fixed count: `field` is what sets it (`pod` for a bare Pod, always 1). */
  | { kind: 'count'; count: number; field: 'replicas' | 'parallelism' | 'pod' }
  /** The count field is not an integer (an unrendered template value, a string). */
  | { kind: 'unknown'; reason: string }
);

/** The pod count of a template given the autoscaler that targets its workload (the model finds it: `model.podCount`). */
export function podCountOf(template: PodTemplate, autoscaler: Autoscaler | undefined): PodCount {
  const replicas = template.replicas;
  const countPath: JsonPath = replicas.kind === 'count' && replicas.path[0] !== 'kind' ? replicas.path : ['spec', 'replicas'];
  const base: PodCountBase = { replicas, countPath, ...(autoscaler ? { autoscaler } : {}) };
  if (replicas.kind === 'per-node') return { ...base, kind: 'per-node' };
  if (autoscaler && autoscaler.max > 1) return { ...base, kind: 'autoscaled', max: autoscaler.max, hpa: autoscaler.hpa };
  if (replicas.kind === 'unknown') return { ...base, kind: 'unknown', reason: replicas.reason };
  const field = replicas.path[0] === 'kind' ? 'pod' : replicas.path[replicas.path.length - 1] === 'parallelism' ? 'parallelism' : 'replicas';
  return { ...base, kind: 'count', count: replicas.count, field };
}

/** The most pods that may run at once; `per-node` for a DaemonSet, undefined when the count is not known. */
export function maxPods(count: PodCount): number | 'per-node' | undefined {
  switch (count.kind) {
    case 'per-node':
      return 'per-node';
    case 'autoscaled':
      return count.max;
    case 'count':
      return count.count;
    default:
      return undefined;
  }
}
