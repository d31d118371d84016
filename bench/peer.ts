// The peer: @monokle/validation with its resource-links and yaml-syntax plugins on the same files.
// Usage: node peer.js DIR PEER_DIR, where PEER_DIR holds node_modules/@monokle/validation (bench/run.js
// installs it there; it is not a dependency of pvlint). Files become Monokle resources the way monokle-cli
// does it (one resource per YAML document with apiVersion and kind, positions from a LineCounter), then
// processRefs (what resource-links needs) and validate.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { manifestFiles, report } from './walk.js';

const [dir = '.', peerDir] = process.argv.slice(2);
if (!peerDir) throw new Error('usage: peer.js DIR PEER_DIR');
const require = createRequire(path.join(peerDir, 'package.json'));
const monokle: any = await import(pathToFileURL(require.resolve('@monokle/validation')).href);
// The yaml version Monokle itself depends on (so its parser and ours agree).
const yaml: any = await import(pathToFileURL(createRequire(require.resolve('@monokle/validation')).resolve('yaml')).href);

const files = manifestFiles(dir);
const resources: any[] = [];
files.forEach((file, fileIndex) => {
  const text = readFileSync(file, 'utf8');
  const lineCounter = new yaml.LineCounter();
  const documents = yaml.parseAllDocuments(text, { lineCounter, uniqueKeys: false, strict: false });
  (Array.isArray(documents) ? documents : [documents]).forEach((document: any, docIndex: number) => {
    if (document.errors.length > 0) return;
    const content = document.toJS();
    if (!content || typeof content.apiVersion !== 'string' || typeof content.kind !== 'string') return;
    const line = lineCounter.linePos(document.range[0]).line;
    const name = typeof content.metadata?.name === 'string' ? content.metadata.name.trim() : path.relative(dir, file);
    resources.push({
      id: `${fileIndex}:${docIndex}`,
      fileId: String(fileIndex),
      filePath: path.relative(dir, file),
      fileOffset: line === 1 ? 0 : line,
      apiVersion: content.apiVersion,
      kind: content.kind,
      name,
      namespace: typeof content.metadata?.namespace === 'string' ? content.metadata.namespace : undefined,
      content,
      text: document.toString({ directives: false }),
    });
  });
});

const parser = new monokle.ResourceParser();
const validator = new monokle.MonokleValidator({
  loader: new monokle.RemotePluginLoader(),
  parser,
  schemaLoader: new monokle.SchemaLoader(),
  suppressors: [new monokle.AnnotationSuppressor(), new monokle.FingerprintSuppressor()],
  fixer: new monokle.DisabledFixer(),
});
await validator.preload({ plugins: { 'resource-links': true, 'yaml-syntax': true } });
// Monokle 0.33.0 throws in validate() on a CRD whose served version has no openAPIV3Schema (JSON.parse of
// undefined in extractSchema), which ends the whole run: keep that step's cost but run it CRD by CRD and skip
// the ones that throw.
const preprocess = validator.preprocessCustomResourceDefinitions.bind(validator);
let skippedCrds = 0;
validator.preprocessCustomResourceDefinitions = async (all: any[]) => {
  for (const crd of all.filter((r) => r.kind === 'CustomResourceDefinition')) {
    try {
      await preprocess([crd]);
    } catch {
      skippedCrds++;
    }
  }
};
monokle.processRefs(resources, parser);
const response = await validator.validate({ resources });
report({ files: files.length, resources: resources.length, results: response.runs[0].results.length, skippedCrds });
