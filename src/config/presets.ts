// The rule sets a configuration `extends`: `all` is every rule at its default severity, and the default (without a
// configuration too), so that adding a configuration never silently drops a rule. `recommended`, which `pvlint init`
// writes, leaves out the notes below: they fire on common setups that are often intentional and would bury the
// findings that break pods. Custom rules are in both. Enable any rule in `rules:`.
import type { RuleSetting } from '../engine/run-rules.js';
import type { RuleModule } from '../engine/rule-module.js';

export type Preset = 'recommended' | 'all';

/**
 * Built-in rules outside `recommended`, with why: notes that fire on setups most repos have on purpose, or that the
 * repo cannot decide. An id here that is not a built-in rule has no effect.
 */
export const OUTSIDE_RECOMMENDED: Readonly<Record<string, string>> = {
  // R10: on managed clusters the default StorageClass comes with the cluster, so every claim without a class fires
  // until the default class is declared (cluster.storageClasses with default: true) or shipped.
  'pvc-classless-without-default': 'fires on every classless claim when the default class lives in the cluster, not the repo',
  // R29: subPath mounts of ConfigMaps and Secrets are usually deliberate (one file into a directory), and whether a
  // subPath directory already exists cannot be read from YAML.
  'subpath-pitfalls': 'advisory: subPath mounts are usually deliberate, and the YAML cannot show what the app needs',
};

export function inPreset(rule: RuleModule, preset: Preset): boolean {
  return preset === 'all' || !(rule.id in OUTSIDE_RECOMMENDED);
}

/** The rules of a preset at their default severity and options. */
export function presetSettings(rules: readonly RuleModule[], preset: Preset): RuleSetting[] {
  return rules.filter((rule) => inPreset(rule, preset)).map((rule) => ({
    rule,
    severity: rule.meta.severity,
    severityOverridden: false,
    options: rule.meta.options?.defaults ?? {},
  }));
}
