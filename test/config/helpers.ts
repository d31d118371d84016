// Temp repos for configuration tests: a `.git` directory bounds the upward search for `.pvlint.yaml`, as in a
// real checkout, so a stray configuration above the temp directory never applies.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { tempTree } from '../helpers/spawn.js';
import { ConfigError, formatProblem } from '../../src/config/problems.js';
import { readConfig, type ResolvedConfig } from '../../src/config/resolve-config.js';

export function repo(files: Record<string, string>): string {
  const dir = tempTree(files);
  mkdirSync(path.join(dir, '.git'));
  return dir;
}

/** The problem lines of an invalid configuration (fails the test when it is valid). */
export async function configProblems(dir: string, file = '.pvlint.yaml'): Promise<string[]> {
  try {
    await readConfig(path.join(dir, file), dir);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems.map(formatProblem);
    throw error;
  }
  throw new Error('the configuration was accepted');
}

export async function resolved(dir: string, file = '.pvlint.yaml'): Promise<ResolvedConfig> {
  return readConfig(path.join(dir, file), dir);
}

export const PVC = (name: string, namespace: string, storageClass?: string, extra = '') => `---
apiVersion: v1
kind: PersistentVolumeClaim
metadata:
  name: ${name}
  namespace: ${namespace}${extra}
spec:${storageClass === undefined ? '' : `\n  storageClassName: ${storageClass}`}
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 1Gi}}
`;

/** A rule file (TypeScript) reporting every PVC; `body` replaces the check's loop body. */
export const TS_RULE = (id: string, body = "report({ resource: pvc, path: ['metadata', 'name'], messageId: 'seen', data: { name: pvc.name } });") => `import { defineRule, type Resource } from 'pvlint';

const messages = { seen: (d: { name: string }): string => \`claim \${d.name} seen\` };

export default defineRule<typeof messages, Record<string, never>>({
  id: '${id}',
  meta: {
    severity: 'warning',
    kinds: ['PersistentVolumeClaim'],
    summary: 'Reports every claim.',
    why: 'test', trigger: 'any claim', exceptions: '', fix: 'none', reportsAt: 'metadata.name',
    references: [], messages, examples: { invalid: [], valid: [] },
  },
  check({ model, report }) {
    for (const pvc of model.ofKind('PersistentVolumeClaim') as readonly Resource[]) {
      ${body}
    }
  },
});
`;
