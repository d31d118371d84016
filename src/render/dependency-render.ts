// What rendering a chart with supplied dependencies adds to a plain `helm template`: values adapted for a bundled
// app-template standing in for a 5.x one (as for HelmReleases, bundled-chart.ts), objects located through the
// umbrella's values (their origin recorded by dependency-source.ts), objects a stand-in leaves untemplated left out, and a note for every
// caveat, at the dependency's entry in Chart.yaml.
import { diagnostic } from '../engine/diagnostic.js';
import type { Document } from 'yaml';
import { chartValues } from './chart-dependencies.js';
import { coalesceValues } from './coalesce-values.js';
import { dependencyEntry, dependencyPath, dependencyValueLeaves, recordHelmDependency, type DependencyPlace, type ValuesFilePlace } from './dependency-source.js';
import { sourcesByDocument } from './helm-stream.js';
import { adaptAppTemplateValues, holdsTemplateExpression, type ReleaseFacts } from './helm-release/bundled-chart.js';
import { describeRemote } from './helm-release/chart-reference.js';
import { valueAt, type ValueLeaf } from './helm-release/release-values.js';
import type { SourceCache } from './source-cache.js';
import type { SuppliedDependency, UnavailableDependency } from './supply-dependencies.js';
import type { Finding, Located, Resource, SourceFile } from '../types.js';

export const CHART_DEPENDENCY_DIAGNOSTIC = 'pvlint/chart-dependency';

const isMap = (v: unknown): v is Record<string, any> => v !== null && typeof v === 'object' && !Array.isArray(v);

function dependencyLabel(supplied: Pick<SuppliedDependency, 'dependency' | 'chart'>): string {
  const { dependency } = supplied;
  if (supplied.chart) return describeRemote(supplied.chart);
  return `${dependency.name}${dependency.version ? ` ${dependency.version}` : ''}${dependency.repository ? ` from ${dependency.repository}` : ''}`;
}

function dependencyNote(messageId: string, message: string, located: Located, environment: string, fix?: string): Finding {
  const finding = diagnostic(CHART_DEPENDENCY_DIAGNOSTIC, message, located.location, 'note', [environment]);
  return { ...finding, messageId, ...(fix ? { fix } : {}) };
}

/** The note for a chart that is not rendered because a dependency cannot be had. */
export function unavailableNote(cache: SourceCache, chartName: string, missing: UnavailableDependency, environment: string): Finding {
  return dependencyNote('not-rendered', `chart ${chartName} not rendered: its dependency ${missing.label} is not available (${missing.reason}), so its objects are not linted`, dependencyEntry(cache, { declaredIn: missing.declaredIn, index: missing.dependency.index }), environment);
}

/** A bundled copy of another major version than requested, whose values need adapting. */
function standInFor(supplied: SuppliedDependency): { requested: string | undefined; version: string } | undefined {
  if (!supplied.bundled) return undefined;
  const requested = supplied.dependency.version;
  return requested?.replace(/^v/, '') === supplied.bundled.version ? undefined : { requested, version: supplied.bundled.version };
}

function nest(keys: readonly string[], value: Record<string, unknown>): Record<string, unknown> {
  return keys.reduceRight<Record<string, unknown>>((inner, key) => ({ [key]: inner }), value);
}

export interface DependencyRender {
  /** Values to give helm after all others (adapted for bundled stand-ins); undefined when none. */
  overrides?: Record<string, unknown>;
  /** Records where the objects of supplied dependencies come from and leaves out what a stand-in left untemplated; the notes. */
  finish(file: SourceFile, documents: readonly Document.Parsed[], resources: readonly Resource[]): { resources: Resource[]; notes: Finding[] };
  /** Notes that do not depend on the output (bundled copies, stale ranges). */
  notes: Finding[];
}

export function planDependencyRender(cache: SourceCache, chartDir: string, chartName: string, valueFiles: readonly string[], supplied: readonly SuppliedDependency[], release: ReleaseFacts, environment: string): DependencyRender {
  const files = [`${chartDir}/values.yaml`, ...valueFiles];
  let merged: Record<string, unknown> | undefined;
  const overrides: Record<string, unknown>[] = [];
  const leaves = new Map<SuppliedDependency, ValueLeaf<ValuesFilePlace>[]>();
  const notes: Finding[] = [];
  for (const dependency of supplied) {
    if (dependency.how === 'disabled') continue;
    let own = dependencyValueLeaves(cache, files, dependency.keys);
    const standIn = standInFor(dependency);
    if (standIn) {
      merged ??= chartValues(chartDir, valueFiles);
      const values = valueAt(merged, dependency.keys);
      if (isMap(values)) {
        const adapted = adaptAppTemplateValues(values, own, standIn.requested, release);
        own = [...adapted.leaves];
        if (adapted.values !== values && isMap(adapted.values.persistence)) overrides.push(nest(dependency.keys, { persistence: adapted.values.persistence }));
      }
    }
    leaves.set(dependency, own);
    const at = dependencyEntry(cache, { declaredIn: dependency.declaredIn, index: dependency.dependency.index });
    const label = dependencyLabel(dependency);
    if (dependency.bundled) {
      const { version, unavailable } = dependency.bundled;
      const requested = dependency.dependency.version;
      const asks = requested === undefined ? 'the chart names no version' : requested.replace(/^v/, '') === version ? `the chart asks for ${requested} too` : `the chart asks for ${requested}: values that only ${requested.replace(/^v/, '').split('.')[0]}.x understands may render differently`;
      notes.push(dependencyNote('bundled-chart', `chart ${chartName}: dependency ${label} not available (${unavailable}); rendered with pvlint's bundled ${dependency.dependency.name} ${version}; ${asks}`, at, environment, 'Nothing to change in the repository; with network access (or a helm.charts mapping to a copy of the requested version) pvlint renders the dependency the chart asks for. helm.bundledCharts: false turns the bundled copy off.'));
    }
    if (dependency.stale) notes.push(dependencyNote('range-offline', `chart ${chartName}: dependency ${label}: ${dependency.stale}`, at, environment, 'Nothing to change in the repository; with network access pvlint resolves the range again. Pin an exact version to render the same chart every time.'));
  }
  const places = supplied
    .filter((d) => d.how !== 'disabled')
    .map((d) => ({ supplied: d, place: { keys: d.keys, label: `${dependencyLabel(d)}${d.bundled ? ` (as pvlint's bundled ${d.bundled.version} renders it)` : ''} of chart ${chartName}`, declaredIn: d.declaredIn, index: d.dependency.index, sourceDir: d.sourceDir } satisfies DependencyPlace }))
    // The deepest dependency an object's path reaches is the one that rendered it.
    .sort((a, b) => b.place.keys.length - a.place.keys.length);
  return {
    overrides: overrides.length > 0 ? overrides.reduce((all, one) => coalesceValues(all, one), {}) : undefined,
    notes,
    finish(file, documents, resources) {
      const sources = sourcesByDocument(file, documents);
      const kept: Resource[] = [];
      const untemplated = new Map<SuppliedDependency, Resource[]>();
      for (const resource of resources) {
        const source = sources[resource.docIndex];
        const reached = source ? dependencyPath(source) : undefined;
        const match = reached && places.find(({ place }) => place.keys.every((key, i) => reached.keys[i] === key));
        if (!reached || !match) {
          kept.push(resource);
          continue;
        }
        if (standInFor(match.supplied) && holdsTemplateExpression(resource.object)) {
          untemplated.set(match.supplied, [...(untemplated.get(match.supplied) ?? []), resource]);
          continue;
        }
        const template = source!.split('/').slice(1 + 2 * match.place.keys.length).join('/');
        const recorded = recordHelmDependency(cache, resource, template, leaves.get(match.supplied) ?? [], files, match.place);
        resource.origin = recorded.origin;
        resource.sourceOrigin = recorded.source;
        kept.push(resource);
      }
      const outputNotes = [...untemplated].map(([dependency, left]) => {
        const names = left.map((r) => `${r.kind} ${r.name}`).join(', ');
        const one = left.length === 1;
        return dependencyNote('bundled-untemplated', `chart ${chartName}: ${names} still ${one ? 'holds' : 'hold'} template expressions that ${dependency.dependency.name} ${dependency.dependency.version ?? ''} evaluates but pvlint's bundled ${dependency.bundled!.version} does not, so ${one ? 'it is' : 'they are'} not linted`.replace('  ', ' '), dependencyEntry(cache, { declaredIn: dependency.declaredIn, index: dependency.dependency.index }), environment);
      });
      return { resources: kept, notes: outputNotes };
    },
  };
}

