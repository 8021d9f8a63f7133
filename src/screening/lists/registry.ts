import { createReadStream, createWriteStream, promises as fsp } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { createGunzip, createGzip } from 'node:zlib';
import type { CountryRisk, ListEntity, ListSourceId, ListVersion } from '../model';
import { computeDelta, type ListDelta } from '../delta';
import type { ListConfig, ListsConfig } from './config';
import { assemble, loadAllLists, loadList, type LoadedList, type LoadFailure, type LoadOptions, type LoadResult, toFailure } from './load';

export type ReloadOutcome =
  | { source: ListSourceId; ok: true; version: ListVersion; previous?: ListVersion; delta?: ListDelta; unchanged: boolean }
  | { source: ListSourceId; ok: false; failure: LoadFailure; kept?: ListVersion };

/**
 * Keeps the current good version of each list in service. A reload that fails leaves the previous
 * version in place. Older versions stay in memory while something holds a reference (retain), and
 * are written to `<dataDir>/versions/` so an auditor can re-run a screening against a recorded version.
 */
export class ListRegistry {
  private readonly current = new Map<ListSourceId, LoadedList>();
  private readonly inMemory = new Map<string, LoadedList>();
  private readonly refs = new Map<string, number>();
  private readonly known = new Map<string, ListVersion>();
  private readonly lastFailures = new Map<ListSourceId, LoadFailure>();
  private persisting: Promise<void> = Promise.resolve();

  constructor(
    private readonly config: ListsConfig,
    private readonly opts: { dataDir?: string; onError?: (err: unknown) => void } = {},
  ) {}

  private get dataDir(): string | undefined {
    return this.opts.dataDir ?? this.config.dataDir;
  }

  /** Load every configured list. A list that fails keeps its previous version (if any). */
  async loadAll(opts: LoadOptions = {}): Promise<LoadResult> {
    return this.installAll(await loadAllLists(this.config, opts));
  }

  /** Take lists loaded elsewhere (restored from the index cache, src/screening/index-snapshot.ts) as loadAll would. */
  installAll(res: LoadResult): LoadResult {
    for (const l of res.lists) this.install(l);
    for (const f of res.failures) this.lastFailures.set(f.source, f);
    return { ...this.snapshot(), failures: res.failures };
  }

  /** Reload one list (optionally from another directory, e.g. a fresh download) and compute its delta. */
  async reload(source: ListSourceId, override?: Partial<ListConfig>, opts: LoadOptions = {}): Promise<ReloadOutcome> {
    const base = this.config.lists.find((l) => l.source === source);
    const cfg: ListConfig | undefined = base || override?.dir ? ({ ...base, ...override, source } as ListConfig) : undefined;
    const previous = this.current.get(source);
    if (!cfg) {
      return { source, ok: false, failure: { source, file: '', message: `list ${source} is not configured` }, kept: previous?.version };
    }
    try {
      const loaded = await loadList(cfg, opts);
      if (previous && previous.version.contentHash === loaded.version.contentHash) {
        const delta: ListDelta = { source, fromVersion: previous.version.id, toVersion: previous.version.id, added: [], removed: [], changed: [], unchanged: previous.entities.length };
        return { source, ok: true, version: previous.version, previous: previous.version, unchanged: true, delta };
      }
      this.install(loaded);
      this.lastFailures.delete(source);
      return {
        source,
        ok: true,
        version: loaded.version,
        unchanged: false,
        ...(previous
          ? { previous: previous.version, delta: computeDelta(previous.entities, loaded.entities, { from: previous.version, to: loaded.version }) }
          : {}),
      };
    } catch (err) {
      const failure = toFailure(source, err);
      this.lastFailures.set(source, failure);
      return { source, ok: false, failure, ...(previous ? { kept: previous.version } : {}) };
    }
  }

  private install(l: LoadedList): void {
    const old = this.current.get(l.version.source);
    this.current.set(l.version.source, l);
    this.inMemory.set(l.version.id, l);
    this.known.set(l.version.id, l.version);
    if (old && old.version.id !== l.version.id) this.maybeEvict(old.version.id);
    if (this.dataDir) {
      const dir = this.dataDir;
      this.persisting = this.persisting.then(() => persistVersion(dir, l)).catch((err) => this.opts.onError?.(err));
    }
  }

  private maybeEvict(id: string): void {
    const isCurrent = [...this.current.values()].some((l) => l.version.id === id);
    if (!isCurrent && !(this.refs.get(id) ?? 0)) this.inMemory.delete(id);
  }

  /** All current entities, versions and country risk (what the matcher indexes). */
  snapshot(): Omit<LoadResult, 'failures'> & { failures: LoadFailure[] } {
    return assemble([...this.current.values()], [...this.lastFailures.values()]);
  }

  currentVersion(source: ListSourceId): ListVersion | undefined {
    return this.current.get(source)?.version;
  }

  currentVersions(): ListVersion[] {
    return [...this.current.values()].map((l) => l.version);
  }

  countryRisk(): CountryRisk[] {
    return [...this.current.values()].flatMap((l) => l.countryRisk ?? []);
  }

  /** Every version seen by this registry (current and older), plus those persisted on disk. */
  async knownVersions(): Promise<ListVersion[]> {
    const all = new Map(this.known);
    if (this.dataDir) for (const v of await listPersisted(this.dataDir)) if (!all.has(v.id)) all.set(v.id, v);
    return [...all.values()];
  }

  /**
   * Keep a version's entities in memory (e.g. while a screening recorded against it is open).
   * Returns the release function.
   */
  retain(versionId: string): () => void {
    this.refs.set(versionId, (this.refs.get(versionId) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const n = (this.refs.get(versionId) ?? 1) - 1;
      if (n <= 0) this.refs.delete(versionId);
      else this.refs.set(versionId, n);
      this.maybeEvict(versionId);
    };
  }

  /** Entities of a recorded version: from memory, else from `<dataDir>/versions/`. Undefined when unknown. */
  async getVersion(versionId: string): Promise<ListEntity[] | undefined> {
    const mem = this.inMemory.get(versionId);
    if (mem) return mem.entities;
    if (!this.dataDir) return undefined;
    await this.persisting;
    const loaded = await readPersisted(this.dataDir, versionId);
    if (!loaded) return undefined;
    if (this.refs.get(versionId)) this.inMemory.set(versionId, loaded);
    this.known.set(versionId, loaded.version);
    return loaded.entities;
  }

  /** Wait until every version installed so far is on disk. */
  async flush(): Promise<void> {
    await this.persisting;
  }
}

function versionFile(dataDir: string, versionId: string): string {
  const [source] = versionId.split('@');
  return path.join(dataDir, 'versions', source.replace(/[^\w.-]/g, '_'), `${versionId.replace(/[^\w.-]/g, '_')}.jsonl.gz`);
}

/** One gzip'd JSON-lines file per version: a header line (version, country risk), then one entity per line. */
async function persistVersion(dataDir: string, l: LoadedList): Promise<void> {
  const file = versionFile(dataDir, l.version.id);
  try {
    await fsp.access(file);
    return; // content-addressed: already stored
  } catch {
    /* not stored yet */
  }
  await fsp.mkdir(path.dirname(file), { recursive: true });
  const tmp = `${file}.tmp-${process.pid}-${Date.now()}`;
  function* lines() {
    yield `${JSON.stringify({ version: l.version, countryRisk: l.countryRisk ?? [], countryRiskHistory: l.countryRiskHistory ?? [], stats: l.stats ?? {} })}\n`;
    for (const e of l.entities) yield `${JSON.stringify(e)}\n`;
  }
  await pipeline(Readable.from(lines()), createGzip(), createWriteStream(tmp));
  await fsp.rename(tmp, file);
}

async function readPersisted(dataDir: string, versionId: string): Promise<LoadedList | undefined> {
  const file = versionFile(dataDir, versionId);
  try {
    await fsp.access(file);
  } catch {
    return undefined;
  }
  const rl = createInterface({ input: createReadStream(file).pipe(createGunzip()), crlfDelay: Infinity });
  let header: { version: ListVersion; countryRisk: CountryRisk[]; countryRiskHistory: CountryRisk[]; stats: Record<string, number> } | undefined;
  const entities: ListEntity[] = [];
  for await (const line of rl) {
    if (!line) continue;
    if (!header) header = JSON.parse(line);
    else entities.push(JSON.parse(line) as ListEntity);
  }
  if (!header) return undefined;
  return { version: header.version, entities, countryRisk: header.countryRisk, countryRiskHistory: header.countryRiskHistory, stats: header.stats };
}

async function listPersisted(dataDir: string): Promise<ListVersion[]> {
  const root = path.join(dataDir, 'versions');
  const out: ListVersion[] = [];
  let sources: string[] = [];
  try {
    sources = await fsp.readdir(root);
  } catch {
    return out;
  }
  for (const s of sources) {
    for (const f of await fsp.readdir(path.join(root, s)).catch(() => [] as string[])) {
      if (!f.endsWith('.jsonl.gz')) continue;
      const rl = createInterface({ input: createReadStream(path.join(root, s, f)).pipe(createGunzip()) });
      for await (const line of rl) {
        out.push((JSON.parse(line) as { version: ListVersion }).version);
        rl.close();
        break;
      }
    }
  }
  return out;
}
