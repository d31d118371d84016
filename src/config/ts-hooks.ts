// Module hooks (node:module register) for custom rule files. They apply only to modules imported with the
// `pvlint-rule` query that custom-rules.ts adds, and to the modules those import from the user's tree:
// `import ... from 'pvlint'` resolves to the running pvlint (the repo need not install it), `.ts` files are
// loaded by erasing their types, and `./x.js` finds `./x.ts` as TypeScript's NodeNext convention writes it.
// These hooks run on Node's hooks thread; errors travel back as the rejection of the main thread's import().
import { readFile } from 'node:fs/promises';
import type { InitializeHook, LoadHook, ResolveHook } from 'node:module';
import { fileURLToPath } from 'node:url';
import { eraseTypes, loadParser } from './erase-types.js';

export const RULE_QUERY = 'pvlint-rule';
/** Prefix of the message of an error thrown for a .ts file whose types cannot be erased; JSON follows. */
export const ERASE_ERROR_PREFIX = 'pvlint-erase:';

let pvlintUrl = '';

export const initialize: InitializeHook<{ pvlintUrl: string; preloadTypescript?: boolean }> = async (data) => {
  pvlintUrl = data.pvlintUrl;
  // register() waits for this: the TypeScript compiler loads while the worker starts, not in a rule's load time.
  if (data.preloadTypescript) await loadParser();
};

function marked(url: string | undefined): URL | undefined {
  if (!url || !url.startsWith('file:')) return undefined;
  const parsed = new URL(url);
  return parsed.searchParams.has(RULE_QUERY) ? parsed : undefined;
}

export const TS_FILE = /\.m?ts$/;

export const resolve: ResolveHook = async (specifier, context, next) => {
  const parent = marked(context.parentURL);
  if (!parent) return next(specifier, context);
  if (specifier === 'pvlint') return { url: pvlintUrl, shortCircuit: true };
  let result;
  try {
    result = await next(specifier, context);
  } catch (error) {
    const relative = /^\.{1,2}\//.test(specifier) && /\.m?js$/.test(specifier);
    if (!relative || (error as NodeJS.ErrnoException).code !== 'ERR_MODULE_NOT_FOUND') throw error;
    result = await next(specifier.replace(/js$/, 'ts'), context);
  }
  // The user's own modules stay in the custom-rule graph; packages they import load as usual.
  if (result.url.startsWith('file:') && !result.url.includes('/node_modules/')) {
    const url = new URL(result.url);
    url.search = parent.search;
    return { ...result, url: url.href, shortCircuit: true };
  }
  return result;
};

export const load: LoadHook = async (url, context, next) => {
  const rule = marked(url);
  if (!rule || !TS_FILE.test(rule.pathname)) return next(url, context);
  rule.search = '';
  const file = fileURLToPath(rule);
  const result = await eraseTypes(await readFile(file, 'utf8'));
  if ('problems' in result) throw new Error(`${ERASE_ERROR_PREFIX}${JSON.stringify({ file, problems: result.problems })}`);
  return { format: 'module', source: result.code, shortCircuit: true };
};
