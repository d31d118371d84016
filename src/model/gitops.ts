// How GitOps and Helm tooling treat an object (catalogue §2.7): Argo CD sync waves, sync options and hooks, Helm hooks
// and `helm.sh/resource-policy`, Flux prune opt-outs, and which tool manages an object as far as the repo shows.
// Every annotation these rules read is parsed here, so the rules agree on defaults and spellings.
import path from 'node:path';
import type { AppliedBy, JsonPath, Resource } from '../types.js';
import type { ModelView } from './model-view.js';

export const ARGO_SYNC_WAVE = 'argocd.argoproj.io/sync-wave';
export const ARGO_SYNC_OPTIONS = 'argocd.argoproj.io/sync-options';
export const ARGO_HOOK = 'argocd.argoproj.io/hook';
export const ARGO_HOOK_DELETE_POLICY = 'argocd.argoproj.io/hook-delete-policy';
export const ARGO_TRACKING_ID = 'argocd.argoproj.io/tracking-id';
/** The label Argo CD docs recommend as `application.instanceLabelKey` instead of `app.kubernetes.io/instance`. */
export const ARGO_INSTANCE_LABEL = 'argocd.argoproj.io/instance';
/** Argo CD's default tracking label (label tracking, the default before Argo CD 3.0). */
export const INSTANCE_LABEL = 'app.kubernetes.io/instance';
export const HELM_HOOK = 'helm.sh/hook';
export const HELM_HOOK_DELETE_POLICY = 'helm.sh/hook-delete-policy';
export const HELM_HOOK_WEIGHT = 'helm.sh/hook-weight';
export const HELM_RESOURCE_POLICY = 'helm.sh/resource-policy';
export const FLUX_PRUNE = 'kustomize.toolkit.fluxcd.io/prune';

type StringMap = Record<string, string>;

function stringMap(value: unknown): StringMap {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return {};
  const out: StringMap = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    if (v == null) continue;
    out[k] = typeof v === 'string' ? v : String(v);
  }
  return out;
}

/** `metadata.annotations` of an object (or of any `metadata` block, e.g. a claim template's) as strings. */
export function annotationsOf(metadata: unknown): StringMap {
  return stringMap((metadata as any)?.annotations);
}

/** `metadata.labels` as strings. */
export function labelsOf(metadata: unknown): StringMap {
  return stringMap((metadata as any)?.labels);
}

/** A comma-separated annotation value as trimmed, non-empty entries (gitops-engine `GetAnnotationCSVs`). */
export function csv(value: string | undefined): string[] {
  if (value == null) return [];
  return value.split(',').map((s) => s.trim()).filter(Boolean);
}

export interface SyncWave {
  /** The wave Argo CD uses: the annotation when it parses as an integer, else the Helm hook weight, else 0. */
  wave: number;
  /** Where the number came from. */
  from: 'sync-wave' | 'hook-weight' | 'default';
  /** The annotation text when present but not an integer (Argo CD then ignores it). */
  invalid?: string;
}

/** gitops-engine `syncwaves.Wave`: `strconv.Atoi` of the sync-wave annotation, else the Helm hook weight, else 0. */
export function syncWaveOf(metadata: unknown): SyncWave {
  const annotations = annotationsOf(metadata);
  const text = annotations[ARGO_SYNC_WAVE];
  if (text !== undefined) {
    if (/^[+-]?\d+$/.test(text)) return { wave: Number.parseInt(text, 10), from: 'sync-wave' };
  }
  const weight = annotations[HELM_HOOK_WEIGHT];
  if (weight !== undefined && /^[+-]?\d+$/.test(weight)) {
    return { wave: Number.parseInt(weight, 10), from: 'hook-weight', ...(text !== undefined ? { invalid: text } : {}) };
  }
  return { wave: 0, from: 'default', ...(text !== undefined ? { invalid: text } : {}) };
}

/** `argocd.argoproj.io/sync-options` as option → value (`Prune=false,Delete=false` → {Prune: 'false', Delete: 'false'}). */
export function argoSyncOptionsOf(metadata: unknown): Map<string, string> {
  const options = new Map<string, string>();
  for (const entry of csv(annotationsOf(metadata)[ARGO_SYNC_OPTIONS])) {
    const eq = entry.indexOf('=');
    if (eq <= 0) continue;
    options.set(entry.slice(0, eq).trim(), entry.slice(eq + 1).trim());
  }
  return options;
}

/** The Helm hooks Argo CD maps to its own phases (gitops-engine `hook/helm/type.go`); other Helm hooks it applies as plain resources. */
const HELM_HOOKS_ARGO_RUNS: Readonly<Record<string, string>> = {
  'pre-install': 'PreSync',
  'pre-upgrade': 'PreSync',
  'post-install': 'PostSync',
  'post-upgrade': 'PostSync',
};

export interface HookInfo {
  tool: 'helm' | 'argocd';
  /** The hook annotation's key (where a finding points) and its entries. */
  annotation: string;
  hooks: string[];
  /** Delete policies as written; empty when the annotation is absent. */
  deletePolicies: string[];
  deletePolicyAnnotation: string;
  /** The policies in effect: Helm and Argo CD both default to before-hook-creation / BeforeHookCreation. */
  effectivePolicies: string[];
}

/**
 * The hooks an object is, per tool. Helm: any `helm.sh/hook`. Argo CD: `argocd.argoproj.io/hook` unless its only entry
 * is `Skip` (gitops-engine `hook.IsHook`); without it, the Helm hooks Argo CD maps to PreSync/PostSync.
 */
export function hooksOf(metadata: unknown): HookInfo[] {
  const annotations = annotationsOf(metadata);
  const result: HookInfo[] = [];
  const helmHooks = csv(annotations[HELM_HOOK]);
  const helmPolicies = csv(annotations[HELM_HOOK_DELETE_POLICY]);
  if (helmHooks.length > 0) {
    result.push({
      tool: 'helm', annotation: HELM_HOOK, hooks: helmHooks,
      deletePolicies: helmPolicies, deletePolicyAnnotation: HELM_HOOK_DELETE_POLICY,
      effectivePolicies: helmPolicies.length > 0 ? helmPolicies : ['before-hook-creation'],
    });
  }
  const argoHooks = csv(annotations[ARGO_HOOK]);
  const argoPolicies = csv(annotations[ARGO_HOOK_DELETE_POLICY]);
  if (argoHooks.length > 0) {
    const skipOnly = argoHooks.length === 1 && argoHooks[0] === 'Skip';
    if (!skipOnly) {
      // gitops-engine merges the Helm delete policies into Argo CD's and defaults to BeforeHookCreation.
      const merged = [...argoPolicies, ...helmPolicies.map(helmPolicyAsArgo)];
      result.push({
        tool: 'argocd', annotation: ARGO_HOOK, hooks: argoHooks,
        deletePolicies: argoPolicies, deletePolicyAnnotation: ARGO_HOOK_DELETE_POLICY,
        effectivePolicies: merged.length > 0 ? merged : ['BeforeHookCreation'],
      });
    }
  }
  return result;
}

function helmPolicyAsArgo(policy: string): string {
  switch (policy) {
    case 'before-hook-creation': return 'BeforeHookCreation';
    case 'hook-succeeded': return 'HookSucceeded';
    case 'hook-failed': return 'HookFailed';
    default: return policy;
  }
}

/** Whether Argo CD runs the object as a hook (its own annotation, or a Helm hook it maps). */
export function isArgoHook(metadata: unknown): boolean {
  const annotations = annotationsOf(metadata);
  const argoHooks = csv(annotations[ARGO_HOOK]);
  if (argoHooks.length > 0) return !(argoHooks.length === 1 && argoHooks[0] === 'Skip');
  return csv(annotations[HELM_HOOK]).some((h) => Object.hasOwn(HELM_HOOKS_ARGO_RUNS, h));
}

/** Whether Helm treats the object as a hook (not part of the release). */
export function isHelmHook(metadata: unknown): boolean {
  return csv(annotationsOf(metadata)[HELM_HOOK]).length > 0;
}

/** `helm.sh/resource-policy: keep` (Helm skips deletion; Argo CD ≥2.8 treats it like `Delete=false`). */
export function hasHelmKeep(metadata: unknown): boolean {
  return annotationsOf(metadata)[HELM_RESOURCE_POLICY]?.trim() === 'keep';
}

/** Flux `kustomize.toolkit.fluxcd.io/prune: disabled`, as a label or an annotation. */
export function hasFluxPruneDisabled(metadata: unknown): boolean {
  return annotationsOf(metadata)[FLUX_PRUNE] === 'disabled' || labelsOf(metadata)[FLUX_PRUNE] === 'disabled';
}

export interface Protection {
  /** Helm keeps it on uninstall/upgrade. */
  helmKeep: boolean;
  /** Argo CD never prunes it (`Prune=false` or `Prune=confirm`). */
  argoPrune: string | undefined;
  /** Argo CD keeps it when the Application is deleted (`Delete=false`/`Delete=confirm`, or `helm.sh/resource-policy: keep`). */
  argoDelete: string | undefined;
  /** `PruneLast=true`: pruned after the other resources of a sync, still pruned. */
  argoPruneLast: boolean;
  /** Flux never prunes it. */
  fluxPrune: boolean;
}

export function protectionOf(metadata: unknown): Protection {
  const options = argoSyncOptionsOf(metadata);
  const prune = options.get('Prune');
  const del = options.get('Delete');
  const keep = hasHelmKeep(metadata);
  return {
    helmKeep: keep,
    argoPrune: prune === 'false' || prune === 'confirm' ? `Prune=${prune}` : undefined,
    argoDelete: del === 'false' || del === 'confirm' ? `Delete=${del}` : keep ? `${HELM_RESOURCE_POLICY}: keep` : undefined,
    argoPruneLast: options.get('PruneLast') === 'true',
    fluxPrune: hasFluxPruneDisabled(metadata),
  };
}

export type Tool = 'helm' | 'argocd' | 'flux';

export interface ToolEvidence {
  tool: Tool;
  /** Why pvlint thinks the tool manages the object, in words for messages. */
  why: string;
  /** The object and path that show it, when it is a place in the repo. */
  at?: { resource: Resource; path: JsonPath };
}

function argoMarker(resource: Resource): JsonPath | undefined {
  const meta = resource.object?.metadata;
  const annotation = Object.keys(annotationsOf(meta)).find((k) => k.startsWith('argocd.argoproj.io/'));
  if (annotation) return ['metadata', 'annotations', annotation];
  const label = Object.keys(labelsOf(meta)).find((k) => k.startsWith('argocd.argoproj.io/'));
  return label ? ['metadata', 'labels', label] : undefined;
}

function fluxMarker(resource: Resource): JsonPath | undefined {
  const meta = resource.object?.metadata;
  const annotation = Object.keys(annotationsOf(meta)).find((k) => k.startsWith('kustomize.toolkit.fluxcd.io/'));
  if (annotation) return ['metadata', 'annotations', annotation];
  const label = Object.keys(labelsOf(meta)).find((k) => k.startsWith('kustomize.toolkit.fluxcd.io/'));
  return label ? ['metadata', 'labels', label] : undefined;
}

function helmMarker(resource: Resource): { why: string; path: JsonPath } | undefined {
  const labels = labelsOf(resource.object?.metadata);
  if (labels['app.kubernetes.io/managed-by']?.toLowerCase() === 'helm') return { why: 'label app.kubernetes.io/managed-by: Helm', path: ['metadata', 'labels', 'app.kubernetes.io/managed-by'] };
  if (labels['helm.sh/chart'] !== undefined) return { why: 'label helm.sh/chart', path: ['metadata', 'labels', 'helm.sh/chart'] };
  if (resource.origin?.renderer === 'helm') return { why: 'it is rendered from a Helm chart', path: ['metadata', 'name'] };
  return undefined;
}

const isArgoApp = (r: Resource) => /^argoproj\.io\//.test(r.apiVersion) && (r.kind === 'Application' || r.kind === 'ApplicationSet');
const isFluxKustomization = (r: Resource) => /^kustomize\.toolkit\.fluxcd\.io\//.test(r.apiVersion) && r.kind === 'Kustomization';

/** Repo-relative directory paths an Argo CD Application or Flux Kustomization syncs from (`spec.source(s).path`, `spec.path`). */
function syncedPaths(resource: Resource): string[] {
  const spec = resource.object?.spec ?? {};
  const raw: unknown[] = [];
  if (isArgoApp(resource)) {
    // An Application may sync another repository: only a sub-directory path is taken as evidence (never the root).
    const template = resource.kind === 'ApplicationSet' ? spec.template?.spec ?? {} : spec;
    const sources = [template.source, ...(Array.isArray(template.sources) ? template.sources : [])];
    for (const source of sources) {
      if (source && typeof source.path === 'string' && !/^\.?\/?$/.test(source.path.trim())) raw.push(source.path);
    }
  } else {
    raw.push(spec.path);
  }
  return raw
    .filter((p): p is string => typeof p === 'string' && p.trim() !== '' && !p.includes('{{'))
    .map((p) => path.posix.normalize(p.trim().replace(/^\.\//, '') || '.').replace(/\/$/, '') || '.')
    .filter((p) => !p.startsWith('..'));
}

const underPath = (file: string, dir: string) => dir === '.' || file === dir || file.startsWith(`${dir}/`);
const dirOf = (resource: Resource) => path.posix.dirname(resource.file.path);

/**
 * Which tools manage an object, as far as the repo shows (catalogue R41): markers on the object itself, on another
 * object in the same directory (an app's manifests live together), or an Argo CD Application / Flux Kustomization in
 * the scope whose source path holds the object's file. Helm: `app.kubernetes.io/managed-by: Helm` / `helm.sh/chart`
 * labels or a Helm render. When Argo CD manages it, Helm markers mean Argo CD renders the chart: no Helm release.
 */
export function managingTools(model: GitopsModel, resource: Resource): ToolEvidence[] {
  const tools = new Map<Tool, ToolEvidence>();
  const add = (evidence: ToolEvidence) => {
    if (!tools.has(evidence.tool)) tools.set(evidence.tool, evidence);
  };
  const applied = resource.appliedBy;
  if (applied) {
    const evidence = appliedEvidence(applied);
    if (evidence) add(evidence);
  }
  const ownArgo = argoMarker(resource);
  if (ownArgo) add({ tool: 'argocd', why: `its ${ownArgo[1] === 'labels' ? 'label' : 'annotation'} ${ownArgo[2]}`, at: { resource, path: ownArgo } });
  const ownFlux = fluxMarker(resource);
  if (ownFlux) add({ tool: 'flux', why: `its ${ownFlux[1] === 'labels' ? 'label' : 'annotation'} ${ownFlux[2]}`, at: { resource, path: ownFlux } });
  const dir = dirOf(resource);
  const file = resource.origin?.file?.path ?? resource.file.path;
  // Known from the environment: neighbours' markers and source paths would only guess at it (and may name another app).
  if (applied) return [...tools.values()];
  for (const other of model.gitopsIndex().markers) {
    if (other.resource === resource) continue;
    if (other.dir === dir) {
      add({ tool: other.tool, why: `${other.resource.kind} "${other.resource.name}" next to it carries ${other.tool === 'argocd' ? 'Argo CD' : 'Flux'} annotations`, at: { resource: other.resource, path: other.path } });
    }
  }
  for (const app of model.gitopsIndex().apps) {
    if (app.paths.some((p) => underPath(file, p) || underPath(resource.file.path, p) || underPath(model.scope, p))) {
      add({
        tool: app.tool,
        why: `${app.resource.kind} "${app.resource.name}" syncs ${app.paths.map((p) => (p === '.' ? 'the repository root' : p)).join(', ')}`,
        at: { resource: app.resource, path: app.tool === 'argocd' ? ['spec'] : ['spec', 'path'] },
      });
    }
  }
  const helm = helmMarker(resource);
  if (helm && !tools.has('argocd')) add({ tool: 'helm', why: helm.why, at: { resource, path: helm.path } });
  return [...tools.values()];
}

/**
 * The environment's word on what applies an object. An Argo CD Helm source is rendered with `helm template` and applied
 * by Argo CD: no Helm release, so `helm.sh/resource-policy: keep` only counts as Argo CD's Delete=false. A Flux
 * Kustomization deletes what leaves its source only with `prune: true`. A Flux HelmRelease's objects belong to a real
 * Helm release that helm-controller uninstalls (honouring keep) when the HelmRelease goes.
 */
function appliedEvidence(applied: AppliedBy): ToolEvidence | undefined {
  switch (applied.kind) {
    case 'argocd-application':
      return {
        tool: 'argocd',
        why: `Argo CD Application "${applied.name}" ${applied.helmChart ? 'renders it from its Helm chart and applies it itself (no Helm release)' : 'syncs it'}`,
        at: { resource: applied.object, path: ['spec'] },
      };
    case 'flux-kustomization':
      return applied.prune ? { tool: 'flux', why: `Flux Kustomization "${applied.name}" applies it with prune: true`, at: { resource: applied.object, path: ['spec', 'prune'] } } : undefined;
    case 'flux-helmrelease':
      return { tool: 'helm', why: `Flux HelmRelease "${applied.name}" installs it as a Helm release (helm-controller)`, at: { resource: applied.object, path: ['metadata', 'name'] } };
  }
}

export interface Marker { tool: 'argocd' | 'flux'; resource: Resource; path: JsonPath; dir: string }
export interface AppSource { tool: 'argocd' | 'flux'; resource: Resource; paths: string[] }

/** The scope's GitOps markers and the paths its applications sync (the model keeps it: `model.gitopsIndex()`). */
export interface GitopsIndex {
  markers: readonly Marker[];
  apps: readonly AppSource[];
}

/** The model with the GitOps index it keeps (built once with buildGitopsIndex). */
export interface GitopsModel extends ModelView {
  gitopsIndex(): GitopsIndex;
}

export function buildGitopsIndex(model: ModelView): GitopsIndex {
  const markers: Marker[] = [];
  const apps: AppSource[] = [];
  for (const resource of model.resources) {
    const argo = argoMarker(resource);
    if (argo) markers.push({ tool: 'argocd', resource, path: argo, dir: dirOf(resource) });
    const flux = fluxMarker(resource);
    if (flux) markers.push({ tool: 'flux', resource, path: flux, dir: dirOf(resource) });
    if (isArgoApp(resource)) apps.push({ tool: 'argocd', resource, paths: syncedPaths(resource) });
    // Only Flux Kustomizations that prune garbage-collect what disappears from the source.
    if (isFluxKustomization(resource) && resource.object?.spec?.prune === true) apps.push({ tool: 'flux', resource, paths: syncedPaths(resource) });
  }
  return { markers, apps: apps.filter((a) => a.paths.length > 0) };
}

/** Whether the scope shows Argo CD at all: an `argocd.argoproj.io/*` annotation or label, or an Application. */
export function scopeUsesArgo(model: GitopsModel): boolean {
  const index = model.gitopsIndex();
  return index.markers.some((m) => m.tool === 'argocd') || model.resources.some(isArgoApp);
}

export const TOOL_NAMES: Readonly<Record<Tool, string>> = { helm: 'Helm', argocd: 'Argo CD', flux: 'Flux' };

export interface Exposure {
  tool: Tool;
  evidence: ToolEvidence;
  /** What deletes the object, in words: `helm uninstall`, `pruning`, `deleting the Application`. */
  operation: string;
  /** The annotation (or label) that would protect it. */
  protect: string;
}

/**
 * The operations of the tools managing an object that would delete it (catalogue R41): Helm uninstall/upgrade unless
 * `helm.sh/resource-policy: keep`; Argo CD pruning unless `Prune=false|confirm`, Application deletion unless
 * `Delete=false|confirm` or keep; Flux pruning unless `kustomize.toolkit.fluxcd.io/prune: disabled`.
 */
export function deletionExposure(model: GitopsModel, resource: Resource): { tools: ToolEvidence[]; exposures: Exposure[]; protection: Protection } {
  const tools = managingTools(model, resource);
  const protection = protectionOf(resource.object?.metadata);
  const exposures: Exposure[] = [];
  for (const evidence of tools) {
    switch (evidence.tool) {
      case 'helm':
        if (!protection.helmKeep) {
          // helm-controller runs the uninstall when the HelmRelease goes (deleted, or pruned by its Kustomization).
          const operation = resource.appliedBy?.kind === 'flux-helmrelease'
            ? 'the Helm uninstall helm-controller runs when the HelmRelease is deleted (or an upgrade that no longer renders it)'
            : '`helm uninstall` (or an upgrade that no longer renders it)';
          exposures.push({ tool: 'helm', evidence, operation, protect: `${HELM_RESOURCE_POLICY}: keep` });
        }
        break;
      case 'argocd':
        if (!protection.argoPrune) exposures.push({ tool: 'argocd', evidence, operation: 'Argo CD pruning when it disappears from Git', protect: `${ARGO_SYNC_OPTIONS}: Prune=false` });
        if (!protection.argoDelete) exposures.push({ tool: 'argocd', evidence, operation: 'deleting the Argo CD Application', protect: `${ARGO_SYNC_OPTIONS}: Delete=false` });
        break;
      case 'flux':
        if (!protection.fluxPrune) exposures.push({ tool: 'flux', evidence, operation: 'Flux garbage collection when it disappears from the source (or its Kustomization is deleted)', protect: `${FLUX_PRUNE}: disabled` });
        break;
    }
  }
  return { tools, exposures, protection };
}
