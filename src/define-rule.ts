// Identity helper: fixes a rule's message and option types so report() is checked against them.
import type { MessageMap } from './types.js';
import type { RuleModule } from './engine/rule-module.js';

export function defineRule<Messages extends MessageMap, Options = Record<string, never>>(
  rule: RuleModule<Messages, Options>,
): RuleModule<Messages, Options> {
  return rule;
}
