// Flux HelmReleases of one environment rendered with the real helm: for each `helm.toolkit.fluxcd.io` HelmRelease
// among the environment's objects, the chart is resolved (repository, `helm.charts` mapping, chart cache, pull), the
// values merged as helm-controller merges them, `helm template` run, the kustomize post-renderers applied and
// namespaces defaulted to the release namespace. The rendered objects join the environment, each locating its
// findings in the HelmRelease's values. What cannot be rendered is one note per release, never an error.
import { createHash } from 'node:crypto';
import { diagnostic } from '../../engine/diagnostic.js';
import type { Limits } from '../../load/limits.js';
import { deriveResource, type KindPlan } from '../../load/parse-resources.js';
import { mapPool } from '../pool.js';
import type { SourceCache } from '../source-cache.js';
import type { AppliedBy, Finding, LocateAt, Located, Position, Resource, Severity } from '../../types.js';
import type { ChartMapping } from './chart-reference.js';
import { isExactVersion, type PullResult } from './chart-cache.js';
import { localChartVersion } from './chart-version.js';
import { adaptAppTemplateValues, holdsTemplateExpression } from './bundled-chart.js';
import { obtainChart, type ChartSupply } from './obtain-chart.js';
import { kustomizePostRenderers } from './post-render.js';
import { mergeReleaseValues } from './release-values.js';
import { renderChartObjects } from './render-objects.js';
import { resolveReleaseChart, type ChartResolution } from './resolve-chart.js';
import type { TemplateResult } from './template-chart.js';
import { readTemplateFailure } from './template-failure.js';
import { ownershipConflicts } from './object-conflicts.js';

export const HELM_RELEASE_DIAGNOSTIC = 'pvlint/helm-release';

/** Kinds the expansion reads: parsed even when no rule reads them. */
export const HELM_RELEASE_INPUT_KINDS = ['HelmRelease', 'HelmRepository', 'OCIRepository', 'GitRepository', 'HelmChart', 'Bucket'] as const;

/** Kinds `valuesFrom` may name: parsed only when a release asks (deferred), so their syntax errors are not new findings. */
export const VALUES_SOURCE_KINDS = ['ConfigMap', 'Secret'] as const;

/** Renders shared by every environment of one run: the same release in two environments renders once. */
export class HelmReleaseMemo {
  readonly renders = new Map<string, Promise<TemplateResult>>();
  readonly pulls = new Map<string, Promise<PullResult>>();
  /** Notes said once per run (a chart's skipped schema, a mapped copy of another version), by key. */
  readonly noted = new Set<string>();
  /** Versions of mapped local charts. */
  readonly versions = new Map<string, Promise<string | undefined>>();
}

export interface HelmReleaseContext {
  cache: SourceCache;
  /** `['helm']` or the configured command; undefined when helm is not installed. */
  helm: readonly string[] | undefined;
  /** Command that builds a kustomization directory (for post-renderers); undefined when none is installed. */
  kustomize: readonly string[] | undefined;
  /** `--chart-cache`. */
  chartCache: string;
  /** `helm.charts` entries that map a chart reference to a local copy. */
  chartMappings: readonly ChartMapping[];
  /** Pull charts that are not in the cache (default true); false renders only local and cached charts. */
  pull?: boolean;
  /** Render pvlint's bundled copy of a chart that cannot be had (default true; `helm.bundledCharts`). */
  bundledCharts?: boolean;
  /** The environment's name (for findings' `environments`). */
  environment: string;
  /** Namespace of HelmReleases that set none. */
  defaultNamespace?: string;
  /** Objects outside the environment that may hold its sources or `valuesFrom` (e.g. the whole repository's). */
  extraObjects?: readonly Resource[];
  timeoutMs: number;
  limits?: Partial<Limits>;
  kinds?: KindPlan;
  concurrency?: number;
  memo?: HelmReleaseMemo;
  /** Places the notes about a release (the run's locate stage: a release may itself be rendered). */
  locateAt: LocateAt;
}

/** A HelmRelease pvlint could not render, as data (for per-environment "not interpreted" summaries). */
export interface NotInterpretedRelease {
  file: string;
  line: number;
  /** `namespace/name` of the HelmRelease. */
  name: string;
  reason: string;
}

export interface HelmReleaseExpansion {
  /** The rendered objects (the environment's own resources are not repeated). */
  resources: Resource[];
  /** Notes: releases not rendered, schemas skipped. */
  notes: Finding[];
  notInterpreted: NotInterpretedRelease[];
  /** How many HelmReleases the environment holds, and how many were rendered. */
  releases: number;
  rendered: number;
}

export function isHelmRelease(resource: Resource): boolean {
  return resource.kind === 'HelmRelease' && /^helm\.toolkit\.fluxcd\.io\//.test(String(resource.apiVersion));
}

/** helm-controller's default: `[targetNamespace-]name`, shortened past 53 characters (`ShortenName`). */
export function fluxReleaseName(release: Resource): string {
  const spec = release.object?.spec ?? {};
  if (typeof spec.releaseName === 'string' && spec.releaseName !== '') return spec.releaseName;
  const target = typeof spec.targetNamespace === 'string' && spec.targetNamespace !== '' ? spec.targetNamespace : undefined;
  const name = target ? `${target}-${release.name}` : release.name;
  if (name.length <= 53) return name;
  return `${name.slice(0, 40)}-${createHash('sha256').update(name).digest('hex').slice(0, 12)}`;
}

/** What a release's values would have produced, for the note when it cannot be rendered. */
function persistenceCount(values: Record<string, unknown>): string {
  const persistence = values.persistence;
  if (persistence === null || typeof persistence !== 'object' || Array.isArray(persistence)) return 'its objects are not linted';
  const entries = Object.values(persistence).filter((entry: any) => entry && typeof entry === 'object' && entry.enabled !== false);
  if (entries.length === 0) return 'its objects are not linted';
  return `${entries.length} persistence ${entries.length === 1 ? 'entry' : 'entries'} not linted`;
}

function chartName(resolution: ChartResolution): string {
  return resolution.kind === 'remote' ? resolution.chart.chart : resolution.label;
}

/**
 * A bundled chart of another version than the requested one may pass through as text values the requested version
 * evaluates as templates: objects still holding a `{{ … }}` are left out of the lint (with a note), never linted as
 * the cluster would not run them. A release that asks for the bundled version itself renders exactly.
 */
function withoutUntemplated(resources: Resource[], version: string, requestedVersion: string | undefined, renderedBy: string, say: (message: string) => void): Resource[] {
  if (requestedVersion?.replace(/^v/, '') === version) return resources;
  const kept = resources.filter((r) => !holdsTemplateExpression(r.object));
  const left = resources.filter((r) => !kept.includes(r));
  if (left.length > 0) {
    const names = left.map((r) => `${r.kind} ${r.name}`).join(', ');
    say(`${names} still ${left.length === 1 ? 'holds' : 'hold'} template expressions that the requested chart version evaluates but ${renderedBy} does not, so ${left.length === 1 ? 'it is' : 'they are'} not linted`);
  }
  return kept;
}

function isObjectValue(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function lineOf(located: Located): number {
  return located.location.region.startLine;
}

export async function expandHelmReleases(resources: readonly Resource[], context: HelmReleaseContext): Promise<HelmReleaseExpansion> {
  const releases = resources.filter(isHelmRelease);
  const expansion: HelmReleaseExpansion = { resources: [], notes: [], notInterpreted: [], releases: releases.length, rendered: 0 };
  if (releases.length === 0) return expansion;
  const memo = context.memo ?? new HelmReleaseMemo();
  const objects = context.extraObjects ? [...resources, ...context.extraObjects] : resources;
  const root = context.cache.root;
  const supply: ChartSupply = { helm: context.helm, chartCache: context.chartCache, chartMappings: context.chartMappings, pull: context.pull, bundledCharts: context.bundledCharts, timeoutMs: context.timeoutMs, pulls: memo.pulls };
  const perRelease = await mapPool(releases, context.concurrency ?? 2, async (release) => {
    const spec = release.object?.spec ?? {};
    const namespace = release.namespace ?? context.defaultNamespace ?? 'default';
    const releaseNamespace = typeof spec.targetNamespace === 'string' && spec.targetNamespace !== '' ? spec.targetNamespace : namespace;
    const request = resolveReleaseChart(release, namespace, objects, context.chartMappings, root);
    const chartPosition: Position = { resource: release, path: request.chartPath };
    const chartAt = (): Located => context.locateAt(release, request.chartPath);
    const merged = mergeReleaseValues(release, namespace, objects);
    const notes: Finding[] = [];
    // Notes said once per chart, keyed: kept per release and emitted in release order after the pool, so which
    // release carries them does not depend on which render finished first.
    const once: { key: string; finding: Finding }[] = [];
    // Each kind of note has its own messageId: notes at one chart line are merged only with the same note from
    // another environment, never with a different one.
    const note = (messageId: string, message: string, located = chartAt(), fix?: string, severity: Severity = 'note') => {
      const finding = diagnostic(HELM_RELEASE_DIAGNOSTIC, message, located.location, severity, [context.environment]);
      notes.push({ ...finding, messageId, ...(fix ? { fix } : {}), ...(located.note ? { note: located.note } : {}) });
    };
    const noteOnce = (key: string, ...args: Parameters<typeof note>) => {
      note(...args);
      once.push({ key, finding: notes.pop()! });
    };
    const label = request.resolution.label;
    const notRendered = (reason: string, rejected?: { located: Located; severity: Severity; fix: string }) => {
      const located = chartAt();
      const message = `HelmRelease ${namespace}/${release.name}: chart ${label} ${reason}: ${persistenceCount(merged.values)}`;
      if (rejected) note('values-rejected', message, rejected.located, rejected.fix, rejected.severity);
      else note('not-rendered', message, located);
      return { resources: [] as Resource[], notes, once, missing: { file: located.location.file, line: lineOf(located), name: `${namespace}/${release.name}`, reason: `chart ${label} ${reason}` } };
    };
    const chart = await obtainChart(request.resolution, supply);
    if ('reason' in chart) return notRendered(`not available (${chart.reason})`);
    if (!context.helm) return notRendered('not rendered (helm is not installed)');
    const mapped = request.resolution.kind === 'local' ? request.resolution.mapped : undefined;
    // An app-template copy (mapped or bundled) of another version than the release asks for: its values are adapted
    // and what it leaves untemplated is not linted, as for the bundled copy.
    let standIn: { version: string; requested: string | undefined; renderedBy: string } | undefined;
    if (mapped?.version && isExactVersion(mapped.version)) {
      let version = memo.versions.get(chart.path);
      if (!version) {
        version = localChartVersion(context.helm, chart.path, context.timeoutMs);
        memo.versions.set(chart.path, version);
      }
      const vendored = await version;
      if (vendored && vendored.replace(/^v/, '') !== mapped.version.replace(/^v/, '')) {
        if (/(^|\/)app-template(@|$)/.test(mapped.reference)) standIn = { version: vendored.replace(/^v/, ''), requested: mapped.version, renderedBy: `the ${vendored} copy helm.charts maps` };
        noteOnce(`version:${JSON.stringify([chart.path, mapped.version])}`, 'version-differs', `chart ${label}: helm.charts maps "${mapped.reference}" to a copy of version ${vendored}, so releases asking for ${mapped.version} are linted as ${vendored} renders them`, chartAt(), `Map "${mapped.reference}@${mapped.version}" to a copy of that version to lint what the cluster runs.`);
      }
    }
    if (chart.bundled) {
      const { version, unavailable } = chart.bundled;
      const requested = request.resolution.kind === 'remote' ? request.resolution.chart.version : undefined;
      const asks = requested === undefined ? 'the release names no version' : requested.replace(/^v/, '') === version ? `the release asks for ${requested} too` : `the release asks for ${requested}: values that only ${requested.replace(/^v/, '').split('.')[0]}.x understands may render differently`;
      noteOnce(`bundled:${JSON.stringify([label, version])}`, 'bundled-chart', `chart ${label} not available (${unavailable}); rendered with pvlint's bundled ${chartName(request.resolution)} ${version}; ${asks}`, chartAt(), 'Nothing to change in the repository; with network access (or a helm.charts mapping to a copy of the requested version) pvlint renders the chart the release asks for. helm.bundledCharts: false turns the bundled copy off.');
    }
    if (chart.stale) note('range-offline', `HelmRelease ${namespace}/${release.name}: chart ${label}: ${chart.stale}`, chartAt(), 'Nothing to change in the repository; with network access pvlint resolves the range again. Pin an exact version to render the same chart every time.');
    for (const problem of merged.problems) note('values-from', `HelmRelease ${namespace}/${release.name}: valuesFrom ${problem}; rendered without it`, context.locateAt(release, ['spec', 'valuesFrom']), 'Add the key to the object, or mark the valuesFrom entry optional: true if it may be absent.');
    const skipSchema = spec.install?.disableSchemaValidation === true || spec.upgrade?.disableSchemaValidation === true;
    const releaseName = fluxReleaseName(release);
    const requested = request.resolution.kind === 'remote' ? request.resolution.chart.version : undefined;
    if (chart.bundled) standIn = { version: chart.bundled.version, requested, renderedBy: `pvlint's bundled ${chartName(request.resolution)} ${chart.bundled.version}` };
    const { values, leaves } = standIn ? adaptAppTemplateValues(merged.values, merged.leaves, standIn.requested, { name: releaseName, namespace: releaseNamespace }) : merged;
    const rendered = await renderChartObjects({
      cache: context.cache,
      helm: context.helm,
      kustomize: context.kustomize,
      chart: chart.path,
      label: chart.bundled ? `${label} (as pvlint's bundled ${chart.bundled.version} renders it)` : label,
      release: releaseName,
      namespace: releaseNamespace,
      values,
      leaves,
      chartAt: chartPosition,
      origin: { file: release.file, docIndex: release.docIndex, note: `rendered by helm from chart ${label}${chart.bundled ? ` (as pvlint's bundled ${chart.bundled.version} renders it)` : ''} (HelmRelease ${namespace}/${release.name})` },
      stream: { absPath: `${release.file.absPath}#helmrelease:${namespace}/${release.name}`, path: `${release.file.path} (HelmRelease ${release.name} rendered by helm)` },
      postRenderers: kustomizePostRenderers(spec),
      skipSchemaValidation: skipSchema,
      timeoutMs: context.timeoutMs,
      limits: context.limits,
      kinds: context.kinds,
      renders: memo.renders,
    });
    if (!rendered.ok) {
      const failure = readTemplateFailure(rendered.error, merged.values);
      if (!failure.rejectsValues) return notRendered(`not rendered: ${rendered.error}`);
      // The chart's own verdict on the values: helm-controller's install or upgrade stops the same way, unless a
      // stand-in of another version or values pvlint could not read made the difference.
      const certain = !standIn && merged.problems.length === 0;
      const written = failure.valuesPath && isObjectValue(spec.values) && failure.valuesPath.length > 0 && Object.hasOwn(spec.values, failure.valuesPath[0]);
      return notRendered(`not rendered: ${rendered.error}`, {
        located: written ? context.locateAt(release, ['spec', 'values', ...failure.valuesPath!]) : chartAt(),
        severity: certain ? 'warning' : 'note',
        fix: 'The chart rejects these values: correct the value its message names (helm-controller fails the install or upgrade with the same message).' +
          (standIn ? ` It was rendered by ${standIn.renderedBy}, not the ${standIn.requested ?? 'requested'} version the release asks for: check that version's message too.` : ''),
      });
    }
    if (rendered.schemaSkipped && !skipSchema) {
      noteOnce(`schema:${chart.path}`, 'schema-skipped', `chart ${label}: its values schema references schemas that cannot be fetched, so it was rendered with --skip-schema-validation (values are not checked against the schema)`, chartAt(), 'Nothing to change in the repository; with network access helm fetches the referenced schemas and checks the values. Set install.disableSchemaValidation to skip the check on purpose.');
    }
    for (const message of rendered.parseErrors) note('output-parse', `HelmRelease ${namespace}/${release.name}: the output of chart ${label} does not parse: ${message}`);
    const kept = standIn ? withoutUntemplated(rendered.resources, standIn.version, standIn.requested, standIn.renderedBy, (message) => note('bundled-untemplated', `HelmRelease ${namespace}/${release.name}: ${message}`)) : rendered.resources;
    // helm-controller installs them as a Helm release (renders may be shared: copies record the release).
    const appliedBy: AppliedBy = { kind: 'flux-helmrelease', object: release, name: `${namespace}/${release.name}` };
    const resources = kept.map((r) => deriveResource(r, { appliedBy }));
    return { resources, notes, once, missing: undefined, rendered: { release, label: `${namespace}/${release.name}`, releaseName, releaseNamespace, resources } };
  });
  for (const r of perRelease) {
    expansion.resources.push(...r.resources);
    expansion.notes.push(...r.notes);
    for (const { key, finding } of r.once) {
      if (memo.noted.has(key)) continue;
      memo.noted.add(key);
      expansion.notes.push(finding);
    }
    if (r.missing) expansion.notInterpreted.push(r.missing);
    else expansion.rendered++;
  }
  const rendered = perRelease.flatMap((r) => ('rendered' in r && r.rendered ? [r.rendered] : []));
  expansion.notes.push(...ownershipConflicts(resources, rendered, context.locateAt, context.environment));
  return expansion;
}
