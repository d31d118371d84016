// ApplicationSet generators evaluated against this repository (list, git directories, git files, and matrix and
// merge of those) and the template applied to each parameter set. The clusters generator without a selector is taken
// to list the local in-cluster only, and says so. Other generators need Argo CD's cluster state or external APIs: they
// are named as not followed. Templates: fasttemplate's `{{key}}` and goTemplate's plain field access
// (`{{ .path.basename }}`, `{{ index .path.segments 1 }}`), with sprig's `default` and `dig` (`{{ default .name (dig
// "namespace" "" .) }}`); any other expression is left as written.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { enterable, realpathOrUndefined } from './link-loops.js';
import { parse, parseAllDocuments } from 'yaml';

export type Params = Record<string, unknown>;

export interface Expansion {
  applications: any[];
  /** Generators not evaluated, each with the reason. */
  skipped: string[];
}

/** Go's path.Match: `*` and `?` do not cross `/`, `[...]` classes; no `**`. */
function pathMatch(pattern: string, name: string): boolean {
  const source = pattern.replace(/[.+^${}()|\\]/g, '\\$&').replace(/\*/g, '[^/]*').replace(/\?/g, '[^/]');
  return new RegExp(`^${source}$`).test(name);
}

/** git ls-files pathspec (Argo's default for the files generator): `*` matches `/` too. */
function pathspecMatch(pattern: string, name: string): boolean {
  const source = pattern.replace(/[.+^${}()|\\]/g, '\\$&').replace(/\*\*?/g, '.*').replace(/\?/g, '.');
  return new RegExp(`^${source}$`).test(name);
}

function walk(root: string, onDir: (rel: string) => void, onFile: (rel: string) => void): void {
  // Real paths of the directories being walked: a link back to one of them is not entered (link-loops.ts).
  const inside: string[] = [];
  const visit = (rel: string, real: string) => {
    let names: { name: string; link: boolean }[];
    try {
      names = readdirSync(path.join(root, rel), { withFileTypes: true })
        .map((entry) => ({ name: entry.name, link: entry.isSymbolicLink() }))
        .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    } catch {
      return;
    }
    inside.push(real);
    for (const { name, link } of names) {
      if (name.startsWith('.') || name === 'node_modules') continue;
      const child = rel ? `${rel}/${name}` : name;
      let info;
      try {
        info = statSync(path.join(root, child));
      } catch {
        continue;
      }
      if (info.isDirectory()) {
        const childReal = enterable(path.join(root, child), real, link, inside);
        if (childReal === undefined) continue;
        onDir(child);
        visit(child, childReal);
      } else if (info.isFile()) onFile(child);
    }
    inside.pop();
  };
  const real = realpathOrUndefined(root);
  if (real !== undefined) visit('', real);
}

const normalize = (text: string) => text.replace(/[^a-zA-Z0-9-]+/g, '-').toLowerCase();

function pathParams(dir: string, goTemplate: boolean, extra: Params = {}): Params {
  const segments = dir === '' ? [] : dir.split('/');
  const basename = segments.at(-1) ?? '';
  if (goTemplate) return { path: { path: dir, basename, basenameNormalized: normalize(basename), segments, ...extra } };
  const flat: Params = { path: dir, 'path.basename': basename, 'path.basenameNormalized': normalize(basename) };
  segments.forEach((s, i) => (flat[`path[${i}]`] = s));
  for (const [k, v] of Object.entries(extra)) flat[`path.${k}`] = v;
  return flat;
}

/** fasttemplate flattens nested keys with dots. */
function flatten(value: unknown, prefix = '', out: Params = {}): Params {
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    for (const [k, v] of Object.entries(value)) flatten(v, prefix ? `${prefix}.${k}` : k, out);
  } else if (prefix) out[prefix] = value;
  return out;
}

function gitDirectories(root: string, git: any, goTemplate: boolean): Params[] {
  const entries: any[] = Array.isArray(git.directories) ? git.directories : [];
  const dirs: string[] = [];
  walk(root, (rel) => dirs.push(rel), () => undefined);
  return dirs
    .filter((dir) => entries.some((e) => !e?.exclude && typeof e?.path === 'string' && pathMatch(e.path, dir)))
    .filter((dir) => !entries.some((e) => e?.exclude && typeof e?.path === 'string' && pathMatch(e.path, dir)))
    .map((dir) => pathParams(dir, goTemplate));
}

function gitFiles(root: string, git: any, goTemplate: boolean): Params[] {
  const entries: any[] = Array.isArray(git.files) ? git.files : [];
  const files: string[] = [];
  walk(root, () => undefined, (rel) => files.push(rel));
  const sets: Params[] = [];
  for (const file of files) {
    if (!entries.some((e) => !e?.exclude && typeof e?.path === 'string' && pathspecMatch(e.path, file))) continue;
    if (entries.some((e) => e?.exclude && typeof e?.path === 'string' && pathspecMatch(e.path, file))) continue;
    let values: unknown[] = [];
    try {
      values = parseAllDocuments(readFileSync(path.join(root, file), 'utf8')).flatMap((d) => {
        const v = d.toJS();
        return Array.isArray(v) ? v : [v];
      });
    } catch {
      continue;
    }
    const dir = path.posix.dirname(file) === '.' ? '' : path.posix.dirname(file);
    for (const value of values) {
      if (!value || typeof value !== 'object') continue;
      const own = goTemplate ? (value as Params) : flatten(value);
      sets.push({ ...own, ...pathParams(dir, goTemplate, { filename: path.posix.basename(file), filenameNormalized: normalize(path.posix.basename(file)) }) });
    }
  }
  return sets;
}

/** Terms of a goTemplate pipeline without pipes: `"text"`, `.field.path`, `.`, `(…)`, or a function name. */
function goTerms(expression: string): string[] | undefined {
  const terms: string[] = [];
  const pattern = /\s*("(?:[^"\\]|\\.)*"|\((?:[^()"]|"(?:[^"\\]|\\.)*")*\)|\.[\w.]*|[A-Za-z_]\w*)/y;
  let at = 0;
  while (at < expression.length) {
    pattern.lastIndex = at;
    const match = pattern.exec(expression);
    if (!match) return expression.slice(at).trim() === '' ? terms : undefined;
    terms.push(match[1]);
    at = pattern.lastIndex;
  }
  return terms;
}

/** One argument: a string literal, a field (`.` is the parameters), or a parenthesized call. */
function goArgument(params: Params, term: string): { value: unknown } | undefined {
  if (term.startsWith('"')) return { value: JSON.parse(term) };
  if (term.startsWith('(')) {
    const value = goCall(params, term.slice(1, -1).trim());
    return value === undefined ? undefined : { value };
  }
  if (term === '.') return { value: params };
  if (term.startsWith('.')) return { value: term.slice(1).split('.').reduce<unknown>((v, k) => (v && typeof v === 'object' ? (v as Params)[k] : undefined), params) };
  return undefined;
}

const isEmpty = (v: unknown) => v === undefined || v === null || v === '' || v === false || v === 0 || (Array.isArray(v) && v.length === 0) || (typeof v === 'object' && v !== null && Object.keys(v).length === 0);

/** sprig's `default D V` and `dig "k"… D dict`; undefined for anything else. */
function goCall(params: Params, expression: string): unknown {
  const terms = goTerms(expression);
  if (!terms || terms.length === 0) return undefined;
  const [name, ...rest] = terms;
  const args = rest.map((term) => goArgument(params, term));
  if (args.some((a) => a === undefined)) return undefined;
  const values = args.map((a) => a!.value);
  if (name === 'default' && values.length === 2) return isEmpty(values[1]) ? values[0] : values[1];
  if (name === 'dig' && values.length >= 3 && values.slice(0, -2).every((v) => typeof v === 'string')) {
    let node: unknown = values.at(-1);
    for (const key of values.slice(0, -2) as string[]) {
      if (!node || typeof node !== 'object' || !(key in (node as Params))) return values.at(-2);
      node = (node as Params)[key];
    }
    return node;
  }
  return rest.length === 0 ? goArgument(params, name)?.value : undefined;
}

function lookupGo(params: Params, expression: string): unknown {
  if (/^(default|dig)\s/.test(expression)) return goCall(params, expression);
  const field = /^\.([\w.]+)$/.exec(expression);
  const index = /^index \.([\w.]+) (\d+)$/.exec(expression);
  const walkTo = (dotted: string) => dotted.split('.').reduce<unknown>((v, k) => (v && typeof v === 'object' ? (v as Params)[k] : undefined), params);
  if (field) return walkTo(field[1]);
  if (index) {
    const list = walkTo(index[1]);
    return Array.isArray(list) ? list[Number(index[2])] : undefined;
  }
  return undefined;
}

export function renderTemplateString(text: string, params: Params, goTemplate: boolean): string {
  return text.replace(/\{\{-?\s*(.*?)\s*-?\}\}/g, (whole, expression: string) => {
    const value = goTemplate ? lookupGo(params, expression) : params[expression];
    return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? String(value) : whole;
  });
}

function renderTemplate(value: unknown, params: Params, goTemplate: boolean): unknown {
  if (typeof value === 'string') return renderTemplateString(value, params, goTemplate);
  if (Array.isArray(value)) return value.map((v) => renderTemplate(v, params, goTemplate));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, renderTemplate(v, params, goTemplate)]));
  return value;
}

/** What one generator gives: parameter sets, or why it was not evaluated; `assumed` says what was taken for granted. */
type Generated = { sets: Params[]; assumed?: string } | { skipped: string };

const generatorKind = (generator: any) => Object.keys(generator ?? {}).find((k) => k !== 'selector' && k !== 'template') ?? 'unknown';

/** The local cluster as the clusters generator lists it (applicationset/generators/cluster.go): no labels of its own. */
const IN_CLUSTER = { name: 'in-cluster', nameNormalized: 'in-cluster', server: 'https://kubernetes.default.svc', project: '', metadata: { labels: {}, annotations: {} } };

function clusterParams(clusters: any, goTemplate: boolean): Generated {
  const selector = clusters?.selector;
  if (selector && typeof selector === 'object' && Object.keys(selector).length > 0) {
    return { skipped: 'clusters generator with a selector not evaluated offline (the clusters are Argo CD cluster Secrets; the local in-cluster has no labels and never matches one)' };
  }
  const values = clusters?.values && typeof clusters.values === 'object' ? clusters.values : {};
  const params: Params = goTemplate ? { ...structuredClone(IN_CLUSTER), values } : { ...flatten(IN_CLUSTER), ...flatten(values, 'values') };
  return { sets: [params], assumed: 'clusters generator: only the local in-cluster is assumed (other clusters are Argo CD cluster Secrets, not in the repository)' };
}

/** Later values win; nested maps merge (mergo.Merge with override). */
function mergeParams(base: Params, over: Params): Params {
  const out: Params = { ...base };
  for (const [k, v] of Object.entries(over)) {
    const existing = out[k];
    out[k] = existing && typeof existing === 'object' && !Array.isArray(existing) && v && typeof v === 'object' && !Array.isArray(v) ? mergeParams(existing as Params, v as Params) : v;
  }
  return out;
}

const lookupKey = (params: Params, key: string, goTemplate: boolean) =>
  goTemplate ? key.split('.').reduce<unknown>((v, k) => (v && typeof v === 'object' ? (v as Params)[k] : undefined), params) : params[key];

/**
 * matrix (applicationset/generators/matrix.go): each set of the first child is combined with the sets the second
 * child gives when its fields are templated with that set; earlier values are kept (goTemplate: mergo.Merge without
 * override). merge (merge.go): sets of later children override base sets with equal mergeKeys; others are dropped.
 */
function combinedParams(kind: 'matrix' | 'merge', spec: any, root: string, isLocal: (repoURL: unknown) => boolean, goTemplate: boolean): Generated {
  const children: any[] = Array.isArray(spec?.generators) ? spec.generators : [];
  if (children.length < 2) return { skipped: `${kind} generator with fewer than two generators (Argo CD rejects it)` };
  const assumed: string[] = [];
  const evaluate = (child: any, params?: Params): Generated => {
    const generated = generatorParams(params ? (renderTemplate(child, params, goTemplate) as any) : child, root, isLocal, goTemplate);
    if ('assumed' in generated && generated.assumed && !assumed.includes(generated.assumed)) assumed.push(generated.assumed);
    return generated;
  };
  const first = evaluate(children[0]);
  if ('skipped' in first) return { skipped: `${kind} generator: ${first.skipped}` };
  let sets = first.sets;
  for (const child of children.slice(1)) {
    if (kind === 'matrix') {
      const next: Params[] = [];
      for (const previous of sets) {
        const generated = evaluate(child, previous);
        if ('skipped' in generated) return { skipped: `matrix generator: ${generated.skipped}` };
        for (const current of generated.sets) next.push(mergeParams(current, previous));
      }
      sets = next;
    } else {
      const generated = evaluate(child);
      if ('skipped' in generated) return { skipped: `merge generator: ${generated.skipped}` };
      const keys: string[] = Array.isArray(spec.mergeKeys) ? spec.mergeKeys.filter((k: unknown): k is string => typeof k === 'string') : [];
      const keyOf = (params: Params) => JSON.stringify(keys.map((k) => lookupKey(params, k, goTemplate) ?? null));
      const overrides = new Map<string, Params>();
      for (const params of generated.sets) if (!overrides.has(keyOf(params))) overrides.set(keyOf(params), params);
      sets = sets.map((base) => {
        const over = overrides.get(keyOf(base));
        return over ? mergeParams(base, over) : base;
      });
    }
  }
  return { sets, ...(assumed.length > 0 ? { assumed: assumed.join('; ') } : {}) };
}

function generatorParams(generator: any, root: string, isLocal: (repoURL: unknown) => boolean, goTemplate: boolean): Generated {
  const kind = generatorKind(generator);
  if (kind === 'list') {
    const elements: unknown[] = Array.isArray(generator.list?.elements) ? generator.list.elements : [];
    return { sets: elements.filter((e): e is Params => !!e && typeof e === 'object').map((e) => (goTemplate ? e : flatten(e))) };
  }
  if (kind === 'git') {
    if (!isLocal(generator.git?.repoURL)) return { skipped: `git generator on ${generator.git?.repoURL}, which is not this repository` };
    return { sets: Array.isArray(generator.git?.files) ? gitFiles(root, generator.git, goTemplate) : gitDirectories(root, generator.git, goTemplate) };
  }
  if (kind === 'clusters') return clusterParams(generator.clusters, goTemplate);
  if (kind === 'matrix' || kind === 'merge') return combinedParams(kind, generator[kind], root, isLocal, goTemplate);
  return { skipped: `${kind} generator not evaluated offline (it needs Argo CD's cluster state or an external API)` };
}

/**
 * The Applications an ApplicationSet generates from this repository. `isLocal` tells whether a generator's
 * `repoURL` is this repository.
 */
export function expandApplicationSet(appset: any, root: string, isLocal: (repoURL: unknown) => boolean): Expansion {
  const spec = appset?.spec ?? {};
  const goTemplate = spec.goTemplate === true;
  const expansion: Expansion = { applications: [], skipped: [] };
  const patch = goTemplate && typeof spec.templatePatch === 'string' ? spec.templatePatch : undefined;
  let unpatched = false;
  for (const generator of Array.isArray(spec.generators) ? spec.generators : []) {
    const generated = generatorParams(generator, root, isLocal, goTemplate);
    if ('skipped' in generated) {
      expansion.skipped.push(generated.skipped);
      continue;
    }
    if (generated.assumed) expansion.skipped.push(generated.assumed);
    // A generator's own template is merged over spec.template (applicationset/utils: mergeGeneratorTemplate).
    const own = generator?.[generatorKind(generator)]?.template;
    const template = isPlainMap(own) ? mergeParams(isPlainMap(spec.template) ? spec.template : {}, own) : (spec.template ?? {});
    for (const params of generated.sets) {
      let app = renderTemplate(template, params, goTemplate) as any;
      if (patch !== undefined) {
        const patched = applyTemplatePatch(app, renderTemplateString(patch, params, true));
        if (patched) app = patched;
        else unpatched = true;
      }
      expansion.applications.push({ apiVersion: 'argoproj.io/v1alpha1', kind: 'Application', ...app });
    }
  }
  if (unpatched) expansion.skipped.push('templatePatch keeps template actions pvlint does not evaluate (if, range, functions): the Applications were linted without it');
  return expansion;
}

const isPlainMap = (v: unknown): v is Params => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * templatePatch: a strategic-merge patch on the Application (controllers/template/patch.go); the Application's types
 * declare no list merge keys, so maps merge, lists and scalars are replaced and null removes. Undefined when the
 * rendered text still holds template actions or is not a map.
 */
function applyTemplatePatch(app: Params, text: string): Params | undefined {
  if (text.includes('{{')) return undefined;
  let patch: unknown;
  try {
    patch = parse(text);
  } catch {
    return undefined;
  }
  if (!isPlainMap(patch)) return undefined;
  const merge = (target: Params, over: Params): Params => {
    const out: Params = { ...target };
    for (const [k, v] of Object.entries(over)) {
      if (v === null) delete out[k];
      else out[k] = isPlainMap(out[k]) && isPlainMap(v) ? merge(out[k] as Params, v) : v;
    }
    return out;
  };
  return merge(app, patch);
}
