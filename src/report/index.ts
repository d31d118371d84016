// The report formats and the one place that picks between them: adding a format means adding it here.
import type { LintResult } from '../lint.js';
import type { RuleModule } from '../types.js';
import { formatGithub } from './github.js';
import { formatJson } from './json.js';
import { formatSarif } from './sarif.js';
import { formatText } from './text.js';

export const FORMATS = ['text', 'json', 'sarif', 'github'] as const;
export type Format = (typeof FORMATS)[number];

export interface ReportContext {
  /** Every rule that could have reported (built-in and custom); SARIF describes each. */
  rules: readonly RuleModule[];
  toolVersion: string;
  /** Text only. */
  color: boolean;
  /** Text only: list errors, count the rest. */
  quiet?: boolean;
  /** SARIF fingerprints: a file's text (as on disk, BOM included) by repo-relative path; undefined if unreadable. */
  readFile: (repoRelPath: string) => string | undefined;
  /** SARIF `automationDetails.id` category. */
  category?: string;
  informationUri?: string;
}

export function formatResult(format: Format, result: LintResult, context: ReportContext): string {
  switch (format) {
    case 'text':
      return formatText(result, { color: context.color, quiet: context.quiet });
    case 'json':
      return formatJson(result, { toolVersion: context.toolVersion });
    case 'sarif':
      return formatSarif(result, context.rules, {
        toolVersion: context.toolVersion,
        readFile: context.readFile,
        category: context.category,
        informationUri: context.informationUri,
      });
    case 'github':
      return formatGithub(result);
    default: {
      const unknown: never = format;
      throw new Error(`unknown report format: ${String(unknown)}`);
    }
  }
}

export { formatGithub, formatJson, formatSarif, formatText };
export { lineHashes } from './fingerprint.js';
