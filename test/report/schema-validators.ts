// Ajv validators for the two schemas the reports must satisfy: the official SARIF 2.1.0 schema (draft-04,
// third-party, so not strict) and pvlint's own JSON report schema (draft 2020-12, strict).
import { readFileSync } from 'node:fs';
import AjvDraft04 from 'ajv-draft-04';
import Ajv2020 from 'ajv/dist/2020.js';
import type { ErrorObject, ValidateFunction } from 'ajv';

const schemasDir = new URL('../../../schemas/', import.meta.url);

function loadSchema(name: string): Record<string, unknown> {
  return JSON.parse(readFileSync(new URL(name, schemasDir), 'utf8'));
}

// RFC 3986 characters only, with well-formed percent escapes: a raw space or `<` in a URI fails here.
const URI_REFERENCE = /^(?:[A-Za-z0-9\-._~!$&'()*+,;=:@/?#]|%[0-9A-Fa-f]{2})*$/;
const URI = /^[A-Za-z][A-Za-z0-9+.-]*:(?:[A-Za-z0-9\-._~!$&'()*+,;=:@/?#]|%[0-9A-Fa-f]{2})*$/;

export function sarifValidator(): ValidateFunction {
  const ajv = new AjvDraft04.default({ strict: false, allErrors: true });
  ajv.addFormat('uri', URI);
  ajv.addFormat('uri-reference', URI_REFERENCE);
  ajv.addFormat('date-time', true);
  return ajv.compile(loadSchema('sarif-schema-2.1.0.json'));
}

export function reportValidator(): ValidateFunction {
  const ajv = new Ajv2020.default({ strict: true, allErrors: true });
  return ajv.compile(loadSchema('report.schema.json'));
}

export function describeErrors(errors: ErrorObject[] | null | undefined): string {
  return (errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''} ${JSON.stringify(e.params)}`).join('\n');
}
