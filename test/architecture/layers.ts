// The one-way pipeline, lowest layer first. A file may import files of its own layer and of lower layers only, and
// no import cycle is allowed anywhere (type-only imports count: a cycle of types is still a cycle of meaning).
//
//   foundation → load → cache → model → render → discover → gitops → environments → engine → rules → locate
//     → report → pipeline → config → cli
//
// This is the flow of README's architecture section (argv → cli → discover → gitops → render → parse → model →
// engine → locate → report) read as "who may use whom": a stage uses what the stages before it produce and the
// libraries below it, never a later stage and never the code that calls it. Three places differ from the plain
// order of the flow, each because a later stage is a library of an earlier one:
// - load (reading files within the limits, splitting streams, parsing YAML into resources) is the lowest stage:
//   renderers and GitOps parse what they produce with it.
// - model (what the repository declares, in Kubernetes terms: quantities, selectors, cluster-scoped kinds, the
//   facts a cluster declares, objects an overlay removes) sits below render: renderers and GitOps speak it, and it
//   does not know how objects were produced.
// - discover (finding the Kustomize roots and charts of each argument) sits above render: it reads kustomizations
//   and charts with render's own readers, so that what discovery finds is what renders.
// The pipeline (lint(), review) calls the stages in order; the configuration and the CLI sit on top of it.
import type { Layer } from './import-graph.js';

export const LAYERS: readonly Layer[] = [
  // Shared types and leaf helpers that import nothing but these: pvlint's own findings (`pvlint/read`, `/parse`,
  // `/limit`, `/render` are made by the stage that meets the problem) and array and table helpers.
  { name: 'foundation', members: ['src/types.ts', 'src/version.ts', 'src/engine/diagnostic.ts', 'src/engine/append.ts', 'src/engine/own-entry.ts'] },
  { name: 'load', members: ['src/load/'] },
  { name: 'cache', members: ['src/cache/'] },
  { name: 'model', members: ['src/model/'] },
  { name: 'render', members: ['src/render/'] },
  { name: 'discover', members: ['src/load/discover.ts'] },
  { name: 'gitops', members: ['src/gitops/'] },
  { name: 'environments', members: ['src/environments/'] },
  // The rule engine and the APIs rules are written against: `defineRule`, `defineChangeRule` and the environment
  // pairs change rules are run over.
  { name: 'engine', members: ['src/engine/', 'src/define-rule.ts', 'src/review/change-rule.ts', 'src/review/pair.ts', 'src/review/diff.ts', 'src/review/run-change-rules.ts'] },
  { name: 'rules', members: ['rules/', 'src/registry.ts'] },
  { name: 'locate', members: ['src/locate/'] },
  // Functions of a result: the report formats, the graph picture, the rule documentation.
  { name: 'report', members: ['src/report/', 'src/graph/', 'src/docs/'] },
  // lint() and review (`--base`): run the stages in order.
  { name: 'pipeline', members: ['src/lint.ts', 'src/pipeline/', 'src/review/'] },
  { name: 'config', members: ['src/config/'] },
  { name: 'cli', members: ['src/cli/', 'src/bin.ts', 'src/index.ts'] },
];
