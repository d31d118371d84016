// `helm template` of one release (chart, release name, namespace, values) as a reusable step: HelmReleases, Argo CD
// helm sources and anything else that names a chart and values call it. A values schema that references URLs which
// cannot be fetched (offline) is skipped with `--skip-schema-validation`, and the caller is told so.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { formatBytes } from '../../load/limits.js';
import { runCommand } from '../process.js';
import { cleanRendererMessage } from '../rendered-scope.js';

export interface TemplateRequest {
  helm: readonly string[];
  /** Chart directory or archive. */
  chart: string;
  release: string;
  namespace: string;
  values: Record<string, unknown>;
  /** `install.disableSchemaValidation`: skip from the start. */
  skipSchemaValidation?: boolean;
  timeoutMs: number;
  maxOutputBytes: number;
}

export type TemplateResult =
  | { ok: true; text: string; schemaSkipped: boolean }
  | { ok: false; error: string; missing?: boolean };

/** The schema failed only because a referenced schema could not be fetched, not because the values break it. */
export function isUnfetchableSchema(stderr: string): boolean {
  return /values don't meet the specifications of the schema/.test(stderr) && /(Get "https?:|no such host|dial tcp|connection refused|i\/o timeout|failed to (?:load|fetch|retrieve))/i.test(stderr);
}

export async function templateChart(request: TemplateRequest): Promise<TemplateResult> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pvlint-values-'));
  try {
    const valuesFile = path.join(dir, 'values.json');
    writeFileSync(valuesFile, JSON.stringify(request.values));
    const run = (skip: boolean) => runCommand(
      [...request.helm, 'template', request.release, request.chart, '--namespace', request.namespace, '--values', valuesFile, '--skip-tests', ...(skip ? ['--skip-schema-validation'] : [])],
      { timeoutMs: request.timeoutMs, maxOutputBytes: request.maxOutputBytes, cwd: dir },
    );
    let schemaSkipped = request.skipSchemaValidation === true;
    let result = await run(schemaSkipped);
    if (result.status === 'failed' && !schemaSkipped && isUnfetchableSchema(result.stderr)) {
      schemaSkipped = true;
      result = await run(true);
    }
    if (result.status === 'missing') return { ok: false, error: 'helm is not installed', missing: true };
    if (result.status === 'too-large') return { ok: false, error: `helm template printed more than ${formatBytes(request.maxOutputBytes)} and was stopped (maxRenderOutputBytes)` };
    if (result.status === 'timeout') return { ok: false, error: `helm template did not finish within ${request.timeoutMs / 1000} s (--render-timeout)` };
    if (result.status !== 'ok') return { ok: false, error: `helm template failed: ${cleanRendererMessage(result.stderr, [[`${dir}/`, '']])}` };
    return { ok: true, text: result.stdout, schemaSkipped };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
