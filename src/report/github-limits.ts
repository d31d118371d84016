// Which findings become GitHub annotations. GitHub shows at most 10 error, 10 warning and 10 notice annotations
// per step and 50 per job (actions/toolkit docs/problem-matchers.md, "Limitations"), keeping the first ones
// printed and dropping the rest without a word. So the annotations go errors first, then warnings, then notes,
// at most the per-step limit of each kind; what does not fit is printed as plain log lines and counted in one
// last notice that says where the whole report is.
import type { Finding, Severity } from '../types.js';
import { sortFindings } from './order.js';

/** GitHub's per-step limit for each annotation kind (error, warning, notice). */
export const ANNOTATIONS_PER_KIND = 10;
/** GitHub's per-job limit over all steps: one step's annotations stay under it (3 kinds × 10 = 30). */
export const ANNOTATIONS_PER_JOB = 50;

const ORDER: readonly Severity[] = ['error', 'warning', 'note'];

export interface AnnotationPlan {
  /** Findings sent as annotations, errors first, each kind in report order. */
  annotated: Finding[];
  /** Findings past the limits, in the same order: printed as plain log lines. */
  overflow: Finding[];
}

/**
 * Splits the findings into those GitHub will show and the rest. When some do not fit, one notice slot is kept
 * for the line that says how many more there are, so the notes get one annotation fewer.
 */
export function planAnnotations(findings: readonly Finding[]): AnnotationPlan {
  const bySeverity = ORDER.map((severity) => sortFindings(findings.filter((f) => f.severity === severity)));
  const fits = bySeverity.every((list) => list.length <= ANNOTATIONS_PER_KIND);
  const annotated: Finding[] = [];
  const overflow: Finding[] = [];
  bySeverity.forEach((list, index) => {
    const limit = !fits && ORDER[index] === 'note' ? ANNOTATIONS_PER_KIND - 1 : ANNOTATIONS_PER_KIND;
    annotated.push(...list.slice(0, limit));
    overflow.push(...list.slice(limit));
  });
  return { annotated, overflow };
}
