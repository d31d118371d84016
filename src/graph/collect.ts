// Builds each environment's picture while lint() runs (its `onScope` hook), in the order the environments are linted.
import type { LintedScope } from '../lint.js';
import { buildEnvironmentGraph } from './build.js';
import type { EnvironmentGraph } from './model.js';

export class GraphCollector {
  readonly graphs: EnvironmentGraph[] = [];

  readonly onScope = (scope: LintedScope): void => {
    this.graphs.push(buildEnvironmentGraph(scope.model, scope.findings, { environment: scope.name, kind: scope.kind }, scope.subjectOf));
  };
}
