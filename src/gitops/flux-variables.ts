// The variables of one Flux Kustomization's `postBuild` (kustomize-controller `LoadVariables`): each
// `substituteFrom` ConfigMap/Secret in order (later ones win), then the inline `substitute` map over all of them.
// Each variable keeps where it is defined, so a finding on a substituted value can point at that line.
import { VARIABLE_NAME } from './envsubst.js';
import type { Position, Resource } from '../types.js';

export interface VariableSource {
  /** Where the variable's value is written (the `substitute:` entry or the ConfigMap/Secret data key). */
  definedAt: Position;
  /** Describes the source in messages: `substitute` or `ConfigMap flux-system/cluster-settings`. */
  label: string;
}

export interface LoadedVariables {
  values: Map<string, string | undefined>;
  sources: Map<string, VariableSource>;
  /** Sources that were named but could not be read, and why. */
  unread: { kind: string; name: string; reason: string }[];
  /** Sources marked `optional` that are not in the repository: the cluster may or may not hold them. */
  optionalAbsent: { kind: string; name: string }[];
}

/** SOPS leaves a top-level `sops:` map and `ENC[...]` values; their plain text is not in the repository. */
function isEncrypted(object: any): boolean {
  if (object?.sops && typeof object.sops === 'object') return true;
  return Object.values({ ...(object?.data ?? {}), ...(object?.stringData ?? {}) }).some((v) => typeof v === 'string' && v.startsWith('ENC['));
}

function decodeBase64(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  try {
    return Buffer.from(value, 'base64').toString('utf8');
  } catch {
    return undefined;
  }
}

/** Flux strips newlines from the values it reads from objects. */
const oneLine = (value: string) => value.replace(/\r?\n/g, '');

export type ObjectLookup = (kind: 'ConfigMap' | 'Secret', namespace: string, name: string) => Resource | undefined;

export function loadVariables(kustomization: Resource, lookup: ObjectLookup): LoadedVariables {
  const postBuild = kustomization.object?.spec?.postBuild ?? {};
  const namespace = kustomization.namespace ?? 'flux-system';
  const values = new Map<string, string | undefined>();
  const sources = new Map<string, VariableSource>();
  const unread: LoadedVariables['unread'] = [];
  const optionalAbsent: LoadedVariables['optionalAbsent'] = [];
  const from: any[] = Array.isArray(postBuild.substituteFrom) ? postBuild.substituteFrom : [];
  for (const reference of from) {
    const kind = reference?.kind === 'Secret' ? 'Secret' : reference?.kind === 'ConfigMap' ? 'ConfigMap' : undefined;
    const name = typeof reference?.name === 'string' ? reference.name : undefined;
    if (!kind || !name) continue;
    const object = lookup(kind, namespace, name);
    if (!object) {
      if (reference.optional !== true) unread.push({ kind, name, reason: `${kind} ${namespace}/${name} named in postBuild.substituteFrom is not in the repository; its variables are unknown` });
      else optionalAbsent.push({ kind, name });
      continue;
    }
    const label = `${kind} ${namespace}/${name}`;
    const encrypted = kind === 'Secret' && isEncrypted(object.object);
    if (encrypted) unread.push({ kind, name, reason: `${label} is SOPS-encrypted; its variables are unknown` });
    const fields: [string, Record<string, unknown>][] = kind === 'Secret' ? [['data', object.object?.data ?? {}], ['stringData', object.object?.stringData ?? {}]] : [['data', object.object?.data ?? {}]];
    for (const [field, data] of fields) {
      if (!data || typeof data !== 'object') continue;
      for (const [key, raw] of Object.entries(data)) {
        if (!VARIABLE_NAME.test(key)) continue;
        const text = encrypted ? undefined : field === 'data' && kind === 'Secret' ? decodeBase64(raw) : typeof raw === 'string' ? raw : raw == null ? undefined : String(raw);
        values.set(key, text === undefined ? undefined : oneLine(text));
        sources.set(key, { label, definedAt: { resource: object, path: [field, key] } });
      }
    }
  }
  const inline = postBuild.substitute;
  if (inline && typeof inline === 'object' && !Array.isArray(inline)) {
    for (const [key, raw] of Object.entries(inline)) {
      if (!VARIABLE_NAME.test(key)) continue;
      values.set(key, raw == null ? '' : String(raw));
      sources.set(key, { label: 'postBuild.substitute', definedAt: { resource: kustomization, path: ['spec', 'postBuild', 'substitute', key] } });
    }
  }
  return { values, sources, unread, optionalAbsent };
}
