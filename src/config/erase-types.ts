// Turns a TypeScript module into JavaScript by erasing its type syntax, using the typescript-estree AST.
// Erased text becomes spaces (line breaks stay), so every line and column of the output is the one in the
// .ts file and a stack trace points at the source. Syntax that has runtime meaning in TypeScript (enums,
// namespaces, parameter properties, decorators, `import x = require()`, `export =`) cannot be erased and is
// reported with its position.
//
// Not TypeScript's `transpileModule`: it prints a new module (`interface A {}` and its line are gone, so every line
// and column after it moves) and compiles an enum into a function instead of refusing it, even with
// `erasableSyntaxOnly` (a checker error, which transpileModule does not run). Node's own type stripping
// (`module.stripTypeScriptTypes`) keeps positions the same way, but needs Node 22.13 and pvlint runs on Node 20.
import type { TSESTree } from '@typescript-eslint/typescript-estree';

type Node = TSESTree.Node;
type Token = TSESTree.Token;

export interface EraseProblem {
  /** 1-based. */
  line: number;
  /** 1-based. */
  column: number;
  message: string;
}

export type EraseResult = { code: string } | { problems: EraseProblem[] };

const MODIFIERS = new Set(['public', 'private', 'protected', 'readonly', 'override', 'declare', 'abstract']);

let estree: typeof import('@typescript-eslint/typescript-estree') | undefined;

/** typescript-estree pulls in the TypeScript compiler: load it only when a .ts rule file is met. */
export async function loadParser(): Promise<typeof import('@typescript-eslint/typescript-estree')> {
  if (!estree) {
    (await import('./pinned-typescript.js')).pinTypescript();
    estree = await import('@typescript-eslint/typescript-estree');
  }
  return estree;
}

function isNode(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string' && Array.isArray((value as { range?: unknown }).range);
}

class Eraser {
  private readonly chars: string[];
  readonly problems: EraseProblem[] = [];

  constructor(
    private readonly source: string,
    private readonly tokens: readonly Token[],
    private readonly lineStarts: readonly number[],
  ) {
    // UTF-16 code units, as the AST's ranges count them.
    this.chars = source.split('');
  }

  output(): string {
    return this.chars.join('');
  }

  /** Blanks [start, end) but keeps line breaks, so positions after it do not move. */
  erase(start: number, end: number): void {
    for (let i = start; i < end; i++) {
      const c = this.chars[i];
      if (c !== '\n' && c !== '\r') this.chars[i] = ' ';
    }
  }

  eraseNode(node: Node | TSESTree.Token): void {
    this.erase(node.range[0], node.range[1]);
  }

  /**
   * Blanks a whole statement and leaves `;` (an empty statement) in its place. A type-only statement ends the one
   * before it (`type T = string` then `;(x as any).y`, or an `interface` line before `(f as any)()`): without the
   * `;`, the code before and after would run together (`{a: 1}(x).y`).
   */
  eraseStatement(node: Node): void {
    this.eraseNode(node);
    this.chars[node.range[0]] = ';';
  }

  position(offset: number): { line: number; column: number } {
    let low = 0;
    let high = this.lineStarts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (this.lineStarts[mid] <= offset) low = mid;
      else high = mid - 1;
    }
    return { line: low + 1, column: offset - this.lineStarts[low] + 1 };
  }

  problem(node: { range: [number, number] }, message: string): void {
    this.problems.push({ ...this.position(node.range[0]), message });
  }

  /** Tokens that start inside [start, end). */
  tokensIn(start: number, end: number): Token[] {
    let low = 0;
    let high = this.tokens.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (this.tokens[mid].range[0] < start) low = mid + 1;
      else high = mid;
    }
    const out: Token[] = [];
    for (let i = low; i < this.tokens.length && this.tokens[i].range[0] < end; i++) out.push(this.tokens[i]);
    return out;
  }

  tokenBefore(offset: number): Token | undefined {
    let found: Token | undefined;
    for (const token of this.tokens) {
      if (token.range[1] <= offset) found = token;
      else break;
    }
    return found;
  }

  tokenAfter(offset: number): Token | undefined {
    return this.tokens.find((token) => token.range[0] >= offset);
  }

  /** Blanks the `?` or `!` written after a name (an optional or definite marker), looking no further than `limit`. */
  eraseMark(offset: number, limit: number, mark: '?' | '!'): void {
    const token = this.tokensIn(offset, limit).find((t) => t.value === mark);
    if (token) this.eraseNode(token);
  }

  /** TypeScript-only modifiers (`private`, `readonly`, ...) written before a member's key. */
  eraseModifiers(start: number, keyStart: number): void {
    for (const token of this.tokensIn(start, keyStart)) {
      if ((token.type === 'Keyword' || token.type === 'Identifier') && MODIFIERS.has(token.value)) this.eraseNode(token);
    }
  }

  /** Erases one specifier of an import/export list together with the comma that separates it. */
  eraseListItem(item: Node): void {
    const after = this.tokenAfter(item.range[1]);
    if (after && after.value === ',') {
      this.erase(item.range[0], after.range[1]);
      return;
    }
    const before = this.tokenBefore(item.range[0]);
    if (before && before.value === ',') this.erase(before.range[0], item.range[1]);
    else this.eraseNode(item);
  }

  visit(node: Node, parent: Node | undefined): void {
    if (this.handle(node, parent)) return;
    for (const [key, value] of Object.entries(node)) {
      if (key === 'parent' || key === 'range' || key === 'loc') continue;
      if (Array.isArray(value)) {
        for (const item of value) if (isNode(item)) this.visit(item, node);
      } else if (isNode(value)) {
        this.visit(value, node);
      }
    }
  }

  /** Returns true when the node was dealt with entirely (erased or rejected): its children are not visited. */
  private handle(node: Node, parent: Node | undefined): boolean {
    const decorated = (node as { decorators?: Node[] }).decorators;
    if (Array.isArray(decorated) && decorated.length > 0) {
      this.problem(decorated[0], 'decorators have runtime meaning and cannot be erased; use a plain function call');
      return true;
    }
    switch (node.type) {
      case 'TSTypeAnnotation':
      case 'TSTypeParameterDeclaration':
      case 'TSTypeParameterInstantiation':
      case 'TSIndexSignature':
      case 'TSAbstractMethodDefinition':
      case 'TSAbstractPropertyDefinition':
      case 'TSAbstractAccessorProperty':
        this.eraseNode(node);
        return true;
      case 'TSInterfaceDeclaration':
      case 'TSTypeAliasDeclaration':
      case 'TSDeclareFunction':
        this.eraseStatement(node);
        return true;
      case 'TSEnumDeclaration':
        if (node.declare) {
          this.eraseNode(node);
          return true;
        }
        this.problem(node, `enum ${node.id.name}: enums have runtime meaning in TypeScript and cannot be erased; use a const object (\`const ${node.id.name} = { ... } as const\`) or a union of string literals`);
        return true;
      case 'TSModuleDeclaration':
        if (node.declare || node.kind === 'global') {
          this.eraseNode(node);
          return true;
        }
        this.problem(node, 'namespaces have runtime meaning in TypeScript and cannot be erased; use an ES module or a plain object');
        return true;
      case 'TSParameterProperty':
        this.problem(node, 'parameter properties (`constructor(private x: T)`) have runtime meaning and cannot be erased; declare the field and assign it in the constructor');
        return true;
      case 'TSImportEqualsDeclaration':
        if (node.importKind === 'type') {
          this.eraseNode(node);
          return true;
        }
        this.problem(node, '`import x = require(...)` cannot be erased; use `import x from "..."`');
        return true;
      case 'TSExportAssignment':
        this.problem(node, '`export =` cannot be erased; use `export default`');
        return true;
      case 'TSAsExpression':
      case 'TSSatisfiesExpression':
        this.visit(node.expression, node);
        this.erase(node.expression.range[1], node.range[1]);
        return true;
      case 'TSTypeAssertion':
        // `<T>value`: the old assertion syntax. Blank `<T>`, keep the value.
        this.erase(node.range[0], node.expression.range[0]);
        this.visit(node.expression, node);
        return true;
      case 'TSNonNullExpression':
        this.visit(node.expression, node);
        this.erase(node.range[1] - 1, node.range[1]);
        return true;
      case 'TSInstantiationExpression':
        this.visit(node.expression, node);
        this.eraseNode(node.typeArguments);
        return true;
      case 'ImportDeclaration':
        return this.handleImport(node);
      case 'ExportNamedDeclaration':
        return this.handleExport(node);
      case 'ExportAllDeclaration':
        if (node.exportKind === 'type') {
          this.eraseStatement(node);
          return true;
        }
        return false;
      case 'ExportDefaultDeclaration':
        if (node.declaration.type === 'TSInterfaceDeclaration' || node.declaration.type === 'TSDeclareFunction') {
          this.eraseStatement(node);
          return true;
        }
        return false;
      case 'VariableDeclaration':
        if (node.declare) {
          this.eraseStatement(node);
          return true;
        }
        return false;
      case 'VariableDeclarator':
        if (node.definite) this.eraseMark(node.id.range[0], node.id.typeAnnotation?.range[0] ?? node.id.range[1], '!');
        return false;
      case 'ClassDeclaration':
      case 'ClassExpression':
        return this.handleClass(node);
      case 'PropertyDefinition':
      case 'AccessorProperty':
        if (node.declare) {
          this.eraseNode(node);
          return true;
        }
        this.eraseModifiers(node.range[0], node.key.range[0]);
        {
          const limit = node.typeAnnotation?.range[0] ?? node.value?.range[0] ?? node.range[1];
          if (node.optional) this.eraseMark(node.key.range[1], limit, '?');
          if (node.definite) this.eraseMark(node.key.range[1], limit, '!');
        }
        return false;
      case 'MethodDefinition':
        if (node.value.type === 'TSEmptyBodyFunctionExpression') {
          // An overload signature: only the implementation remains.
          this.eraseNode(node);
          return true;
        }
        this.eraseModifiers(node.range[0], node.key.range[0]);
        if (node.optional) this.eraseMark(node.key.range[1], node.value.range[0] + 1, '?');
        return false;
      case 'Identifier':
        if (node.optional && parent && isFunctionLike(parent)) this.eraseMark(node.range[0], node.typeAnnotation?.range[0] ?? node.range[1], '?');
        return false;
      case 'FunctionDeclaration':
      case 'FunctionExpression':
      case 'ArrowFunctionExpression':
        return this.handleFunction(node);
      default:
        return false;
    }
  }

  private handleImport(node: TSESTree.ImportDeclaration): boolean {
    if (node.importKind === 'type') {
      this.eraseNode(node);
      return true;
    }
    const typeOnly = node.specifiers.filter((s) => s.type === 'ImportSpecifier' && s.importKind === 'type');
    if (typeOnly.length === 0) return false;
    // As TypeScript elides it: an import left with nothing but type specifiers goes entirely.
    if (typeOnly.length === node.specifiers.length) {
      this.eraseNode(node);
      return true;
    }
    for (const specifier of typeOnly) this.eraseListItem(specifier);
    return true;
  }

  private handleExport(node: TSESTree.ExportNamedDeclaration): boolean {
    if (node.exportKind === 'type') {
      this.eraseStatement(node);
      return true;
    }
    const declaration = node.declaration;
    if (declaration) {
      const erasable =
        declaration.type === 'TSInterfaceDeclaration' || declaration.type === 'TSTypeAliasDeclaration' || declaration.type === 'TSDeclareFunction' ||
        ((declaration.type === 'VariableDeclaration' || declaration.type === 'ClassDeclaration') && declaration.declare) ||
        ((declaration.type === 'TSEnumDeclaration' || declaration.type === 'TSModuleDeclaration') && declaration.declare);
      if (erasable) {
        this.eraseStatement(node);
        return true;
      }
      return false;
    }
    const typeOnly = node.specifiers.filter((s) => s.exportKind === 'type');
    if (typeOnly.length === 0) return false;
    if (typeOnly.length === node.specifiers.length) {
      this.eraseNode(node);
      return true;
    }
    for (const specifier of typeOnly) this.eraseListItem(specifier);
    return true;
  }

  private handleClass(node: TSESTree.ClassDeclaration | TSESTree.ClassExpression): boolean {
    if (node.declare) {
      this.eraseNode(node);
      return true;
    }
    const classKeyword = this.tokensIn(node.range[0], node.body.range[0]).find((t) => t.value === 'class');
    if (node.abstract && classKeyword) this.eraseModifiers(node.range[0], classKeyword.range[0]);
    if (node.implements.length > 0) {
      const last = node.implements[node.implements.length - 1];
      const keyword = this.tokensIn(node.range[0], node.implements[0].range[0]).reverse().find((t) => t.value === 'implements');
      this.erase(keyword ? keyword.range[0] : node.implements[0].range[0], last.range[1]);
    }
    if (node.typeParameters) this.eraseNode(node.typeParameters);
    if (node.superTypeArguments) this.eraseNode(node.superTypeArguments);
    if (node.superClass) this.visit(node.superClass, node);
    this.visit(node.body, node);
    return true;
  }

  private handleFunction(node: TSESTree.FunctionDeclaration | TSESTree.FunctionExpression | TSESTree.ArrowFunctionExpression): boolean {
    // `function f(this: Window, ...)`: the `this` parameter only exists for the type checker.
    const first = node.params[0];
    if (first && first.type === 'Identifier' && first.name === 'this') this.eraseListItem(first);
    if (node.type !== 'ArrowFunctionExpression' || !node.returnType) return false;
    const returnType = node.returnType;
    const text = this.source.slice(returnType.range[0], returnType.range[1]);
    const close = this.tokenBefore(returnType.range[0]);
    this.eraseNode(returnType);
    // No line break may stand between an arrow's parameters and `=>`: when the erased return type spans lines,
    // move the closing parenthesis to the end of the erased text (a line break inside the parentheses is fine).
    if (/[\r\n]/.test(text) && close && close.value === ')') {
      this.erase(close.range[0], close.range[1]);
      this.chars[returnType.range[1] - 1] = ')';
    }
    if (node.typeParameters) this.eraseNode(node.typeParameters);
    for (const param of node.params) if (param !== first || first.type !== 'Identifier' || first.name !== 'this') this.visit(param, node);
    this.visit(node.body, node);
    return true;
  }
}

function isFunctionLike(node: Node): boolean {
  return (
    node.type === 'FunctionDeclaration' || node.type === 'FunctionExpression' || node.type === 'ArrowFunctionExpression' ||
    node.type === 'TSEmptyBodyFunctionExpression' || node.type === 'TSDeclareFunction'
  );
}

function lineStartsOf(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === '\n') starts.push(i + 1);
  return starts;
}

/** Erases the types of a TypeScript module; `problems` lists syntax that cannot be erased (or does not parse). */
export async function eraseTypes(source: string): Promise<EraseResult> {
  const { parse } = await loadParser();
  let ast: TSESTree.Program;
  try {
    ast = parse(source, { range: true, loc: false, tokens: true, comment: false, jsx: false });
  } catch (error) {
    const e = error as { message?: string; location?: { start?: { line: number; column: number } }; lineNumber?: number; column?: number };
    const start = e.location?.start;
    return {
      problems: [{
        line: start?.line ?? e.lineNumber ?? 1,
        column: (start?.column ?? e.column ?? 0) + 1,
        message: `syntax error: ${e.message ?? String(error)}`,
      }],
    };
  }
  const eraser = new Eraser(source, ast.tokens ?? [], lineStartsOf(source));
  for (const statement of ast.body) eraser.visit(statement, undefined);
  if (eraser.problems.length > 0) return { problems: eraser.problems };
  return { code: eraser.output() };
}
