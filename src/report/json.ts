// The machine-readable report: a versioned document described by schemas/report.schema.json.
// Bump REPORT_SCHEMA_VERSION on any change a consumer could trip over (a renamed or removed field).
import type { LintResult } from './lint-result.js';
import type { Finding, SourceLocation } from '../types.js';
import { countSeverities, sortFindings } from './order.js';

export const REPORT_SCHEMA_VERSION = 1;

export interface JsonOptions {
  toolVersion: string;
  /** Add the `suppressed` list (the summary always counts them). */
  showSuppressed?: boolean;
  /** The CLI's configuration file as shown to the user (null: none); left out when undefined (API use). */
  configFile?: string | null;
}

function location(loc: SourceLocation) {
  const { startLine, startColumn, endLine, endColumn } = loc.region;
  return { file: loc.file, startLine, startColumn, endLine, endColumn };
}

/** Rule data in key order, so the output does not depend on the order a rule built its data object in. */
function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) out[key] = sortedKeys((value as Record<string, unknown>)[key]);
  return out;
}

function suppressedFinding(f: Finding) {
  const s = f.suppression;
  return {
    ...finding(f),
    suppression: { kind: s?.kind ?? 'config', reason: s?.reason ?? '', location: s?.location ? location(s.location) : null },
  };
}

function finding(f: Finding) {
  return {
    ruleId: f.ruleId,
    severity: f.severity,
    message: f.message,
    messageId: f.messageId,
    data: sortedKeys(f.data),
    fix: f.fix,
    location: location(f.location),
    related: f.related.map((r) => ({ message: r.message, location: location(r.location) })),
    // null rather than absent: every finding has the same keys, which keeps consumers (jq, spreadsheets) simple.
    resource: f.resource
      ? { apiVersion: f.resource.apiVersion, kind: f.resource.kind, namespace: f.resource.namespace ?? null, name: f.resource.name }
      : null,
    path: f.path ? [...f.path] : null,
    environments: [...f.environments].sort(),
    ...(f.note ? { note: f.note } : {}),
  };
}

export function formatJson(result: LintResult, options: JsonOptions): string {
  const findings = sortFindings(result.findings);
  const suppressed = sortFindings(result.suppressed ?? []);
  const document = {
    schemaVersion: REPORT_SCHEMA_VERSION,
    tool: { name: 'pvlint', version: options.toolVersion },
    summary: {
      ...countSeverities(findings),
      fatal: result.fatal,
      files: result.stats.files,
      documents: result.stats.documents,
      resources: result.stats.resources,
      environments: result.scopes.map((s) => ({ name: s.name, kind: s.kind, files: s.files, resources: s.resources })),
      suppressed: suppressed.length,
      templates: result.stats.templates ?? 0,
      templateFiles: result.templateFiles ?? [],
      ...(result.notInterpreted && result.notInterpreted.length > 0 ? { notInterpreted: result.notInterpreted.map((entry) => ({ ...entry })) } : {}),
      ...(result.review ? { review: { ...result.review } } : {}),
    },
    ...(options.configFile !== undefined ? { configuration: options.configFile === null ? null : { file: options.configFile } } : {}),
    findings: findings.map(finding),
    ...(options.showSuppressed ? { suppressed: suppressed.map(suppressedFinding) } : {}),
  };
  return `${JSON.stringify(document, null, 2)}\n`;
}
