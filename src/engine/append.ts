// Array helpers that hold for any number of items. `target.push(...items)` and `Math.max(...items)` pass every item
// as an argument on the stack: past roughly 100,000 items (14,000 findings of a few lines each) they throw
// "Maximum call stack size exceeded".

/** Appends `items` to `target`, one by one. */
export function appendAll<T>(target: T[], items: Iterable<T>): T[] {
  for (const item of items) target.push(item);
  return target;
}

/** The largest of `values` (`-Infinity` for none), as `Math.max(...values)` without the stack. */
export function maxOf(values: Iterable<number>): number {
  let max = -Infinity;
  for (const value of values) if (value > max) max = value;
  return max;
}
