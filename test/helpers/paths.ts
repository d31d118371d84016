// Locations of the project tree from compiled tests (dist/test/...).
import { fileURLToPath } from 'node:url';
import path from 'node:path';

export const PROJECT_ROOT = path.resolve(fileURLToPath(new URL('../../..', import.meta.url)));
export const BIN = path.join(PROJECT_ROOT, 'dist', 'src', 'bin.js');
