// Bundles the command line (dist/src/cli/entry.js and everything it imports, yaml and fast-glob included) into that
// one file. Node's ES module loader pays per module (resolve, read, compile, link): ~300 modules cost more than half
// of a small run's CPU, and every run but `--version`/`--help` (answered by bin.js before it loads this file) pays
// it. dist/src keeps every other module as tsc wrote it: the
// programmatic API (dist/src/index.js), the parse worker, the module hooks and the generated validators are loaded
// from there, by the bundle too (their `import.meta.url` is rewritten to the module's own place). TypeScript, its
// ESTree parser and Ajv stay outside: only a configuration with custom rules loads them.
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const entry = path.join(root, 'dist', 'src', 'cli', 'entry.js');
const outDir = path.dirname(entry);

/** Each bundled module of ours keeps the URL of the file it was, so the paths it builds from it still hold. */
const ownUrl = {
  name: 'own-import-meta-url',
  setup(b) {
    b.onLoad({ filter: /[\\/]dist[\\/](src|rules)[\\/].*\.js$/ }, (args) => {
      const text = readFileSync(args.path, 'utf8');
      if (!text.includes('import.meta.url')) return undefined;
      const relative = path.relative(outDir, args.path).split(path.sep).join('/');
      const url = `new URL(${JSON.stringify(relative.startsWith('.') ? relative : `./${relative}`)}, import.meta.url).href`;
      return { contents: text.replaceAll('import.meta.url', url), loader: 'js' };
    });
  },
};

if (readFileSync(entry, 'utf8').includes('__pvlintCreateRequire')) {
  // Already bundled (this script ran again without tsc): bundling the bundle would only nest the URLs.
  process.exit(0);
}

const result = await build({
  entryPoints: [entry],
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  write: false,
  outfile: entry,
  external: ['typescript', '@typescript-eslint/typescript-estree', 'ajv', 'ajv/*', 'ajv-formats'],
  plugins: [ownUrl],
  // fast-glob and its dependencies are CommonJS: their require() of node's modules needs a real require.
  banner: { js: "import { createRequire as __pvlintCreateRequire } from 'node:module';\nconst require = __pvlintCreateRequire(import.meta.url);" },
  logLevel: 'warning',
  legalComments: 'none',
});
const [output] = result.outputFiles;
const temporary = `${entry}.bundle-tmp`;
writeFileSync(temporary, output.contents);
renameSync(temporary, entry);
