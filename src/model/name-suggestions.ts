// "Did you mean" for names a reader typed by hand (claims, StorageClasses, data sources): a suggestion must look like
// a slip of the keyboard, never like a different object, so the edits allowed grow with the name's length and names
// that differ only in their digits (gp2 / gp3, data-0 / data-1, postgres-15 / postgres-16) are never offered.
import { editDistance } from './edit-distance.js';

/** How many edits still read as a typo of a name this long. */
function editsAllowed(length: number): number {
  if (length >= 8) return 2;
  if (length >= 4) return 1;
  return 0;
}

function digitsOnlyDiffer(a: string, b: string): boolean {
  return a.replace(/\d+/g, '#') === b.replace(/\d+/g, '#');
}

/**
 * The candidate at the smallest distance, when exactly one is that close; distances above `maxDistance` do not count.
 * `distance` may answer more than `maxDistance` early (see editDistance's cap).
 */
export function uniqueNearest(candidates: Iterable<string>, distance: (candidate: string) => number, maxDistance: number): string | undefined {
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  let tie = false;
  for (const candidate of candidates) {
    const d = distance(candidate);
    if (d > maxDistance) continue;
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
      tie = false;
    } else if (d === bestDistance) {
      tie = true;
    }
  }
  return tie ? undefined : best;
}

/** The one candidate `name` is most likely a typo of, or undefined when none is close or two are equally close. */
export function likelyMeant(name: string, candidates: Iterable<string>): string | undefined {
  const allowed = editsAllowed(name.length);
  const others = [...new Set(candidates)].filter((candidate) => candidate !== name && !digitsOnlyDiffer(name, candidate));
  return uniqueNearest(others, (candidate) => (candidate.toLowerCase() === name.toLowerCase() ? 0 : editDistance(name, candidate, allowed)), allowed);
}
