// A small repository on disk, linted for real, so the reporters see what lint() produces: rule findings with
// related locations, a YAML syntax error, a path that needs percent-encoding, and standard input.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { lint, type LintResult } from '../../src/lint.js';
import { defaultRuleSettings } from '../../src/registry.js';

export const APP_YAML = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: shop
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
        - name: web
          image: nginx
      volumes:
        - name: data
          persistentVolumeClaim:
            claimName: data
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata:
  name: data
  namespace: default
spec:
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 1Gi}}
`;

export const POD_YAML = `apiVersion: v1
kind: Pod
metadata:
  name: worker
  namespace: jobs
spec:
  containers: [{name: w, image: busybox}]
  volumes:
    - name: scratch
      persistentVolumeClaim: {claimName: scratch}
`;

export const BROKEN_YAML = `apiVersion: v1
kind: PersistentVolumeClaim
metadata:
  name: settings
spec:
  accessModes: [unclosed
`;

export const STDIN_YAML = `apiVersion: v1
kind: Pod
metadata: {name: cli, namespace: tools}
spec:
  containers: [{name: c, image: busybox}]
  volumes: [{name: d, persistentVolumeClaim: {claimName: cache}}]
`;

export const FILES: Record<string, string> = {
  'deploy/app.yaml': APP_YAML,
  'deploy/my app/pod.yaml': POD_YAML,
  'broken.yaml': BROKEN_YAML,
};

export interface Fixture {
  root: string;
  result: LintResult;
  /** What the CLI passes to the SARIF reporter: the file's text as on disk. */
  readFile: (repoRelPath: string) => string | undefined;
  cleanup: () => void;
}

export async function lintFixture(options: { stdin?: boolean; files?: Record<string, string> } = {}): Promise<Fixture> {
  const root = mkdtempSync(path.join(os.tmpdir(), 'pvlint-report-'));
  // A .git directory makes the temp dir the repo root, whatever encloses os.tmpdir().
  mkdirSync(path.join(root, '.git'));
  for (const [file, text] of Object.entries(options.files ?? FILES)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  }
  const result = await lint({
    paths: options.stdin ? ['.', '-'] : ['.'],
    cwd: root,
    stdin: options.stdin ? STDIN_YAML : undefined,
    // One rule keeps the reporters' expectations independent of rules added later.
    rules: defaultRuleSettings().filter((setting) => setting.rule.id === 'pod-missing-pvc'),
  });
  return {
    root,
    result,
    readFile: (repoRelPath) => {
      try {
        return readFileSync(path.join(root, repoRelPath), 'utf8');
      } catch {
        return undefined;
      }
    },
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  };
}
