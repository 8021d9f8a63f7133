import { createWriteStream, promises as fsp } from 'node:fs';
import { fileExists } from '../../shared/files';
import { backoffDelay } from '../../shared/backoff';
import { systemClock, type Clock } from '../../shared/clock';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { ListSourceId } from '../model';
import { listDefinition } from '../lists/catalog';
import type { ListConfig } from '../lists/config';
import type { ListRegistry, ReloadOutcome } from '../lists/registry';

export interface DownloadOptions {
  /** Per-attempt timeout covering connect, headers and body (default 60 s). */
  timeoutMs?: number;
  /** Retries after the first attempt on network errors, timeouts, 429 and 5xx (default 3). */
  retries?: number;
  /** First backoff delay; doubles each retry (default 1 s). */
  backoffMs?: number;
  /** Injected for tests; default global fetch. */
  fetch?: typeof fetch;
  userAgent?: string;
  /** Called before each retry (for logs). */
  onRetry?: (info: { url: string; attempt: number; delayMs: number; reason: string }) => void;
  sleep?: (ms: number) => Promise<void>;
  /** The time a download records as fetchedAt (default the system clock). */
  clock?: Clock;
}

/** What we remember about a downloaded file for the next conditional GET. */
export interface DownloadMeta {
  url: string;
  etag?: string;
  lastModified?: string;
  fetchedAt: string;
  bytes: number;
}

export interface FileDownload {
  file: string;
  url: string;
  status: 'downloaded' | 'not_modified';
  bytes?: number;
  attempts: number;
}

export class DownloadError extends Error {
  constructor(
    readonly url: string,
    message: string,
    readonly status?: number,
    readonly attempts?: number,
  ) {
    super(`${url}: ${message}`);
    this.name = 'DownloadError';
  }
}

const metaPath = (dest: string) => `${dest}.meta.json`;
const prevPath = (p: string) => `${p}.prev`;

/** A fetched file not yet in place: commit swaps it in (keeping the old one as .prev until finalize). */
export interface PendingFile {
  result: FileDownload;
  commit: () => Promise<void>;
  discard: () => Promise<void>;
  /** After commit: put the previous file (and its metadata) back, e.g. when the new one does not parse. */
  rollback: () => Promise<void>;
  /** After commit: drop the kept previous file. */
  finalize: () => Promise<void>;
}


const noop = async () => {};

async function readMeta(dest: string): Promise<DownloadMeta | undefined> {
  try {
    await fsp.access(dest);
    return JSON.parse(await fsp.readFile(metaPath(dest), 'utf8')) as DownloadMeta;
  } catch {
    return undefined;
  }
}

function retryable(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

/**
 * Fetch one URL into a temp file next to `dest` (not yet renamed). Conditional GET with the ETag /
 * Last-Modified stored beside dest. Returns a commit function that atomically renames the temp file
 * and writes the metadata, so a multi-file list is swapped in only when every file arrived.
 */
export async function fetchToTemp(
  url: string,
  dest: string,
  opts: DownloadOptions = {},
): Promise<PendingFile> {
  const doFetch = opts.fetch ?? fetch;
  const timeoutMs = opts.timeoutMs ?? 60_000;
  const retries = opts.retries ?? 3;
  const backoffMs = opts.backoffMs ?? 1000;
  const sleep = opts.sleep ?? ((ms: number) => new Promise((r) => setTimeout(r, ms)));
  const prior = await readMeta(dest);
  await fsp.mkdir(path.dirname(dest), { recursive: true });

  let lastReason = '';
  for (let attempt = 1; attempt <= retries + 1; attempt++) {
    if (attempt > 1) {
      const delayMs = backoffDelay({ initialMs: backoffMs }, attempt - 1);
      opts.onRetry?.({ url, attempt, delayMs, reason: lastReason });
      await sleep(delayMs);
    }
    const ac = new AbortController();
    const timer = setTimeout(() => ac.abort(new Error(`timed out after ${timeoutMs} ms`)), timeoutMs);
    const tmp = `${dest}.part-${process.pid}-${Date.now()}-${attempt}`;
    try {
      const headers: Record<string, string> = { 'user-agent': opts.userAgent ?? 'compliance-screening-service list updater' };
      if (prior && prior.url === url) {
        if (prior.etag) headers['if-none-match'] = prior.etag;
        if (prior.lastModified) headers['if-modified-since'] = prior.lastModified;
      }
      const res = await doFetch(url, { headers, signal: ac.signal, redirect: 'follow' });
      if (res.status === 304) {
        clearTimeout(timer);
        await res.body?.cancel();
        return {
          result: { file: path.basename(dest), url, status: 'not_modified', attempts: attempt },
          commit: noop,
          discard: noop,
          rollback: noop,
          finalize: noop,
        };
      }
      if (!res.ok || !res.body) {
        await res.body?.cancel().catch(() => {});
        if (retryable(res.status)) {
          clearTimeout(timer);
          lastReason = `HTTP ${res.status}`;
          continue;
        }
        clearTimeout(timer);
        throw new DownloadError(url, `HTTP ${res.status} ${res.statusText}`, res.status, attempt);
      }
      await pipeline(Readable.fromWeb(res.body as unknown as WebReadableStream), createWriteStream(tmp), { signal: ac.signal });
      clearTimeout(timer);
      const { size } = await fsp.stat(tmp);
      const meta: DownloadMeta = {
        url,
        ...(res.headers.get('etag') ? { etag: res.headers.get('etag')! } : {}),
        ...(res.headers.get('last-modified') ? { lastModified: res.headers.get('last-modified')! } : {}),
        fetchedAt: (opts.clock ?? systemClock).now().toISOString(),
        bytes: size,
      };
      let hadPrevious = false;
      return {
        result: { file: path.basename(dest), url, status: 'downloaded', bytes: size, attempts: attempt },
        commit: async () => {
          hadPrevious = await fileExists(dest);
          if (hadPrevious) {
            await fsp.rename(dest, prevPath(dest));
            if (await fileExists(metaPath(dest))) await fsp.rename(metaPath(dest), prevPath(metaPath(dest)));
          }
          await fsp.rename(tmp, dest);
          const mtmp = `${metaPath(dest)}.tmp`;
          await fsp.writeFile(mtmp, JSON.stringify(meta, null, 2));
          await fsp.rename(mtmp, metaPath(dest));
        },
        discard: () => fsp.rm(tmp, { force: true }),
        rollback: async () => {
          if (hadPrevious) {
            await fsp.rename(prevPath(dest), dest);
            if (await fileExists(prevPath(metaPath(dest)))) await fsp.rename(prevPath(metaPath(dest)), metaPath(dest));
            else await fsp.rm(metaPath(dest), { force: true });
          } else {
            await fsp.rm(dest, { force: true });
            await fsp.rm(metaPath(dest), { force: true });
          }
        },
        finalize: async () => {
          await fsp.rm(prevPath(dest), { force: true });
          await fsp.rm(prevPath(metaPath(dest)), { force: true });
        },
      };
    } catch (err) {
      clearTimeout(timer);
      await fsp.rm(tmp, { force: true });
      if (err instanceof DownloadError) throw err;
      lastReason = ac.signal.aborted ? `timed out after ${timeoutMs} ms` : (err as Error).message;
    }
  }
  throw new DownloadError(url, `failed after ${retries + 1} attempts: ${lastReason}`, undefined, retries + 1);
}

export interface ListDownload {
  source: ListSourceId;
  dir: string;
  files: FileDownload[];
  /** True when at least one file was downloaded (not 304). */
  changed: boolean;
  /** Restore the files that were in place before this download (when the new ones do not load). */
  rollback: () => Promise<void>;
  /** Forget the previous files. */
  finalize: () => Promise<void>;
}

/** Download every file of one list into `dir`; the files are renamed in only when all succeeded. */
export async function downloadList(cfg: ListConfig, dir: string, opts: DownloadOptions = {}): Promise<ListDownload> {
  const def = listDefinition(cfg.source);
  if (!def) throw new DownloadError('', `unknown list ${cfg.source}`);
  if (!def.downloads.length) throw new DownloadError('', `${cfg.source} has no download URL (maintained by hand)`);
  const pending: PendingFile[] = [];
  try {
    for (const d of def.downloads) {
      const url = cfg.urls?.[d.file] ?? d.url;
      pending.push(await fetchToTemp(url, path.join(dir, d.file), opts));
    }
  } catch (err) {
    await Promise.all(pending.map((p) => p.discard()));
    throw err;
  }
  for (const p of pending) await p.commit();
  return {
    source: cfg.source,
    dir,
    files: pending.map((p) => p.result),
    changed: pending.some((p) => p.result.status === 'downloaded'),
    rollback: async () => {
      for (const p of pending) await p.rollback();
    },
    finalize: async () => {
      for (const p of pending) await p.finalize();
    },
  };
}

export type UpdateOutcome =
  | { source: ListSourceId; ok: true; download: ListDownload; reload?: ReloadOutcome }
  | { source: ListSourceId; ok: false; error: string; reload?: ReloadOutcome };

/**
 * Download each list into `<downloadDir>/<list folder>/`, then reload it into the registry (which keeps
 * the previous version if the new files do not parse, and the previous files are put back) and return
 * the delta.
 */
export async function updateLists(
  registry: ListRegistry,
  lists: ListConfig[],
  downloadDir: string,
  opts: DownloadOptions & { force?: boolean } = {},
): Promise<UpdateOutcome[]> {
  const out: UpdateOutcome[] = [];
  for (const cfg of lists) {
    const def = listDefinition(cfg.source);
    if (!def || !def.downloads.length) continue;
    const dir = path.join(downloadDir, def.defaultSubdir);
    try {
      const download = await downloadList(cfg, dir, opts);
      const needsReload = download.changed || opts.force || registry.currentVersion(cfg.source) === undefined;
      const reload = needsReload
        ? await registry.reload(cfg.source, { dir, files: def.downloads.map((d) => d.file), publishedAt: undefined }, { progressBar: false })
        : undefined;
      // Files that do not load are not kept: the next start (which prefers downloads) must not pick them up.
      if (reload && !reload.ok) await download.rollback();
      else await download.finalize();
      out.push({ source: cfg.source, ok: true, download, ...(reload ? { reload } : {}) });
    } catch (err) {
      out.push({ source: cfg.source, ok: false, error: (err as Error).message });
    }
  }
  return out;
}
