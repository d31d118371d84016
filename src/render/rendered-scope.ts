// What every renderer hands back: one environment's objects, or the reason it has none.
import type { RemovedObject } from '../model/removed-objects.js';
import type { Finding, Resource, SourceFile } from '../types.js';

export interface RenderedScope {
  /** Repo-relative path of the root or chart: the environment's name in findings. */
  name: string;
  renderer: 'kustomize' | 'helm';
  /** The rendered stream as a (virtual) file. */
  output?: SourceFile;
  resources: Resource[];
  documents: number;
  /** Render failures and parse errors of the output. */
  diagnostics: Finding[];
  /** The renderer's binary was not found: the orchestrator reports that once for all scopes. */
  missing?: boolean;
  /** The renderer was stopped (timeout, output limit): no entry of the root is to blame. */
  stopped?: boolean;
  /** Namespace for objects that set none (Helm's release namespace). */
  defaultNamespace?: string;
  /** Objects the tree declares and a patch of the tree deletes (kustomize `$patch: delete`). */
  removed?: RemovedObject[];
  /** Not rendered for want of something outside the repository (a chart dependency): listed, not an error. */
  notInterpreted?: { file: string; line: number; reason: string; chart?: { name: string; version?: string; url?: string } };
}

/** Makes renderer messages readable: the text of kubectl's klog line, without `Error:` prefixes or temp paths. */
export function cleanRendererMessage(stderr: string, replacements: readonly [string, string][] = []): string {
  let message = stderr.trim();
  const klog = /err="((?:[^"\\]|\\.)*)"/.exec(message);
  if (klog) {
    try {
      message = JSON.parse(`"${klog[1]}"`);
    } catch {
      message = klog[1];
    }
  }
  // kubectl's klog prints a multi-line error as `err=<` … `>`, each line indented by a tab.
  const block = /err=<\n([\s\S]*?)\n\s*>\s*$/.exec(message);
  if (!klog && block) message = block[1].replace(/^\t/gm, '');
  message = message.replace(/^Error: /gm, '').trim();
  for (const [from, to] of replacements) if (from) message = message.split(from).join(to);
  // Renderers chain context before the cause ("accumulating resources: … : <cause>"): a long message keeps its
  // beginning and its end, and drops the middle.
  const lines = message.split('\n').filter((line) => line.trim() !== '');
  const kept = lines.length > 8 ? [...lines.slice(0, 3), '…', ...lines.slice(-5)] : lines;
  const text = kept.join(' | ');
  return text.length > 1500 ? `${text.slice(0, 400)} … ${text.slice(-1000)}` : text || 'no error message';
}
