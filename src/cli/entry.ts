// What bin.ts loads for every run but `--version` and `--help`: the CLI and the signal handling of the renderers,
// from one module so that both share the same renderer state. The build bundles this module, with everything it
// imports, into this one file (scripts/bundle-cli.mjs).
export { run } from './main.js';
export { stopOnSignals } from '../render/interrupt.js';
