// Discovery of every path argument with the run's settings: what lint() renders and reads, and what
// `--list-environments` lists, come from this one call.
import { discover, type DiscoveredInput } from '../load/discover.js';
import type { SourceCache } from '../render/source-cache.js';

export interface DiscoverInputsOptions {
  paths: readonly string[];
  cwd: string;
  root: string;
  cache: SourceCache;
  ignore?: readonly string[];
  followSymlinks?: boolean;
  maxFiles: number;
  /** A path with nothing to lint is not an error (the base side of `--base`). */
  allowEmpty?: boolean;
}

export async function discoverInputs(options: DiscoverInputsOptions): Promise<[string, DiscoveredInput][]> {
  const inputs: [string, DiscoveredInput][] = [];
  for (const argument of options.paths) {
    inputs.push([argument, await discover(argument, { cwd: options.cwd, ignore: options.ignore, cache: options.cache, followSymlinks: options.followSymlinks, roots: [options.root], maxFiles: options.maxFiles, allowEmpty: options.allowEmpty })]);
  }
  return inputs;
}
