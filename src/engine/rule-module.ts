// What a rule is to the engine: its metadata and a check over one environment's storage model. Here rather than in
// src/types.ts because it names the model, and the model is built from the types there.
import type { StorageModel } from '../model/storage-model.js';
import type { MessageMap, ReportDescriptor, RuleMeta } from '../types.js';

export interface RuleContext<Messages extends MessageMap = MessageMap, Options = Record<string, unknown>> {
  model: StorageModel;
  options: Options;
  report<K extends keyof Messages>(descriptor: ReportDescriptor<Messages, K>): void;
}

export interface RuleModule<Messages extends MessageMap = MessageMap, Options = any> {
  id: string;
  meta: RuleMeta<Messages, Options>;
  check(context: RuleContext<Messages, Options>): void;
}

/** The prose of a rule's page, in the order every projection of a rule (its docs, its data sent between threads) lists it. */
export function rulePageText(meta: Pick<RuleMeta, 'summary' | 'why' | 'trigger' | 'exceptions' | 'fix' | 'reportsAt' | 'references'>): Pick<RuleMeta, 'summary' | 'why' | 'trigger' | 'exceptions' | 'fix' | 'reportsAt' | 'references'> {
  return { summary: meta.summary, why: meta.why, trigger: meta.trigger, exceptions: meta.exceptions, fix: meta.fix, reportsAt: meta.reportsAt, references: meta.references };
}
