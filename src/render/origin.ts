// kustomize's `config.kubernetes.io/origin` annotation: read it, then remove it so rules see the
// objects exactly as a cluster would receive them.
import { parse } from 'yaml';

export const ORIGIN_ANNOTATION = 'config.kubernetes.io/origin';

export interface KustomizeOrigin {
  /** Source file, relative to the kustomization that was built (the wrapper). */
  path?: string;
  /** Remote base repository, when the file is not local. */
  repo?: string;
  ref?: string;
  /** Generated objects: the kustomization holding the generator, and the generator kind. */
  configuredIn?: string;
  configuredBy?: { apiVersion?: string; kind?: string; name?: string };
}

/** Reads and strips the origin annotation; drops `metadata.annotations` when nothing else is left in it. */
export function takeOrigin(object: any): KustomizeOrigin | undefined {
  const annotations = object?.metadata?.annotations;
  if (!annotations || typeof annotations !== 'object') return undefined;
  const raw = annotations[ORIGIN_ANNOTATION];
  if (raw === undefined) return undefined;
  delete annotations[ORIGIN_ANNOTATION];
  if (Object.keys(annotations).length === 0) delete object.metadata.annotations;
  if (typeof raw !== 'string') return undefined;
  try {
    const value = parse(raw);
    return value && typeof value === 'object' ? (value as KustomizeOrigin) : undefined;
  } catch {
    return undefined;
  }
}
