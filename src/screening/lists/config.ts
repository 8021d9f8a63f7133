import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ListSourceId } from '../model';
import { LIST_DEFINITIONS } from './catalog';

/** One list to load: which source, from which directory, optionally which file names. */
export interface ListConfig {
  source: ListSourceId;
  dir: string;
  /** File names overriding the definition's defaults (same roles, same order). */
  files?: string[];
  /** Publication date to record when the files do not state one (from the snapshot manifest). */
  publishedAt?: string;
  /** Download URLs overriding the official ones, keyed by file name. */
  urls?: Record<string, string>;
}

export interface ListsConfig {
  lists: ListConfig[];
  /** Where ListRegistry persists versions (for audit re-runs). No persistence when absent. */
  dataDir?: string;
}

/** The repository root (this file is src/screening/lists/config.ts). */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const BUNDLED_LISTS_DIR = path.join(REPO_ROOT, 'lists');

interface ManifestEntry {
  publishedAt?: string;
}

/** `lists/manifest.json` (or the manifest of another snapshot root): source → snapshot facts. */
export function readManifest(root: string): Record<string, ManifestEntry> {
  const f = path.join(root, 'manifest.json');
  if (!existsSync(f)) return {};
  const parsed = JSON.parse(readFileSync(f, 'utf8')) as { lists?: Record<string, ManifestEntry> };
  return parsed.lists ?? {};
}

/**
 * Config for every non-opt-in list under one root with the standard layout (the bundled snapshot
 * `lists/` or `../shared/data`). Lists whose folder is missing are left out.
 */
export function listsFromRoot(root: string, opts: { includeOptIn?: boolean } = {}): ListConfig[] {
  const manifest = readManifest(root);
  return LIST_DEFINITIONS.filter((d) => (opts.includeOptIn || !d.optIn) && existsSync(path.join(root, d.defaultSubdir))).map(
    (d) => ({
      source: d.source,
      dir: path.join(root, d.defaultSubdir),
      ...(manifest[d.source]?.publishedAt ? { publishedAt: manifest[d.source].publishedAt } : {}),
    }),
  );
}

/**
 * Default configuration: the bundled snapshot in lists/ (or LISTS_DIR), plus OpenSanctions only when
 * OPENSANCTIONS_DIR is set (CC BY-NC data is never bundled). Per-list URL overrides come from
 * LIST_URL_<SOURCE>_<FILE> env variables (e.g. LIST_URL_UN_SC_UN_CONSOLIDATED_XML).
 * LISTS_ONLY=ofac_sdn,un_sc restricts the set; LISTS_DATA_DIR enables version persistence;
 * LISTS_DOWNLOAD_DIR makes lists downloaded by `svc lists update` win over the bundled snapshot.
 */
export function defaultListsConfig(env: NodeJS.ProcessEnv = process.env): ListsConfig {
  const root = env.LISTS_DIR ? path.resolve(env.LISTS_DIR) : BUNDLED_LISTS_DIR;
  let lists = listsFromRoot(root);
  if (env.OPENSANCTIONS_DIR) {
    const dir = path.resolve(env.OPENSANCTIONS_DIR);
    for (const d of LIST_DEFINITIONS.filter((x) => x.optIn && x.defaultSubdir === 'opensanctions')) {
      lists.push({ source: d.source, dir });
    }
  }
  if (env.LISTS_ONLY) {
    const only = new Set(env.LISTS_ONLY.split(',').map((s) => s.trim()));
    lists = lists.filter((l) => only.has(l.source));
  }
  for (const l of lists) {
    const def = LIST_DEFINITIONS.find((d) => d.source === l.source)!;
    for (const dl of def.downloads) {
      const key = `LIST_URL_${l.source}_${dl.file}`.toUpperCase().replace(/[^A-Z0-9]+/g, '_');
      if (env[key]) (l.urls ??= {})[dl.file] = env[key]!;
    }
  }
  if (env.LISTS_DOWNLOAD_DIR) lists = preferDownloads(lists, path.resolve(env.LISTS_DOWNLOAD_DIR));
  return { lists, ...(env.LISTS_DATA_DIR ? { dataDir: path.resolve(env.LISTS_DATA_DIR) } : {}) };
}

/**
 * Use a list's downloaded files (from `svc lists update`) instead of the bundled snapshot when every
 * file of that list is present in `<downloadDir>/<list folder>/`.
 */
export function preferDownloads(lists: ListConfig[], downloadDir: string): ListConfig[] {
  return lists.map((l) => {
    const def = LIST_DEFINITIONS.find((d) => d.source === l.source);
    if (!def?.downloads.length) return l;
    const dir = path.join(downloadDir, def.defaultSubdir);
    if (!def.downloads.every((d) => existsSync(path.join(dir, d.file)))) return l;
    const { publishedAt: _snapshotDate, ...rest } = l;
    void _snapshotDate;
    return { ...rest, dir, files: def.downloads.map((d) => d.file) };
  });
}
