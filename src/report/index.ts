// The report formats and the one place that picks between them: adding a format means adding it here.
import type { LintResult } from './lint-result.js';
import type { EnvironmentGraph } from '../graph/model.js';
import type { RuleDescription } from '../review/change-rule.js';
import { formatGithub } from './github.js';
import { formatJson } from './json.js';
import { formatMarkdown } from './markdown.js';
import { formatSarif } from './sarif.js';
import { formatText } from './text.js';

export const FORMATS = ['text', 'json', 'sarif', 'github', 'markdown'] as const;
export type Format = (typeof FORMATS)[number];

export interface ReportContext {
  /** Every rule that could have reported (built-in and custom); SARIF describes each. */
  rules: readonly RuleDescription[];
  toolVersion: string;
  /** Text only. */
  color: boolean;
  /** Text only: list errors, count the rest. */
  quiet?: boolean;
  /** Text and JSON: list suppressed findings (always counted; never in SARIF). */
  showSuppressed?: boolean;
  /** SARIF fingerprints: a file's text (as on disk, BOM included) by repo-relative path; undefined if unreadable. */
  readFile: (repoRelPath: string) => string | undefined;
  /** SARIF `automationDetails.id` category. */
  category?: string;
  informationUri?: string;
  /** Markdown: each environment's storage picture, drawn as Mermaid (the CLI collects them while linting). */
  graphs?: readonly EnvironmentGraph[];
  /** JSON: the configuration file that applied (null: none; undefined: not known, as for API callers). */
  configFile?: string | null;
}

export function formatResult(format: Format, result: LintResult, context: ReportContext): string {
  switch (format) {
    case 'text':
      return formatText(result, { color: context.color, quiet: context.quiet, showSuppressed: context.showSuppressed });
    case 'json':
      return formatJson(result, { toolVersion: context.toolVersion, showSuppressed: context.showSuppressed, configFile: context.configFile });
    case 'sarif':
      return formatSarif(result, context.rules, {
        toolVersion: context.toolVersion,
        readFile: context.readFile,
        category: context.category,
        informationUri: context.informationUri,
      });
    case 'github':
      return formatGithub(result);
    case 'markdown':
      return formatMarkdown(result, { graphs: context.graphs });
    default: {
      const unknown: never = format;
      throw new Error(`unknown report format: ${String(unknown)}`);
    }
  }
}

export { formatGithub, formatJson, formatMarkdown, formatSarif, formatText };
export { lineHashes } from './fingerprint.js';
