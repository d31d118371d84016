// Whether a file is a `helm template` stream: Helm writes a `# Source: chart/templates/x.yaml` comment before the
// output of every template. Parsing marks such a file so that the renderer can map its documents to templates.

export function hasSourceComments(text: string): boolean {
  // The substring test first: a multi-line regular expression over every byte of every file is not free.
  return text.includes('Source:') && /^#\s*Source:\s*\S/m.test(text);
}
