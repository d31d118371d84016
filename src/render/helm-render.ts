// Renders one Helm chart with `helm template` (values files, release name and namespace from the user)
// and maps its documents to templates through the `# Source:` comments helm writes.
import path from 'node:path';
import { diagnostic } from '../engine/diagnostic.js';
import { firstLineRegion, makeSourceFile } from '../load/source-file.js';
import { DEFAULT_LIMITS, formatBytes, type Limits } from '../load/limits.js';
import { parseResources, type KindPlan } from '../load/parse-resources.js';
import { attachHelmLocators } from './helm-stream.js';
import { runCommand } from './process.js';
import { cleanRendererMessage, type RenderedScope } from './rendered-scope.js';
import type { SourceCache } from './source-cache.js';
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
  const scope: RenderedScope = { name, renderer: 'helm', resources: [], documents: 0, diagnostics: [], defaultNamespace: options.namespace };
  const fail = (message: string) => {
    scope.diagnostics.push(diagnostic('pvlint/render', message, chartLocation(cache, dir), 'error', [name]));
    return scope;
  };
  const maxOutputBytes = options.limits?.maxRenderOutputBytes ?? DEFAULT_LIMITS.maxRenderOutputBytes;
  const result = await runCommand([...options.command, ...helmArguments(dir, options)], { timeoutMs: options.timeoutMs, maxOutputBytes });
  if (result.status === 'missing') return { ...scope, missing: true };
  if (result.status === 'too-large') {
    return fail(`helm template printed more than ${formatBytes(maxOutputBytes)} for ${name} and was stopped (maxRenderOutputBytes); a template that loops, or raise the limit`);
  }
  if (result.status === 'timeout') {
    return fail(`helm template did not finish rendering ${name} within ${options.timeoutMs / 1000} s and was stopped; raise --render-timeout if it needs longer`);
  }
  if (result.status !== 'ok') return fail(`helm template failed for ${name}: ${cleanRendererMessage(result.stderr, [[`${cache.root}/`, '']])}`);
  const output = makeSourceFile(`${dir}#rendered`, `${name} (rendered by helm)`, result.stdout);
  const parsed = parseResources(output, options.limits, options.kinds);
  scope.output = output;
  scope.documents = parsed.documentCount;
  for (const d of parsed.diagnostics) scope.diagnostics.push(diagnostic('pvlint/render', `${name}: helm output does not parse: ${d.message}`, chartLocation(cache, dir), 'error', [name]));
  // Every `# Source:` of this stream names this chart (or its subcharts under charts/).
  attachHelmLocators(cache, output, parsed.documents, parsed.resources, () => dir);
  appendAll(scope.resources, parsed.resources);
  return scope;
}
