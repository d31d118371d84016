// Shared by the review tests: change rules run over two YAML strings, and temporary git repositories.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { parseResources } from '../../src/load/parse-resources.js';
import { makeSourceFile } from '../../src/load/source-file.js';
import { StorageModel, type ModelOptions } from '../../src/model/storage-model.js';
import type { ChangeRuleModule } from '../../src/review/change-rule.js';
import { runChangeRules } from '../../src/review/run-change-rules.js';
import { LocateStage } from '../../src/locate/locate-stage.js';
import type { Finding, Severity } from '../../src/types.js';

function model(code: string, file: string, options?: Partial<ModelOptions>): StorageModel {
  const source = makeSourceFile(`/virtual/${file}`, file, code);
  const parsed = parseResources(source);
  if (parsed.diagnostics.length > 0) throw new Error(`test YAML does not parse: ${parsed.diagnostics[0].message}`);
  return new StorageModel(parsed.resources, { scope: 'test', ...options });
}

/** Runs one change rule over (base, head) manifests: the base is `base.yaml`, the head `head.yaml`. */
export function lintChange(rule: ChangeRuleModule, base: string, head: string, options?: Partial<ModelOptions>): Finding[] {
  const result = runChangeRules(
    model(base, 'base.yaml', options),
    model(head, 'head.yaml', options),
    [{ rule, severity: rule.meta.severity, severityOverridden: false }],
    { baseRef: 'main', existsInHead: (file) => file === 'head.yaml' },
  );
  if (result.crashes.length > 0) throw new Error(result.crashes[0].message);
  return new LocateStage().findings(result.findings);
}

export interface ChangeCase {
  name: string;
  base: string;
  head: string;
  model?: Partial<ModelOptions>;
}

export interface InvalidChangeCase extends ChangeCase {
  errors: readonly { messageId: string; line?: number; severity?: Severity; path?: readonly (string | number)[]; messageIncludes?: readonly string[]; related?: readonly string[] }[];
}

const describe = (findings: readonly Finding[]) => findings.map((f) => `${f.messageId}@${f.location.region.startLine}: ${f.message}`).join('\n');

/** Like ruleTester, for change rules: valid changes report nothing, invalid ones exactly the expected findings. */
export function changeRuleTester(rule: ChangeRuleModule, cases: { valid: readonly ChangeCase[]; invalid: readonly InvalidChangeCase[] }): void {
  const test = suite(`change rule ${rule.id}`);
  for (const c of cases.valid) {
    test(`valid: ${c.name}`, () => {
      const findings = lintChange(rule, c.base, c.head, c.model);
      assert.is(findings.length, 0, `expected no finding, got:\n${describe(findings)}`);
    });
  }
  for (const c of cases.invalid) {
    test(`invalid: ${c.name}`, () => {
      const findings = lintChange(rule, c.base, c.head, c.model);
      assert.is(findings.length, c.errors.length, `expected ${c.errors.length} finding(s), got:\n${describe(findings)}`);
      c.errors.forEach((expected, i) => {
        const actual = findings[i];
        assert.ok(expected.messageId in rule.meta.messages, `unknown messageId ${expected.messageId}`);
        assert.is(actual.messageId, expected.messageId, describe([actual]));
        assert.is(actual.location.file, 'head.yaml', 'findings are located in the working tree');
        if (expected.line !== undefined) assert.is(actual.location.region.startLine, expected.line, describe([actual]));
        if (expected.severity !== undefined) assert.is(actual.severity, expected.severity, describe([actual]));
        if (expected.path !== undefined) assert.equal(actual.path, expected.path);
        for (const text of expected.messageIncludes ?? []) assert.ok(actual.message.includes(text), `message lacks ${JSON.stringify(text)}: ${actual.message}`);
        if (expected.related !== undefined) {
          assert.equal(actual.related.map((r) => `${r.location.file}:${r.location.region.startLine}`), expected.related);
        }
      });
    });
  }
  test.run();
}

/** Temporary directories of these tests: removed when the test process exits, also after a failed assertion. */
const temporary = new Set<string>();
process.once('exit', () => {
  for (const dir of temporary) rmSync(dir, { recursive: true, force: true });
});

/** A temporary directory that is removed when the tests end. */
export function tempDir(prefix: string): string {
  const dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), prefix)));
  temporary.add(dir);
  return dir;
}

/** A temporary git repository; `write` then `commit` to build history. Removed with `remove()`, or when the tests end. */
export class TempRepo {
  readonly dir: string;

  constructor() {
    this.dir = tempDir('pvlint-review-');
    this.git('init', '-q', '-b', 'main');
    this.git('config', 'user.email', 'test@example.com');
    this.git('config', 'user.name', 'test');
    this.git('config', 'commit.gpgsign', 'false');
  }

  git(...args: string[]): string {
    return execFileSync('git', args, { cwd: this.dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  }

  write(files: Record<string, string>): this {
    for (const [name, text] of Object.entries(files)) {
      const file = path.join(this.dir, name);
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, text);
    }
    return this;
  }

  delete(...names: string[]): this {
    for (const name of names) rmSync(path.join(this.dir, name), { force: true });
    return this;
  }

  commit(message: string): string {
    this.git('add', '-A');
    this.git('commit', '-q', '--allow-empty', '-m', message);
    return this.git('rev-parse', 'HEAD').trim();
  }

  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** Line (1-based) of the first line of `text` containing `needle`. */
export function lineOf(text: string, needle: string, from = 0): number {
  const index = text.indexOf(needle, from);
  if (index < 0) throw new Error(`${JSON.stringify(needle)} not in text`);
  return text.slice(0, index).split('\n').length;
}
