// One Argo CD Application source from this repository, rendered as the repo-server would: a Helm chart
// (`helm template` with valueFiles, values/valuesObject, parameters, release name), a Kustomize root (the
// `kustomize:` overlay and argocd-cm's buildOptions) or a plain directory (recurse, include, exclude).
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fg from 'fast-glob';
import { loopFreeFs } from './link-loops.js';
import { parse, stringify } from 'yaml';
import { makeResource } from '../load/parse-resources.js';
import type { Limits } from '../load/limits.js';
import { renderChart } from '../render/helm-render.js';
import type { ChartSupply } from '../render/helm-release/obtain-chart.js';
import { kustomizationFileIn, type Kustomization } from '../render/kustomization.js';
import { renderKustomization } from '../render/kustomize-render.js';
import type { ProcessSlots } from '../render/pool.js';
import type { RenderedScope } from '../render/rendered-scope.js';
import type { SourceCache } from '../render/source-cache.js';
import { parseTargetPath } from '../render/helm-release/release-values.js';
import { parameterValue } from './argocd-helm-values.js';

export interface ArgoRenderSettings {
  kustomize?: readonly string[];
  helm?: readonly string[];
  /** argocd-cm `kustomize.buildOptions`, split into arguments. */
  buildOptions: readonly string[];
  timeoutMs: number;
  limits?: Partial<Limits>;
  memo: Map<string, Promise<RenderedScope>>;
  stats: { renders: number };
  /** Where dependencies missing from a chart's `charts/` come from (as `helm dependency build` on the repo-server). */
  charts?: ChartSupply;
  /** The run's renderer processes (see ProcessSlots). */
  slots?: ProcessSlots;
}

export type SourceType = 'helm' | 'kustomize' | 'directory';

export function sourceType(source: any, dir: string): SourceType | undefined {
  if (source?.plugin) return undefined;
  if (source?.helm || existsSync(path.join(dir, 'Chart.yaml'))) return 'helm';
  if (kustomizationFileIn(dir)) return 'kustomize';
  return 'directory';
}

/** Argo's include/exclude globs: `*`, `?`, `**` and `{a,b}`. */
function globRegex(pattern: string): RegExp {
  let out = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '*' && pattern[i + 1] === '*') {
      out += '.*';
      i++;
    } else if (c === '*') out += '[^/]*';
    else if (c === '?') out += '[^/]';
    else if (c === '{') out += '(?:';
    else if (c === '}') out += ')';
    else if (c === ',') out += '|';
    else out += c.replace(/[.+^$()|\\[\]]/g, '\\$&');
  }
  return new RegExp(`^${out}$`);
}

function renderDirectory(cache: SourceCache, dir: string, directory: any): RenderedScope {
  const scope: RenderedScope = { name: cache.displayPath(dir), renderer: 'kustomize', resources: [], documents: 0, diagnostics: [] };
  const files = fg.sync(directory?.recurse ? ['**/*.{yaml,yml,json}'] : ['*.{yaml,yml,json}'], { cwd: dir, onlyFiles: true, dot: false, suppressErrors: true, fs: loopFreeFs(dir) }).sort();
  const include = typeof directory?.include === 'string' && directory.include !== '' ? globRegex(directory.include) : undefined;
  const exclude = typeof directory?.exclude === 'string' && directory.exclude !== '' ? globRegex(directory.exclude) : undefined;
  for (const rel of files) {
    if ((include && !include.test(rel) && !include.test(path.posix.basename(rel))) || (exclude && (exclude.test(rel) || exclude.test(path.posix.basename(rel))))) continue;
    const source = cache.get(path.join(dir, rel));
    if (!source) continue;
    for (const d of source.documents) {
      scope.documents++;
      if (typeof d.object?.apiVersion === 'string' && typeof d.object?.kind === 'string') scope.resources.push(makeResource(source.file, d.docIndex, () => d.node, d.object));
    }
  }
  return scope;
}

/** Helm `--set name=value`: `a.b[0].c` paths (strvals) make nested maps and lists. */
function setParameter(values: Record<string, any>, name: string, value: unknown): void {
  const keys = parseTargetPath(name);
  if (keys.length === 0) return;
  let at: any = values;
  keys.slice(0, -1).forEach((key, i) => {
    if (at[key] === null || typeof at[key] !== 'object') at[key] = typeof keys[i + 1] === 'number' ? [] : {};
    at = at[key];
  });
  at[keys.at(-1)!] = value;
}

function kustomizeOverlay(kustomize: any, relative: (abs: string) => string, dir: string): string {
  const k = kustomize ?? {};
  const document: Record<string, unknown> = { apiVersion: 'kustomize.config.k8s.io/v1beta1', kind: 'Kustomization', resources: [relative(dir)] };
  if (typeof k.namePrefix === 'string') document.namePrefix = k.namePrefix;
  if (typeof k.nameSuffix === 'string') document.nameSuffix = k.nameSuffix;
  if (typeof k.namespace === 'string') document.namespace = k.namespace;
  if (Array.isArray(k.images)) document.images = k.images.map((image: unknown) => (typeof image === 'string' ? imageEntry(image) : image));
  if (k.commonLabels && typeof k.commonLabels === 'object') document.labels = [{ pairs: k.commonLabels, includeSelectors: true }];
  if (k.commonAnnotations && typeof k.commonAnnotations === 'object') document.commonAnnotations = k.commonAnnotations;
  if (Array.isArray(k.patches)) document.patches = k.patches;
  if (Array.isArray(k.components)) document.components = k.components.filter((c: unknown) => typeof c === 'string').map((c: string) => relative(path.resolve(dir, c)));
  document.buildMetadata = ['originAnnotations'];
  return stringify(document);
}

/** `kustomize edit set image` forms: `name=new:tag`, `name:tag`, `name@digest`. */
function imageEntry(text: string): Record<string, string> {
  const [name, replacement] = text.includes('=') ? text.split('=', 2) : [text.replace(/[:@].*$/, ''), text];
  const digest = /@(.+)$/.exec(replacement);
  const tag = /:([^:/@]+)$/.exec(replacement.replace(/@.*$/, ''));
  const newName = replacement.replace(/@.*$/, '').replace(/:[^:/]+$/, '');
  return { name, ...(newName !== name ? { newName } : {}), ...(tag ? { newTag: tag[1] } : {}), ...(digest ? { digest: digest[1] } : {}) };
}

const isGlob = (file: string) => /[*?[]/.test(file);

export interface HelmInputs {
  valueFiles: string[];
  /** values, then valuesObject (which replaces it), then parameters, as one values document. */
  inline?: Record<string, unknown>;
  release: string;
  namespace: string;
}

export function helmInputs(app: any, source: any, dir: string, root: string, refRoots: ReadonlyMap<string, string>): HelmInputs & { missing: string[] } {
  const helm = source?.helm ?? {};
  const missing: string[] = [];
  const resolve = (file: string) => {
    const ref = /^\$([^/]+)\/(.*)$/.exec(file);
    return ref ? (refRoots.has(ref[1]) ? path.join(refRoots.get(ref[1])!, ref[2]) : undefined) : file.startsWith('/') ? path.join(root, file) : path.resolve(dir, file);
  };
  const entries: string[] = (Array.isArray(helm.valueFiles) ? helm.valueFiles : []).filter((f: unknown): f is string => typeof f === 'string');
  // An entry that also matches a glob keeps its own position (reposerver ResolveValueFiles).
  const explicit = new Set(entries.filter((f) => !isGlob(f)).map(resolve).filter((f): f is string => f !== undefined));
  const valueFiles: string[] = [];
  const add = (abs: string) => {
    if (!valueFiles.includes(abs)) valueFiles.push(abs);
  };
  for (const file of entries) {
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(file)) {
      missing.push(`${file} (a URL pvlint does not fetch)`);
      continue;
    }
    const abs = resolve(file);
    if (abs && isGlob(file)) {
      // doublestar's glob, matches in lexical order; inside the repository only.
      const matches = fg.sync(path.relative(root, abs).split(path.sep).join('/'), { cwd: root, onlyFiles: true, dot: true }).sort().map((m) => path.join(root, m));
      if (matches.length === 0 && !helm.ignoreMissingValueFiles) missing.push(`${file} (matches no file)`);
      for (const match of matches) if (!explicit.has(match)) add(match);
    } else if (abs && existsSync(abs)) add(abs);
    else if (!helm.ignoreMissingValueFiles) missing.push(`${file} (not found)`);
  }
  let inline: Record<string, unknown> | undefined;
  if (helm.valuesObject && typeof helm.valuesObject === 'object') inline = structuredClone(helm.valuesObject);
  else if (typeof helm.values === 'string') {
    try {
      const parsed = parse(helm.values);
      if (parsed && typeof parsed === 'object') inline = parsed;
    } catch {
      missing.push('helm.values (does not parse)');
    }
  }
  for (const parameter of Array.isArray(helm.parameters) ? helm.parameters : []) {
    if (typeof parameter?.name !== 'string') continue;
    inline ??= {};
    setParameter(inline, parameter.name, parameterValue(parameter));
  }
  const release = typeof helm.releaseName === 'string' && helm.releaseName !== '' ? helm.releaseName : String(app?.metadata?.name ?? 'release-name');
  const namespace = typeof helm.namespace === 'string' && helm.namespace !== '' ? helm.namespace : String(app?.spec?.destination?.namespace ?? 'default');
  return { valueFiles, inline, release, namespace, missing };
}

/** Where the Application's own kustomize edits are written (argocd-kustomize-layer.ts): `key` names that place. */
export interface KustomizeLayer {
  key: string;
  layer: () => Kustomization | undefined;
}

export function renderSource(cache: SourceCache, type: SourceType, dir: string, source: any, helm: HelmInputs | undefined, settings: ArgoRenderSettings, layer?: KustomizeLayer): Promise<RenderedScope> {
  if (type === 'directory') return Promise.resolve(renderDirectory(cache, dir, source?.directory));
  // Objects of a build whose edits are written in an Application point at those lines: one render per place.
  const editedAt = type === 'kustomize' && source?.kustomize && layer ? layer.key : null;
  const key = JSON.stringify({ type, dir, kustomize: source?.kustomize ?? null, helm: helm ?? null, buildOptions: settings.buildOptions, editedAt });
  let pending = settings.memo.get(key);
  if (pending) return pending;
  settings.stats.renders++;
  if (type === 'kustomize') {
    const enableHelm = settings.buildOptions.includes('--enable-helm');
    const noRestrictor = settings.buildOptions.some((o, i, all) => /LoadRestrictionsNone|^none$/.test(o) && /load.restrictor/.test(all[i - 1] ?? o));
    pending = renderKustomization(dir, {
      command: settings.kustomize!,
      enableHelm,
      timeoutMs: settings.timeoutMs,
      cache,
      limits: settings.limits,
      loadRestrictorNone: noRestrictor,
      slots: settings.slots,
      wrapper: (relative) => kustomizeOverlay(source?.kustomize, relative, dir),
      ...(editedAt ? { outerLayer: layer!.layer } : {}),
    });
  } else if (/\{\{/.test(helm!.namespace)) {
    // helm writes the namespace into the objects (often as a YAML key position it then cannot parse): a namespace the
    // ApplicationSet template left unevaluated is not the one the cluster gets.
    const chartFile = cache.get(path.join(dir, 'Chart.yaml'));
    pending = Promise.resolve({
      name: cache.displayPath(dir),
      renderer: 'helm',
      resources: [],
      documents: 0,
      diagnostics: [],
      notInterpreted: { file: chartFile?.file.path ?? cache.displayPath(dir), line: 1, reason: `the destination namespace ${helm!.namespace} keeps a template expression pvlint does not evaluate, so the chart was not rendered` },
    });
  } else {
    pending = (async () => {
      const temp = helm!.inline ? mkdtempSync(path.join(os.tmpdir(), 'pvlint-argo-')) : undefined;
      try {
        const inlineFile = temp ? path.join(temp, 'values.yaml') : undefined;
        if (inlineFile) writeFileSync(inlineFile, stringify(helm!.inline));
        return await renderChart(dir, {
          command: settings.helm!,
          values: [...helm!.valueFiles, ...(inlineFile ? [inlineFile] : [])],
          release: helm!.release,
          namespace: helm!.namespace,
          timeoutMs: settings.timeoutMs,
          cache,
          limits: settings.limits,
          dependencies: settings.charts,
          slots: settings.slots,
        });
      } finally {
        if (temp) rmSync(temp, { recursive: true, force: true });
      }
    })();
  }
  settings.memo.set(key, pending);
  return pending;
}

export function isDirectory(abs: string): boolean {
  try {
    return statSync(abs).isDirectory();
  } catch {
    return false;
  }
}
