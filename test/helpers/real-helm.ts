// The real helm for tests: `PVLINT_TEST_HELM` (what .ci/run exports after scripts/install-helm.sh), else the
// pinned binary that script installs, else helm on PATH. Tests that need it are skipped loudly without it.
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { findOnPath } from '../../src/render/executables.js';

function installedHelm(): string | undefined {
  const cache = process.env.XDG_CACHE_HOME && path.isAbsolute(process.env.XDG_CACHE_HOME) ? process.env.XDG_CACHE_HOME : path.join(os.homedir(), '.cache');
  const candidate = path.join(cache, 'pvlint-ci', 'helm-v3.17.2', 'helm');
  return existsSync(candidate) ? candidate : undefined;
}

export const REAL_HELM: string | undefined = process.env.PVLINT_TEST_HELM || installedHelm() || findOnPath('helm');

/** True (after a loud SKIPPED banner) when there is no real helm to run `what` with. */
export function skipWithoutHelm(what: string): boolean {
  if (REAL_HELM) return false;
  const bar = '!'.repeat(100);
  console.warn(`\n${bar}\n!! SKIPPED: ${what}\n!! no real helm: PVLINT_TEST_HELM is not set, scripts/install-helm.sh has not run, and helm is not on PATH\n!! run scripts/install-helm.sh (.ci/run does) or set PVLINT_TEST_HELM=/path/to/helm\n${bar}\n`);
  return true;
}
