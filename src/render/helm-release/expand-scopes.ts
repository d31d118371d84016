// The one place lint() hands its environments to the HelmRelease expansion: every environment (loose manifests, a
// Kustomize render, a Flux cluster) gets the objects its HelmReleases render, with one shared memo so a release that
// appears in several environments renders once.
import os from 'node:os';
import { UsageError } from '../../load/discover.js';
import type { Limits } from '../../load/limits.js';
import { parseDeferred, type DeferredDocument, type KindPlan } from '../../load/parse-resources.js';
import { DEFAULT_RENDER_TIMEOUT_MS, helmCommand, kustomizeCommand } from '../render-all.js';
import type { SourceCache } from '../source-cache.js';
import type { Finding, LocateAt, Resource } from '../../types.js';
import { defaultChartCache } from './chart-cache.js';
import type { ChartMapping } from './chart-reference.js';
import { expandHelmReleases, HelmReleaseMemo, isHelmRelease, VALUES_SOURCE_KINDS, type NotInterpretedRelease } from './expand.js';

export interface HelmReleaseSettings {
  helmCommand?: string;
  kustomizeCommand?: string;
  chartCache?: string;
  helmChartMappings?: readonly ChartMapping[];
  pullCharts?: boolean;
  bundledCharts?: boolean;
  renderTimeoutMs?: number;
  limits?: Partial<Limits>;
  concurrency?: number;
  /** Places the notes about a release (the run's locate stage). */
  locateAt: LocateAt;
}

export interface ExpandableScope {
  name: string;
  resources: Resource[];
  /** Documents not parsed yet: the ConfigMaps and Secrets `valuesFrom` may name are parsed from here when asked. */
  deferred?: readonly DeferredDocument[];
  defaultNamespace?: string;
}

/** The scope's deferred ConfigMaps and Secrets, parsed only when one of its releases has `valuesFrom`. */
function valuesSources(scope: ExpandableScope, limits: Partial<Limits> | undefined): Resource[] {
  const wanted = scope.resources.some((r) => isHelmRelease(r) && Array.isArray(r.object?.spec?.valuesFrom) && r.object.spec.valuesFrom.length > 0);
  if (!wanted || !scope.deferred) return [];
  return parseDeferred(scope.deferred.filter((d) => (VALUES_SOURCE_KINDS as readonly string[]).includes(d.kind)), limits);
}

export interface ScopesExpansion {
  notes: Finding[];
  /** Per environment name: the HelmReleases that were not rendered. */
  notInterpreted: Map<string, NotInterpretedRelease[]>;
}

function commandOrUndefined(make: () => string[] | undefined): string[] | undefined {
  try {
    return make();
  } catch (error) {
    // An empty or plugin-enabling command is reported where the renders use it.
    if (error instanceof UsageError) return undefined;
    throw error;
  }
}

/** Adds each scope's rendered HelmRelease objects to its `resources`. */
export async function expandScopes(cache: SourceCache, scopes: readonly ExpandableScope[], settings: HelmReleaseSettings, kinds: KindPlan | undefined): Promise<ScopesExpansion> {
  const result: ScopesExpansion = { notes: [], notInterpreted: new Map() };
  if (!scopes.some((scope) => scope.resources.some(isHelmRelease))) return result;
  const memo = new HelmReleaseMemo();
  const helm = commandOrUndefined(() => helmCommand(settings.helmCommand));
  const kustomize = commandOrUndefined(() => kustomizeCommand(settings.kustomizeCommand));
  const concurrency = settings.concurrency ?? Math.max(1, typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length);
  for (const scope of scopes) {
    const expansion = await expandHelmReleases(scope.resources, {
      cache,
      helm,
      kustomize,
      chartCache: settings.chartCache ?? defaultChartCache(),
      chartMappings: settings.helmChartMappings ?? [],
      pull: settings.pullCharts,
      bundledCharts: settings.bundledCharts,
      environment: scope.name,
      defaultNamespace: scope.defaultNamespace,
      extraObjects: valuesSources(scope, settings.limits),
      timeoutMs: settings.renderTimeoutMs ?? DEFAULT_RENDER_TIMEOUT_MS,
      limits: settings.limits,
      kinds,
      concurrency,
      memo,
      locateAt: settings.locateAt,
    });
    scope.resources.push(...expansion.resources);
    result.notes.push(...expansion.notes);
    if (expansion.notInterpreted.length > 0) result.notInterpreted.set(scope.name, expansion.notInterpreted);
  }
  return result;
}
