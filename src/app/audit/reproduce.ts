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
import { agentSubjectOfScreening } from '../../agents/runtime/screening-subject';
import { internalListsOfResult, withInternalLists } from '../../agents/lists/internal-lists';
import { sanctionsListAgent } from '../../agents/person/agents';
import type { PersonSubject } from '../../agents/person/types';
import { personCheckStreamName, type PersonCheckRequested } from '../../commands/person-check';
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

/** The official list versions a run recorded, read back from the kept versions: their entities, as engine versions, and what the report says of each. */
async function officialVersions(lists: ListVersionSource, recorded: readonly { id: string; source: string; contentHash: string; publishedAt?: string }[], loadedAt: string) {
  const entities: ListEntity[] = [];
  const versions: ListVersion[] = [];
  const listVersions: ReproduceReport['listVersions'] = [];
  for (const v of recorded) {
    const got = await lists.getVersion(v.id);
    listVersions.push({ id: v.id, source: v.source, contentHash: v.contentHash, publishedAt: v.publishedAt ?? null, available: got !== undefined, entities: got?.length ?? 0 });
    if (got) {
      entities.push(...got);
      versions.push({ id: v.id, source: v.source as ListVersion['source'], contentHash: v.contentHash, ...(v.publishedAt ? { publishedAt: v.publishedAt } : {}), loadedAt, entityCount: got.length, files: [] });
    }
  }
  return { entities, versions, listVersions };
}

/**
 * The account's own lists at the versions a run used, rebuilt from their event streams (issue 21). Each
 * is said in `listVersions`, usable only when it is the account's and its content hash is the recorded one.
 */
async function internalSnapshots(
  store: Pick<EventStore, 'readStream'>,
  accountId: string,
  used: readonly { id: string; ref: { watchlistId: string; version: number } | undefined; contentHash: string }[],
  listVersions: ReproduceReport['listVersions'],
): Promise<WatchlistSnapshot[]> {
  const snapshots: WatchlistSnapshot[] = [];
  for (const v of used) {
    const snapshot = v.ref ? await watchlistAtVersion(store, v.ref.watchlistId, v.ref.version) : undefined;
    const usable = snapshot !== undefined && snapshot.list.accountId === accountId && watchlistContentHash(snapshot.entries) === v.contentHash;
    listVersions.push({ id: v.id, source: INTERNAL_LIST_SOURCE, contentHash: v.contentHash, publishedAt: null, available: usable, entities: snapshot?.entries.length ?? 0 });
    if (usable) snapshots.push(snapshot);
  }
  return snapshots;
}

/** What was recorded and what came out again, by key: only on one side, or on both and different. */
function compareByKey<T>(then: ReadonlyMap<string, T>, now: ReadonlyMap<string, T>, differs: (recorded: T, reproduced: T) => boolean) {
  const onlyRecorded = [...then].filter(([k]) => !now.has(k)).map(([, v]) => v);
  const onlyReproduced = [...now].filter(([k]) => !then.has(k)).map(([, v]) => v);
  const changed = [...then]
    .filter(([k]) => now.has(k))
    .map(([key, recorded]) => ({ key, recorded, reproduced: now.get(key)! }))
    .filter((c) => differs(c.recorded, c.reproduced));
  return { onlyRecorded, onlyReproduced, changed, same: onlyRecorded.length === 0 && onlyReproduced.length === 0 && changed.length === 0 };
}
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

  const internal = completed.data.listVersions.filter((v) => v.source === INTERNAL_LIST_SOURCE);
  const official = completed.data.listVersions.filter((v) => v.source !== INTERNAL_LIST_SOURCE);
  const { entities, versions, listVersions } = await officialVersions(deps.lists, official, completed.data.completedAt);
  const internalUsed = internal.map((v) => ({ id: v.id, ref: parseWatchlistVersionId(v.id), contentHash: v.contentHash }));
  const snapshots = await internalSnapshots(deps.store, requested.data.accountId, internalUsed, listVersions);
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
    // Every fact the screening was requested with (phone and e-mail confirm and weigh too), and the internal-list versions it used.
    const outcome = await agent.run(
      agentSubjectOfScreening(subject, { workflow: `screening-${screeningId}`, accountId: requested.data.accountId, internalListVersions: internal.map((v) => v.id) }),
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
  const { onlyRecorded, onlyReproduced, changed: differing, same } = compareByKey(then, now, (a, b) => a.score !== b.score || a.entityRecordHash !== b.entityRecordHash);
  const changed = differing.map((c) => ({ hitId: c.key, recorded: c.recorded, reproduced: c.reproduced }));
  return {
    ...empty,
    same,
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

/** A person check's list record as reproduce compares it: the entity, its category and the name score. */
export interface RecordFacts {
  entityId: string;
  category: string;
  nameScore: number;
}

export interface PersonCheckReproduceReport {
  personCheckId: string;
  /** True when every recorded list record of phase 3 came out again, identical, and nothing new appeared. */
  same: boolean;
  matcher: { current: string };
  listVersions: ReproduceReport['listVersions'];
  recordedListRecords: number;
  reproducedRecords: number;
  onlyRecorded: RecordFacts[];
  onlyReproduced: RecordFacts[];
  changed: { key: string; recorded: RecordFacts; reproduced: RecordFacts }[];
  /**
   * The request named documents: only their last four characters were kept, so the re-run searches the
   * internal lists without them, and a record their whole value found is reported as only recorded.
   */
  documentsNotKept: boolean;
  error?: string;
}

type RecordedListResult = {
  phase: number;
  agent: string;
  queried: boolean;
  result: { records?: { entityId?: string; category: string; nameScore: number }[]; data?: { listVersions?: { id: string; source: string; contentHash: string; publishedAt?: string }[]; internalLists?: unknown } };
};

/**
 * `svc audit reproduce <person-check-id>`: re-runs a completed person check's phase-3 list search (the
 * official sanctions, debarment and export-control lists, and the account's own lists) against the list
 * versions its list agent recorded, with the subject its phase 1 recorded, and compares the records.
 * The other sources (courts, registries, news) are outside sources and are not re-run.
 */
export async function reproducePersonCheck(deps: { store: Pick<EventStore, 'readStream'>; lists: ListVersionSource }, personCheckId: string): Promise<PersonCheckReproduceReport> {
  const events = await deps.store.readStream(personCheckStreamName(personCheckId));
  const requested = events.find((e) => e.type === 'PersonCheckRequested') as unknown as PersonCheckRequested | undefined;
  const completed = events.some((e) => e.type === 'PersonCheckCompleted');
  const results = events.filter((e) => e.type === 'PersonCheckAgentResultRecorded').map((e) => e.data as unknown as RecordedListResult & { result: { subject?: PersonSubject } });
  const empty: PersonCheckReproduceReport = {
    personCheckId,
    same: false,
    matcher: { current: MATCHER_VERSION },
    listVersions: [],
    recordedListRecords: 0,
    reproducedRecords: 0,
    onlyRecorded: [],
    onlyReproduced: [],
    changed: [],
    documentsNotKept: (requested?.data.identifiers.length ?? 0) > 0,
  };
  if (!requested) return { ...empty, error: `person check ${personCheckId} does not exist` };
  if (!completed) return { ...empty, error: `person check ${personCheckId} has not completed` };
  const listResult = results.find((r) => r.phase === 3 && r.agent === 'sanctions_list');
  const subject = results.find((r) => r.phase === 1 && r.agent === 'standardisation')?.result.subject;
  if (!listResult?.queried || !subject) return { ...empty, error: 'the check recorded no list search to reproduce' };
  const official = listResult.result.data?.listVersions;
  if (!official) return { ...empty, error: 'the check predates recorded list versions: nothing to reproduce against' };

  const { entities, versions, listVersions } = await officialVersions(deps.lists, official, requested.data.requestedAt);
  const internal = internalListsOfResult(listResult.result.data as Record<string, unknown> | undefined);
  const internalUsed = internal.map((v) => ({ id: v.versionId, ref: { watchlistId: v.watchlistId, version: v.version }, contentHash: v.contentHash }));
  const snapshots = await internalSnapshots(deps.store, requested.data.accountId, internalUsed, listVersions);
  const recordedRecords = (listResult.result.records ?? []).filter((r) => r.entityId);
  const missing = listVersions.filter((v) => !v.available).map((v) => v.id);
  if (missing.length) return { ...empty, listVersions, recordedListRecords: recordedRecords.length, error: `list version(s) not kept: ${missing.join(', ')}` };

  const engine = ScreeningEngine.build(entities, versions);
  const internalIndex = snapshots.length ? buildInternalListIndex(snapshots, requested.data.requestedAt) : undefined;
  const agent = sanctionsListAgent(() => engine, internalIndex ? { indexFor: async () => internalIndex } : undefined);
  const outcome = await agent.run(subject, { signal: new AbortController().signal, now: () => new Date(requested.data.requestedAt), accountId: requested.data.accountId });
  if (!outcome.queried) return { ...empty, listVersions, recordedListRecords: recordedRecords.length, error: `the list search failed: ${outcome.error}` };

  const keyOf = (r: RecordFacts) => `${r.category}:${r.entityId}`;
  const facts = (r: { entityId?: string; category: string; nameScore: number }): RecordFacts => ({ entityId: r.entityId ?? '', category: r.category, nameScore: round3(r.nameScore) });
  // one record per entity and category: the best name score (several search names may find one entity)
  const byKey = (rs: readonly { entityId?: string; category: string; nameScore: number }[]) => {
    const out = new Map<string, RecordFacts>();
    for (const r of rs.filter((x) => x.entityId)) {
      const f = facts(r);
      const k = keyOf(f);
      if (!out.has(k) || out.get(k)!.nameScore < f.nameScore) out.set(k, f);
    }
    return out;
  };
  const then = byKey(recordedRecords);
  const now = byKey(outcome.records);
  const { onlyRecorded, onlyReproduced, changed, same } = compareByKey(then, now, (a, b) => a.nameScore !== b.nameScore);
  return {
    ...empty,
    same,
    listVersions,
    recordedListRecords: then.size,
    reproducedRecords: now.size,
    onlyRecorded,
    onlyReproduced,
    changed,
  };
}

/** Human-readable report of a person check's reproduction, for the CLI. */
export function formatPersonCheckReproduceReport(r: PersonCheckReproduceReport): string {
  const lines: string[] = [];
  lines.push(`person check ${r.personCheckId}: ${r.error ? `CANNOT REPRODUCE: ${r.error}` : r.same ? 'SAME RESULT' : 'DIFFERENT RESULT'} (list search of phase 3; matcher running ${r.matcher.current})`);
  for (const v of r.listVersions) lines.push(`list ${v.id} (content ${v.contentHash.slice(0, 16)}…, published ${v.publishedAt ?? '-'}): ${v.available ? `${v.entities} entities` : 'NOT KEPT'}`);
  lines.push(`recorded list records: ${r.recordedListRecords}; reproduced: ${r.reproducedRecords}`);
  for (const x of r.onlyRecorded) lines.push(`  only recorded:   ${x.category}:${x.entityId} name score ${x.nameScore}`);
  for (const x of r.onlyReproduced) lines.push(`  only reproduced: ${x.category}:${x.entityId} name score ${x.nameScore}`);
  for (const c of r.changed) lines.push(`  changed:         ${c.key} name score ${c.recorded.nameScore} -> ${c.reproduced.nameScore}`);
  if (r.documentsNotKept) lines.push('the request named documents: only their last four characters were kept, so the internal lists were searched again without them');
  return `${lines.join('\n')}\n`;
}
