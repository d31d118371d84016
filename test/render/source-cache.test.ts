// The documents of source files read beside the linted ones (kustomizations, bases, patches, GitOps objects): read by
// the fast reader where it can, with nodes parsed by `yaml` on first use, they must be what `yaml` alone gives.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { setFastReader } from '../../src/load/fast-yaml.js';
import { firstMapDocument, parseDocuments, type CachedSource } from '../../src/render/source-cache.js';
import { makeSourceFile } from '../../src/load/source-file.js';
import { locateInNode } from '../../src/load/locate-node.js';
import { PROJECT_ROOT } from '../helpers/paths.js';
import { pathsOf } from '../helpers/value-paths.js';

function yamlFiles(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yamlFiles(full, out);
    else if (/\.ya?ml$/.test(entry.name) && statSync(full).size < 1024 * 1024) out.push(full);
  }
  return out;
}

/** What a consumer sees of a file's documents: indices, objects (with key order) and where every path is. */
function view(text: string) {
  const documents = parseDocuments(text);
  const file = makeSourceFile('/x.yaml', 'x.yaml', text);
  const source: CachedSource = { file, documents };
  return {
    documents: documents.map((d) => ({
      docIndex: d.docIndex,
      object: JSON.stringify(d.object),
      range: d.node.range,
      positions: pathsOf(d.object).map((p) => locateInNode(file, d.node, p).location.region),
    })),
    firstMap: firstMapDocument(source)?.docIndex,
  };
}

function withoutFastReader<T>(fn: () => T): T {
  setFastReader(false);
  try {
    return fn();
  } finally {
    setFastReader(true);
  }
}

test('parseDocuments: the same documents, objects and nodes with the fast reader as with yaml alone (examples/, test/fixtures/)', () => {
  const files = [...yamlFiles(path.join(PROJECT_ROOT, 'examples')), ...yamlFiles(path.join(PROJECT_ROOT, 'test', 'fixtures'))];
  assert.ok(files.length > 50);
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const fast = view(text);
    const slow = withoutFastReader(() => view(text));
    if (!isDeepStrictEqual(fast, slow)) assert.equal(fast, slow, path.relative(PROJECT_ROOT, file));
  }
});

test('parseDocuments: a document the fast reader reads gets its node only when asked; .inf and .nan keep yaml\'s numbers', () => {
  const text = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n---\na: &x 1\nb: *x\n---\nlimit: .inf\nratio: .nan\n';
  const documents = parseDocuments(text);
  assert.is(documents.length, 3);
  const descriptor = Object.getOwnPropertyDescriptor(documents[0], 'node');
  assert.ok(descriptor?.get, 'the first document (plain block YAML) has its node made on first use');
  assert.ok(!Object.getOwnPropertyDescriptor(documents[1], 'node')?.get, 'the second (aliases) was parsed by yaml');
  assert.equal(documents[1].object, { a: 1, b: 1 });
  assert.equal(documents[2].object, { limit: Infinity, ratio: NaN });
  assert.equal(documents[0].node.range, withoutFastReader(() => parseDocuments(text))[0].node.range);
  assert.is(documents[0].node.range?.[1], text.indexOf('---'));
  assert.equal(documents[0].object, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' } });
});

test.run();
