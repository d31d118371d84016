// Names chosen by a repository's author reach the output escaped: a file named like a workflow command stays text
// in the GitHub Actions log, and terminal escapes in names are shown, not obeyed.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { runPvlint } from '../helpers/spawn.js';
import { caseDir, writeIn } from './helpers.js';

const test = suite('hostile names in output');

const CLAIM = (name: string) => `apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata:\n  name: ${JSON.stringify(name)}\nspec:\n  accessModes: [ReadWriteOnce]\n  resources:\n    requests:\n      storage: 1Xi\n`;

test('a file named like a workflow command, an object named with OSC/ANSI escapes: no command, no escape', () => {
  const dir = caseDir();
  writeIn(dir, '::error file=README.md,line=1::x.yaml', CLAIM('\u001b]0;pwned\u0007\u001b[2Jclaim'));
  for (const format of ['text', 'github']) {
    const run = runPvlint(['--format', format, '.'], { cwd: dir, env: { FORCE_COLOR: '0' } });
    assert.is(run.code, 1, run.stderr);
    const lines = run.stdout.split('\n');
    const commands = lines.filter((line) => /^\s*(::|##\[)/.test(line));
    for (const command of commands) {
      // Only pvlint's own annotations, whose file property is escaped.
      assert.ok(/^::(error|warning|notice) file=[^,:]*%3A%3Aerror file=README.md%2Cline=1%3A%3Ax.yaml,|^::(error|warning|notice) (file=good.yaml,|title=)/.test(command), `${format}: ${command}`);
    }
    if (format === 'text') assert.is(commands.length, 0, 'the text report prints no workflow command');
    assert.not.ok(/\u001b|\u0007/.test(run.stdout), `${format}: a raw escape reached the output`);
    assert.ok(run.stdout.includes('\\x1b]0;pwned\\x07'), `${format}: the escape is shown as text`);
  }
});

test.run();
