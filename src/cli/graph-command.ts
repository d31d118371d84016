// `pvlint graph [paths...] --format mermaid|dot|html [--focus kind/ns/name] [--output FILE]`: the CLI side. The CLI
// lints as usual with a GraphCollector on lint()'s `onScope` hook; this module checks the graph options and writes
// the picture.
import path from 'node:path';
import type { CliIO } from './io.js';
import type { LintResult } from '../report/lint-result.js';
import type { GraphCollector } from '../graph/collect.js';
import { toDot } from '../graph/dot.js';
import { focusGraph, parseFocus } from '../graph/focus.js';
import { toHtml } from '../graph/html.js';
import { toMermaid, tooLargeForGithub } from '../graph/mermaid.js';
import type { EnvironmentGraph } from '../graph/model.js';

export const GRAPH_FORMATS = ['mermaid', 'dot', 'html'] as const;
export type GraphFormat = (typeof GRAPH_FORMATS)[number];

export interface GraphOptions {
  format?: string;
  focus?: string;
  output?: string;
}

/** A usage problem with the graph options, or undefined. */
export function graphOptionsProblem(options: GraphOptions): string | undefined {
  if (options.format !== undefined && !(GRAPH_FORMATS as readonly string[]).includes(options.format)) {
    return `unknown graph format "${options.format}" (expected one of: ${GRAPH_FORMATS.join(', ')})`;
  }
  if (options.focus !== undefined && !parseFocus(options.focus)) {
    return `--focus takes kind/namespace/name or kind/name, e.g. deployment/shop/web, pvc/shop/data, sc/gp3 (got "${options.focus}")`;
  }
  return undefined;
}

/** Mermaid for several environments: one `flowchart` per environment, separated by blank lines. */
function mermaidDocument(graphs: readonly EnvironmentGraph[]): string {
  return graphs.map((graph) => toMermaid(graph, { title: true })).join('\n');
}

export function renderGraphs(graphs: readonly EnvironmentGraph[], format: GraphFormat, toolVersion: string): string {
  switch (format) {
    case 'mermaid':
      return mermaidDocument(graphs);
    case 'dot':
      return toDot(graphs);
    case 'html':
      return toHtml(graphs, { toolVersion });
    default: {
      const unknown: never = format;
      throw new Error(`unknown graph format ${String(unknown)}`);
    }
  }
}

/** Writes the picture; exit code 2 when --focus matches nothing, the output cannot be written, or linting was incomplete. */
export async function writeGraph(io: CliIO, collector: GraphCollector, options: GraphOptions, result: LintResult, toolVersion: string): Promise<number> {
  const format = (options.format ?? 'mermaid') as GraphFormat;
  let graphs = collector.graphs;
  if (options.focus !== undefined) {
    const target = parseFocus(options.focus)!;
    graphs = graphs.flatMap((graph) => {
      const focused = focusGraph(graph, target);
      return focused ? [focused] : [];
    });
    if (graphs.length === 0) {
      io.stderr(`pvlint: --focus ${options.focus}: no such object in ${collector.graphs.length === 1 ? 'the environment' : `any of the ${collector.graphs.length} environments`}\n`);
      return 2;
    }
  }
  if (format === 'mermaid') {
    for (const graph of graphs) {
      if (tooLargeForGithub(toMermaid(graph), graph)) {
        io.stderr(`pvlint: ${graph.environment}: ${graph.nodes.length} objects and ${graph.edges.length} edges are more than GitHub's Mermaid draws; use --focus, or --format html\n`);
      }
    }
  }
  const text = renderGraphs(graphs, format, toolVersion);
  if (options.output !== undefined) {
    try {
      await io.writeFile(path.resolve(io.cwd, options.output), text);
    } catch (error) {
      io.stderr(`pvlint: cannot write ${options.output}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}\n`);
      return 2;
    }
  } else {
    io.stdout(text);
  }
  // The picture is drawn from what could be read; a render failure still makes the run incomplete.
  if (result.fatal) {
    for (const finding of result.findings.filter((f) => f.ruleId === 'pvlint/render' || f.ruleId === 'pvlint/parse')) {
      io.stderr(`pvlint: ${finding.location.file}:${finding.location.region.startLine}: ${finding.message}\n`);
    }
    return 2;
  }
  return 0;
}
