// Renders one Helm chart with `helm template` (values files, release name and namespace from the user)
// and maps its documents to templates through the `# Source:` comments helm writes. Dependencies the chart
// declares but `charts/` lacks are supplied first, in a temporary copy (supply-dependencies.ts).
import { inStableOrder } from './helm-object-order.js';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { diagnostic } from '../engine/diagnostic.js';
import { firstLineRegion, makeSourceFile } from '../load/source-file.js';
import { DEFAULT_LIMITS, formatBytes, type Limits } from '../load/limits.js';
import { parseResources, type KindPlan } from '../load/parse-resources.js';
import { planDependencyRender, unavailableNote, type DependencyRender } from './dependency-render.js';
import { attachHelmLocators } from './helm-stream.js';
import type { ChartSupply } from './helm-release/obtain-chart.js';
import { isUnfetchableSchema } from './helm-release/template-chart.js';
import type { ProcessSlots } from './pool.js';
import { runCommand } from './process.js';
import { cleanRendererMessage, type RenderedScope } from './rendered-scope.js';
import type { SourceCache } from './source-cache.js';
import { prepareDependencies, type PreparedChart } from './supply-dependencies.js';
import type { SourceLocation } from '../types.js';
import { appendAll } from '../engine/append.js';

export interface HelmRenderOptions {
  /** `['helm']`; `template <release> <chart> ...` is appended. */
  command: readonly string[];
  /** Absolute paths of values files, passed with `-f` in order. */
  values: readonly string[];
  release: string;
  namespace: string;
  timeoutMs: number;
  cache: SourceCache;
  /** Output size and document limits (defaults: DEFAULT_LIMITS). */
  limits?: Partial<Limits>;
  /** Which output documents to parse (see `parseResources`); all when undefined. Nothing is deferred: rendered
   * objects get their locators as they are read. */
  kinds?: KindPlan;
  /**
   * Where dependencies missing from `charts/` come from (`helm.charts`, the chart cache, pulls, bundled charts);
   * without it the chart is rendered as it is.
   */
  dependencies?: ChartSupply;
  /** The run's renderer processes (see ProcessSlots); unbounded without. */
  slots?: ProcessSlots;
}

function chartLocation(cache: SourceCache, dir: string): SourceLocation {
  const source = cache.get(path.join(dir, 'Chart.yaml'));
  if (source) return { file: source.file.path, region: firstLineRegion(source.file) };
  return { file: cache.displayPath(dir), region: { startLine: 1, startColumn: 1, endLine: 1, endColumn: 1 } };
}

export function helmArguments(dir: string, options: Pick<HelmRenderOptions, 'values' | 'release' | 'namespace'>): string[] {
  return ['template', options.release, dir, '--namespace', options.namespace, ...options.values.flatMap((file) => ['--values', file])];
}

export async function renderChart(dir: string, options: HelmRenderOptions): Promise<RenderedScope> {
  const { cache } = options;
  const name = cache.displayPath(dir);
  const prepared = options.dependencies ? await prepareDependencies(dir, options.values, options.dependencies, cache.root) : undefined;
  if (prepared?.kind === 'unavailable') {
    const { missing } = prepared;
    const note = unavailableNote(cache, name, missing, name);
    const chart = missing.chart ? { name: missing.chart.chart, ...(missing.chart.version ? { version: missing.chart.version } : {}), url: missing.chart.repository } : { name: missing.dependency.name, ...(missing.dependency.version ? { version: missing.dependency.version } : {}), url: missing.dependency.repository };
    return {
      name,
      renderer: 'helm',
      resources: [],
      documents: 0,
      diagnostics: [note],
      defaultNamespace: options.namespace,
      notInterpreted: { file: note.location.file, line: note.location.region.startLine, reason: `dependency ${missing.label} not available (${missing.reason})`, chart },
    };
  }
  try {
    return await renderPrepared(dir, name, prepared, options);
  } finally {
    prepared?.cleanup();
  }
}

async function renderPrepared(dir: string, name: string, prepared: Extract<PreparedChart, { kind: 'ready' }> | undefined, options: HelmRenderOptions): Promise<RenderedScope> {
  const { cache } = options;
  const scope: RenderedScope = { name, renderer: 'helm', resources: [], documents: 0, diagnostics: [], defaultNamespace: options.namespace };
  const fail = (message: string) => {
    scope.diagnostics.push(diagnostic('pvlint/render', message, chartLocation(cache, dir), 'error', [name]));
    return scope;
  };
  const maxOutputBytes = options.limits?.maxRenderOutputBytes ?? DEFAULT_LIMITS.maxRenderOutputBytes;
  let supplied: DependencyRender | undefined;
  let values = options.values;
  if (prepared) {
    supplied = planDependencyRender(cache, dir, name, options.values, prepared.supplied, { name: options.release, namespace: options.namespace }, name);
    if (supplied.overrides) {
      const file = path.join(path.dirname(prepared.dir), 'pvlint-adapted-values.json');
      writeFileSync(file, JSON.stringify(supplied.overrides));
      values = [...values, file];
    }
  }
  const chart = prepared?.dir ?? dir;
  const run = (skipSchema: boolean) => runCommand([...options.command, ...helmArguments(chart, { ...options, values }), ...(skipSchema ? ['--skip-schema-validation'] : [])], { timeoutMs: options.timeoutMs, maxOutputBytes, slots: options.slots });
  let result = await run(false);
  // A supplied dependency's values schema may reference schemas that cannot be fetched offline (as for HelmReleases).
  if (prepared && result.status === 'failed' && isUnfetchableSchema(result.stderr)) {
    result = await run(true);
    // pvlint's bundled app-template is one such chart; its note already says the chart was stood in for.
    if (result.status === 'ok' && !prepared.supplied.some((d) => d.bundled)) scope.diagnostics.push({ ...diagnostic('pvlint/chart-dependency', `chart ${name}: a values schema references schemas that cannot be fetched, so it was rendered with --skip-schema-validation (values are not checked against the schema)`, chartLocation(cache, dir), 'note', [name]), messageId: 'schema-skipped' });
  }
  if (result.status === 'missing') return { ...scope, missing: true };
  if (result.status === 'too-large') {
    return fail(`helm template printed more than ${formatBytes(maxOutputBytes)} for ${name} and was stopped (maxRenderOutputBytes); a template that loops, or raise the limit`);
  }
  if (result.status === 'timeout') {
    return fail(`helm template did not finish rendering ${name} within ${options.timeoutMs / 1000} s and was stopped; raise --render-timeout if it needs longer`);
  }
  if (result.status !== 'ok') return fail(`helm template failed for ${name}: ${cleanRendererMessage(result.stderr, [...(prepared ? [[`${prepared.dir}/`, `${name}/`] as [string, string]] : []), [`${cache.root}/`, '']])}`);
  const output = makeSourceFile(`${dir}#rendered`, `${name} (rendered by helm)`, result.stdout);
  const parsed = parseResources(output, options.limits, options.kinds);
  scope.output = output;
  scope.documents = parsed.documentCount;
  for (const d of parsed.diagnostics) scope.diagnostics.push(diagnostic('pvlint/render', `${name}: helm output does not parse: ${d.message}`, chartLocation(cache, dir), 'error', [name]));
  // Every `# Source:` of this stream names this chart (or its subcharts under charts/).
  attachHelmLocators(cache, output, parsed.documents, parsed.resources, () => dir);
  if (!supplied) {
    appendAll(scope.resources, inStableOrder(parsed.resources));
    return scope;
  }
  const finished = supplied.finish(output, parsed.documents, parsed.resources);
  appendAll(scope.resources, inStableOrder(finished.resources));
  appendAll(scope.diagnostics, [...supplied.notes, ...finished.notes]);
  return scope;
}
