// Charts pvlint ships in its package, rendered only as a last resort: when a HelmRelease asks for one of them and no
// `helm.charts` mapping, chart cache entry or pull provides it (offline CI, a registry that needs a login). Most
// Flux repositories deploy their applications with the bjw-s app-template chart, so without a copy their storage
// goes unlinted offline. Whoever renders with a bundled chart says so (see expand.ts): never silently.
import { fileURLToPath } from 'node:url';
import type { RemoteChart } from './chart-reference.js';

export interface BundledChart {
  name: string;
  version: string;
  /** Absolute path of the packaged chart. */
  path: string;
}

/** Where each chart is published: OCI references (name included) and HTTP chart repositories, without scheme. */
const APP_TEMPLATE_SOURCES = [
  'ghcr.io/bjw-s-labs/helm/app-template',
  'ghcr.io/bjw-s/helm/app-template',
  'bjw-s-labs.github.io/helm-charts',
  'bjw-s.github.io/helm-charts',
];

// From dist/src/render/helm-release/ up to the package root, where `charts/` ships (package.json `files`).
const APP_TEMPLATE: BundledChart = {
  name: 'app-template',
  version: '4.1.1',
  path: fileURLToPath(new URL('../../../../charts/app-template-4.1.1.tgz', import.meta.url)),
};

function withoutScheme(url: string): string {
  return url.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '').replace(/\/+$/, '').toLowerCase();
}

/** The bundled copy of `chart`'s chart, whatever version it asks for; undefined when pvlint ships none. */
export function bundledChartFor(chart: RemoteChart): BundledChart | undefined {
  if (chart.chart !== APP_TEMPLATE.name) return undefined;
  return APP_TEMPLATE_SOURCES.includes(withoutScheme(chart.repository)) ? APP_TEMPLATE : undefined;
}

/** A `{{ … }}` Go template expression left in rendered text. */
const TEMPLATE_EXPRESSION = /\{\{.*?\}\}/s;

/**
 * True when a string anywhere in `value` still holds a template expression. A newer chart evaluates some values as
 * templates (app-template 5 runs `existingClaim: "{{ .Release.Name }}"` through `tpl`); an older bundled copy passes
 * them through as text, so an object carrying one is not what the cluster runs.
 */
export function holdsTemplateExpression(value: unknown): boolean {
  if (typeof value === 'string') return TEMPLATE_EXPRESSION.test(value);
  if (Array.isArray(value)) return value.some(holdsTemplateExpression);
  if (value !== null && typeof value === 'object') return Object.values(value).some(holdsTemplateExpression);
  return false;
}
