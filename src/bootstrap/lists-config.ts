/**
 * The lists' settings from the zod config (LISTS_DIR, LISTS_ONLY, LIST_URL_*, ...): one place for the
 * service, the operator commands and `svc lists`. Light on purpose (no parser is imported here): an
 * operator command beside a running service must answer in well under a second.
 */
import os from 'node:os';
import path from 'node:path';
import type { Config } from '../config/config';
import { listsConfig, type ListsConfig } from '../screening/lists/config';

/** Where `svc lists update` downloads: LISTS_DOWNLOAD_DIR, else ~/.svc/lists-downloads. */
export function listsDownloadDir(config: Config): string {
  return config.LISTS_DOWNLOAD_DIR ? path.resolve(config.LISTS_DOWNLOAD_DIR) : path.join(os.homedir(), '.svc', 'lists-downloads');
}

/**
 * The lists to load. `persist` keeps loaded versions under LISTS_DATA_DIR (default DATA_DIR/lists) for
 * audit re-runs: the service and the audit commands do; a one-off `svc screen` only when LISTS_DATA_DIR is set.
 * The loaded lists and built index are cached (see indexCacheDir).
 */
export function listsConfigFor(config: Config, options: { persist: boolean }): ListsConfig {
  const dataDir = config.LISTS_DATA_DIR ?? (options.persist ? path.resolve(config.DATA_DIR, 'lists') : undefined);
  return listsConfig({
    listsDir: config.LISTS_DIR,
    ...(config.OPENSANCTIONS_DIR ? { opensanctionsDir: config.OPENSANCTIONS_DIR } : {}),
    ...(config.LISTS_ONLY ? { only: config.LISTS_ONLY } : {}),
    urls: config.LIST_URLS,
    ...(config.LISTS_DOWNLOAD_DIR ? { downloadDir: config.LISTS_DOWNLOAD_DIR } : {}),
    ...(dataDir ? { dataDir } : {}),
    ...(indexCacheDir(config) ? { cacheDir: indexCacheDir(config) } : {}),
  });
}

/**
 * Where the loaded lists and the built index are cached: INDEX_CACHE_DIR, else DATA_DIR/cache; none
 * with INDEX_CACHE=false. Under NODE_ENV=test only when INDEX_CACHE_DIR is set: a test's service on a
 * fresh DATA_DIR would pay the cache write and never read it back.
 */
export function indexCacheDir(config: Config): string | undefined {
  if (!config.INDEX_CACHE) return undefined;
  if (config.INDEX_CACHE_DIR) return path.resolve(config.INDEX_CACHE_DIR);
  return config.NODE_ENV === 'test' ? undefined : path.resolve(config.DATA_DIR, 'cache');
}
