// Reports and graphs take time linear in the objects: the markdown report (which draws each environment's graph) on
// four times the claims takes about four times the CPU. Every node's label used to scan every edge, and every finding
// every node and resource: 8,000 claims took 31 s of CPU, 60,000 never finished.
import { spawnSync } from 'node:child_process';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { BIN } from '../helpers/paths.js';
import { caseDir, writeIn } from './helpers.js';

const test = suite('linear reports');

function claimsWithWorkloads(count: number): string {
  const parts: string[] = [];
  for (let i = 0; i < count; i++) {
    parts.push(
      `---\napiVersion: v1\nkind: PersistentVolumeClaim\nmetadata:\n  name: data-${i}\nspec:\n  accessModes: [ReadWriteOnce]\n  storageClassName: standard\n  resources:\n    requests:\n      storage: 1Gi\n` +
        `---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web-${i}\nspec:\n  replicas: 1\n  selector: {matchLabels: {app: web-${i}}}\n  template:\n    metadata: {labels: {app: web-${i}}}\n    spec:\n      containers: [{name: web, image: nginx}]\n      volumes: [{name: data, persistentVolumeClaim: {claimName: data-${i}}}]\n`,
    );
  }
  return parts.join('');
}

/** CPU seconds the binary spends on `args` in `dir`, measured inside the child. */
function cpuSeconds(dir: string, args: string[]): number {
  const probe = "process.on('exit', () => process.stderr.write(`cpu=${process.cpuUsage().user}\\n`))";
  const run = spawnSync(process.execPath, ['--import', `data:text/javascript,${encodeURIComponent(probe)}`, BIN, ...args], { cwd: dir, encoding: 'utf8', timeout: 180_000, maxBuffer: 256 * 1024 * 1024 });
  const cpu = Number(/cpu=(\d+)/.exec(run.stderr)?.[1]);
  assert.ok(cpu > 0, `${args.join(' ')}: ${run.stderr.slice(0, 300)}`);
  return cpu / 1e6;
}

test('the markdown report on 4× the claims takes well under 16× the CPU (linear, not quadratic)', () => {
  const dir = caseDir();
  writeIn(dir, 'small/m.yaml', claimsWithWorkloads(1_000));
  writeIn(dir, 'large/m.yaml', claimsWithWorkloads(4_000));
  // The least of three runs: a busy machine only ever adds CPU time (caches, the collector). Whole runs are
  // compared, not their report part alone: a difference of two noisy times amplified the noise past the bound on a
  // loaded machine. Linear work gives at most 4×, the quadratic report this guards against gave over 15×.
  const least = (arg: string) => Math.min(...[1, 2, 3].map(() => cpuSeconds(dir, ['--format', 'markdown', arg])));
  const small = least('small');
  const large = least('large');
  assert.ok(large / small < 8, `markdown: ${small.toFixed(2)} s of CPU for 1,000 pairs, ${large.toFixed(2)} s for 4,000`);
});

test.run();
