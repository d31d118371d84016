// PLACEHOLDER — being written; registered so the registry compiles.
import { defineRule } from '../src/define-rule.js';

export default defineRule({
  id: 'pv-pvc-static-mismatch',
  meta: {
    severity: 'warning', kinds: ['__none__'], summary: 'TODO', why: 'TODO', trigger: 'TODO', exceptions: 'TODO', fix: 'TODO',
    reportsAt: 'TODO', references: [], messages: { todo: () => 'TODO' }, examples: { invalid: [], valid: [] },
  },
  check() {},
});
