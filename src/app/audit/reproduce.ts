/**
 * `svc audit reproduce <screening-id>`: re-runs a completed screening's list matching against the list
 * versions it recorded (ScreeningCompleted.listVersions, kept by ListRegistry in memory or under its
 * data dir) with the pipeline's own list agents, and compares the hits with the recorded ones: same hit
 * ids, same entity record hashes, same scores. The matcher version it recorded is compared with the
 * running one (a different matcher may legitimately score differently, and the report says so).
 * Hits from outside sources (adverse media, APIs) cannot be re-run from lists and are listed apart.
 */
import type { ReportHit } from '../../reports/model';
import { createListAgents } from '../../agents/lists/list-agents';
import { withInternalLists } from '../../agents/lists/internal-lists';
import { INTERNAL_LIST_SOURCE, parseWatchlistVersionId } from '../../screening/watchlists/model';
import { watchlistAtVersion, type WatchlistSnapshot } from '../watchlists/watchlist-service';
import { buildInternalListIndex, watchlistContentHash } from '../watchlists/watchlist-index';
import { screeningDecider, type ScreeningCompleted, type ScreeningEvent, type ScreeningRequested } from '../../commands/screening';
import type { EventStore } from '../../infrastructure/eventstore/port';
import { MATCHER_VERSION, ScreeningEngine } from '../../screening/engine';
import type { ListEntity, ListVersion } from '../../screening/model';

export interface ListVersionSource {
  getVersion(versionId: string): Promise<ListEntity[] | undefined>;
}

export interface HitFacts {
  hitId: string;
  entityId: string;
  score: number;
  entityRecordHash: string;
}

export interface ReproduceReport {
  screeningId: string;
  /** True when every recorded list hit came out again, identical, and nothing new appeared. */
  same: boolean;
  matcher: { recorded: string; current: string; same: boolean };
  listVersions: { id: string; source: string; contentHash: string; publishedAt: string | null; available: boolean; entities: number }[];
  recordedListHits: number;
  reproducedHits: number;
  onlyRecorded: HitFacts[];
  onlyReproduced: HitFacts[];
  changed: { hitId: string; recorded: HitFacts; reproduced: HitFacts }[];
  /** Recorded hits from outside sources, which a list re-run cannot reproduce. */
  notReproducible: string[];
  /** Why the comparison could not be made (unknown screening, not completed, versions not kept). */
  error?: string;
}

const LIST_CATEGORIES = new Set(['sanctions', 'pep', 'offshore_leaks', 'debarment']);
const round3 = (x: number) => Math.round(x * 1000) / 1000;

export async function reproduceScreening(deps: { store: Pick<EventStore, 'readStream'>; lists: ListVersionSource }, screeningId: string): Promise<ReproduceReport> {
  const events = (await deps.store.readStream(`screening-${screeningId}`)) as unknown as (ScreeningEvent & { streamPosition: bigint })[];
  const requested = events.find((e): e is ScreeningRequested & { streamPosition: bigint } => e.type === 'ScreeningRequested');
  const completed = events.find((e): e is ScreeningCompleted & { streamPosition: bigint } => e.type === 'ScreeningCompleted');
  const empty: ReproduceReport = {
    screeningId,
    same: false,
    matcher: { recorded: completed?.data.matcherVersion ?? 'unknown', current: MATCHER_VERSION, same: completed?.data.matcherVersion === MATCHER_VERSION },
    listVersions: [],
    recordedListHits: 0,
    reproducedHits: 0,
    onlyRecorded: [],
    onlyReproduced: [],
    changed: [],
    notReproducible: [],
  };
  if (!requested) return { ...empty, error: `screening ${screeningId} does not exist` };
  if (!completed) return { ...empty, error: `screening ${screeningId} has not completed` };
  // State check through the decider (the same fold the service uses).
  let state = screeningDecider.initialState();
  for (const e of events) state = screeningDecider.evolve(state, e);

  const entities: ListEntity[] = [];
  const versions: ListVersion[] = [];
  const listVersions: ReproduceReport['listVersions'] = [];
  const internal = completed.data.listVersions.filter((v) => v.source === INTERNAL_LIST_SOURCE);
  for (const v of completed.data.listVersions) {
    if (v.source === INTERNAL_LIST_SOURCE) continue;
    const got = await deps.lists.getVersion(v.id);
    listVersions.push({ id: v.id, source: v.source, contentHash: v.contentHash, publishedAt: v.publishedAt ?? null, available: got !== undefined, entities: got?.length ?? 0 });
    if (got) {
      entities.push(...got);
      versions.push({ id: v.id, source: v.source as ListVersion['source'], contentHash: v.contentHash, ...(v.publishedAt ? { publishedAt: v.publishedAt } : {}), loadedAt: completed.data.completedAt, entityCount: got.length, files: [] });
    }
  }
  // The account's own lists at the versions the screening used, rebuilt from their event streams (issue 21).
  const snapshots: WatchlistSnapshot[] = [];
  for (const v of internal) {
    const ref = parseWatchlistVersionId(v.id);
    const snapshot = ref ? await watchlistAtVersion(deps.store, ref.watchlistId, ref.version) : undefined;
    const usable = snapshot !== undefined && snapshot.list.accountId === requested.data.accountId && watchlistContentHash(snapshot.entries) === v.contentHash;
    listVersions.push({ id: v.id, source: v.source, contentHash: v.contentHash, publishedAt: null, available: usable, entities: snapshot?.entries.length ?? 0 });
    if (usable) snapshots.push(snapshot);
  }
  const internalIndex = snapshots.length ? buildInternalListIndex(snapshots, completed.data.completedAt) : undefined;
  const missing = listVersions.filter((v) => !v.available).map((v) => v.id);
  const recorded = completed.data.hits.filter((h) => LIST_CATEGORIES.has(h.category) && !h.entityRecordHash.startsWith('external:'));
  const notReproducible = completed.data.hits.filter((h) => !recorded.includes(h)).map((h) => h.hitId);
  if (missing.length) return { ...empty, listVersions, recordedListHits: recorded.length, notReproducible, error: `list version(s) not kept: ${missing.join(', ')}` };

  const engine = ScreeningEngine.build(entities, versions);
  const subject = requested.data.subject;
  const reproduced: ReportHit[] = [];
  const signal = new AbortController().signal;
  const agents = createListAgents(() => engine).map((agent) => (agent.name === 'sanctions' && internalIndex ? withInternalLists(agent, { indexFor: async () => internalIndex }) : agent));
  for (const agent of agents) {
    const outcome = await agent.run(
      {
        workflow: `screening-${screeningId}`,
        accountId: requested.data.accountId,
        internalListVersions: internal.map((v) => v.id),
        name: subject.query,
        entityType: subject.entityType,
        ...(subject.entityTypeDefaulted ? { entityTypeDefaulted: true } : {}),
        ...(subject.jurisdiction ? { jurisdiction: subject.jurisdiction } : {}),
        ...(subject.dateOfBirth ? { birthDate: subject.dateOfBirth } : {}),
        ...(subject.nationality ? { nationality: subject.nationality } : {}),
        ...(subject.identifiers?.length ? { identifiers: subject.identifiers } : {}),
        // the internal lists weigh the address: a hit it supported reproduces only with it
        ...(subject.address ? { address: subject.address } : {}),
      },
      { signal },
    );
    if (outcome.queried) reproduced.push(...outcome.hits);
  }
  const facts = (h: { hitId: string; entityId: string; score: number; entityRecordHash?: string }): HitFacts => ({
    hitId: h.hitId,
    entityId: h.entityId,
    score: round3(h.score),
    entityRecordHash: h.entityRecordHash ?? '',
  });
  const now = new Map(reproduced.map((h) => [h.hitId, facts(h)]));
  const then = new Map(recorded.map((h) => [h.hitId, facts(h)]));
  const onlyRecorded = [...then.values()].filter((h) => !now.has(h.hitId));
  const onlyReproduced = [...now.values()].filter((h) => !then.has(h.hitId));
  const changed = [...then.values()]
    .filter((h) => now.has(h.hitId))
    .map((h) => ({ hitId: h.hitId, recorded: h, reproduced: now.get(h.hitId)! }))
    .filter((c) => c.recorded.score !== c.reproduced.score || c.recorded.entityRecordHash !== c.reproduced.entityRecordHash);
  return {
    ...empty,
    same: onlyRecorded.length === 0 && onlyReproduced.length === 0 && changed.length === 0,
    listVersions,
    recordedListHits: recorded.length,
    reproducedHits: reproduced.length,
    onlyRecorded,
    onlyReproduced,
    changed,
    notReproducible,
    ...(state.status === 'none' ? { error: 'unreadable stream' } : {}),
  };
}

/** Human-readable report for the CLI. */
export function formatReproduceReport(r: ReproduceReport): string {
  const lines: string[] = [];
  lines.push(`screening ${r.screeningId}: ${r.error ? `CANNOT REPRODUCE: ${r.error}` : r.same ? 'SAME RESULT' : 'DIFFERENT RESULT'}`);
  lines.push(`matcher: recorded ${r.matcher.recorded}, running ${r.matcher.current}${r.matcher.same ? '' : ' (DIFFERENT: scores may legitimately differ)'}`);
  for (const v of r.listVersions) lines.push(`list ${v.id} (content ${v.contentHash.slice(0, 16)}…, published ${v.publishedAt ?? '-'}): ${v.available ? `${v.entities} entities` : 'NOT KEPT'}`);
  lines.push(`recorded list hits: ${r.recordedListHits}; reproduced: ${r.reproducedHits}`);
  for (const h of r.onlyRecorded) lines.push(`  only recorded:   ${h.hitId} score ${h.score}`);
  for (const h of r.onlyReproduced) lines.push(`  only reproduced: ${h.hitId} score ${h.score}`);
  for (const c of r.changed) lines.push(`  changed:         ${c.hitId} score ${c.recorded.score} -> ${c.reproduced.score}${c.recorded.entityRecordHash !== c.reproduced.entityRecordHash ? ', record hash differs' : ''}`);
  if (r.notReproducible.length) lines.push(`not reproducible from lists (outside sources): ${r.notReproducible.join(', ')}`);
  return `${lines.join('\n')}\n`;
}
