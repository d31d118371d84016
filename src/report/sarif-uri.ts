// How SARIF names a finding's file: a URI relative to %SRCROOT% when the file is the repository's.

/**
 * Whether a finding's file is a file of the repository: `<stdin>`-style pseudo paths, absolute paths and paths
 * that leave the root are not, so they get no %SRCROOT% base and no fingerprint (GitHub could not find them).
 */
export function isRepoFile(file: string): boolean {
  if (file === '' || file === '.' || file.startsWith('<')) return false;
  if (file.startsWith('/') || /^[A-Za-z]:/.test(file)) return false;
  return !file.split('/').includes('..');
}

/** RFC 3986 path: every segment percent-encoded, `/` kept. GitHub decodes it with decodeURIComponent. */
export function toUri(file: string): string {
  return file.split('/').map(encodeURIComponent).join('/');
}
