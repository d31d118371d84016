// The page `pvlint explain pvlint/<id>` prints for one of pvlint's own diagnostics (DIAGNOSTIC_DOCS, the one
// table of them that SARIF descriptors are made from too).
import { FATAL_DIAGNOSTICS } from '../engine/diagnostic.js';
import { DIAGNOSTIC_DOCS, type RuleDoc } from '../report/rule-docs.js';

export function findDiagnosticDoc(id: string): RuleDoc | undefined {
  return DIAGNOSTIC_DOCS.find((doc) => doc.id === id.toLowerCase());
}

export function diagnosticPageText(doc: RuleDoc): string {
  const effect = FATAL_DIAGNOSTICS.has(doc.id)
    ? 'It makes the exit code 2: pvlint could not do its job for part of the input.'
    : `It counts like any finding of its severity for --fail-level.`;
  return [
    `${doc.id} (reported by pvlint itself, not by a rule)`,
    '',
    doc.summary,
    '',
    `Severity: ${doc.severity}. ${effect}`,
    '',
    'What happened, and why',
    doc.why,
    '',
    'How to fix it',
    doc.fix,
    '',
  ].join('\n');
}
