// Change rules: rules that look at what a change does to an environment, not at the environment alone. They run
// with `--base <ref>` over (base, head) pairs of each environment's model, and carry the same metadata as
// per-environment rules, so `pvlint rules`, `pvlint explain`, SARIF descriptors and the docs cover them alike.
import type { StorageModel } from '../model/storage-model.js';
import type { JsonPath, MessageMap, Resource, RuleMeta, Severity } from '../types.js';

/** A change rule's documented example: the manifests at the base, and the same manifests after the change. */
export interface ChangeExample {
  base: string;
  head: string;
}

/** Per-environment rules document one manifest, change rules a (base, head) pair. */
export type RuleExample = string | ChangeExample;

export type ChangeRuleMeta<Messages extends MessageMap = MessageMap> = Omit<RuleMeta<Messages, Record<string, never>>, 'examples' | 'options'> & {
  examples: { invalid: readonly ChangeExample[]; valid: readonly ChangeExample[] };
};

/** What documentation and reports need of any rule, per-environment or change rule. */
export interface RuleDescription {
  id: string;
  meta: Omit<RuleMeta, 'examples'> & { examples: { invalid: readonly RuleExample[]; valid: readonly RuleExample[] } };
}

/** One object present in both trees of an environment, matched by kind, namespace and name. */
export interface ResourcePair {
  base: Resource;
  head: Resource;
}

/** How the objects of one environment changed between the base and the working tree. */
export interface EnvironmentChanges {
  /** Objects of this kind in both trees. */
  pairs(kind: string): readonly ResourcePair[];
  /** Objects of this kind at the base that the working tree no longer has. */
  removed(kind: string): readonly Resource[];
  /** Objects of this kind that only the working tree has. */
  added(kind: string): readonly Resource[];
  /** The head object paired with a base object, if any. */
  headOf(base: Resource): Resource | undefined;
  /** The base object paired with a head object, if any. */
  baseOf(head: Resource): Resource | undefined;
}

export interface ChangeReportDescriptor<Messages extends MessageMap = MessageMap, K extends keyof Messages = keyof Messages> {
  /** The object in the working tree the finding is about (it is located there). */
  resource: Resource;
  path: JsonPath;
  messageId: K;
  data: Parameters<Messages[K]>[0];
  severity?: Severity;
  /**
   * Extra places: objects of either tree. A base object is located in the base tree (its repo-relative path), and
   * the message says that it is the base's, and when its file no longer exists in the working tree.
   */
  related?: { resource: Resource; path: JsonPath; message: string }[];
}

export interface ChangeRuleContext<Messages extends MessageMap = MessageMap> {
  /** The environment at the base ref. */
  base: StorageModel;
  /** The same environment in the working tree. */
  head: StorageModel;
  changes: EnvironmentChanges;
  /** The ref the change is compared with, as the user gave it (e.g. `origin/main`). */
  baseRef: string;
  report<K extends keyof Messages>(descriptor: ChangeReportDescriptor<Messages, K>): void;
}

export interface ChangeRuleModule<Messages extends MessageMap = MessageMap> {
  id: string;
  /** Tells change rules apart from per-environment rules where both are listed. */
  type: 'change';
  meta: ChangeRuleMeta<Messages>;
  check(context: ChangeRuleContext<Messages>): void;
}

/** Identity helper, like defineRule: fixes the message types so report() is checked against them. */
export function defineChangeRule<Messages extends MessageMap>(rule: Omit<ChangeRuleModule<Messages>, 'type'>): ChangeRuleModule<Messages> {
  return { ...rule, type: 'change' };
}

export function isChangeRule(rule: RuleDescription | ChangeRuleModule): rule is ChangeRuleModule {
  return (rule as ChangeRuleModule).type === 'change';
}
