// Reads one kustomization (kustomization.yaml|yml|Kustomization) and classifies the paths it refers to.
// Discovery uses the references to find entry points and patch files; locators use the nodes for lines.
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { isMap, isScalar, isSeq, type Node as YamlNode } from 'yaml';
import { firstMapDocument, type CachedSource, type SourceCache } from './source-cache.js';

export const KUSTOMIZATION_FILES = ['kustomization.yaml', 'kustomization.yml', 'Kustomization'] as const;

export interface Entry {
  /** The text as written. */
  value: string;
  node: YamlNode;
  /** Absolute path for local entries; undefined for remote ones (URLs, git). */
  abs?: string;
  type: 'file' | 'kustomization' | 'directory' | 'remote' | 'missing';
}

export interface Kustomization {
  dir: string;
  source: CachedSource;
  /** The map node of the kustomization document. */
  root: YamlNode;
  data: any;
  isComponent: boolean;
  /** `resources` and the deprecated `bases`, in order. */
  resources: Entry[];
  components: Entry[];
}

/** The kustomization file of a directory, if it has exactly the names kustomize looks for. */
export function kustomizationFileIn(dir: string): string | undefined {
  for (const name of KUSTOMIZATION_FILES) {
    const candidate = path.join(dir, name);
    try {
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // try the next name
    }
  }
  return undefined;
}

const REMOTE = /^(?:[a-z][a-z0-9+.-]*:\/\/|git@|github\.com\/|gitlab\.com\/|bitbucket\.org\/)|\?ref=|\/\/.*\?|\.git(?:\/\/|$)/i;

function classifyEntry(dir: string, value: string, node: YamlNode): Entry {
  if (REMOTE.test(value)) return { value, node, type: 'remote' };
  const abs = path.resolve(dir, value);
  try {
    const info = statSync(abs);
    if (info.isDirectory()) return { value, node, abs, type: kustomizationFileIn(abs) ? 'kustomization' : 'directory' };
    return { value, node, abs, type: 'file' };
  } catch {
    return { value, node, abs, type: 'missing' };
  }
}

function stringEntries(dir: string, root: YamlNode, key: string): Entry[] {
  if (!isMap(root)) return [];
  const list = root.get(key, true) as YamlNode | undefined;
  if (!list || !isSeq(list)) return [];
  const entries: Entry[] = [];
  for (const item of list.items) {
    if (isScalar(item) && typeof item.value === 'string') entries.push(classifyEntry(dir, item.value, item as YamlNode));
  }
  return entries;
}

export function loadKustomization(cache: SourceCache, dir: string): Kustomization | undefined {
  return cache.remember(`kustomization:${dir}`, () => {
    const file = kustomizationFileIn(dir);
    if (!file) return undefined;
    const source = cache.get(file);
    const document = firstMapDocument(source);
    if (!source || !document) return undefined;
    const root = document.node;
    return {
      dir,
      source,
      root,
      data: document.object,
      isComponent: document.object.kind === 'Component',
      resources: [...stringEntries(dir, root, 'resources'), ...stringEntries(dir, root, 'bases')],
      components: stringEntries(dir, root, 'components'),
    };
  });
}

/** Kustomization directories this one builds on: resources, bases, components, and generator/transformer dirs. */
export function includedKustomizations(k: Kustomization): string[] {
  const dirs = [...k.resources, ...k.components];
  for (const key of ['generators', 'transformers', 'validators']) dirs.push(...stringEntries(k.dir, k.root, key));
  return dirs.filter((e) => e.type === 'kustomization').map((e) => e.abs!);
}

/**
 * Every local file the kustomization reads (resources, patches, generator inputs, configurations...), so
 * that discovery does not lint them again as loose manifests. Inline patches are strings, not paths; a
 * string that does not name an existing file is skipped.
 */
export function referencedFiles(k: Kustomization): string[] {
  const files = new Set<string>([k.source.file.absPath]);
  const addPath = (value: unknown) => {
    if (typeof value !== 'string' || value.includes('\n')) return;
    const abs = path.resolve(k.dir, value);
    if (existsSync(abs)) files.add(abs);
  };
  const data = k.data ?? {};
  const each = (key: string, fn: (item: any) => void) => {
    if (Array.isArray(data[key])) for (const item of data[key]) fn(item);
  };
  for (const entry of [...k.resources, ...k.components]) if (entry.type === 'file') files.add(entry.abs!);
  for (const key of ['crds', 'configurations', 'generators', 'transformers', 'validators', 'patchesStrategicMerge']) each(key, addPath);
  for (const key of ['patches', 'patchesJson6902', 'replacements']) each(key, (item) => addPath(item?.path));
  for (const key of ['configMapGenerator', 'secretGenerator']) {
    each(key, (item) => {
      for (const f of Array.isArray(item?.files) ? item.files : []) addPath(typeof f === 'string' ? f.replace(/^[^=]*=/, '') : f);
      for (const f of Array.isArray(item?.envs) ? item.envs : []) addPath(f);
      addPath(item?.env);
    });
  }
  each('helmCharts', (item) => {
    addPath(item?.valuesFile);
    for (const f of Array.isArray(item?.additionalValuesFiles) ? item.additionalValuesFiles : []) addPath(f);
  });
  addPath(data.openapi?.path);
  return [...files];
}

/** Where kustomize's helmCharts look for vendored charts; charts there are inputs, not entry points. */
export function helmChartHome(k: Kustomization): string | undefined {
  const data = k.data ?? {};
  if (!Array.isArray(data.helmCharts) || data.helmCharts.length === 0) return undefined;
  return path.resolve(k.dir, typeof data.helmGlobals?.chartHome === 'string' ? data.helmGlobals.chartHome : 'charts');
}
