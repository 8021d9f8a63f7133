/**
 * The screening-detail read model against a real PostgreSQL: for every screening of a varied set
 * (hits from several agents and a repeated hit, sources not queried, a skipped phase, dispositions
 * and a re-opening, monitoring alerts that add, change and remove hits with re-scores, an EDD with
 * its analysis, summary and data gaps, one still running, one failed), the stored fold, finished,
 * is the report folded from the whole stream, as JSON, at every point of the streams; applied one
 * event at a time, in batches, and again (redelivery) alike.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type pg from 'pg';
import { quoteIdent } from '../../../src/projections/projection';
import { createScreeningDetailsProjection, readScreeningDetail, screeningDetailsProjection } from '../../../src/projections/read-models/screening-details';
import type { ReportHit } from '../../../src/reports/model';
import { buildScreeningReport, finishReport, type ReportContext } from '../../../src/projections/screening-report';
import type { RecordedEvent } from '../../../src/shared/events';
import { createTestDatabase, type TestDatabase } from '../../support/postgres';

let db: TestDatabase;
let client: pg.PoolClient;
before(async () => {
  db = await createTestDatabase();
  client = await db.pool.connect();
});
after(async () => {
  client?.release();
  await db?.drop();
});

const AT = (minute: number) => new Date(Date.UTC(2026, 10, 26, 8, minute)).toISOString();
let global = 0n;
const all: RecordedEvent[] = [];
const positions = new Map<string, bigint>();

function add(screeningId: number, type: string, data: Record<string, unknown>, minute = 0): void {
  const streamName = `screening-${screeningId}`;
  const streamPosition = positions.get(streamName) ?? 0n;
  positions.set(streamName, streamPosition + 1n);
  global += 1n;
  all.push({
    type,
    data: { screeningId: String(screeningId), ...data },
    metadata: { eventId: randomUUID(), occurredAt: AT(minute), hash: `h${global}` },
    streamName,
    streamPosition,
    globalPosition: global,
    recordedAt: AT(minute),
  } as unknown as RecordedEvent);
}

const hit = (category: ReportHit['category'], id: string, score: number, extra: Partial<ReportHit> = {}): ReportHit => ({
  hitId: `${category}:ofac_sdn:${id}`,
  category,
  source: 'ofac_sdn',
  sourceLabel: 'OFAC SDN List',
  listAuthority: 'us',
  entityId: `ofac_sdn:${id}`,
  entityName: `ENTITY ${id}`,
  matchedName: `ENTITY ${id}`,
  score,
  status: score >= 0.95 ? 'confirmed' : 'potential',
  explanation: { summary: `Exact match on primary "ENTITY ${id}"; score ${score}.`, qualifiers: [{ kind: 'name_note', effect: 0, detail: 'note' }] },
  programs: ['SDGT'],
  entityRecordHash: `rec-${id}`,
  ...extra,
});

const requested = (id: number, kind = 'cdd', extra: Record<string, unknown> = {}) =>
  add(id, 'ScreeningRequested', { uuid: randomUUID(), accountId: id === 5 ? '8' : '7', kind, surface: id % 2 ? 's1' : 's3', subject: { query: `Subject ${id}`, entityType: 'individual' }, requestedAt: AT(0), ...extra });
const result = (id: number, agent: string, payload: Record<string, unknown>, options: { queried?: boolean; error?: string; phase?: string } = {}) =>
  add(id, 'AgentResultRecorded', {
    phase: options.phase ?? 'lists',
    agent,
    queried: options.queried ?? true,
    ...(options.error ? { error: options.error } : {}),
    result: payload,
    startedAt: AT(1),
    finishedAt: AT(2),
  });
const assessment = (riskScore: number, riskLevel: string) => ({
  assessment: { breakdown: [{ factor: 'sanctions', points: riskScore, detail: 'recorded' }], uncappedScore: riskScore, riskScore, riskLevel, flags: ['recorded'], reason: 'as recorded' },
  facts: { countryRisk: [] },
});
const completed = (id: number, riskScore: number, riskLevel: string, extra: Record<string, unknown> = {}) =>
  add(id, 'ScreeningCompleted', {
    riskScore,
    riskLevel,
    completedAt: AT(3),
    counts: { sanctionsHits: 0, pepHits: 0, adverseMediaHits: 0, offshoreLeaksHits: 0, debarmentHits: 0 },
    hits: [],
    listVersions: [{ id: 'ofac_sdn@abc', source: 'ofac_sdn', contentHash: 'c', publishedAt: '2024-05-01', loadedAt: AT(0), ageDays: 900, maxAgeDays: 7, stale: true }],
    matcherVersion: 'name-matcher/1.0.0',
    ...extra,
  }, 3);

// The streams, interleaved as a busy service writes them.
requested(1);
requested(2, 'edd', { edd: { sourceOfWealth: 'salary' } });
requested(3);
add(1, 'PhaseStarted', { phase: 'lists', startedAt: AT(1), notQueried: [{ agent: 'adverse_media', error: 'no key configured' }] });
result(1, 'sanctions', { hits: [hit('sanctions', '10', 0.9), hit('sanctions', '11', 0.97)] });
result(2, 'sanctions', { hits: [hit('sanctions', '20', 0.96)] });
result(1, 'pep', { hits: [hit('pep', '12', 0.85), hit('pep', '12', 0.85)] });
add(3, 'PhaseSkipped', { phase: 'registries', skippedAt: AT(1), notQueried: [{ agent: 'companies_house', error: 'not configured' }] });
result(1, 'offshore_leaks', {}, { queried: false, error: 'timed out' });
result(1, 'risk_score', assessment(80, 'critical'), { phase: 'finalise' });
result(2, 'risk_score', assessment(60, 'high'), { phase: 'finalise' });
result(2, 'edd_analysis', { markdown: '# EDD\nFindings.', generatedBy: 'rules' }, { phase: 'finalise' });
result(2, 'data_gaps', { dataGaps: [{ area: 'ownership', detail: 'no registry' }] }, { phase: 'finalise' });
result(2, 'summary', { summary: 'One sanctions hit.' }, { phase: 'finalise' });
completed(1, 80, 'critical');
completed(2, 60, 'high');
requested(4);
result(4, 'sanctions', { hits: [hit('sanctions', '40', 0.92)] });
add(4, 'ScreeningFailed', { reason: 'lists unavailable', failedAt: AT(4) });
requested(5);
result(5, 'sanctions', { hits: [hit('sanctions', '50', 0.99), hit('sanctions', '51', 0.88)] });
result(5, 'risk_score', assessment(90, 'critical'), { phase: 'finalise' });
completed(5, 90, 'critical', { summary: 'Recorded summary.' });
// After completion: dispositions, a re-opening, monitoring, re-scores, enrolment.
add(1, 'HitDispositioned', { hitId: 'sanctions:ofac_sdn:10', disposition: 'false_positive', analyst: 'u-1', dispositionedAt: AT(5), reason: 'other DOB', riskScore: 70, riskLevel: 'high' }, 5);
add(1, 'RiskRecomputed', { riskScore: 70, riskLevel: 'high', reason: 'disposition' }, 5);
add(5, 'MonitoringEnrolled', { enrolledAt: AT(5) }, 5);
add(1, 'HitDispositioned', { hitId: 'pep:ofac_sdn:12', disposition: 'true_match', analyst: 'u-2', dispositionedAt: AT(6) }, 6);
add(5, 'MonitoringAlertRaised', { kind: 'new_hit', category: 'sanctions', hitId: 'sanctions:ofac_sdn:52', source: 'ofac_sdn', entityId: 'ofac_sdn:52', matchedName: 'ENTITY 52', score: 0.96, listVersion: 'ofac_sdn@def', entityRecordHash: 'rec-52' }, 7);
add(5, 'MonitoringAlertRaised', { kind: 'changed_hit', category: 'sanctions', hitId: 'sanctions:ofac_sdn:51', source: 'ofac_sdn', entityId: 'ofac_sdn:51', matchedName: 'ENTITY 51', score: 0.91, listVersion: 'ofac_sdn@def', entityRecordHash: 'rec-51b' }, 7);
add(5, 'MonitoringAlertRaised', { kind: 'removed_hit', category: 'sanctions', hitId: 'sanctions:ofac_sdn:50', source: 'ofac_sdn', entityId: 'ofac_sdn:50', matchedName: 'ENTITY 50', score: 0, listVersion: 'ofac_sdn@def' }, 7);
add(5, 'RiskRecomputed', { riskScore: 75, riskLevel: 'high', reason: 'monitoring' }, 7);
add(1, 'HitReopened', { hitId: 'sanctions:ofac_sdn:10', reason: 'record changed', diff: {} }, 8);
add(3, 'PhaseStarted', { phase: 'lists', startedAt: AT(9) }, 9);

const screenings = [1, 2, 3, 4, 5];
const CONTEXTS: ReportContext[] = [
  { agentLabels: {} },
  { agentLabels: { adverse_media: 'Adverse media', companies_house: 'Companies House', offshore_leaks: 'ICIJ Offshore Leaks' }, matcherVersion: 'name-matcher/1.0.0', listVersions: [{ source: 'ofac_sdn', label: 'OFAC SDN list', versionId: 'ofac_sdn@now', contentHash: 'n', loadedAt: AT(0) }] },
];

async function freshSchema(): Promise<string> {
  const schema = `proj_details_${randomUUID().slice(0, 8)}`;
  await client.query(`CREATE SCHEMA ${quoteIdent(schema)}`);
  await screeningDetailsProjection.setup(client, schema);
  return schema;
}

/** Every screening's stored fold, finished, equals the fold of its stream's events through `through`, in every context. */
async function assertFoldsMatch(schema: string, through: bigint): Promise<void> {
  for (const id of screenings) {
    const events = all.filter((e) => e.streamName === `screening-${id}` && e.globalPosition <= through);
    const accountId = (all.find((e) => e.streamName === `screening-${id}`)!.data as { accountId: string }).accountId;
    const row = await readScreeningDetail(client, `${quoteIdent(schema)}.screening_details`, accountId, { screeningId: String(id) });
    if (events.length === 0) {
      assert.equal(row, undefined);
      continue;
    }
    assert.ok(row, `screening ${id} has a row through ${through}`);
    assert.equal(row.position, events.at(-1)!.streamPosition);
    for (const context of CONTEXTS) {
      const stored = finishReport(structuredClone(row.fold), context);
      assert.equal(JSON.stringify(stored), JSON.stringify(buildScreeningReport(structuredClone(events), context)), `screening ${id} through ${through}`);
    }
  }
}

describe('screening-detail read model', () => {
  it('one event at a time: the stored fold is the stream fold after every event', async () => {
    const schema = await freshSchema();
    for (const event of all) {
      await screeningDetailsProjection.apply(client, structuredClone(event), schema);
      await assertFoldsMatch(schema, event.globalPosition);
    }
  });

  it('in read batches, and every batch delivered twice: the same folds', async () => {
    const schema = await freshSchema();
    for (let i = 0; i < all.length; i += 4) {
      const batch = all.slice(i, i + 4);
      await screeningDetailsProjection.applyBatch!(client, structuredClone(batch), schema);
      await screeningDetailsProjection.applyBatch!(client, structuredClone(all.slice(Math.max(0, i - 3), i + 4)), schema);
      await assertFoldsMatch(schema, batch.at(-1)!.globalPosition);
    }
    // a whole replay changes nothing
    await screeningDetailsProjection.applyBatch!(client, structuredClone(all), schema);
    await assertFoldsMatch(schema, global);
  });

  it('keeping the rows it wrote (as the service runs it): the same folds, in batches and on redelivery', async () => {
    const kept = createScreeningDetailsProjection();
    const schema = await freshSchema();
    for (let i = 0; i < all.length; i += 3) {
      const batch = all.slice(i, i + 3);
      await kept.applyBatch!(client, structuredClone(batch), schema);
      if (i % 2 === 0) await kept.applyBatch!(client, structuredClone(all.slice(Math.max(0, i - 2), i + 3)), schema);
      await assertFoldsMatch(schema, batch.at(-1)!.globalPosition);
    }
    await kept.applyBatch!(client, structuredClone(all), schema);
    await assertFoldsMatch(schema, global);
  });

  it('keeping rows: a rolled-back batch applied again, and rows another writer moved, give the same folds', async () => {
    const kept = createScreeningDetailsProjection();
    const schema = await freshSchema();
    const third = Math.floor(all.length / 3);
    await kept.applyBatch!(client, structuredClone(all.slice(0, third)), schema);
    // The runner's transaction fails after the write (the kept rows are now ahead of the table), and its retry applies the batch again.
    await client.query('BEGIN');
    await kept.applyBatch!(client, structuredClone(all.slice(third, 2 * third)), schema);
    await client.query('ROLLBACK');
    await assertFoldsMatch(schema, all[third - 1]!.globalPosition);
    await kept.applyBatch!(client, structuredClone(all.slice(third, 2 * third)), schema);
    await assertFoldsMatch(schema, all[2 * third - 1]!.globalPosition);
    // Another writer (another process's runner) applies the next events; this one only the ones after.
    const split = 2 * third + Math.floor((all.length - 2 * third) / 2);
    await screeningDetailsProjection.applyBatch!(client, structuredClone(all.slice(2 * third, split)), schema);
    await kept.applyBatch!(client, structuredClone(all.slice(split)), schema);
    await assertFoldsMatch(schema, global);
  });

  it('its write left to the commit round trip (as the runner applies it): the same folds; a row another writer moved fails that commit with 40001 and the batch applied again gives the same folds', async () => {
    const kept = createScreeningDetailsProjection();
    const schema = await freshSchema();
    /** One runner transaction: BEGIN, the batch, then what it left for the commit together with COMMIT. */
    const inTransaction = async (batch: RecordedEvent[]): Promise<void> => {
      const left: string[] = [];
      const committed: (() => void)[] = [];
      await client.query('BEGIN');
      try {
        await kept.applyBatch!(client, structuredClone(batch), schema, {
          atCommit(sql, done) {
            left.push(sql);
            if (done) committed.push(done);
          },
        });
        await client.query([...left, 'COMMIT'].join(';\n'));
      } catch (error) {
        await client.query('ROLLBACK');
        throw error;
      }
      for (const done of committed) done();
    };
    const half = Math.floor(all.length / 2);
    for (let i = 0; i < half; i += 3) {
      await inTransaction(all.slice(i, Math.min(i + 3, half)));
      await assertFoldsMatch(schema, all[Math.min(i + 3, half) - 1]!.globalPosition);
    }
    // Another writer applies the next events; this one's kept rows are now behind the table.
    const split = half + Math.floor((all.length - half) / 2);
    await screeningDetailsProjection.applyBatch!(client, structuredClone(all.slice(half, split)), schema);
    const rest = all.slice(split);
    const streamsOf = (events: RecordedEvent[]) => new Set(events.map((e) => e.streamName));
    const byOther = streamsOf(all.slice(half, split));
    const keptHere = streamsOf(all.slice(0, half));
    assert.ok([...streamsOf(rest)].some((stream) => byOther.has(stream) && keptHere.has(stream)), 'the rest touches a row this writer kept and the other writer moved');
    await assert.rejects(inTransaction(rest), (error: { code?: string }) => error.code === '40001');
    await assertFoldsMatch(schema, all[split - 1]!.globalPosition); // nothing of the failed batch was written
    await inTransaction(rest);
    await assertFoldsMatch(schema, global);

    // The fold is sent as a dollar-quoted literal: text that holds (or ends like) the quote's tag, quotes and backslashes arrive intact.
    const query = `O'Brien \\ $fold$ $fold0$ "x" $fold`;
    const tricky = { ...structuredClone(all[0]!), globalPosition: global + 1n, streamName: 'screening-9', streamPosition: 0n } as RecordedEvent;
    Object.assign(tricky.data as object, { screeningId: '9', uuid: randomUUID(), subject: { query, entityType: 'individual' } });
    await inTransaction([tricky]);
    const row = await readScreeningDetail(client, `${quoteIdent(schema)}.screening_details`, (tricky.data as { accountId: string }).accountId, { screeningId: '9' });
    assert.equal(JSON.stringify(finishReport(row!.fold, CONTEXTS[0]!)), JSON.stringify(buildScreeningReport([tricky], CONTEXTS[0]!)));
    assert.ok(JSON.stringify(row!.fold).includes(JSON.stringify(query).slice(1, -1)));
  });

  it('covers what it says: dispositions, re-scores and monitoring change the folded reports', () => {
    const one = buildScreeningReport(all.filter((e) => e.streamName === 'screening-1'), CONTEXTS[0]!)!;
    assert.equal(one.hits.sanctions.find((h) => h.hitId === 'sanctions:ofac_sdn:10')!.disposition, undefined, 'reopened');
    assert.equal(one.hits.pep[0]!.disposition?.decision, 'true_match');
    assert.equal(one.hits.pep.length, 1, 'a repeated hit once');
    assert.equal(one.verdict.riskScore, 70);
    assert.notDeepEqual(one.verdict.breakdown, [{ factor: 'sanctions', points: 80, detail: 'recorded' }], 're-scored after the disposition');
    const five = buildScreeningReport(all.filter((e) => e.streamName === 'screening-5'), CONTEXTS[0]!)!;
    assert.deepEqual(five.hits.sanctions.map((h) => [h.hitId, h.score]), [['sanctions:ofac_sdn:52', 0.96], ['sanctions:ofac_sdn:51', 0.91]]);
    const two = buildScreeningReport(all.filter((e) => e.streamName === 'screening-2'), CONTEXTS[1]!)!;
    assert.equal(two.analysis?.kind, 'edd');
    assert.equal(two.verdict.summary, 'One sanctions hit.');
    const three = buildScreeningReport(all.filter((e) => e.streamName === 'screening-3'), CONTEXTS[1]!)!;
    assert.equal(three.status, 'running');
    assert.deepEqual(three.sourcesNotSearched, [{ source: 'Companies House', reason: 'not configured' }]);
    assert.equal(three.audit.listVersions[0]!.versionId, 'ofac_sdn@now', "a running screening shows the engine's list versions");
  });

  it("another account's screening is not found", async () => {
    const schema = await freshSchema();
    await screeningDetailsProjection.applyBatch!(client, structuredClone(all), schema);
    assert.equal(await readScreeningDetail(client, `${quoteIdent(schema)}.screening_details`, '7', { screeningId: '5' }), undefined);
    assert.ok(await readScreeningDetail(client, `${quoteIdent(schema)}.screening_details`, '8', { screeningId: '5' }));
  });
});
