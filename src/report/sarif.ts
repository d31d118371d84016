// SARIF 2.1.0 for GitHub code scanning (research/sarif.md §0 and §5): one run, the full rule list, repo-relative
// percent-encoded URIs under %SRCROOT%, full 1-based regions, GitHub's line-hash fingerprint, deterministic output.
import { notInterpretedNotifications } from './not-interpreted-sarif.js';
import { isRepoFile, toUri } from './sarif-uri.js';
import type { LintResult } from './lint-result.js';
import type { RuleDescription } from '../review/change-rule.js';
import type { Finding, Region, SourceLocation } from '../types.js';
import { lineHashes } from './fingerprint.js';
import { sortFindings } from './order.js';
import { DIAGNOSTIC_DOCS, ruleDoc, unknownRuleDoc, type RuleDoc } from './rule-docs.js';
import { reportingDescriptor, sarifLevel, type SarifLevel, type SarifReportingDescriptor } from './sarif-descriptor.js';

export interface SarifOptions {
  /** pvlint's version (semver), from package.json. */
  toolVersion: string;
  /** The text of a file by its repo-relative path, exactly as on disk; undefined when it cannot be read. */
  readFile: (repoRelPath: string) => string | undefined;
  /** Code scanning category; becomes `automationDetails.id = "<category>/"`. */
  category?: string;
  informationUri?: string;
}

// The schemastore URL is the one GitHub's docs use and Multitool's GH1011 accepts.
const SARIF_SCHEMA = 'https://json.schemastore.org/sarif-2.1.0.json';
const SRCROOT = '%SRCROOT%';

interface SarifPhysicalLocation {
  artifactLocation: { uri: string; uriBaseId?: string };
  region: Region;
}

interface SarifResult {
  ruleId: string;
  ruleIndex: number;
  level: SarifLevel;
  message: { text: string };
  locations: { physicalLocation: SarifPhysicalLocation }[];
  relatedLocations?: { id: number; message: { text: string }; physicalLocation: SarifPhysicalLocation }[];
  partialFingerprints?: { primaryLocationLineHash: string };
  properties: Record<string, unknown>;
}

/** SARIF and GitHub reject 0 or negative positions, and an end before the start. */
function sarifRegion(region: Region): Region {
  const startLine = Math.max(1, region.startLine);
  const startColumn = Math.max(1, region.startColumn);
  const endLine = Math.max(startLine, region.endLine);
  const endColumn = endLine === startLine ? Math.max(startColumn, region.endColumn) : Math.max(1, region.endColumn);
  return { startLine, startColumn, endLine, endColumn };
}

function physicalLocation(location: SourceLocation): SarifPhysicalLocation {
  const uri = toUri(location.file);
  return {
    artifactLocation: isRepoFile(location.file) ? { uri, uriBaseId: SRCROOT } : { uri },
    region: sarifRegion(location.region),
  };
}

/** Link text of an embedded link must escape `\`, `[` and `]` (SARIF §3.11.6). */
function escapeLinkText(text: string): string {
  return text.replace(/[\\[\]]/g, (c) => `\\${c}`);
}

function sentence(text: string): string {
  const trimmed = text.trim();
  return /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

/**
 * GitHub shows only the first sentence when space is short, so the rule's message (whose first sentence stands
 * alone) comes first; related locations become `[text](id)` links, which GitHub renders as links.
 */
function messageText(finding: Finding): string {
  const parts = [finding.message.trim() === '' ? finding.ruleId : finding.message.trim()];
  if (finding.related.length > 0) {
    const links = finding.related.map((r, i) => `[${escapeLinkText(r.message || r.location.file)}](${i + 1})`);
    parts.push(`Related: ${links.join(', ')}.`);
  }
  if (finding.note) parts.push(`Note: ${sentence(finding.note)}`);
  return parts.join(' ');
}

function resultProperties(finding: Finding): Record<string, unknown> {
  const properties: Record<string, unknown> = { 'pvlint/environments': finding.environments };
  if (finding.resource) {
    const { kind, namespace, name } = finding.resource;
    properties['pvlint/resource'] = namespace === undefined ? { kind, name } : { kind, namespace, name };
  }
  if (finding.path) properties['pvlint/path'] = finding.path;
  return properties;
}

/** Rule modules first (in the given order), then pvlint's diagnostics, then any id nobody described. */
function ruleCatalogue(rules: readonly RuleDescription[], findings: readonly Finding[]): RuleDoc[] {
  const docs: RuleDoc[] = [];
  const known = new Set<string>();
  const add = (doc: RuleDoc) => {
    if (known.has(doc.id)) return;
    known.add(doc.id);
    docs.push(doc);
  };
  for (const rule of rules) add(ruleDoc(rule));
  for (const doc of DIAGNOSTIC_DOCS) add(doc);
  const unknown = findings.filter((f) => !known.has(f.ruleId)).sort((a, b) => (a.ruleId < b.ruleId ? -1 : a.ruleId > b.ruleId ? 1 : 0));
  for (const finding of unknown) add(unknownRuleDoc(finding.ruleId, finding.severity));
  return docs;
}

export function formatSarif(result: LintResult, rules: readonly RuleDescription[], options: SarifOptions): string {
  const catalogue = ruleCatalogue(rules, result.findings);
  const descriptors: SarifReportingDescriptor[] = catalogue.map(reportingDescriptor);
  const ruleIndex = new Map(catalogue.map((doc, index) => [doc.id, index]));

  const hashesByFile = new Map<string, string[] | undefined>();
  const fingerprint = (location: SourceLocation): string | undefined => {
    if (!isRepoFile(location.file)) return undefined;
    if (!hashesByFile.has(location.file)) {
      const text = options.readFile(location.file);
      hashesByFile.set(location.file, text === undefined ? undefined : lineHashes(text));
    }
    // GitHub hashes the line the region starts on; a region past the end of the file gets none, as in upload-sarif.
    return hashesByFile.get(location.file)?.[sarifRegion(location.region).startLine - 1];
  };

  // Suppressed findings never reach this point: GitHub ignores `suppressions` and would open alerts for them
  // (codeql-action#1230), so the caller leaves them out of the result. A SARIF that keeps them for local use
  // would add `suppressions: [{ kind: 'inSource' }]` to those results and `suppressions: []` to all others
  // (SARIF §3.27.23).
  const results: SarifResult[] = sortFindings(result.findings, (f) => toUri(f.location.file)).map((finding) => {
    const hash = fingerprint(finding.location);
    return {
      ruleId: finding.ruleId,
      ruleIndex: ruleIndex.get(finding.ruleId)!,
      level: sarifLevel(finding.severity),
      message: { text: messageText(finding) },
      locations: [{ physicalLocation: physicalLocation(finding.location) }],
      ...(finding.related.length > 0
        ? {
            relatedLocations: finding.related.map((related, i) => ({
              id: i + 1,
              message: { text: related.message || related.location.file },
              physicalLocation: physicalLocation(related.location),
            })),
          }
        : {}),
      ...(hash ? { partialFingerprints: { primaryLocationLineHash: hash } } : {}),
      properties: resultProperties(finding),
    };
  });

  const category = options.category?.replace(/\/+$/, '');
  const run = {
    tool: {
      driver: {
        name: 'pvlint',
        semanticVersion: options.toolVersion,
        ...(options.informationUri ? { informationUri: options.informationUri } : {}),
        rules: descriptors,
      },
    },
    invocations: [{ executionSuccessful: !result.fatal, ...notInterpretedNotifications(result.notInterpreted) }],
    // GitHub takes the category from everything before the last `/`.
    ...(category ? { automationDetails: { id: `${category}/` } } : {}),
    // No `uri`: the root differs per machine, and SARIF §3.14.14 allows leaving it out for deterministic output.
    originalUriBaseIds: { [SRCROOT]: { description: { text: 'The root of the repository pvlint linted.' } } },
    results,
    columnKind: 'utf16CodeUnits',
  };
  return `${JSON.stringify({ version: '2.1.0', $schema: SARIF_SCHEMA, runs: [run] }, null, 2)}\n`;
}
