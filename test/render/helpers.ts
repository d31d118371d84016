// Shared by the render tests: temp copies of fixtures, a probe rule that reports at chosen paths,
// and the loud skip used when kubectl (or kustomize) is not installed.
import { cpSync, mkdtempSync, realpathSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineRule } from '../../src/define-rule.js';
import type { RuleSetting } from '../../src/engine/run-rules.js';
import { findOnPath } from '../../src/render/executables.js';
import type { Finding } from '../../src/types.js';
import type { RuleModule } from '../../src/engine/rule-module.js';

/** test/fixtures in the source tree (tests run from dist/test). */
export const FIXTURES = fileURLToPath(new URL('../../../test/fixtures/', import.meta.url));

/** Copies a fixture dir into a fresh temp dir (no .git above it, so it is the repo root) and returns it. */
export function copyFixture(relative: string): string {
  const dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'pvlint-test-')));
  cpSync(path.join(FIXTURES, relative), dir, { recursive: true });
  return dir;
}

export const HAS_KUSTOMIZE = Boolean(findOnPath('kustomize') || findOnPath('kubectl'));

export function warnSkipped(what: string): void {
  if (!HAS_KUSTOMIZE) console.warn(`\n!!! SKIPPED ${what}: neither kustomize nor kubectl is on PATH, so real overlays cannot be rendered !!!\n`);
}

export interface Probe {
  kind: string;
  /** Rendered name, or a prefix of it (generated names end in a hash). */
  name: string;
  path: (string | number)[];
  /** Computes the path from the rendered object instead (e.g. the index of a volume). */
  pathOf?: (object: any) => (string | number)[] | undefined;
}

/** A rule that reports each probe's path on the matching object: it tests locating any field. */
export function probeRule(probes: readonly Probe[]): RuleModule {
  return defineRule({
    id: 'test-probe',
    meta: {
      severity: 'note',
      kinds: [],
      summary: 'test probe',
      why: '',
      trigger: '',
      exceptions: '',
      fix: '',
      reportsAt: '',
      references: [],
      messages: { probe: (d: { label: string }) => d.label },
      examples: { invalid: [], valid: [] },
    },
    check({ model, report }) {
      for (const probe of probes) {
        for (const resource of model.ofKind(probe.kind)) {
          if (!resource.name.startsWith(probe.name)) continue;
          const path = probe.pathOf?.(resource.object) ?? probe.path;
          report({ resource, path, messageId: 'probe', data: { label: `${probe.kind} ${probe.name} ${probe.path.join('.')}` } });
        }
      }
    },
  });
}

export function only(rule: RuleModule): RuleSetting[] {
  return [{ rule, severity: rule.meta.severity, severityOverridden: false, options: {} }];
}

/** `file:line` of a finding, the form the assertions use. */
export function at(finding: Finding | undefined): string {
  return finding ? `${finding.location.file}:${finding.location.region.startLine}` : '(no finding)';
}

export function findingFor(findings: readonly Finding[], label: string): Finding | undefined {
  return findings.find((f) => f.ruleId === 'test-probe' && f.message === label);
}
