/**
 * The auditor's toolkit on a real PostgreSQL store: verify (rows tampered with in SQL are reported
 * with their exact stream and position), reproduce (a screening re-run against its recorded list
 * version, read back from disk) and replay (read models as of a past moment, in separate schemas).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { createTestDatabase, type TestDatabase } from '../../support/postgres';
import { PostgresEventStore } from '../../../src/infrastructure/eventstore/postgres/store';
import { verifyStore } from '../../../src/app/audit/verify';
import { reproduceScreening } from '../../../src/app/audit/reproduce';
import { replayReadModels } from '../../../src/app/audit/replay';
import { ListRegistry } from '../../../src/screening/lists/registry';
import { ScreeningEngine } from '../../../src/screening/engine';
import { createListAgents } from '../../../src/agents/lists/list-agents';
import { screeningsProjection } from '../../../src/projections/read-models/screenings';
import { monitoringProjection } from '../../../src/projections/read-models/monitoring';
import type { Event } from '../../../src/shared/events';
import type { ReportHit } from '../../../src/reports/model';

let db: TestDatabase;
let store: PostgresEventStore;
let dataDir: string;

before(async () => {
  db = await createTestDatabase();
  store = new PostgresEventStore({ pool: db.pool, pollIntervalMs: 50 });
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'svc-audit-'));
});
after(async () => {
  await store?.close();
  await db?.drop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

const ev = (type: string, data: Record<string, unknown>, at = new Date().toISOString()): Event => ({ type, data, metadata: { eventId: randomUUID(), occurredAt: at } });

async function appendMany(stream: string, n: number) {
  for (let i = 0; i < n; i++) await store.appendToStream(stream, [ev('Noted', { accountId: '1', n: i, note: `event ${i}` })]);
}

test('audit verify: altered, removed, reordered and rewritten events are reported at their exact stream and position', async () => {
  const run = randomUUID().slice(0, 8);
  const s = (name: string) => `audit-${name}-${run}`;
  for (const name of ['clean', 'altered', 'removed', 'swapped', 'tail', 'rewritten']) await appendMany(s(name), 4);
  // Two streams interleaved in global order stay valid.
  for (let i = 0; i < 3; i++) {
    await store.appendToStream(s('x'), [ev('Noted', { i })]);
    await store.appendToStream(s('y'), [ev('Noted', { i })]);
  }
  const clean = await verifyStore({ store, pool: db.pool });
  assert.equal(clean.ok, true, JSON.stringify(clean.problems));
  assert.ok(clean.events >= 30);

  const q = (sql: string, stream: string) => db.pool.query(sql, [stream]);
  // 1. Someone edits a fact in place.
  await q(`UPDATE events SET data = jsonb_set(data, '{note}', '"edited"') WHERE stream_name = $1 AND stream_position = 1`, s('altered'));
  // 2. Someone deletes an event in the middle, 3. swaps two events, 4. deletes the last one.
  await q(`DELETE FROM events WHERE stream_name = $1 AND stream_position = 2`, s('removed'));
  await q(`UPDATE events SET stream_position = -1 WHERE stream_name = $1 AND stream_position = 1`, s('swapped'));
  await q(`UPDATE events SET stream_position = 1 WHERE stream_name = $1 AND stream_position = 2`, s('swapped'));
  await q(`UPDATE events SET stream_position = 2 WHERE stream_name = $1 AND stream_position = -1`, s('swapped'));
  await q(`DELETE FROM events WHERE stream_name = $1 AND stream_position = 3`, s('tail'));
  // 5. A careful forger edits an event AND recomputes its hash: the next event still chains to the original.
  const { rows } = await q(`SELECT data, metadata, event_type FROM events WHERE stream_name = $1 AND stream_position = 1`, s('rewritten'));
  const { computeEventHash } = await import('../../../src/infrastructure/eventstore/hashChain');
  const forged = { type: rows[0].event_type, data: { ...rows[0].data, note: 'forged' }, metadata: rows[0].metadata };
  forged.metadata = { ...forged.metadata, hash: computeEventHash(forged, forged.metadata.previousHash) };
  await db.pool.query(`UPDATE events SET data = $2, metadata = $3 WHERE stream_name = $1 AND stream_position = 1`, [s('rewritten'), forged.data, forged.metadata]);

  const report = await verifyStore({ store, pool: db.pool });
  assert.equal(report.ok, false);
  const mine = report.problems.filter((p) => p.stream.endsWith(run)).map((p) => `${p.kind} ${p.stream.replace(`-${run}`, '')} @${p.position}`);
  assert.deepEqual(mine, [
    'altered audit-altered @1',
    'removed audit-removed @2',
    'altered audit-rewritten @1',
    'reordered audit-swapped @1',
    'removed audit-tail @3',
  ]);
  const altered = report.problems.find((p) => p.stream === s('altered'))!;
  assert.match(altered.globalPosition ?? '', /^\d+$/);
});

test('audit reproduce: a screening re-run against its recorded list version (read back from disk) gives the same hits', async () => {
  const config = { lists: [{ source: 'ofac_sdn' as const, dir: path.resolve('lists/ofac_sdn') }], dataDir };
  const live = new ListRegistry(config);
  const loaded = await live.loadAll();
  await live.flush();
  const version = loaded.versions[0]!;
  const engine = ScreeningEngine.build(loaded.entities, loaded.versions);
  const hits: ReportHit[] = [];
  for (const agent of createListAgents(() => engine)) {
    const out = await agent.run({ workflow: 'x', name: 'Banco Nacional de Cuba', entityType: 'company' }, { signal: new AbortController().signal });
    if (out.queried) hits.push(...out.hits);
  }
  assert.ok(hits.length >= 1);
  const record = async (id: string, recordedHits: { hitId: string; entityId: string; category: string; source: string; matchedName: string; score: number; entityRecordHash: string }[]) => {
    await store.appendToStream(`screening-${id}`, [
      ev('ScreeningRequested', { screeningId: id, accountId: '1', uuid: randomUUID(), kind: 'cdd', surface: 's1', plan: 'enterprise', subject: { query: 'Banco Nacional de Cuba', entityType: 'company' }, monitor: false, pipeline: [], requestedAt: new Date().toISOString() }),
      ev('ScreeningCompleted', {
        screeningId: id, accountId: '1', uuid: randomUUID(), kind: 'cdd', surface: 's1', riskScore: 15, riskLevel: 'low',
        counts: { sanctionsHits: recordedHits.length, pepHits: 0, adverseMediaHits: 0, offshoreLeaksHits: 0, debarmentHits: 0 },
        hits: recordedHits,
        listVersions: [{ id: version.id, source: version.source, contentHash: version.contentHash }],
        matcherVersion: engine.matcherVersion,
        completedAt: new Date().toISOString(),
      }),
    ]);
  };
  const asRecorded = hits.map((h) => ({ hitId: h.hitId, entityId: h.entityId, category: h.category, source: h.source, matchedName: h.matchedName, score: h.score, entityRecordHash: h.entityRecordHash! }));
  const id = String(900_000 + Math.floor(Math.random() * 99_999));
  await record(id, asRecorded);

  // A fresh registry (another process): the version comes from <dataDir>/versions, not memory.
  const auditorView = new ListRegistry(config);
  const same = await reproduceScreening({ store, lists: auditorView }, id);
  assert.equal(same.error, undefined);
  assert.equal(same.same, true, JSON.stringify(same));
  assert.equal(same.listVersions[0]!.available, true);
  assert.equal(same.recordedListHits, hits.length);
  assert.equal(same.matcher.same, true);

  // A recorded score that the lists cannot give again is a different result.
  const id2 = String(Number(id) + 1);
  await record(id2, asRecorded.map((h, i) => (i === 0 ? { ...h, score: 0.81 } : h)));
  const differs = await reproduceScreening({ store, lists: auditorView }, id2);
  assert.equal(differs.same, false);
  assert.deepEqual(differs.changed.map((c) => [c.hitId, c.recorded.score]), [[asRecorded[0]!.hitId, 0.81]]);

  // A version nobody kept cannot be reproduced, and the report says which.
  const gone = await reproduceScreening({ store, lists: new ListRegistry({ ...config, dataDir: path.join(dataDir, 'empty') }) }, id);
  assert.match(gone.error ?? '', /not kept/);
  assert.equal((await reproduceScreening({ store, lists: auditorView }, '123456789')).error, 'screening 123456789 does not exist');
});

test('replay --to: read models as they were at a past moment, in their own schemas, live ones untouched', async () => {
  const id = String(800_000 + Math.floor(Math.random() * 99_999));
  const completed = (riskScore: number, riskLevel: string) => ({
    screeningId: id, accountId: '7', uuid: randomUUID(), kind: 'cdd', surface: 's1', riskScore, riskLevel,
    counts: { sanctionsHits: 1, pepHits: 0, adverseMediaHits: 0, offshoreLeaksHits: 0, debarmentHits: 0 },
    hits: [{ hitId: 'sanctions:ofac_sdn:1', entityId: 'ofac_sdn:1', category: 'sanctions', source: 'ofac_sdn', matchedName: 'X', score: 0.97, entityRecordHash: 'h' }],
    listVersions: [], matcherVersion: 'm', completedAt: new Date().toISOString(),
  });
  await store.appendToStream(`screening-${id}`, [
    ev('ScreeningRequested', { screeningId: id, accountId: '7', uuid: randomUUID(), kind: 'cdd', surface: 's1', plan: 'enterprise', subject: { query: 'Then Name', entityType: 'individual' }, monitor: true, pipeline: [], requestedAt: new Date().toISOString() }),
    ev('ScreeningCompleted', completed(15, 'low')),
    ev('MonitoringEnrolled', { screeningId: id, accountId: '7', subject: { query: 'Then Name', entityType: 'individual' }, enrolledAt: new Date().toISOString() }),
  ]);
  await new Promise((r) => setTimeout(r, 50));
  const moment = new Date();
  await new Promise((r) => setTimeout(r, 50));
  await store.appendToStream(`screening-${id}`, [
    ev('RiskRecomputed', { screeningId: id, accountId: '7', previousRiskScore: 15, previousRiskLevel: 'low', riskScore: 0, riskLevel: 'low', countingHitIds: [], cause: 'disposition', recomputedAt: new Date().toISOString() }),
    ev('MonitoringUnenrolled', { screeningId: id, accountId: '7', unenrolledAt: new Date().toISOString() }),
  ]);

  const result = await replayReadModels({ pool: db.pool, store, projections: [screeningsProjection, monitoringProjection], to: moment });
  assert.ok(result.schemas.screenings!.startsWith('replay_'));
  const then = await db.pool.query(`SELECT risk_score, monitoring FROM "${result.schemas.screenings}".screenings WHERE screening_id = $1`, [id]);
  assert.deepEqual(then.rows[0], { risk_score: 15, monitoring: true });
  const enrolled = await db.pool.query(`SELECT enrolled FROM "${result.schemas.monitoring}".subjects WHERE screening_id = $1`, [id]);
  assert.equal(enrolled.rows[0].enrolled, true);
  // Now (replayed to the present) the later facts show.
  const nowResult = await replayReadModels({ pool: db.pool, store, projections: [screeningsProjection], to: new Date(Date.now() + 1000) });
  const now = await db.pool.query(`SELECT risk_score, monitoring FROM "${nowResult.schemas.screenings}".screenings WHERE screening_id = $1`, [id]);
  assert.deepEqual(now.rows[0], { risk_score: 0, monitoring: false });
  // The same moment twice is refused unless replaced.
  await assert.rejects(replayReadModels({ pool: db.pool, store, projections: [screeningsProjection], to: moment }), /already exists/);
  await replayReadModels({ pool: db.pool, store, projections: [screeningsProjection], to: moment, replace: true });
  await assert.rejects(replayReadModels({ pool: db.pool, store, projections: [screeningsProjection], to: new Date('nope') }), /valid ISO 8601/);
});
