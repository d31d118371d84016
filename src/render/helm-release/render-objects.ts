// One chart rendered into located objects: `helm template`, the kustomize post-renderers, namespaces defaulted to the
// release namespace (as helm does when it applies them), and per object what the locate stage needs to point at the
// value that set a field, else at `chartAt` (where the chart is named), with the template as related location. HelmReleases use it;
// so can Argo CD helm sources and kustomize helmCharts, with their own values leaves and chart line.
import { inStableOrder } from '../helm-object-order.js';
import { DEFAULT_LIMITS, type Limits } from '../../load/limits.js';
import { deriveResource, parseResources, resourceId, type KindPlan } from '../../load/parse-resources.js';
import { makeSourceFile } from '../../load/source-file.js';
import { CLUSTER_SCOPED } from '../../model/storage-model.js';
import { recordHelmTemplate, type HelmTemplateSource } from '../helm-source.js';
import { sourcesByDocument } from '../helm-stream.js';
import type { SourceCache } from '../source-cache.js';
import type { Origin, Position, RenderOrigin, Resource, SourceFile } from '../../types.js';
import { isChartArchive } from './chart-reference.js';
import { postRender } from './post-render.js';
import type { ValueLeaf } from './release-values.js';
import { templateChart, type TemplateResult } from './template-chart.js';

export interface ChartRender {
  cache: SourceCache;
  helm: readonly string[];
  /** Builds a kustomization directory (post-renderers); undefined when kustomize/kubectl is not installed. */
  kustomize: readonly string[] | undefined;
  /** Chart directory or archive. */
  chart: string;
  /** How the chart reads in messages. */
  label: string;
  release: string;
  namespace: string;
  values: Record<string, unknown>;
  /** Where each scalar of `values` is written. */
  leaves: readonly ValueLeaf[];
  /** Where the chart is named (findings no value explains point there). */
  chartAt: Position;
  /** The file the objects came from, for their origin (the HelmRelease's, the Application's). */
  origin: Omit<RenderOrigin, 'renderer'>;
  /** `file` of the rendered stream: a virtual path and a display name. */
  stream: { absPath: string; path: string };
  postRenderers?: readonly Record<string, unknown>[];
  skipSchemaValidation?: boolean;
  timeoutMs: number;
  limits?: Partial<Limits>;
  kinds?: KindPlan;
  /** Renders of this run by their inputs: the same release in two environments renders once. */
  renders?: Map<string, Promise<TemplateResult>>;
}

/** Where the fields of an object rendered from a chart with located values are written, for the locate stage. */
export interface HelmValuesSource extends Origin {
  kind: 'helm-values';
  /** The object as rendered (values are matched against its fields). */
  object: any;
  leaves: readonly ValueLeaf[];
  chart: Position;
  /** How the chart and the template read in notes. */
  label: string;
  templateName: string;
  /** The template, when it is a file of the repository (the related location; else the chart line). */
  template?: HelmTemplateSource;
}

export type ChartObjects =
  | { ok: true; resources: Resource[]; schemaSkipped: boolean; parseErrors: string[] }
  | { ok: false; error: string };

export async function renderChartObjects(request: ChartRender): Promise<ChartObjects> {
  const limits = { ...DEFAULT_LIMITS, ...request.limits };
  const renderers = request.postRenderers ?? [];
  const key = JSON.stringify([request.chart, request.release, request.namespace, request.values, request.skipSchemaValidation ?? false]);
  let rendering = request.renders?.get(key);
  if (!rendering) {
    rendering = templateChart({ helm: request.helm, chart: request.chart, release: request.release, namespace: request.namespace, values: request.values, skipSchemaValidation: request.skipSchemaValidation, timeoutMs: request.timeoutMs, maxOutputBytes: limits.maxRenderOutputBytes });
    request.renders?.set(key, rendering);
  }
  const result = await rendering;
  if (!result.ok) return { ok: false, error: result.error };
  // Templates by object identity, taken before the post-renderers (kustomize drops comments and reorders).
  const helmFile = makeSourceFile(request.stream.absPath, request.stream.path, result.text);
  const raw = parseResources(helmFile, limits, request.kinds);
  const sources = sourcesByDocument(helmFile, raw.documents);
  const templateOf = new Map(raw.resources.map((r) => [`${r.kind}/${r.namespace ?? ''}/${r.name}`, sources[r.docIndex]]));
  let file: SourceFile = helmFile;
  let parsed = raw;
  if (renderers.length > 0) {
    const post = await postRender(result.text, renderers, request.kustomize, request.timeoutMs, limits.maxRenderOutputBytes);
    if (!post.ok) return { ok: false, error: post.error };
    file = makeSourceFile(`${helmFile.absPath}#post-rendered`, helmFile.path, post.text);
    parsed = parseResources(file, limits, request.kinds);
  }
  const chartDir = !isChartArchive(request.chart) && request.chart.startsWith(request.cache.root) ? request.chart : undefined;
  const origin: RenderOrigin = { renderer: 'helm', ...request.origin };
  const resources = parsed.resources.map((rendered) => {
    const template = templateOf.get(`${rendered.kind}/${rendered.namespace ?? ''}/${rendered.name}`);
    let resource = rendered;
    if (rendered.namespace === undefined && !CLUSTER_SCOPED.has(rendered.kind)) {
      if (rendered.object.metadata && typeof rendered.object.metadata === 'object') rendered.object.metadata.namespace = request.namespace;
      resource = deriveResource(rendered, { namespace: request.namespace, id: resourceId(rendered.kind, request.namespace, rendered.name) });
    }
    const templateName = template ?? 'a template of the chart';
    const inRepoTemplate = chartDir && template && template.includes('/') ? recordHelmTemplate(request.cache, chartDir, template.slice(template.indexOf('/') + 1), resource).source : undefined;
    resource.origin = origin;
    const source: HelmValuesSource = { kind: 'helm-values', object: resource.object, leaves: request.leaves, chart: request.chartAt, label: request.label, templateName, ...(inRepoTemplate ? { template: inRepoTemplate } : {}) };
    resource.sourceOrigin = source;
    return resource;
  });
  return { ok: true, resources: inStableOrder(resources), schemaSkipped: result.schemaSkipped, parseErrors: parsed.diagnostics.map((d) => d.message) };
}
