// Runs a rule over multi-document YAML strings (valid: no finding; invalid: the expected findings),
// and compares fixture files' `# expect: <rule-id>` markers with findings as (rule, line) pairs.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { runRules, type RuleSetting } from '../../src/engine/run-rules.js';
import { parseResources } from '../../src/load/parse-resources.js';
import { makeSourceFile } from '../../src/load/source-file.js';
import { MODEL_KINDS, StorageModel, type ModelOptions } from '../../src/model/storage-model.js';
import { LocateStage } from '../../src/locate/locate-stage.js';
import type { Finding, RuleModule, Severity } from '../../src/types.js';

export interface ExpectedFinding {
  messageId: string;
  /** `Kind/namespace/name` as in Resource.id (namespace as written; empty when absent). */
  resource?: string;
  path?: readonly (string | number)[];
  severity?: Severity;
  line?: number;
  /** Substrings the rendered message must contain. */
  messageIncludes?: readonly string[];
}

export interface InvalidCase {
  name: string;
  code: string;
  errors: readonly ExpectedFinding[];
  options?: Record<string, unknown>;
  model?: Partial<ModelOptions>;
}

export interface ValidCase {
  name: string;
  code: string;
  options?: Record<string, unknown>;
  model?: Partial<ModelOptions>;
}

/**
 * Makes `model.ofKind(kind)` throw for a kind the rule does not declare in `meta.kinds` and the model does not index
 * (MODEL_KINDS): a lint that parses only the kinds rules declare would hand such a rule nothing.
 */
export function guardKinds(model: StorageModel, rule: RuleModule): StorageModel {
  const allowed = new Set([...rule.meta.kinds, ...MODEL_KINDS]);
  const ofKind = model.ofKind.bind(model);
  model.ofKind = (kind: string) => {
    if (!allowed.has(kind)) throw new Error(`rule ${rule.id} reads kind ${kind} without declaring it in meta.kinds`);
    return ofKind(kind);
  };
  return model;
}

export function lintText(rule: RuleModule, code: string, options?: Record<string, unknown>, model?: Partial<ModelOptions>, fileName = 'test.yaml'): Finding[] {
  const file = makeSourceFile(`/virtual/${fileName}`, fileName, code);
  const parsed = parseResources(file);
  if (parsed.diagnostics.length > 0) throw new Error(`test YAML does not parse: ${parsed.diagnostics[0].message}`);
  const setting: RuleSetting = {
    rule,
    severity: rule.meta.severity,
    severityOverridden: false,
    options: { ...(rule.meta.options?.defaults ?? {}), ...(options ?? {}) },
  };
  const result = runRules(guardKinds(new StorageModel(parsed.resources, { scope: 'test', ...model }), rule), [setting]);
  if (result.crashes.length > 0) throw new Error(result.crashes[0].message);
  // The README and `pvlint rules` list a rule's severities from its metadata: every finding must be one of them.
  const declared = new Set([rule.meta.severity, ...(rule.meta.severities ?? [])]);
  for (const finding of result.findings) {
    if (!declared.has(finding.severity)) throw new Error(`${rule.id} reported a ${finding.severity}, which its meta.severity/severities do not declare: ${finding.message}`);
  }
  return new LocateStage().findings(result.findings);
}

function describe(findings: Finding[]): string {
  return findings.map((f) => `${f.messageId}@${f.location.region.startLine}: ${f.message}`).join('\n');
}

export function ruleTester(rule: RuleModule, cases: { valid: readonly ValidCase[]; invalid: readonly InvalidCase[] }): void {
  const test = suite(`rule ${rule.id}`);
  const names = new Set<string>();
  for (const c of [...cases.valid, ...cases.invalid]) {
    if (names.has(c.name)) throw new Error(`duplicate test case name in ${rule.id}: ${c.name}`);
    names.add(c.name);
  }
  for (const c of cases.valid) {
    test(`valid: ${c.name}`, () => {
      const findings = lintText(rule, c.code, c.options, c.model);
      assert.is(findings.length, 0, `expected no finding, got:\n${describe(findings)}`);
    });
  }
  for (const c of cases.invalid) {
    test(`invalid: ${c.name}`, () => {
      assert.ok(c.errors.length > 0, 'an invalid case must expect at least one finding');
      const findings = lintText(rule, c.code, c.options, c.model);
      assert.is(findings.length, c.errors.length, `expected ${c.errors.length} finding(s), got:\n${describe(findings)}`);
      c.errors.forEach((expected, i) => {
        const actual = findings[i];
        assert.ok(expected.messageId in rule.meta.messages, `unknown messageId ${expected.messageId}`);
        assert.is(actual.messageId, expected.messageId, describe([actual]));
        if (expected.resource !== undefined) {
          const r = actual.resource!;
          assert.is(`${r.kind}/${r.namespace ?? ''}/${r.name}`, expected.resource);
        }
        if (expected.path !== undefined) assert.equal(actual.path, expected.path);
        if (expected.severity !== undefined) assert.is(actual.severity, expected.severity, describe([actual]));
        if (expected.line !== undefined) assert.is(actual.location.region.startLine, expected.line, describe([actual]));
        for (const text of expected.messageIncludes ?? []) {
          assert.ok(actual.message.includes(text), `message lacks ${JSON.stringify(text)}: ${actual.message}`);
        }
      });
    });
  }
  test.run();
}

/** `# expect: rule-a, rule-b` markers: the (rule, line) pairs a fixture file promises. */
export function expectedMarkers(text: string): string[] {
  const pairs: string[] = [];
  text.split('\n').forEach((line, i) => {
    const match = /#\s*expect:\s*([\w\-/, ]+)\s*$/.exec(line);
    if (!match) return;
    for (const id of match[1].split(',').map((s) => s.trim()).filter(Boolean)) pairs.push(`${id}@${i + 1}`);
  });
  return pairs.sort();
}

export function actualMarkers(findings: readonly Finding[], file: string): string[] {
  return findings.filter((f) => f.location.file === file).map((f) => `${f.ruleId}@${f.location.region.startLine}`).sort();
}
