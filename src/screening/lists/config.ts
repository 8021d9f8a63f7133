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
  /** Where the lists and the built index are cached (src/screening/index-snapshot.ts). No cache when absent. */
  cacheDir?: string;
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

/** Where the lists come from: the validated settings (LISTS_* of the zod config, passed down by src/bootstrap). */
export interface ListsSettings {
  /** Snapshot root (LISTS_DIR); default the bundled lists/. */
  listsDir?: string;
  /** OpenSanctions data directory (OPENSANCTIONS_DIR): opt-in, CC BY-NC data is never bundled. */
  opensanctionsDir?: string;
  /** Only these lists (LISTS_ONLY). */
  only?: readonly string[];
  /** Download URL overrides keyed LIST_URL_<SOURCE>_<FILE> (upper case, non-alphanumerics as _). */
  urls?: Readonly<Record<string, string>>;
  /** Lists downloaded by `svc lists update` (LISTS_DOWNLOAD_DIR) win over the snapshot. */
  downloadDir?: string;
  /** Version persistence for audit re-runs (LISTS_DATA_DIR). */
  dataDir?: string;
  /** Cache of the loaded lists and built index (INDEX_CACHE_DIR). */
  cacheDir?: string;
}

/**
 * The lists to load: the bundled snapshot in lists/ (or listsDir), plus OpenSanctions only when
 * opensanctionsDir is set; `only` restricts the set; `urls` override download URLs; a complete
 * download under downloadDir wins over the snapshot; dataDir enables version persistence.
 */
export function listsConfig(settings: ListsSettings = {}): ListsConfig {
  const root = settings.listsDir ? path.resolve(settings.listsDir) : BUNDLED_LISTS_DIR;
  let lists = listsFromRoot(root);
  if (settings.opensanctionsDir) {
    const dir = path.resolve(settings.opensanctionsDir);
    for (const d of LIST_DEFINITIONS.filter((x) => x.optIn && x.defaultSubdir === 'opensanctions')) {
      lists.push({ source: d.source, dir });
    }
  }
  if (settings.only) {
    const only = new Set(settings.only);
    lists = lists.filter((l) => only.has(l.source));
  }
  for (const l of lists) {
    const def = LIST_DEFINITIONS.find((d) => d.source === l.source)!;
    for (const dl of def.downloads) {
      const url = settings.urls?.[listUrlVariable(l.source, dl.file)];
      if (url) (l.urls ??= {})[dl.file] = url;
    }
  }
  if (settings.downloadDir) lists = preferDownloads(lists, path.resolve(settings.downloadDir));
  return {
    lists,
    ...(settings.dataDir ? { dataDir: path.resolve(settings.dataDir) } : {}),
    ...(settings.cacheDir ? { cacheDir: path.resolve(settings.cacheDir) } : {}),
  };
}

/** The variable overriding one download URL: LIST_URL_<SOURCE>_<FILE>, e.g. LIST_URL_UN_SC_UN_CONSOLIDATED_XML. */
export function listUrlVariable(source: string, file: string): string {
  return `LIST_URL_${source}_${file}`.toUpperCase().replace(/[^A-Z0-9]+/g, '_');
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
