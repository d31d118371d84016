// Findings that come from pvlint itself (unparsable YAML, unreadable files, crashed rules, failed renders).
import type { Finding, Severity, SourceLocation } from '../types.js';
import { ownEntry } from './own-entry.js';

export const DIAGNOSTIC_FIXES: Record<string, string> = {
  'pvlint/parse': 'Fix the YAML syntax at this position; the other documents of the file are still linted.',
  'pvlint/limit':
    'Split the file or document, or exclude it with --ignore; if the input is legitimate, raise the limit the message names (README, "Limits").',
  'pvlint/shape':
    'Write the field with the type the Kubernetes API expects (the message says which). Until then pvlint lints the object as if the field were absent and reports nothing else about it.',
  'pvlint/read': 'Make the file readable (permissions, encoding) or exclude it with --ignore.',
  'pvlint/render': 'Fix the renderer error shown in the message; the other environments are still linted.',
  'pvlint/render-skipped': 'Install the renderer (helm, or kustomize/kubectl) to lint these environments too, or point pvlint at committed rendered output.',
  'pvlint/helm-release':
    'Make the chart available: map its reference to a vendored copy in .pvlint.yaml `helm.charts`, or let pvlint pull it once into the chart cache (--chart-cache) with network access.',
  'pvlint/chart-dependency':
    'Make the dependency available: map its reference to a vendored copy in .pvlint.yaml `helm.charts`, let pvlint pull it once into the chart cache (--chart-cache) with network access, or vendor it in the chart\'s charts/ directory.',
  'pvlint/rule-crash': 'This is a bug in the rule; please report it with the manifest that triggers it.',
  'pvlint/unused-suppression': 'Remove the suppression, or correct it so that it names the rule and resource it is meant for.',
};

/** Diagnostics that make the exit code 2: pvlint could not do its job for part of the input. */
export const FATAL_DIAGNOSTICS = new Set(['pvlint/render', 'pvlint/rule-crash', 'pvlint/config']);

export function diagnostic(ruleId: string, message: string, location: SourceLocation, severity: Severity = 'error', environments: string[] = []): Finding {
  return {
    ruleId,
    severity,
    messageId: ruleId.slice('pvlint/'.length),
    message,
    data: {},
    fix: ownEntry(DIAGNOSTIC_FIXES, ruleId) ?? '',
    location,
    related: [],
    environments,
  };
}
