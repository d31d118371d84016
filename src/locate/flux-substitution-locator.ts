// A field of an object after Flux's postBuild substitution: a value that came from a variable points at the line that
// defines the variable, with the `${VAR}` placeholder as related location; every other path is located as in the
// object before substitution (which has an origin of its own, kustomize's most often).
import type { SubstitutionSource } from '../gitops/substituted-resource.js';
import type { LocateContext } from './locator.js';
import type { JsonPath, Located, Resource } from '../types.js';

function startsWith(p: JsonPath, prefix: JsonPath): boolean {
  return prefix.length <= p.length && prefix.every((segment, i) => segment === p[i]);
}

export function locateSubstituted(origin: SubstitutionSource, _resource: Resource, p: JsonPath, context: LocateContext): Located {
  const { original, values, sources, unknownSources } = origin;
  const placeholder = context.at(original, p);
  const value = values.find((v) => startsWith(p, v.path));
  if (!value) return placeholder;
  const defined = value.expansions.filter((e) => e.outcome === 'variable' && sources.has(e.variable));
  if (defined.length === 0) {
    const defaulted = value.expansions.find((e) => e.outcome === 'default');
    if (!defaulted) return placeholder;
    const unset = unknownSources
      ? `the repository sets no variable ${defaulted.variable} (a substituteFrom source pvlint cannot read may set it in the cluster)`
      : `no postBuild variable ${defaulted.variable} is set`;
    return { ...placeholder, note: `the value is the default of ${defaulted.text}: ${unset}` };
  }
  const definedAt = (variable: string) => {
    const where = sources.get(variable)!.definedAt;
    return context.at(where.resource, where.path);
  };
  const [first, ...others] = defined;
  const at = definedAt(first.variable);
  return {
    location: at.location,
    related: [
      { message: `${first.text} is substituted here (variable from ${sources.get(first.variable)!.label})`, location: placeholder.location },
      ...others.map((e) => ({ message: `${e.text} is defined here (${sources.get(e.variable)!.label})`, location: definedAt(e.variable).location })),
    ],
    ...(at.note ? { note: at.note } : {}),
  };
}
