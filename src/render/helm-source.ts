// Where an object of a `helm template` stream comes from, recorded for the locate stage: the template its `# Source:`
// comment names, or, for a template not in the repository (packaged or remote subcharts), the chart and why.
import path from 'node:path';
import type { SourceCache } from './source-cache.js';
import type { Origin, RenderOrigin, Resource, SourceFile } from '../types.js';

export interface HelmTemplateSource extends Origin {
  kind: 'helm-template';
  cache: SourceCache;
  chartDir: string;
  /** The template file, when it is in the repository. */
  template?: SourceFile;
  /** Otherwise: why, and the file to point at instead (the chart's Chart.yaml, else the stream). */
  missing?: { why: string; at: SourceFile };
}

/** Helm keeps no line mapping (helm/helm#11552): every place in a template is a heuristic. */
const APPROXIMATE = 'line approximate: rendered by Helm';

/** The origin of one rendered object whose `# Source:` is `<chart>/<rest>`, `rest` relative to `chartDir`. */
export function recordHelmTemplate(cache: SourceCache, chartDir: string, rest: string, resource: Resource): { origin: RenderOrigin; source: HelmTemplateSource } {
  const templatePath = path.join(chartDir, ...rest.split('/'));
  const template = cache.get(templatePath);
  if (template) return { origin: { renderer: 'helm', file: template.file, note: APPROXIMATE }, source: { kind: 'helm-template', cache, chartDir, template: template.file } };
  const chart = cache.get(path.join(chartDir, 'Chart.yaml'));
  const why = `${cache.displayPath(templatePath)} (the template of ${resource.kind} "${resource.name}") is not in the repo`;
  const source: HelmTemplateSource = { kind: 'helm-template', cache, chartDir, missing: { why, at: chart ? chart.file : resource.file } };
  return { origin: chart ? { renderer: 'helm', file: chart.file, note: why } : { renderer: 'helm', note: why }, source };
}
