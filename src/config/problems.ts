// Configuration problems as one line each: `file:line:column: /json/pointer: what was expected`. Ajv's errors are
// mapped to the YAML node they concern (the key for an unknown key, the value for a wrong value) and condensed:
// an `anyOf` or `if/then` says what it wants once instead of once per branch.
import { isMap, type Document, type Node as YamlNode } from 'yaml';
import type { ErrorObject } from 'ajv';
import { locateInNode } from '../load/locate-node.js';
import type { JsonPath, SourceFile } from '../types.js';
import { ownEntry } from '../engine/own-entry.js';
import { editDistance } from '../model/edit-distance.js';

export interface ConfigProblem {
  /** As the user can open it: relative to the working directory. */
  file: string;
  line: number;
  column: number;
  /** JSON pointer of the key concerned, when the problem is about one. */
  pointer?: string;
  message: string;
}

export class ConfigError extends Error {
  constructor(readonly problems: readonly ConfigProblem[]) {
    super(problems.map(formatProblem).join('\n'));
  }
}

export function formatProblem(problem: ConfigProblem): string {
  return `${problem.file}:${problem.line}:${problem.column}: ${problem.pointer ? `${problem.pointer}: ` : ''}${problem.message}`;
}

export function toPointer(path: JsonPath): string {
  return path.length === 0 ? '/' : `/${path.map((s) => String(s).replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}`;
}

function fromPointer(pointer: string): (string | number)[] {
  if (pointer === '' || pointer === '/') return [];
  return pointer.slice(1).split('/').map((s) => {
    const segment = s.replace(/~1/g, '/').replace(/~0/g, '~');
    return /^(0|[1-9]\d*)$/.test(segment) ? Number(segment) : segment;
  });
}

/** The configuration file's text and YAML tree, to turn paths into positions. */
export class ConfigDocument {
  constructor(
    readonly source: SourceFile,
    readonly doc: Document.Parsed,
  ) {}

  get root(): YamlNode | undefined {
    return (this.doc.contents ?? undefined) as YamlNode | undefined;
  }

  /** The YAML node at `path`, when it exists. */
  node(path: JsonPath): YamlNode | undefined {
    const node = this.doc.getIn(path, true);
    return node && typeof node === 'object' ? (node as YamlNode) : undefined;
  }

  position(path: JsonPath): { line: number; column: number } {
    const root = this.root;
    if (!root) return { line: 1, column: 1 };
    const { startLine, startColumn } = locateInNode(this.source, root, path).location.region;
    return { line: startLine, column: startColumn };
  }

  problem(path: JsonPath, message: string, pointer: JsonPath = path): ConfigProblem {
    return { file: this.source.path, ...this.position(path), pointer: toPointer(pointer), message };
  }
}

const show = (value: unknown) => JSON.stringify(value);

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  if (typeof value === 'string') return `the string ${show(value)}`;
  return `${typeof value} ${show(value)}`;
}

const ALIASES: Record<string, string> = { warn: 'warning', info: 'note', err: 'error', none: 'off', disabled: 'off' };

/** ` (did you mean "x"?)` for a near miss among `candidates`, else empty. */
export function didYouMean(value: unknown, candidates: readonly unknown[]): string {
  if (typeof value !== 'string') return '';
  const alias = ownEntry(ALIASES, value.toLowerCase());
  if (alias && candidates.includes(alias)) return ` (did you mean "${alias}"?)`;
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    if (typeof candidate !== 'string') continue;
    const distance = editDistance(value.toLowerCase(), candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best !== undefined && bestDistance <= Math.max(2, Math.floor(best.length / 4)) ? ` (did you mean "${best}"?)` : '';
}

function list(values: readonly unknown[]): string {
  return values.map((v) => (typeof v === 'string' ? v : show(v))).join(', ');
}

interface Issue {
  path: JsonPath;
  /** Where to point when it differs from `path` (a missing key points at its parent). */
  at?: JsonPath;
  message: string;
}

function describeError(error: ErrorObject, sourceText: (path: JsonPath) => string | undefined = () => undefined): Issue {
  const path = fromPointer(error.instancePath);
  const params = error.params as Record<string, any>;
  const data = error.data;
  switch (error.keyword) {
    case 'type': {
      const expected = ([] as string[]).concat(params.type).map((t) => (t === 'object' ? 'a mapping' : t === 'array' ? 'a list' : t === 'integer' ? 'an integer' : `a ${t}`));
      const written = sourceText(path) ?? show(data);
      const hint =
        params.type === 'string' && (typeof data === 'number' || typeof data === 'boolean')
          ? ` (write it in quotes, "${written}": YAML reads ${written} as a ${typeof data})`
          : params.type === 'boolean' && typeof data === 'string' && /^(yes|no|on|off|y|n)$/i.test(data)
            ? ' (write true or false)'
            : '';
      return { path, message: `expected ${expected.join(' or ')}, got ${typeName(data)}${hint}` };
    }
    case 'enum':
      return { path, message: `expected one of ${list(params.allowedValues)}; got ${show(data)}${didYouMean(data, params.allowedValues)}` };
    case 'const':
      return { path, message: `expected ${show(params.allowedValue)}; got ${show(data)}` };
    case 'additionalProperties': {
      const key = String(params.additionalProperty);
      const known = Object.keys((error.parentSchema as { properties?: object } | undefined)?.properties ?? {});
      const expected = known.length > 0 ? `; expected ${known.length === 1 ? '' : 'one of '}${known.join(', ')}` : '';
      return { path: [...path, key], message: `unknown key "${key}"${didYouMean(key, known) || expected}` };
    }
    case 'required':
      return { path: [...path, params.missingProperty], at: path, message: `missing required key "${params.missingProperty}"` };
    case 'minItems':
      return { path, message: `expected at least ${params.limit} item${params.limit === 1 ? '' : 's'}` };
    case 'maxItems':
    case 'additionalItems':
      return { path, message: `expected at most ${params.limit} item${params.limit === 1 ? '' : 's'}` };
    case 'minLength':
      return { path, message: params.limit === 1 ? 'expected a non-empty string' : `expected at least ${params.limit} characters` };
    case 'minProperties': {
      const known = Object.keys((error.parentSchema as { properties?: object } | undefined)?.properties ?? {});
      return { path, message: `expected at least one of ${known.join(', ')}` };
    }
    case 'pattern':
      if (params.pattern === '\\S') return { path, message: 'expected a non-empty text' };
      if (String(params.pattern).includes('[0-9]+\\.[0-9]+')) return { path, message: `expected a version such as "1.30"; got ${show(data)}` };
      return { path, message: `expected a string matching ${params.pattern}; got ${show(data)}` };
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return { path, message: `expected a number ${params.comparison} ${params.limit}; got ${show(data)}` };
    default:
      return { path, message: error.message ?? `fails ${error.keyword}` };
  }
}

/**
 * One issue per real problem: `if` failures are dropped (their `then` branch says what is wrong); an `anyOf`/`oneOf`
 * whose branches each miss a required key says which keys it wants; otherwise the branch that got furthest wins.
 */
function condense(errors: readonly ErrorObject[], sourceText: (path: JsonPath) => string | undefined): Issue[] {
  const describe = (error: ErrorObject) => describeError(error, sourceText);
  let remaining = errors.filter((e) => e.keyword !== 'if');
  const branching = remaining
    .filter((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf')
    .sort((a, b) => b.schemaPath.length - a.schemaPath.length);
  const replaced = new Map<ErrorObject, Issue[]>();
  for (const umbrella of branching) {
    const prefix = `${umbrella.schemaPath}/`;
    const branches = remaining.filter((e) => e.schemaPath.startsWith(prefix));
    remaining = remaining.filter((e) => e !== umbrella && !e.schemaPath.startsWith(prefix));
    let issues: Issue[];
    if (branches.length > 0 && branches.every((e) => e.keyword === 'required' && e.instancePath === umbrella.instancePath)) {
      const keys = branches.map((e) => `"${(e.params as { missingProperty: string }).missingProperty}"`);
      issues = [{ path: fromPointer(umbrella.instancePath), message: `expected ${keys.join(' or ')} (or both)` }];
    } else if (branches.length > 0) {
      // The branch whose complaints reach deepest into the value is the one the user meant.
      const byBranch = new Map<string, Issue[]>();
      for (const e of branches) {
        const branch = e.schemaPath.slice(prefix.length).split('/')[0];
        byBranch.set(branch, [...(byBranch.get(branch) ?? []), ...(replaced.get(e) ?? [describe(e)])]);
      }
      const depth = (list: Issue[]) => Math.max(...list.map((i) => i.path.length));
      issues = [...byBranch.values()].reduce((best, candidate) => (depth(candidate) > depth(best) ? candidate : best));
    } else {
      issues = [{ path: fromPointer(umbrella.instancePath), message: umbrella.message ?? 'is invalid' }];
    }
    const carrier = { ...umbrella } as ErrorObject;
    replaced.set(carrier, issues);
    remaining.push(carrier);
  }
  const issues = remaining.flatMap((e) => replaced.get(e) ?? [describe(e)]);
  const seen = new Set<string>();
  return issues.filter((issue) => {
    const key = `${toPointer(issue.path)}\u0000${issue.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Ajv errors of the value at `base` in the document, as problems at their YAML position. */
export function schemaProblems(errors: readonly ErrorObject[], document: ConfigDocument, base: JsonPath = []): ConfigProblem[] {
  const sourceText = (path: JsonPath) => {
    const range = document.node([...base, ...path])?.range;
    return range ? document.source.text.slice(range[0], range[1]) : undefined;
  };
  return condense(errors, sourceText)
    .map((issue) => document.problem([...base, ...(issue.at ?? issue.path)], issue.message, [...base, ...issue.path]))
    .sort((a, b) => a.line - b.line || a.column - b.column || (a.pointer ?? '').localeCompare(b.pointer ?? ''));
}

/** True when the document's root is a mapping (an empty file is an empty configuration). */
export function hasMappingRoot(document: ConfigDocument): boolean {
  return document.root === undefined || isMap(document.root);
}
