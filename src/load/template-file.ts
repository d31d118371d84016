// Whether a YAML file is a template for some other tool (a Go/Helm template outside a chart, a mustache or sed
// template), not a manifest: its markers stand where YAML structure or values belong, so what YAML makes of it is
// not what the cluster will receive. Such a file is counted as "template, not linted", never parsed.
//
// Markers inside quoted strings and block scalars are text, not structure: a ConfigMap holding an Alertmanager
// template or an Argo Workflow passing `"{{inputs.parameters.x}}"` is still a manifest.

/** A line that opens a block scalar (`key: |`, `- >-`, `key: |2`): the more-indented lines below it are text. */
const BLOCK_SCALAR_OPENER = /(?:^|:|\s-|^-)\s*[|>][1-9]?[-+]?[1-9]?\s*(?:#.*)?$/;
/** `{{` where YAML reads structure: a line that starts with it, or an unquoted value or list item that does. */
const GO_TEMPLATE_STRUCTURE = /^\s*(?:-\s+)?(?:[^\s#'"{][^:#]*:\s+)?\{\{/;
/** `key: plain value` or `- plain value`: more-indented lines below continue the plain scalar (group 1 is its column). */
const PLAIN_SCALAR_START = /^(\s*(?:-\s+)*)(?:[^\s#'"-][^:#]*:\s+)?[^\s#'"|>[{&*!@`%]/;
/** A sed-style placeholder as a whole plain value (`name: @STS_NAME@`): YAML cannot even read `@` there. */
const SED_PLACEHOLDER_VALUE = /^\s*(?:-\s+)?(?:[^\s#'"][^:#]*:\s+)?@[A-Za-z_][A-Za-z0-9_]*@/;

function indentOf(line: string): number {
  return line.length - line.trimStart().length;
}

/**
 * The quote a line leaves open: a quoted scalar that starts on it (`key: "…`, `- '…`, `["…`) and does not end there
 * continues on the next lines (kustomize writes long strings that way). `open` is the quote the line starts inside.
 */
function openQuoteAfter(line: string, open: '"' | "'" | undefined): '"' | "'" | undefined {
  let quote = open;
  let i = 0;
  while (i < line.length) {
    const c = line[i];
    if (quote === '"') {
      if (c === '\\') i++;
      else if (c === '"') quote = undefined;
    } else if (quote === "'") {
      if (c === "'" && line[i + 1] === "'") i++;
      else if (c === "'") quote = undefined;
    } else if (c === '#' && (i === 0 || /\s/.test(line[i - 1]))) {
      return undefined;
    } else if ((c === '"' || c === "'") && (i === 0 || /[\s:\-[{,]/.test(line[i - 1]))) {
      // A quote opens a scalar only where a value starts, not inside a plain scalar (`it's`).
      const before = line.slice(0, i).trimEnd();
      if (before === '' || /(?:^|\s)-$|:$|[[{,]$/.test(before)) quote = c;
    }
    i++;
  }
  return quote;
}

/**
 * The kind of template markers a file holds where YAML structure or values belong (`"Go template"`,
 * `"placeholder"`); undefined for a manifest. A `helm template` stream (`# Source:` comments) is a manifest.
 */
export function templateMarkers(text: string): string | undefined {
  if (!text.includes('{{') && !text.includes('@')) return undefined;
  let blockIndent = -1;
  let blockOwnerIndent = -1;
  let quote: '"' | "'" | undefined;
  let plainOwnerIndent = -1;
  for (const line of text.split('\n')) {
    const trimmed = line.trim();
    if (plainOwnerIndent >= 0) {
      if (trimmed === '' || indentOf(line) > plainOwnerIndent) continue;
      plainOwnerIndent = -1;
    }
    if (quote !== undefined) {
      quote = openQuoteAfter(line, quote);
      continue;
    }
    if (blockOwnerIndent >= 0) {
      if (trimmed === '') continue;
      const indent = indentOf(line);
      if (blockIndent < 0 && indent > blockOwnerIndent) blockIndent = indent;
      if (blockIndent >= 0 && indent >= blockIndent) continue;
      blockOwnerIndent = -1;
      blockIndent = -1;
    }
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    if (GO_TEMPLATE_STRUCTURE.test(line)) return 'Go template';
    if (SED_PLACEHOLDER_VALUE.test(line)) return 'placeholder';
    if (BLOCK_SCALAR_OPENER.test(line)) {
      blockOwnerIndent = indentOf(line);
      blockIndent = -1;
    } else {
      quote = openQuoteAfter(line, undefined);
      const plain = quote === undefined ? PLAIN_SCALAR_START.exec(line) : null;
      if (plain && !/:\s*(?:#.*)?$/.test(line)) plainOwnerIndent = plain[1].length;
    }
  }
  return undefined;
}
