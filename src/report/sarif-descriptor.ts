// A rule's SARIF reportingDescriptor: what GitHub code scanning shows next to an alert and on its rule page.
// GitHub requires id, shortDescription, fullDescription and help.text, and shows help.markdown instead of
// help.text when present (research/sarif.md §1.3).
import type { Severity } from '../types.js';
import type { RuleDoc } from './rule-docs.js';

export type SarifLevel = 'error' | 'warning' | 'note';

export interface SarifReportingDescriptor {
  id: string;
  name: string;
  shortDescription: { text: string };
  fullDescription: { text: string };
  help: { text: string; markdown: string };
  defaultConfiguration: { level: SarifLevel };
  properties: {
    tags: string[];
    precision: 'very-high' | 'high';
    'problem.severity': 'error' | 'warning' | 'recommendation';
    'pvlint/catalogueId'?: string;
  };
}

// GitHub rejects or truncates longer descriptions and names.
const MAX_DESCRIPTION = 1024;
const MAX_NAME = 255;

const PROBLEM_SEVERITY = { error: 'error', warning: 'warning', note: 'recommendation' } as const;

export function sarifLevel(severity: Severity): SarifLevel {
  return severity;
}

function clamp(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** `pod-missing-pvc` → `PodMissingPvc`; `pvlint/rule-crash` → `PvlintRuleCrash`. */
export function pascalCase(id: string): string {
  return id
    .split(/[^A-Za-z0-9]+/)
    .filter((part) => part.length > 0)
    .map((part) => part[0].toUpperCase() + part.slice(1))
    .join('');
}

function escapeMarkdownLinkText(text: string): string {
  return text.replace(/[\\[\]]/g, (c) => `\\${c}`);
}

interface Section {
  title: string;
  body: string | undefined;
}

function sections(doc: RuleDoc): Section[] {
  return [
    { title: 'When it reports', body: doc.trigger },
    { title: 'When it stays silent', body: doc.exceptions },
    { title: 'How to fix', body: doc.fix },
    { title: 'Where it points', body: doc.reportsAt },
  ].filter((s) => s.body !== undefined && s.body.trim() !== '');
}

function explainLine(doc: RuleDoc): string | undefined {
  // `pvlint explain` knows rule modules only; pvlint's own diagnostics are fully described here.
  return doc.kind === 'rule' ? `Run \`pvlint explain ${doc.id}\` for the rule's full page.` : undefined;
}

function helpText(doc: RuleDoc): string {
  const parts = [doc.summary, doc.why];
  for (const s of sections(doc)) parts.push(`${s.title}: ${s.body}`);
  if (doc.references.length > 0) parts.push(['References:', ...doc.references.map((r) => `- ${r.title}: ${r.url}`)].join('\n'));
  if (doc.catalogueId) parts.push(`Catalogue entry: ${doc.catalogueId}.`);
  const explain = explainLine(doc);
  if (explain) parts.push(explain);
  return parts.join('\n\n');
}

function helpMarkdown(doc: RuleDoc): string {
  const parts = [`**${doc.summary}**`, doc.why];
  for (const s of sections(doc)) parts.push(`### ${s.title}\n\n${s.body}`);
  if (doc.references.length > 0) {
    parts.push(['### References', '', ...doc.references.map((r) => `- [${escapeMarkdownLinkText(r.title)}](${r.url})`)].join('\n'));
  }
  if (doc.catalogueId) parts.push(`Catalogue entry: ${doc.catalogueId}.`);
  const explain = explainLine(doc);
  if (explain) parts.push(explain);
  return parts.join('\n\n');
}

export function reportingDescriptor(doc: RuleDoc): SarifReportingDescriptor {
  return {
    id: doc.id,
    name: clamp(pascalCase(doc.id), MAX_NAME),
    shortDescription: { text: clamp(doc.summary, MAX_DESCRIPTION) },
    fullDescription: { text: clamp(doc.why, MAX_DESCRIPTION) },
    help: { text: helpText(doc), markdown: helpMarkdown(doc) },
    defaultConfiguration: { level: sarifLevel(doc.severity) },
    properties: {
      tags: doc.kind === 'rule' ? ['kubernetes', 'storage'] : ['pvlint-diagnostic'],
      // Diagnostics are facts about the input (it did not parse); rules reason about a cluster they cannot see.
      precision: doc.kind === 'rule' ? 'high' : 'very-high',
      'problem.severity': PROBLEM_SEVERITY[doc.severity],
      ...(doc.catalogueId ? { 'pvlint/catalogueId': doc.catalogueId } : {}),
    },
  };
}
