// Type erasure of custom rule files: every erasable TypeScript construct becomes spaces (lines and columns of the
// rest stay where they were, and the result runs as JavaScript); syntax with runtime meaning is refused with its
// line and column.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { eraseTypes } from '../../src/config/erase-types.js';

const test = suite('erase-types');

async function erase(source: string): Promise<string> {
  const result = await eraseTypes(source);
  if ('problems' in result) throw new Error(result.problems.map((p) => `${p.line}:${p.column} ${p.message}`).join('\n'));
  return result.code;
}

/** Runs erased code as an ES module and returns its exports. */
async function run(code: string): Promise<Record<string, unknown>> {
  return import(`data:text/javascript;base64,${Buffer.from(code).toString('base64')}`);
}

function assertSameShape(source: string, code: string): void {
  assert.is(code.length, source.length, 'erasure changes the length');
  assert.equal(code.split('\n').map((l) => l.length), source.split('\n').map((l) => l.length), 'erasure moves lines');
}

const CASES: { name: string; source: string; expect: Record<string, unknown>; absent?: RegExp }[] = [
  {
    name: 'annotations on variables, parameters and return types; optional parameters',
    source: 'export const n: number = 1;\nexport function f(a: string, b?: number): string { return a + (b ?? 0); }\nexport const r = f("x");\n',
    expect: { n: 1, r: 'x0' },
    absent: /:\s*(number|string)|b\?/,
  },
  {
    name: 'interfaces, type aliases, export type, import type and type-only specifiers',
    source:
      "import type { X } from 'nowhere';\nimport { type Y } from 'nowhere-either';\ninterface A { a: number }\ntype B = A | null;\n" +
      'export type { B };\nexport interface C extends A {}\nexport const ok = true;\n',
    expect: { ok: true },
    absent: /interface|type |import/,
  },
  {
    name: 'as, satisfies, angle-bracket assertions and non-null',
    source: 'const o = { a: 1 } satisfies Record<string, number>;\nconst v = (o as any).a as number;\nconst w = (<number>v)!;\nexport const out = [v, w, o.a!];\n',
    expect: { out: [1, 1, 1] },
    absent: /satisfies|as |<number>|!/,
  },
  {
    name: 'generics on functions, calls, classes and arrows',
    source:
      'function id<T>(x: T): T { return x; }\nconst m = new Map<string, number>([["a", 2]]);\nclass Box<T> { constructor(readonly_: T) { this.v = readonly_; } v: T; }\n' +
      'const pick = <T,>(xs: T[]): T => xs[0];\nexport const got = [id<number>(1), m.get("a"), new Box<number>(3).v, pick<string>(["p"])];\n',
    expect: { got: [1, 2, 3, 'p'] },
  },
  {
    name: 'class members: modifiers, optional and definite fields, declare, abstract, index signatures, overloads, implements',
    source: [
      'interface I { go(): number }',
      'abstract class Base { abstract name(): string; protected readonly base = 1; }',
      'export class K extends Base implements I {',
      '  [key: string]: unknown;',
      '  private count?: number;',
      '  declare tag: string;',
      '  public total!: number;',
      '  override name(): string { return "k"; }',
      '  go(): number;',
      '  go(x?: number): number { return (x ?? 2) + this.base; }',
      '}',
      'let late!: number;',
      'late = 5;',
      'export const res = [new K().go(), new K().name(), late];',
      '',
    ].join('\n'),
    expect: { res: [3, 'k', 5] },
  },
  {
    name: 'declare statements, this parameters and a return type spanning lines on an arrow',
    source: [
      'declare const injected: number;',
      'declare function ambient(): void;',
      'declare module "m" { export const z: number; }',
      'declare global { interface Window { q: 1 } }',
      'function self(this: { k: number }, add: number) { return this.k + add; }',
      'const arrow = (a: number): {',
      '  doubled: number;',
      '} => ({ doubled: a * 2 });',
      'export const values = [self.call({ k: 1 }, 2), arrow(4).doubled];',
      '',
    ].join('\n'),
    expect: { values: [3, 8] },
  },
];

for (const c of CASES) {
  test(`erases ${c.name}`, async () => {
    const code = await erase(c.source);
    assertSameShape(c.source, code);
    if (c.absent) assert.not.match(code, c.absent);
    const exports = await run(code);
    for (const [key, value] of Object.entries(c.expect)) assert.equal(exports[key], value, key);
  });
}

test('a value keeps its line and column after erasure', async () => {
  const source = 'const a: Record<string, number> = {};\nexport const marker = "here";\n';
  const code = await erase(source);
  assert.is(code.indexOf('"here"'), source.indexOf('"here"'));
});

const REFUSED: { name: string; source: string; line: number; column: number; message: RegExp }[] = [
  { name: 'an enum', source: 'const a = 1;\n\nenum Tier { Gold, Silver }\n', line: 3, column: 1, message: /enum Tier: enums have runtime meaning/ },
  { name: 'a const enum', source: 'export const enum E { A }\n', line: 1, column: 8, message: /enums have runtime meaning/ },
  { name: 'a namespace', source: '\nnamespace N { export const x = 1; }\n', line: 2, column: 1, message: /namespaces have runtime meaning/ },
  { name: 'a parameter property', source: 'class C {\n  constructor(private x: number) {}\n}\n', line: 2, column: 15, message: /parameter properties/ },
  { name: 'a decorator', source: 'function d(t: unknown) { return t; }\n@d\nclass C {}\n', line: 2, column: 1, message: /decorators have runtime meaning/ },
  { name: 'import = require', source: "import fs = require('fs');\n", line: 1, column: 1, message: /import x = require/ },
  { name: 'export =', source: 'const x = 1;\nexport = x;\n', line: 2, column: 1, message: /export =/ },
  { name: 'a syntax error', source: 'const x: = 1;\n', line: 1, column: 10, message: /syntax error/ },
];

for (const c of REFUSED) {
  test(`refuses ${c.name} with its line and column`, async () => {
    const result = await eraseTypes(c.source);
    assert.ok('problems' in result, 'expected a problem');
    if (!('problems' in result)) return;
    const [problem] = result.problems;
    assert.match(problem.message, c.message);
    assert.is(`${problem.line}:${problem.column}`, `${c.line}:${c.column}`, problem.message);
  });
}

test.run();
