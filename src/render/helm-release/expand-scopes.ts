// The one place lint() hands its environments to the HelmRelease expansion: every environment (loose manifests, a
// Kustomize render, a Flux cluster) gets the objects its HelmReleases render, with one shared memo so a release that
// appears in several environments renders once.
import os from 'node:os';
import { UsageError } from '../../load/discover.js';
import type { Limits } from '../../load/limits.js';
import type { KindPlan } from '../../load/parse-resources.js';
import { DEFAULT_RENDER_TIMEOUT_MS, helmCommand, kustomizeCommand } from '../render-all.js';
import type { SourceCache } from '../source-cache.js';
import type { Finding, Resource } from '../../types.js';
import { defaultChartCache } from './chart-cache.js';
import type { ChartMapping } from './chart-reference.js';
import { expandHelmReleases, HelmReleaseMemo, isHelmRelease, type NotInterpretedRelease } from './expand.js';

export interface HelmReleaseSettings {
  helmCommand?: string;
  kustomizeCommand?: string;
  chartCache?: string;
  helmChartMappings?: readonly ChartMapping[];
  pullCharts?: boolean;
  renderTimeoutMs?: number;
  limits?: Partial<Limits>;
  concurrency?: number;
}

export interface ExpandableScope {
  name: string;
  resources: Resource[];
  defaultNamespace?: string;
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
      environment: scope.name,
      defaultNamespace: scope.defaultNamespace,
      timeoutMs: settings.renderTimeoutMs ?? DEFAULT_RENDER_TIMEOUT_MS,
      limits: settings.limits,
      kinds,
      concurrency,
      memo,
    });
    scope.resources.push(...expansion.resources);
    result.notes.push(...expansion.notes);
    if (expansion.notInterpreted.length > 0) result.notInterpreted.set(scope.name, expansion.notInterpreted);
  }
  return result;
}
