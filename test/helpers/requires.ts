// A test that needs a tool this machine lacks is registered as skipped (uvu counts it under "Skipped", never
// under "Passed") and says so loudly, once, with what makes it run.
import type { Test } from 'uvu';

/** A loud note that a test did not run, why, and what makes it run. */
export function warnSkipped(what: string, why: string, fix: string): void {
  const bar = '!'.repeat(100);
  console.warn(`\n${bar}\n!! SKIPPED: ${what}\n!! ${why}\n!! ${fix}\n${bar}\n`);
}

/**
 * `test` itself when `available`; otherwise uvu's `test.skip` (counted as skipped), after the loud note.
 * Usage: `requires(suite, HAS_TOOL, 'what', 'why', 'fix')('name', () => { ... })`.
 */
export function requires(test: Test, available: boolean, what: string, why: string, fix: string): Test | Test['skip'] {
  if (available) return test;
  warnSkipped(what, why, fix);
  return test.skip;
}
