/**
 * The loaded lists and the built screening index, cached on disk so a start-up does not parse every
 * list and prepare every listed name again (about 6 s and 10 s of CPU for the bundled lists; the
 * snapshot is read back in 1-2 s). One file per list set under the cache directory
 * (`<cacheDir>/engine-<key>.v8`, v8 serialisation), written atomically.
 *
 * The key is a SHA-256 over everything the result depends on: each configured list (source,
 * directory, files in their resolved order with size, modification time (publication date
 * fallback), content hash and download metadata), the matcher and parser code (every file under
 * src/screening and src/shared, and the versions of the libraries names are prepared with), the
 * snapshot format and the v8 version. A list or code change gives another key: a stale snapshot is
 * never read. A file that does not deserialise or carries another key is ignored (and rebuilt).
 *
 * Not cached: a load with failures (the snapshot is a complete, good list set only).
 */
import { createHash, randomBytes } from 'node:crypto';
import { promises as fsp, readdirSync, readFileSync, statSync, type Stats } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { deserialize, serialize } from 'node:v8';
import { systemClock } from '../shared/clock';
import { ScreeningEngine } from './engine';
import type { NameIndexSnapshot } from './matching/name-index';
import { hashFiles } from './lists/common';
import { listDefinition } from './lists/catalog';
import type { ListsConfig } from './lists/config';
import { assemble, loadAllLists, type LoadedList, type LoadOptions, type LoadResult } from './lists/load';

const FORMAT = 2;
/** Snapshot files kept in the cache directory (other list sets, e.g. a LISTS_ONLY run, keep theirs). */
const KEEP_FILES = 4;
const SCREENING_DIR = path.dirname(fileURLToPath(import.meta.url));
/** Libraries whose output is inside prepared names. */
const PREPARE_LIBRARIES = ['any-ascii', 'double-metaphone', 'hanja'];

export interface EngineSnapshot {
  format: number;
  key: string;
  lists: LoadedList[];
  index: NameIndexSnapshot;
}

/** Where the snapshot of an engine's lists and index is: worker threads can start from it. */
export interface CachedSnapshot {
  cacheDir: string;
  key: string;
}

let codeFingerprint: string | undefined;

/** SHA-256 of the code a snapshot's content depends on (computed once per process). */
export function codeVersion(): string {
  if (codeFingerprint) return codeFingerprint;
  const h = createHash('sha256');
  const walk = (dir: string, rel: string) => {
    let names: string[];
    try {
      names = readdirSorted(dir);
    } catch {
      return;
    }
    for (const name of names) {
      const full = path.join(dir, name);
      const stat = statOrUndefined(full);
      if (!stat) continue;
      if (stat.isDirectory()) walk(full, `${rel}/${name}`);
      else {
        h.update(`${rel}/${name}\u0000`);
        h.update(readFileSync(full));
      }
    }
  };
  walk(SCREENING_DIR, 'screening');
  walk(path.join(SCREENING_DIR, '../shared'), 'shared');
  const require = createRequire(import.meta.url);
  for (const lib of PREPARE_LIBRARIES) {
    try {
      h.update(`${lib}@${(require(`${lib}/package.json`) as { version: string }).version}\u0000`);
    } catch {
      h.update(`${lib}@?\u0000`);
    }
  }
  codeFingerprint = h.digest('hex');
  return codeFingerprint;
}

function readdirSorted(dir: string): string[] {
  return readdirSync(dir).sort();
}
function statOrUndefined(file: string): Stats | undefined {
  try {
    return statSync(file);
  } catch {
    return undefined;
  }
}

/**
 * The snapshot key of a list set, or undefined when a list's files cannot be resolved (the load
 * reports it; nothing is cached).
 */
export async function snapshotKey(config: ListsConfig): Promise<string | undefined> {
  const h = createHash('sha256');
  h.update(`format ${FORMAT}\u0000v8 ${process.versions.v8}\u0000code ${codeVersion()}\u0000`);
  for (const cfg of config.lists) {
    const def = listDefinition(cfg.source);
    if (!def) return undefined;
    let files: string[];
    try {
      files = await def.resolveFiles(cfg.dir, cfg.files);
    } catch {
      return undefined;
    }
    h.update(JSON.stringify({ source: cfg.source, dir: path.resolve(cfg.dir), files: cfg.files ?? null, publishedAt: cfg.publishedAt ?? null }));
    try {
      for (const f of files) {
        const st = await fsp.stat(f);
        h.update(`\u0000${path.resolve(f)}\u0000${st.size}\u0000${st.mtimeMs}`);
        const meta = await fsp.readFile(`${f}.meta.json`, 'utf8').catch(() => '');
        h.update(`\u0000${meta}`);
      }
      h.update(`\u0000${await hashFiles(files)}\u0001`);
    } catch {
      return undefined;
    }
  }
  return h.digest('hex');
}

function snapshotFile(cacheDir: string, key: string): string {
  return path.join(cacheDir, `engine-${key.slice(0, 32)}.v8`);
}

/** The snapshot's bytes in shared memory (worker threads read them without a copy), or undefined when there is none. */
export async function readSnapshotBytes(cacheDir: string, key: string): Promise<Uint8Array | undefined> {
  let fh: fsp.FileHandle;
  try {
    fh = await fsp.open(snapshotFile(cacheDir, key), 'r');
  } catch {
    return undefined;
  }
  try {
    const { size } = await fh.stat();
    const bytes = new Uint8Array(new SharedArrayBuffer(size));
    let at = 0;
    while (at < size) {
      const { bytesRead } = await fh.read(bytes, at, size - at, at);
      if (!bytesRead) return undefined;
      at += bytesRead;
    }
    // Marked as used: writeSnapshot drops the least recently used list sets, so the one every start
    // reads outlives a run of one-off sets (a LISTS_ONLY start, a private copy of the lists).
    const now = systemClock.now();
    await fh.utimes(now, now).catch(() => undefined);
    return bytes;
  } finally {
    await fh.close();
  }
}

/** The lists and the engine a snapshot holds; undefined when the bytes are not a snapshot of `key`. */
export function decodeSnapshot(bytes: Uint8Array, key: string, options: { recentQueries?: number; now?: () => Date } = {}): { load: LoadResult; engine: ScreeningEngine } | undefined {
  let snap: EngineSnapshot;
  try {
    snap = deserialize(bytes) as EngineSnapshot;
  } catch {
    return undefined;
  }
  if (snap?.format !== FORMAT || snap.key !== key || !Array.isArray(snap.lists)) return undefined;
  // loaded now, into this process
  const loadedAt = (options.now?.() ?? systemClock.now()).toISOString();
  for (const l of snap.lists) l.version.loadedAt = loadedAt;
  const load = assemble(snap.lists, []);
  try {
    return { load, engine: ScreeningEngine.restore(load.entities, load.versions, snap.index, { recentQueries: options.recentQueries }) };
  } catch {
    return undefined;
  }
}

/** Serialise lists and the engine built from them (in their order, before it screened anything). */
export function encodeSnapshot(key: string, lists: LoadedList[], engine: ScreeningEngine): Uint8Array {
  const snap: EngineSnapshot = { format: FORMAT, key, lists, index: engine.indexSnapshot() };
  return serialize(snap);
}

/** Write a snapshot (atomically: a reader sees the whole file or none) and drop the least recently used (read or written) beyond KEEP_FILES. */
export async function writeSnapshot(cacheDir: string, key: string, bytes: Uint8Array): Promise<string> {
  await fsp.mkdir(cacheDir, { recursive: true });
  const file = snapshotFile(cacheDir, key);
  const tmp = `${file}.tmp-${process.pid}-${randomBytes(6).toString('hex')}`;
  await fsp.writeFile(tmp, bytes);
  await fsp.rename(tmp, file);
  const others = (await fsp.readdir(cacheDir)).filter((f) => /^engine-[0-9a-f]+\.v8$/.test(f) && path.join(cacheDir, f) !== file);
  const dated = await Promise.all(others.map(async (f) => ({ f, t: (await fsp.stat(path.join(cacheDir, f)).catch(() => undefined))?.mtimeMs ?? 0 })));
  dated.sort((a, b) => b.t - a.t);
  for (const { f } of dated.slice(KEEP_FILES - 1)) await fsp.rm(path.join(cacheDir, f), { force: true });
  return file;
}

/**
 * Every configured list loaded and the engine built over them: from the snapshot in the config's
 * cacheDir when one matches, else loaded and built, and the snapshot written for the next start
 * (when every list loaded). Without a cacheDir, plain loadAllLists + ScreeningEngine.build.
 */
export async function loadEngineCached(
  config: ListsConfig,
  opts: LoadOptions & { recentQueries?: number; onCacheError?: (error: unknown) => void } = {},
): Promise<{ load: LoadResult; engine: ScreeningEngine; fromCache: boolean; snapshot?: CachedSnapshot }> {
  const cacheDir = config.cacheDir;
  const key = cacheDir ? await snapshotKey(config) : undefined;
  if (key && cacheDir) {
    const bytes = await readSnapshotBytes(cacheDir, key).catch(() => undefined);
    const restored = bytes && decodeSnapshot(bytes, key, { recentQueries: opts.recentQueries, now: opts.now });
    if (restored) return { ...restored, fromCache: true, snapshot: { cacheDir, key } };
  }
  const load = await loadAllLists(config, opts);
  const engine = ScreeningEngine.build(load.entities, load.versions, { recentQueries: opts.recentQueries });
  if (key && cacheDir && !load.failures.length) {
    try {
      await writeSnapshot(cacheDir, key, encodeSnapshot(key, load.lists, engine));
      return { load, engine, fromCache: false, snapshot: { cacheDir, key } };
    } catch (error) {
      opts.onCacheError?.(error);
    }
  }
  return { load, engine, fromCache: false };
}
