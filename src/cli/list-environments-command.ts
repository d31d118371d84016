// `pvlint --list-environments [--format json] [paths...]`.
import { LocateStage } from '../locate/locate-stage.js';
import { UsageError } from '../load/discover.js';
import type { Limits } from '../load/limits.js';
import type { Format } from '../report/index.js';
import { environmentsJson, environmentsText, listEnvironments } from '../environments/list-environments.js';
import type { CliIO } from './io.js';

import type { GitopsOptions } from '../gitops/gitops-options.js';

export interface ListEnvironmentsRequest {
  format: Format;
  paths: readonly string[];
  ignore: readonly string[];
  followSymlinks?: boolean;
  limits?: Partial<Limits>;
  gitops?: GitopsOptions;
}

export async function listEnvironmentsCommand(io: CliIO, request: ListEnvironmentsRequest): Promise<number> {
  const usage = (message: string) => {
    io.stderr(`pvlint: ${message}\nRun 'pvlint --help' for usage.\n`);
    return 2;
  };
  if (request.format !== 'text' && request.format !== 'json') return usage("--list-environments prints text or json");
  let environments;
  try {
    environments = await listEnvironments({ paths: request.paths, cwd: io.cwd, ignore: request.ignore, followSymlinks: request.followSymlinks, limits: request.limits, gitops: request.gitops, locateAt: new LocateStage().at });
  } catch (error) {
    if (error instanceof UsageError) return usage(error.message);
    throw error;
  }
  io.stdout(request.format === 'json' ? environmentsJson(environments) : environmentsText(environments));
  return 0;
}
