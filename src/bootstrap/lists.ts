/**
 * Lists and the screening engine: the registry (versions kept under DATA_DIR so auditors can re-run a
 * screening against them), the engine in service (swapped on reload), and the freshness checks.
 */
import type { Config } from '../config/config';
import type { Logger } from '../shared/logger';
import type { Clock } from '../shared/clock';
import { ListRegistry } from '../screening/lists/registry';
import { listsConfigFor } from './lists-config';
import { freshnessByDay, ListsStaleError, type FreshnessPolicy, type ListFreshness } from '../screening/lists/freshness';
import { ScreeningEngine } from '../screening/engine';
import { loadEngineCached, type CachedSnapshot } from '../screening/index-snapshot';
import type { CountryRisk, ListEntity, ListVersion } from '../screening/model';
import { CountrySanctions, loadCountrySanctions, type SanctionsProgrammeFinding } from '../screening/lists/country-sanctions';
import type { ListVersionRef } from '../commands/screening';
import type { ListsInServiceView } from '../app/services';

/**
 * Recent queries whose candidates the engine keeps: the four list agents of a screening ask for the
 * same name in turn, and a few hundred covers every screening in flight.
 */
const RECENT_QUERIES = 256;

export type LoadResult = Awaited<ReturnType<ListRegistry['loadAll']>>;

export interface ListsInService {
  registry: ListRegistry;
  engine(): ScreeningEngine;
  /** The lists the engine in service was built from (a batch job's worker threads build their engines from them). */
  entities(): { entities: ListEntity[]; versions: ListVersion[]; snapshot?: CachedSnapshot };
  countryRisk(): CountryRisk[];
  /** Sanctions programmes targeting a country (reviewed classification), their designations counted on the engine in service. */
  countrySanctions(iso2: string): SanctionsProgrammeFinding[];
  /** How old each list is, by the injected clock. */
  status(): readonly ListFreshness[];
  /** A stale list refuses new work when LISTS_STALE_POLICY=refuse. */
  gate: { assertUsable(): void };
  inService(): ListsInServiceView;
  engineVersions(): { listVersions: ListVersionRef[]; matcherVersion: string };
  /** Reloads every list and swaps the engine in service (the caller monitors the deltas). */
  reload(): Promise<LoadResult>;
}

export async function loadLists(config: Config, logger: Logger, clock: Clock): Promise<ListsInService> {
  const listsConfig = listsConfigFor(config, { persist: true });
  const registry = new ListRegistry(listsConfig);
  // the lists and the index from the cache when it holds this list set (else loaded, built and cached)
  const cached = await loadEngineCached(listsConfig, {
    progressBar: Boolean(process.stdout.isTTY) && config.NODE_ENV !== 'test',
    recentQueries: RECENT_QUERIES,
    onCacheError: (error) => logger.warn({ err: error }, 'index cache not written'),
  });
  const loaded = registry.installAll(cached.load);
  for (const failure of loaded.failures) logger.error({ failure }, 'list failed to load: previous version (if any) stays in service');
  let engine = cached.engine;
  // the snapshot, while it is the engine in service's: a batch job's workers start from it
  let built: { entities: ListEntity[]; versions: ListVersion[]; snapshot?: CachedSnapshot } = {
    entities: cached.load.entities,
    versions: cached.load.versions,
    ...(cached.snapshot ? { snapshot: cached.snapshot } : {}),
  };
  let countryRisk: CountryRisk[] = loaded.countryRisk;
  const countrySanctions = new CountrySanctions(loadCountrySanctions());
  logger.info({ entities: loaded.entities.length, lists: loaded.versions.map((v) => v.id), fromCache: cached.fromCache }, 'lists loaded');
  // A stale list warns (or refuses, LISTS_STALE_POLICY).
  const freshnessPolicy: FreshnessPolicy = { sanctionsMaxAgeDays: config.LISTS_MAX_AGE_DAYS, perList: config.LISTS_MAX_AGE };
  // Ages are whole days: worked out once per list set and UTC day, not per request and completion.
  const freshness = freshnessByDay(freshnessPolicy);
  const status = () => freshness(engine.versions, clock.now());
  // Recorded by every completed screening: the same until the lists or the day change.
  let kept: { status: readonly ListFreshness[]; engine: ScreeningEngine; refs: { listVersions: ListVersionRef[]; matcherVersion: string } } | undefined;
  return {
    registry,
    engine: () => engine,
    entities: () => built,
    countryRisk: () => countryRisk,
    countrySanctions: (iso2) => countrySanctions.programmesFor(iso2, engine),
    status,
    gate: {
      assertUsable: () => {
        if (config.LISTS_STALE_POLICY !== 'refuse') return;
        const stale = status().filter((f) => f.stale);
        if (stale.length) throw new ListsStaleError(stale);
      },
    },
    inService: () => {
      const current = status();
      return {
        lists_in_service: current.map((f) => ({ list: f.source, version: f.versionId, published_at: f.publishedAt, age_days: f.ageDays, max_age_days: f.maxAgeDays, stale: f.stale })),
        list_warnings: current.flatMap((f) => (f.warning ? [f.warning] : [])),
      };
    },
    engineVersions: () => {
      const current = status();
      if (kept?.status !== current || kept.engine !== engine) kept = { status: current, engine, refs: versionRefs(engine, current) };
      return kept.refs;
    },
    reload: async () => {
      const result = await registry.loadAll({ progressBar: false });
      engine = ScreeningEngine.build(result.entities, result.versions, { recentQueries: RECENT_QUERIES });
      built = { entities: result.entities, versions: result.versions };
      countryRisk = result.countryRisk;
      return result;
    },
  };
}

function versionRefs(engine: ScreeningEngine, status: readonly ListFreshness[]): { listVersions: ListVersionRef[]; matcherVersion: string } {
  const fresh = new Map(status.map((f) => [f.versionId, f]));
  return {
    listVersions: engine.versions.map((v) => {
      const f = fresh.get(v.id)!;
      return {
        id: v.id,
        source: v.source,
        contentHash: v.contentHash,
        ...(v.publishedAt ? { publishedAt: v.publishedAt } : {}),
        ...(v.publishedAtSource ? { publishedAtSource: v.publishedAtSource } : {}),
        loadedAt: v.loadedAt,
        ...(f.ageDays !== null ? { ageDays: f.ageDays } : {}),
        ...(f.maxAgeDays !== null ? { maxAgeDays: f.maxAgeDays } : {}),
        stale: f.stale,
      };
    }),
    matcherVersion: engine.matcherVersion,
  };
}
