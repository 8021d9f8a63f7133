/**
 * The index cache every service a test starts shares (src/screening/index-snapshot.ts): the first
 * start that loads a list set writes its lists and built index, every later one (in this or any other
 * test process) reads it back instead of parsing the lists and preparing every listed name again
 * (about 12 s of CPU per start on the bundled lists, most of a test file's set-up).
 *
 * The snapshot's key covers the lists' content and the matcher's code, and a snapshot is written
 * atomically (rename), so concurrent test processes share it safely and a changed list or matcher is
 * never served from an old file. Under the repository (`.cache/test-index`, ignored by git) rather
 * than os.tmpdir(): the key includes the lists' paths, so worktrees would only evict each other's.
 * TEST_INDEX_CACHE_DIR overrides the directory; `TEST_INDEX_CACHE_DIR=none` starts every service cold.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadEngineCached } from '../../src/screening/index-snapshot';
import type { ListConfig } from '../../src/screening/lists/index';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The environment that points a test's service at the shared cache (empty when turned off). */
export function testIndexCacheEnv(): { INDEX_CACHE_DIR?: string } {
  const dir = process.env.TEST_INDEX_CACHE_DIR ?? path.join(REPO_ROOT, '.cache', 'test-index');
  return dir === 'none' ? {} : { INDEX_CACHE_DIR: path.resolve(dir) };
}

/**
 * The lists loaded and the engine built over them, through the same cache (a test that screens the
 * bundled lists directly shares the snapshot the test services read: the same list set has one key).
 */
export function cachedEngine(lists: ListConfig[], options: { recentQueries?: number } = {}): ReturnType<typeof loadEngineCached> {
  const { INDEX_CACHE_DIR } = testIndexCacheEnv();
  return loadEngineCached({ lists, ...(INDEX_CACHE_DIR ? { cacheDir: INDEX_CACHE_DIR } : {}) }, { progressBar: false, ...options });
}
