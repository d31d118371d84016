// `--format github` within GitHub's annotation limits (10 error, 10 warning, 10 notice per step; 50 per job:
// actions/toolkit docs/problem-matchers.md): errors first, the rest as plain log lines and one notice counting
// them; the summary counts files as the text format does. Run through the built CLI on generated manifests.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { runPvlint, tempTree } from '../helpers/spawn.js';

const limits = suite('format github: limits');

/** A Deployment mounting a claim that does not exist in its namespace (pod-missing-pvc, an error) per file. */
function missingClaim(index: number): string {
  return `apiVersion: apps/v1
kind: Deployment
metadata: {name: web${index}, namespace: shop}
spec:
  template:
    spec:
      containers: [{name: web, image: nginx, volumeMounts: [{name: d, mountPath: /d}]}]
      volumes:
        - name: d
          persistentVolumeClaim:
            claimName: data${index}
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: data${index}, namespace: other}
spec:
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 1Gi}}
`;
}

const commandOf = (line: string) => /^::(error|warning|notice)\b/.exec(line)?.[1];

limits('25 errors in 25 files: 10 annotated, 15 as plain lines, one notice that counts them; exit code 1', () => {
  const files: Record<string, string> = {};
  for (let i = 0; i < 25; i++) files[`app${String(i).padStart(2, '0')}.yaml`] = missingClaim(i);
  const dir = tempTree(files);
  const text = runPvlint(['.'], { cwd: dir });
  const run = runPvlint(['-f', 'github', '.'], { cwd: dir });
  assert.is(run.code, 1, run.stderr);
  assert.is(text.code, 1);
  const lines = run.stdout.trimEnd().split('\n');
  const commands = lines.map(commandOf);
  const errors = commands.filter((c) => c === 'error').length;
  assert.is(errors, 10, run.stdout);
  assert.ok(commands.filter((c) => c === 'warning').length <= 10);
  assert.ok(commands.filter((c) => c === 'notice').length <= 10);
  assert.ok(commands.filter(Boolean).length <= 50);
  const pvcErrors = lines.filter((l) => /^- app\d+\.yaml:\d+:\d+ error pod-missing-pvc: /.test(l));
  assert.is(pvcErrors.length, 15, run.stdout);
  // Everything annotated comes before the plain lines, errors before anything else.
  const firstPlain = lines.findIndex((l) => l.startsWith('- '));
  assert.ok(commands.slice(0, firstPlain).every((c) => c !== undefined));
  assert.is(commands.slice(0, firstPlain).findIndex((c) => c !== 'error'), commands.slice(0, firstPlain).some((c) => c !== 'error') ? 10 : -1);
  const notice = lines.at(-2)!;
  assert.match(notice, /^::notice title=pvlint::\d+ more findings not annotated: GitHub shows 10 annotations of each kind per step\./);
  const more = Number(/::(\d+) more/.exec(notice)![1]);
  assert.is(more, lines.filter((l) => l.startsWith('- ')).length);
  // The summary counts files as the text format does.
  const textFiles = /in (\d+) files?/.exec(text.stdout)![1];
  assert.match(lines.at(-1)!, new RegExp(`^pvlint: 25 errors, .* in ${textFiles} files?$`));
});

limits('few findings: every one annotated, no extra notice', () => {
  const dir = tempTree({ 'a.yaml': missingClaim(1), 'b.yaml': missingClaim(2) });
  const run = runPvlint(['-f', 'github', '.'], { cwd: dir });
  assert.is(run.code, 1);
  assert.not.match(run.stdout, /^- /m);
  assert.not.match(run.stdout, /not annotated/);
  assert.is(run.stdout.split('\n').filter((l) => l.startsWith('::error')).length, 2);
});

limits.run();
