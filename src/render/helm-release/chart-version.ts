// The version a local chart (directory or archive) declares in its Chart.yaml, read once per chart: a `helm.charts`
// entry without a version maps every requested version to one vendored copy, and the user should know when they differ.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { runCommand } from '../process.js';
import { isChartArchive } from './chart-reference.js';

export async function localChartVersion(helm: readonly string[], chart: string, timeoutMs: number): Promise<string | undefined> {
  let text: string;
  if (isChartArchive(chart)) {
    const result = await runCommand([...helm, 'show', 'chart', chart], { timeoutMs });
    if (result.status !== 'ok') return undefined;
    text = result.stdout;
  } else {
    try {
      text = readFileSync(path.join(chart, 'Chart.yaml'), 'utf8');
    } catch {
      return undefined;
    }
  }
  try {
    const version = (parse(text) as { version?: unknown } | null)?.version;
    return typeof version === 'string' || typeof version === 'number' ? String(version) : undefined;
  } catch {
    return undefined;
  }
}
