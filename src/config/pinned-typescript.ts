// typescript-estree (which erases the types of custom .ts rules) does `require('typescript')` from its own
// directory, so it gets whichever TypeScript the user's project hoisted into node_modules: TypeScript 7 made
// the bundled custom-rule example fail with "Cannot read properties of undefined (reading 'Intrinsic')".
// pvlint depends on the TypeScript it was tested with (package.json, `typescript` in dependencies; npm nests it
// under node_modules/pvlint when the project has another one), and this redirects the `typescript` requests of
// typescript-estree and its helper packages to that copy. Only requests from those packages' files are
// redirected: the rest of the process (an ESLint the user runs beside pvlint's API) keeps its own resolution.
import Module, { createRequire } from 'node:module';
import path from 'node:path';

type ResolveFilename = (request: string, parent: { filename?: string | null } | undefined, ...rest: unknown[]) => string;

let pinned = false;

/** Where pvlint's own `typescript` is: resolved from pvlint's files, so a nested copy wins over a hoisted one. */
export function ownTypescript(): string {
  return createRequire(import.meta.url).resolve('typescript');
}

/** Directories whose files' `require('typescript')` must get pvlint's copy. */
function parserDirectories(): string[] {
  const own = createRequire(import.meta.url);
  const estreeDir = path.dirname(own.resolve('@typescript-eslint/typescript-estree/package.json'));
  const fromEstree = createRequire(path.join(estreeDir, 'package.json'));
  const dirs = [path.dirname(estreeDir)]; // node_modules/@typescript-eslint: estree, project-service, tsconfig-utils, types
  try {
    dirs.push(path.dirname(fromEstree.resolve('ts-api-utils/package.json')));
  } catch {
    // ts-api-utils exports no package.json in some versions: find it from its entry point instead.
    const entry = fromEstree.resolve('ts-api-utils');
    dirs.push(entry.slice(0, entry.lastIndexOf(`${path.sep}ts-api-utils${path.sep}`) + `${path.sep}ts-api-utils`.length));
  }
  return dirs.map((dir) => `${dir}${path.sep}`);
}

/** Installs the redirect once per thread (the module hooks thread erases types too). */
export function pinTypescript(): void {
  if (pinned) return;
  pinned = true;
  const target = ownTypescript();
  const dirs = parserDirectories();
  const loader = Module as unknown as { _resolveFilename: ResolveFilename };
  const original = loader._resolveFilename;
  loader._resolveFilename = function resolveFilename(request, parent, ...rest) {
    if (request === 'typescript' && parent?.filename && dirs.some((dir) => parent.filename!.startsWith(dir))) return target;
    return original.call(this, request, parent, ...rest);
  };
}
