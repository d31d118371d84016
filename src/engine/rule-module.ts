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
