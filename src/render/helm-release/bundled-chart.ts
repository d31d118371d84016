// Charts pvlint ships in its package, rendered only as a last resort: when a HelmRelease asks for one of them and no
// `helm.charts` mapping, chart cache entry or pull provides it (offline CI, a registry that needs a login). Most
// Flux repositories deploy their applications with the bjw-s app-template chart, so without a copy their storage
// goes unlinted offline. Whoever renders with a bundled chart says so (see expand.ts): never silently.
import { fileURLToPath } from 'node:url';
import type { RemoteChart } from './chart-reference.js';
import type { ValueLeaf, ValueWhere } from './release-values.js';

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

/** The release as a `tpl` in the chart sees it. */
export interface ReleaseFacts {
  name: string;
  namespace: string;
}

/** Values with the templates a newer chart would evaluate evaluated, and their locatable leaves to match. */
export interface AdaptedValues<W = ValueWhere> {
  values: Record<string, unknown>;
  leaves: readonly ValueLeaf<W>[];
}

const RELEASE_EXPRESSION = /\{\{\s*\.Release\.(Name|Namespace)\s*\}\}/g;

/** `text` with `{{ .Release.Name }}` and `{{ .Release.Namespace }}` evaluated; unchanged when anything else remains. */
function evaluateReleaseExpressions(text: string, release: ReleaseFacts): string {
  const evaluated = text.replace(RELEASE_EXPRESSION, (_, field: string) => (field === 'Name' ? release.name : release.namespace));
  return TEMPLATE_EXPRESSION.test(evaluated) ? text : evaluated;
}

const isMap = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * app-template 5 runs `persistence.<id>.existingClaim` through `tpl` (common library 5.x,
 * templates/lib/pod/fields/_volumes.tpl); 4.1.1 mounts it as written. For a release that asks for 5.x, the
 * `{{ .Release.Name }}` and `{{ .Release.Namespace }}` there are evaluated before the bundled 4.1.1 renders, so the
 * claim it mounts is the one 5.x would mount. Other expressions stay (their objects are then left out, see
 * holdsTemplateExpression); other versions are rendered as they are.
 */
export function adaptAppTemplateValues<W = ValueWhere>(values: Record<string, unknown>, leaves: readonly ValueLeaf<W>[], requestedVersion: string | undefined, release: ReleaseFacts): AdaptedValues<W> {
  const major = /^v?(\d+)\./.exec(requestedVersion ?? '')?.[1];
  if (major === undefined || Number(major) < 5 || !isMap(values.persistence)) return { values, leaves };
  const persistence: Record<string, unknown> = { ...values.persistence };
  const evaluated = new Map<string, string>();
  for (const [id, entry] of Object.entries(persistence)) {
    if (!isMap(entry) || typeof entry.existingClaim !== 'string') continue;
    const claim = evaluateReleaseExpressions(entry.existingClaim, release);
    if (claim === entry.existingClaim) continue;
    persistence[id] = { ...entry, existingClaim: claim };
    evaluated.set(id, claim);
  }
  if (evaluated.size === 0) return { values, leaves };
  const adaptedLeaves = leaves.map((leaf) => {
    const [top, id, key] = leaf.path;
    const claim = leaf.path.length === 3 && top === 'persistence' && key === 'existingClaim' ? evaluated.get(String(id)) : undefined;
    return claim === undefined ? leaf : { ...leaf, value: claim };
  });
  return { values: { ...values, persistence }, leaves: adaptedLeaves };
}
