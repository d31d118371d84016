// The real helm for tests: `PVLINT_TEST_HELM` (what .ci/run exports after scripts/install-helm.sh), else the
// pinned binary that script installs, else helm on PATH. Tests that need it are skipped loudly without it.
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Test } from 'uvu';
import { findOnPath } from '../../src/render/executables.js';
import { requires } from './requires.js';

function installedHelm(): string | undefined {
  const cache = process.env.XDG_CACHE_HOME && path.isAbsolute(process.env.XDG_CACHE_HOME) ? process.env.XDG_CACHE_HOME : path.join(os.homedir(), '.cache');
  const candidate = path.join(cache, 'pvlint-ci', 'helm-v3.17.2', 'helm');
  return existsSync(candidate) ? candidate : undefined;
}

export const REAL_HELM: string | undefined = process.env.PVLINT_TEST_HELM || installedHelm() || findOnPath('helm');

/**
 * `test` when there is a real helm; otherwise uvu's `test.skip`, so that the summary counts the tests as skipped
 * (after one loud note naming `what` and how to get helm).
 */
export function requiresHelm(test: Test, what: string): Test | Test['skip'] {
  return requires(
    test,
    Boolean(REAL_HELM),
    what,
    'no real helm: PVLINT_TEST_HELM is not set, scripts/install-helm.sh has not run, and helm is not on PATH',
    'run scripts/install-helm.sh (.ci/run does) or set PVLINT_TEST_HELM=/path/to/helm',
  );
}
