// Text that a template engine or a script fills in later: Flux post-build and envsubst `${VAR}`, Go/Helm and mustache
// `{{ … }}`, sed-style `@VAR@`. Such text is never a value: pvlint neither checks it nor compares it, since the real
// value is not in the repository.

const PLACEHOLDER = /\$\{[^}]*\}|\{\{|@[A-Za-z_][A-Za-z0-9_]*@/;

/** Whether a value is (or holds) a placeholder. */
export function isPlaceholder(value: unknown): boolean {
  return typeof value === 'string' && PLACEHOLDER.test(value);
}
