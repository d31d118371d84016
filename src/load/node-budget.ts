// The run's memory budget: the values of every parsed document that gave objects, summed against `maxTotalNodes`.
// Each file is counted as it is parsed; a file that would pass the budget keeps none of its objects (they are let go
// at once) and becomes one `pvlint/limit` finding, so what a run holds stays bounded whatever the input. Rendered
// environments (kustomize and helm output, GitOps clusters) count against the same budget once every render is done,
// in environment order (renders finish in any order; the result must not depend on it), and so do files parse
// workers read: each worker job parses within what the run had left when it was sent.
import { formatBytes, type Limits } from './limits.js';
import { diagnostic } from '../engine/diagnostic.js';
import type { ParsedFile } from './parse-resources.js';
import type { Finding, Resource, SourceFile } from '../types.js';

export interface NodeBudget {
  limits: Limits;
  used: number;
}

/**
 * The limits for parsing the next file: its `maxTotalNodes` is what the run has left, so parsing stops inside the
 * file once the run's budget is spent (parseStream), instead of parsing the whole file first.
 */
export function remainingNodes(budget: NodeBudget): Limits {
  return { ...budget.limits, maxTotalNodes: Math.max(1, budget.limits.maxTotalNodes - budget.used) };
}

/**
 * Counts `parsed` against the budget; true (with a finding pushed to `findings`) when it does not fit. A file parsed
 * here stopped at the budget itself, at most one document past it; a file from the cache or a parse worker was
 * parsed without knowing the budget, and is refused whole when it passes it by more than that.
 */
export function overNodeBudget(parsed: ParsedFile, budget: NodeBudget, file: SourceFile, findings: Finding[]): boolean {
  if (budget.used + parsed.nodes <= budget.limits.maxTotalNodes + budget.limits.maxDocumentNodes) {
    budget.used += parsed.nodes;
    return false;
  }
  const message =
    `${file.path}: the objects parsed so far hold ${budget.used.toLocaleString('en-US')} values; this file's ` +
    `${parsed.nodes.toLocaleString('en-US')} (${formatBytes(file.text.length)}) would pass the ${budget.limits.maxTotalNodes.toLocaleString('en-US')} ` +
    'limit for one run (maxTotalNodes), so its objects are not linted';
  findings.push(diagnostic('pvlint/limit', message, { file: file.path, region: { startLine: 1, startColumn: 1, endLine: 1, endColumn: 1 } }, 'error'));
  return true;
}

/** The values of the objects' plain JSON (maps, lists and scalars each count one), counted without recursion. */
export function valuesIn(resources: readonly Resource[]): number {
  let count = 0;
  const pending: unknown[] = resources.map((r) => r.object);
  while (pending.length > 0) {
    const value = pending.pop();
    count++;
    if (Array.isArray(value)) for (const item of value) pending.push(item);
    else if (value !== null && typeof value === 'object') for (const key of Object.keys(value)) pending.push((value as Record<string, unknown>)[key]);
  }
  return count;
}

/**
 * Counts a rendered environment's objects against the budget; true (with a finding at `file`) when they do not fit,
 * and the environment is then not linted: the same rule as for a file parsed off the main thread.
 */
export function renderOverNodeBudget(name: string, resources: readonly Resource[], budget: NodeBudget, file: string, findings: Finding[]): boolean {
  const nodes = valuesIn(resources);
  if (budget.used + nodes <= budget.limits.maxTotalNodes + budget.limits.maxDocumentNodes) {
    budget.used += nodes;
    return false;
  }
  const message =
    `${name}: the objects parsed so far hold ${budget.used.toLocaleString('en-US')} values; this environment's rendered objects ` +
    `hold ${nodes.toLocaleString('en-US')}, past the ${budget.limits.maxTotalNodes.toLocaleString('en-US')} limit for one run (maxTotalNodes), so they are not linted`;
  findings.push(diagnostic('pvlint/limit', message, { file, region: { startLine: 1, startColumn: 1, endLine: 1, endColumn: 1 } }, 'error', [name]));
  return true;
}
