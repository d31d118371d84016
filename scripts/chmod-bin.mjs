// tsc drops the executable bit; npm sets it on install, but the dev tree runs dist/src/bin.js directly.
import { chmodSync, existsSync } from 'node:fs';
const bin = new URL('../dist/src/bin.js', import.meta.url);
if (existsSync(bin)) chmodSync(bin, 0o755);
