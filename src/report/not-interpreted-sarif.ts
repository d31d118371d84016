// SARIF `invocations[].toolExecutionNotifications` for what was read but not interpreted (SARIF 2.1.0
// §3.20.21, §3.58): one `warning`-level notification each, at the object's file and line.
import type { NotInterpreted } from '../gitops/not-interpreted.js';
import { isRepoFile, toUri } from './sarif-uri.js';

export function notInterpretedNotifications(entries: readonly NotInterpreted[] | undefined): { toolExecutionNotifications?: unknown[] } {
  if (!entries || entries.length === 0) return {};
  return {
    toolExecutionNotifications: entries.map((entry) => ({
      level: 'warning',
      descriptor: { id: 'pvlint/not-interpreted' },
      message: { text: `${entry.environment}: ${entry.kind} ${entry.name} was not interpreted: ${entry.reason}` },
      locations: [
        {
          physicalLocation: {
            artifactLocation: isRepoFile(entry.file) ? { uri: toUri(entry.file), uriBaseId: '%SRCROOT%' } : { uri: toUri(entry.file) },
            ...(entry.line ? { region: { startLine: entry.line } } : {}),
          },
        },
      ],
      properties: { environment: entry.environment, kind: entry.kind, name: entry.name, ...(entry.key ? { key: entry.key } : {}), ...(entry.chart ? { chart: entry.chart } : {}) },
    })),
  };
}
