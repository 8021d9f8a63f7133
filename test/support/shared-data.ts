import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The reference list snapshots in `../shared/data` beside the repository (CI clones the repo with
 * shared/ beside it, wherever that is). SHARED_DATA_DIR overrides it.
 */
const beside = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../shared/data');
export const SHARED_DATA_DIR = process.env.SHARED_DATA_DIR ?? (existsSync(beside) ? beside : '/work/shared/data');
