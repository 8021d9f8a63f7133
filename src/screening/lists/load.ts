/** Loading the lists: one list from its files, or every configured list at once (the registry keeps versions). */
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import cliProgress from 'cli-progress';
import type { CountryRisk, ListEntity, ListSourceId, ListVersion } from '../model';
import { hashFiles, ListParseError, ParseContext, type ProgressEvent, totalSize } from './common';
import { listDefinition } from './catalog';
import type { ListConfig, ListsConfig } from './config';
import { systemClock } from '../../shared/clock';

/** Why one list did not load. */
export interface LoadFailure {
  source: ListSourceId;
  file: string;
  line?: number;
  field?: string;
  message: string;
}

/** One list, loaded. */
export interface LoadedList {
  version: ListVersion;
  entities: ListEntity[];
  countryRisk?: CountryRisk[];
  countryRiskHistory?: CountryRisk[];
  /** Raw record counts per file role, as the parser read them. */
  stats?: Record<string, number>;
}

export interface LoadResult {
  entities: ListEntity[];
  versions: ListVersion[];
  countryRisk: CountryRisk[];
  /** Every FATF row over time (countryRisk holds only the latest per country). */
  countryRiskHistory: CountryRisk[];
  failures: LoadFailure[];
  lists: LoadedList[];
}

export interface LoadOptions {
  onProgress?: (e: ProgressEvent) => void;
  /** Show a cli-progress bar per list. Default: only when stdout is a TTY. */
  progressBar?: boolean;
  /** Clock for loadedAt (tests). */
  now?: () => Date;
}

export function versionId(source: ListSourceId, contentHash: string): string {
  return `${source}@${contentHash.slice(0, 16)}`;
}

/** Normalise an issuer date to an ISO date (YYYY-MM-DD) when it is a timestamp. */
function isoDay(s: string | undefined): string | undefined {
  if (!s) return undefined;
  const m = /^(\d{4}-\d{2}-\d{2})/.exec(s);
  return m ? m[1] : s;
}

/**
 * The publication date of a list version, most trusted first: stated inside the file; the snapshot
 * manifest (bundled lists); the HTTP Last-Modified that `svc lists update` recorded beside each file
 * (`<file>.meta.json`, the oldest of the list's files); else the oldest file's modification time.
 */
async function publicationDate(
  inFile: string | undefined,
  manifest: string | undefined,
  files: string[],
): Promise<{ date: string; from: NonNullable<ListVersion['publishedAtSource']> } | undefined> {
  if (inFile) return { date: inFile, from: 'file' };
  if (manifest) return { date: manifest, from: 'manifest' };
  const fromDownload: string[] = [];
  for (const f of files) {
    try {
      const meta = JSON.parse(await fsp.readFile(`${f}.meta.json`, 'utf8')) as { lastModified?: string; fetchedAt?: string };
      const when = meta.lastModified ?? meta.fetchedAt;
      const t = when ? new Date(when) : undefined;
      if (t && !Number.isNaN(t.getTime())) fromDownload.push(t.toISOString().slice(0, 10));
    } catch {
      /* not downloaded by svc lists update */
    }
  }
  if (fromDownload.length === files.length && files.length) return { date: fromDownload.sort()[0], from: 'download' };
  if (!files.length) return undefined;
  const times = await Promise.all(files.map((f) => fsp.stat(f).then((st) => st.mtime.toISOString().slice(0, 10))));
  return { date: times.sort()[0], from: 'file_date' };
}

/** Load one list. Throws ListParseError (or an I/O error) when the list cannot be loaded. */
export async function loadList(cfg: ListConfig, opts: LoadOptions = {}): Promise<LoadedList> {
  const def = listDefinition(cfg.source);
  if (!def) throw new ListParseError(cfg.dir, `unknown list source "${cfg.source}"`);
  const files = await def.resolveFiles(cfg.dir, cfg.files);
  const [contentHash, total] = await Promise.all([hashFiles(files), totalSize(files)]);
  const ctx = new ParseContext(cfg.source, total, opts.onProgress);
  const parsed = await def.parse(ctx, files);
  const id = versionId(cfg.source, contentHash);
  const dated = await publicationDate(isoDay(parsed.publishedAt), cfg.publishedAt, files);
  const version: ListVersion = {
    id,
    source: cfg.source,
    contentHash,
    ...(dated ? { publishedAt: dated.date, publishedAtSource: dated.from } : {}),
    loadedAt: (opts.now?.() ?? systemClock.now()).toISOString(),
    entityCount: parsed.entities.length,
    files: files.map((f) => path.basename(f)),
  };
  for (const e of parsed.entities) e.listVersion = id;
  return {
    version,
    entities: parsed.entities,
    ...(parsed.countryRisk ? { countryRisk: parsed.countryRisk } : {}),
    ...(parsed.countryRiskHistory ? { countryRiskHistory: parsed.countryRiskHistory } : {}),
    ...(parsed.stats ? { stats: parsed.stats } : {}),
  };
}

export function toFailure(source: ListSourceId, err: unknown): LoadFailure {
  if (err instanceof ListParseError) {
    return {
      source,
      file: err.file,
      ...(err.line !== undefined ? { line: err.line } : {}),
      ...(err.field ? { field: err.field } : {}),
      message: err.message,
    };
  }
  const e = err as NodeJS.ErrnoException;
  return { source, file: e.path ?? '', message: e.message ?? String(err) };
}

/**
 * Load every configured list, each independently: a list that fails is reported in `failures` and
 * the others still load. Shows a progress bar per list on a terminal.
 */
export async function loadAllLists(config: ListsConfig, opts: LoadOptions = {}): Promise<LoadResult> {
  const showBar = opts.progressBar ?? Boolean(process.stdout.isTTY);
  const multibar = showBar
    ? new cliProgress.MultiBar(
        { format: ' {source} |{bar}| {percentage}% | {value}/{total} bytes', hideCursor: true, clearOnComplete: false },
        cliProgress.Presets.shades_classic,
      )
    : undefined;
  const bars = new Map<string, cliProgress.SingleBar>();
  const onProgress = (e: ProgressEvent) => {
    if (multibar) {
      let bar = bars.get(e.source);
      if (!bar) {
        bar = multibar.create(e.totalBytes, 0, { source: e.source.padEnd(20) });
        bars.set(e.source, bar);
      }
      bar.update(e.bytesRead);
    }
    opts.onProgress?.(e);
  };

  const settled = await Promise.all(
    config.lists.map(async (cfg) => {
      try {
        return { ok: true as const, list: await loadList(cfg, { ...opts, onProgress }) };
      } catch (err) {
        return { ok: false as const, failure: toFailure(cfg.source, err) };
      }
    }),
  );
  multibar?.stop();
  return assemble(
    settled.filter((s) => s.ok).map((s) => (s as { list: LoadedList }).list),
    settled.filter((s) => !s.ok).map((s) => (s as { failure: LoadFailure }).failure),
  );
}

export function assemble(lists: LoadedList[], failures: LoadFailure[]): LoadResult {
  return {
    entities: lists.flatMap((l) => l.entities),
    versions: lists.map((l) => l.version),
    countryRisk: lists.flatMap((l) => l.countryRisk ?? []),
    countryRiskHistory: lists.flatMap((l) => l.countryRiskHistory ?? []),
    failures,
    lists,
  };
}
