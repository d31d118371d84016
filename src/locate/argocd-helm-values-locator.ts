// A field of an object an Argo CD Application rendered from a Helm chart: when the scalar that best explains it
// (matched as HelmRelease values are, helm-values-locator.ts) is one the Application gives the chart — a line of
// its `values: |`, a field of `valuesObject`, a parameter, a file of `valueFiles` — it is reported there, with
// where the chart renders it as related location. Otherwise (a chart default, or no value at all) the object's own
// origin locates it: its template, or the chart dependency it comes from.
import type { ArgoHelmValuesSource } from '../gitops/argocd-helm-values.js';
import { locateValuesFile } from './helm-dependency-locator.js';
import { dotted, locateValue, matchValue } from './helm-values-locator.js';
import type { LocateContext } from './locator.js';
import type { JsonPath, Located, Resource } from '../types.js';

export function locateArgoHelmValues(origin: ArgoHelmValuesSource, resource: Resource, p: JsonPath, context: LocateContext): Located {
  const rendered = () => context.at(origin.rendered, p);
  const match = matchValue(origin.leaves, resource.object, p);
  if (!match || !match.leaf.at.byApplication) return rendered();
  const { at } = match.leaf;
  const located = at.file ? locateValuesFile(origin.cache, at.file) : locateValue(at.field!, context);
  const chart = rendered();
  const where = chart.related && chart.related.length > 0 ? chart.related : [{ message: `where the chart renders ${dotted(p)}${chart.note ? ` (${chart.note})` : ''}`, location: chart.location }];
  return {
    ...located,
    related: [...(located.related ?? []), ...where],
    note: `the value ${dotted(match.leaf.path)} (${at.input} of Application "${origin.application}") sets ${dotted(p)} (matched by value and key; Helm keeps no line mapping)`,
  };
}
