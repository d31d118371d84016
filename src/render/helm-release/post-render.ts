// Flux's `postRenderers[].kustomize` (patches, images, and the older patchesStrategicMerge / patchesJson6902),
// applied in order with the real kustomize: the rendered stream becomes the one resource of a kustomization per
// post-renderer.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { stringify } from 'yaml';
import { runCommand } from '../process.js';
import { cleanRendererMessage } from '../rendered-scope.js';

const KUSTOMIZE_FIELDS = ['patches', 'images', 'patchesStrategicMerge', 'patchesJson6902'] as const;

/** The kustomize post-renderers of a HelmRelease spec, in order (other post-renderer kinds do not exist). */
export function kustomizePostRenderers(spec: any): Record<string, unknown>[] {
  const list: unknown[] = Array.isArray(spec?.postRenderers) ? spec.postRenderers : [];
  return list.flatMap((entry: any) => {
    const k = entry?.kustomize;
    if (!k || typeof k !== 'object') return [];
    const fields = Object.fromEntries(KUSTOMIZE_FIELDS.filter((f) => Array.isArray(k[f]) && k[f].length > 0).map((f) => [f, k[f]]));
    return Object.keys(fields).length > 0 ? [fields] : [];
  });
}

export type PostRenderResult = { ok: true; text: string } | { ok: false; error: string };

export async function postRender(text: string, renderers: readonly Record<string, unknown>[], kustomize: readonly string[] | undefined, timeoutMs: number, maxOutputBytes: number): Promise<PostRenderResult> {
  if (renderers.length === 0) return { ok: true, text };
  if (!kustomize) return { ok: false, error: 'neither kustomize nor kubectl is installed, so its postRenderers were not applied' };
  let current = text;
  for (const fields of renderers) {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'pvlint-postrender-'));
    try {
      writeFileSync(path.join(dir, 'helm-output.yaml'), current);
      writeFileSync(path.join(dir, 'kustomization.yaml'), stringify({ apiVersion: 'kustomize.config.k8s.io/v1beta1', kind: 'Kustomization', resources: ['helm-output.yaml'], ...fields }));
      const result = await runCommand([...kustomize, dir], { timeoutMs, maxOutputBytes });
      if (result.status !== 'ok') return { ok: false, error: `its postRenderers failed in kustomize: ${cleanRendererMessage(result.stderr, [[`${dir}/`, '']])}` };
      current = result.stdout;
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return { ok: true, text: current };
}
