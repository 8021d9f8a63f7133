/**
 * applyBatch of the screenings, usage and monitoring read models against a real PostgreSQL: a read
 * batch must leave exactly the tables that apply() on each event in turn leaves (redelivered and
 * replayed events included), in a few statements instead of one or two per screening.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type pg from 'pg';
import { quoteIdent, type Projection } from '../../../src/projections/projection';
import { monitoringProjection } from '../../../src/projections/read-models/monitoring';
import { screeningsProjection } from '../../../src/projections/read-models/screenings';
import { usageProjection } from '../../../src/projections/read-models/usage';
import type { EventMetadata, RecordedEvent } from '../../../src/shared/events';
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

const DAY1 = '2026-11-21T23:59:00.000Z';
const DAY2 = '2026-11-22T00:01:00.000Z';

/** Events as the store hands them out: positions per stream and a global order. */
class History {
  readonly events: RecordedEvent[] = [];
  private global = 0n;
  private readonly streams = new Map<string, bigint>();

  add(streamName: string, type: string, data: Record<string, unknown>, metadata: Partial<EventMetadata> = {}): RecordedEvent {
    const streamPosition = this.streams.get(streamName) ?? 0n;
    this.streams.set(streamName, streamPosition + 1n);
    this.global += 1n;
    const event = {
      type,
      data,
      metadata: { eventId: randomUUID(), occurredAt: DAY1, ...metadata },
      streamName,
      streamPosition,
      globalPosition: this.global,
      recordedAt: metadata.occurredAt ?? DAY1,
    } as unknown as RecordedEvent;
    this.events.push(event);
    return event;
  }

  requested(id: number, options: { keyId?: string; at?: string; kind?: 'cdd' | 'edd' | 'ma' | 'sow' } = {}): RecordedEvent {
    const kind = options.kind ?? 'cdd';
    const at = options.at ?? DAY1;
    return this.add(
      `screening-${id}`,
      'ScreeningRequested',
      {
        screeningId: String(id),
        accountId: '42',
        uuid: randomUUID(),
        kind,
        surface: kind === 'sow' ? 's3' : 's1',
        plan: 'enterprise',
        subject: { query: `Subject ${id}`, entityType: 'individual', ...(id % 2 ? { jurisdiction: 'RU' } : {}) },
        ...(kind === 'sow' ? { sow: { sowScreeningId: `SVC-${id}ABCDEF-SOW`, declaration: {} } } : {}),
        monitor: false,
        pipeline: [],
        requestedAt: at,
      },
      { occurredAt: at, actor: { surface: 's1', accountId: '42', ...(options.keyId ? { keyId: options.keyId } : {}) } },
    );
  }

  phaseStarted(id: number): RecordedEvent {
    return this.add(`screening-${id}`, 'PhaseStarted', { screeningId: String(id), accountId: '42', phase: 'sanctions', agents: [], mode: 'parallel' });
  }

  completed(id: number, hitIds: string[], riskScore = 10 * hitIds.length): RecordedEvent {
    return this.add(`screening-${id}`, 'ScreeningCompleted', {
      screeningId: String(id),
      accountId: '42',
      riskScore,
      riskLevel: riskScore > 50 ? 'high' : 'low',
      counts: { sanctionsHits: hitIds.length, pepHits: 0, adverseMediaHits: 0, offshoreLeaksHits: 0, debarmentHits: 0 },
      hits: hitIds.map((hitId) => ({
        hitId,
        entityId: `ofac_sdn:${id}-${hitId}`,
        category: 'sanctions',
        source: 'ofac_sdn',
        matchedName: `Subject ${id}`,
        score: 0.93,
        entityRecordHash: `hash-${id}-${hitId}`,
      })),
      ...(id % 3 === 0 ? { summary: `${hitIds.length} hits`, analysis: '## Analysis' } : {}),
      listVersions: [],
      matcherVersion: 'm1',
      completedAt: DAY2,
    });
  }

  screening(id: number, type: string, data: Record<string, unknown> = {}): RecordedEvent {
    return this.add(`screening-${id}`, type, { screeningId: String(id), accountId: '42', ...data });
  }

  /** The same event delivered again (a redelivery or a replay). */
  again(event: RecordedEvent): RecordedEvent {
    this.events.push(event);
    return event;
  }
}

/**
 * A realistic stretch of history: requests and completions of nine screenings interleaved (as 16
 * clients produce them), hits, analyst and monitoring events in between, unhandled phase events,
 * and a request and a completion delivered twice.
 */
function mixedHistory(): History {
  const h = new History();
  const r101 = h.requested(101, { keyId: '7' });
  h.requested(102, { keyId: '7' });
  h.phaseStarted(101);
  h.requested(103, { keyId: '8', kind: 'edd' });
  h.completed(101, ['h1', 'h2']);
  h.again(r101);
  h.requested(104, { keyId: '7', at: DAY2 });
  h.completed(102, []);
  h.screening(101, 'MonitoringEnrolled', { subject: { query: 'Subject 101', entityType: 'individual', jurisdiction: 'RU' }, enrolledAt: DAY2 });
  const c103 = h.completed(103, ['h1']);
  h.again(c103);
  h.screening(101, 'HitDispositioned', { hitId: 'h1', entityId: 'ofac_sdn:101-h1', disposition: 'false_positive', reason: 'dob', analyst: 'a', entityRecordHash: 'hash-101-h1', dispositionedAt: DAY2 });
  h.screening(101, 'RiskRecomputed', { previousRiskScore: 20, previousRiskLevel: 'low', riskScore: 10, riskLevel: 'low', countingHitIds: ['h2'], cause: 'disposition', recomputedAt: DAY2, summary: '2 matches (name match 1, dismissed 1).' });
  h.requested(105, { keyId: '8', at: DAY2, kind: 'ma' });
  h.screening(104, 'ScreeningFailed', { reason: 'agent timeout', failedAt: DAY2 });
  h.requested(106, { keyId: '7', at: DAY2, kind: 'sow' });
  h.completed(105, ['h1', 'h2', 'h3'], 80);
  h.add('subject-check-900', 'SubjectCheckStarted', {
    subjectCheckId: '900', accountId: '42', status: 'running', firstName: 'Jane', lastName: 'Roe', dateOfBirth: '1970-01-01', locations: [{ country: 'GB' }],
    purpose: 'employment', consent: { certified: true, certifiedAt: DAY1 }, processingAt: DAY1,
  });
  h.add('subject-check-900', 'SubjectCheckMonitoringEnrolled', {
    subjectCheckId: '900',
    accountId: '42',
    subject: { name: 'Jane Roe', entityType: 'individual' },
    hits: [{ entityId: 'ofac_sdn:1', hitId: 'x1', tier: 'strong', entityRecordHash: 'e1' }],
    enrolledAt: DAY2,
  });
  h.completed(106, ['h1']);
  h.screening(103, 'MonitoringAlertRaised', { alertId: 'a1', kind: 'new_hit', hitId: 'h9', entityId: 'un:9', category: 'sanctions', source: 'un', matchedName: 'S', score: 0.9, diff: {}, listVersion: 'v2', entityRecordHash: 'e9', raisedAt: DAY2 });
  h.screening(105, 'MonitoringAlertRaised', { alertId: 'a2', kind: 'removed_hit', hitId: 'h2', entityId: 'ofac_sdn:105-h2', category: 'sanctions', source: 'ofac_sdn', matchedName: 'S', score: 0.9, diff: {}, listVersion: 'v2', raisedAt: DAY2 });
  h.screening(101, 'MonitoringUnenrolled', { unenrolledAt: DAY2 });
  h.screening(101, 'HitReopened', { hitId: 'h1', entityId: 'ofac_sdn:101-h1', previousDisposition: 'false_positive', diff: {}, reopenedAt: DAY2 });
  h.requested(107); // portal: no key, not counted as API usage
  h.completed(107, ['h1']);
  h.requested(108, { keyId: '8', at: DAY2 });
  h.requested(109, { keyId: '7' });
  h.completed(108, ['h1', 'h1']); // one hit reported twice: the first counts
  h.completed(109, ['h4']);
  h.screening(105, 'MonitoringEnrolled', { subject: { query: 'Subject 105', entityType: 'individual' }, enrolledAt: DAY2 });
  return h;
}

const TABLES: Record<string, { table: string; order: string }[]> = {
  screenings: [{ table: 'screenings', order: 'screening_id' }],
  usage: [
    { table: 'usage_daily', order: 'key_id, day, surface, endpoint, screening_type' },
    { table: 'usage_counted', order: 'event_id' },
  ],
  monitoring: [
    { table: 'subjects', order: 'screening_id' },
    { table: 'hits', order: 'screening_id, hit_id' },
    { table: 'subject_check_subjects', order: 'subject_check_id' },
    { table: 'subject_check_hits', order: 'subject_check_id, entity_id' },
    { table: 'subject_check_started_facts', order: 'subject_check_id' },
  ],
};

async function tables(projection: Projection, schema: string): Promise<Record<string, unknown[]>> {
  const dump: Record<string, unknown[]> = {};
  for (const { table, order } of TABLES[projection.name]!) {
    dump[table] = (await client.query(`SELECT * FROM ${quoteIdent(schema)}.${table} ORDER BY ${order}`)).rows;
  }
  return dump;
}

async function freshSchema(projection: Projection, label: string): Promise<string> {
  const schema = `t_${projection.name}_${label}_${randomUUID().slice(0, 8)}`;
  await client.query(`CREATE SCHEMA ${quoteIdent(schema)}`);
  await projection.setup(client, schema);
  return schema;
}

/** What the runner passes: the events of the types the projection handles, in order. */
const handledBy = (projection: Projection, events: RecordedEvent[]) => events.filter((event) => projection.handles.includes(event.type));

async function applyOneByOne(projection: Projection, events: RecordedEvent[], schema: string): Promise<void> {
  for (const event of handledBy(projection, events)) await projection.apply(client, event, schema);
}

async function applyAsBatch(projection: Projection, events: RecordedEvent[], schema: string): Promise<void> {
  await projection.applyBatch!(client, handledBy(projection, events), schema);
}

/** Runs work and returns how many statements it sent on the shared client. */
async function statementsOf(work: () => Promise<void>): Promise<number> {
  let statements = 0;
  const original = client.query;
  client.query = ((...args: unknown[]) => {
    statements++;
    return (original as (...a: unknown[]) => unknown).apply(client, args);
  }) as typeof client.query;
  try {
    await work();
  } finally {
    client.query = original;
  }
  return statements;
}

for (const projection of [screeningsProjection, usageProjection, monitoringProjection]) {
  describe(`${projection.name} read model: applyBatch`, () => {
    it('leaves the same tables as apply() one by one, across batches, redeliveries and a full replay', async () => {
      const events = mixedHistory().events;
      const batch = await freshSchema(projection, 'batch');
      const single = await freshSchema(projection, 'single');
      const cut = Math.floor(events.length / 2);
      // Two read batches, the second starting with a few events of the first again (a redelivery),
      // then the whole history once more (a replay).
      const batches = [events.slice(0, cut), events.slice(cut - 4), events];
      for (const [i, events] of batches.entries()) {
        await applyAsBatch(projection, events, batch);
        await applyOneByOne(projection, events, single);
        assert.deepEqual(await tables(projection, batch), await tables(projection, single), `after batch ${i + 1}`);
      }
      const rows = Object.values(await tables(projection, batch)).flat();
      assert.ok(rows.length >= 9, `the history filled the read model (${rows.length} rows)`);
    });

    it('applies in order a batch whose events of a screening come before its request', async () => {
      // Never so in global order, yet the result must still be apply()'s: the completion finds no
      // row yet, so screening 201 stays running.
      const h = new History();
      const request = h.requested(201, { keyId: '7' });
      const completion = h.completed(201, ['h1']);
      h.requested(202, { keyId: '7' });
      h.completed(202, []);
      const events = [completion, request, ...h.events.slice(2)];
      const batch = await freshSchema(projection, 'batch');
      const single = await freshSchema(projection, 'single');
      await applyAsBatch(projection, events, batch);
      await applyOneByOne(projection, events, single);
      assert.deepEqual(await tables(projection, batch), await tables(projection, single));
    });

    it('an empty batch or one of no interest writes nothing', async () => {
      const schema = await freshSchema(projection, 'empty');
      const h = new History();
      h.phaseStarted(301);
      assert.equal(await statementsOf(() => applyAsBatch(projection, h.events, schema)), 0);
      assert.equal(await statementsOf(() => projection.applyBatch!(client, [], schema)), 0);
    });
  });
}

describe('statements per read batch of eight screenings', () => {
  /** Eight screenings requested and completed, the later requests interleaved with the earlier completions. */
  function eightScreenings(): RecordedEvent[] {
    const h = new History();
    for (let id = 401; id <= 404; id++) h.requested(id, { keyId: '7' });
    for (let id = 401; id <= 408; id++) {
      h.phaseStarted(id);
      h.completed(id, id % 2 ? ['h1', 'h2'] : ['h1']);
      if (id + 4 <= 408) h.requested(id + 4, { keyId: '8' });
    }
    return h.events;
  }

  const expected = [
    { projection: screeningsProjection, batched: 2, oneByOne: 16 },
    { projection: usageProjection, batched: 1, oneByOne: 8 },
    { projection: monitoringProjection, batched: 1, oneByOne: 8 },
  ];
  for (const { projection, batched, oneByOne } of expected) {
    it(`${projection.name}: ${batched} instead of ${oneByOne}, with the same result`, async () => {
      const events = eightScreenings();
      const batch = await freshSchema(projection, 'batch');
      const single = await freshSchema(projection, 'single');
      assert.equal(await statementsOf(() => applyAsBatch(projection, events, batch)), batched);
      assert.equal(await statementsOf(() => applyOneByOne(projection, events, single)), oneByOne);
      assert.deepEqual(await tables(projection, batch), await tables(projection, single));
    });
  }
});

describe('usage counts of a batch', () => {
  it('an event delivered twice counts once; two requests of one key on one day count twice', async () => {
    const schema = await freshSchema(usageProjection, 'counts');
    const h = new History();
    const first = h.requested(501, { keyId: '7' });
    h.requested(502, { keyId: '7' });
    h.again(first);
    h.requested(503, { keyId: '7', at: DAY2 });
    h.requested(504, { keyId: '8', kind: 'edd' });
    h.requested(505); // no key
    await applyAsBatch(usageProjection, h.events, schema);
    await applyAsBatch(usageProjection, [first], schema); // and once more in a later batch
    const { rows } = await client.query(
      `SELECT key_id::text, day::text, endpoint, screening_type, count FROM ${quoteIdent(schema)}.usage_daily ORDER BY key_id, day`,
    );
    assert.deepEqual(rows, [
      { key_id: '7', day: '2026-11-21', endpoint: 'POST /api/v1/screening/cdd', screening_type: 'CDD', count: 2 },
      { key_id: '7', day: '2026-11-22', endpoint: 'POST /api/v1/screening/cdd', screening_type: 'CDD', count: 1 },
      { key_id: '8', day: '2026-11-21', endpoint: 'POST /api/v1/screening/edd', screening_type: 'EDD', count: 1 },
    ]);
  });
});

describe('screenings read model: the summary after a decision (issue 31 item 3)', () => {
  const rescored = (h: History, id: number, riskScore: number, summary?: string) =>
    h.screening(id, 'RiskRecomputed', {
      previousRiskScore: 20, previousRiskLevel: 'low', riskScore, riskLevel: 'low', countingHitIds: [], cause: 'disposition', recomputedAt: DAY2,
      ...(summary !== undefined ? { summary } : {}),
    });
  const row = async (schema: string, id: number) =>
    (await client.query(`SELECT summary, risk_score, stream_position::int AS position FROM ${quoteIdent(schema)}.screenings WHERE screening_id = $1`, [id])).rows[0];

  it('given a completed screening, when a re-score carries the summary, then the list row shows it; an older re-score delivered again changes nothing', async () => {
    const h = new History();
    h.requested(603);
    h.completed(603, ['h1', 'h2']); // id % 3 === 0: completed with the summary "2 hits"
    const first = rescored(h, 603, 10, '2 matches (name match 1, dismissed 1).');
    rescored(h, 603, 0, '2 matches (dismissed 2): none stands.');
    const schema = await freshSchema(screeningsProjection, 'summary');
    await applyOneByOne(screeningsProjection, h.events, schema);
    assert.deepEqual(await row(schema, 603), { summary: '2 matches (dismissed 2): none stands.', risk_score: 0, position: 3 });
    // Idempotent by stream position: the first re-score again (a redelivery) leaves the later one.
    await screeningsProjection.apply(client, first, schema);
    await applyAsBatch(screeningsProjection, [first], schema);
    assert.deepEqual(await row(schema, 603), { summary: '2 matches (dismissed 2): none stands.', risk_score: 0, position: 3 });
  });

  it('given a completed screening, when a re-score recorded before it carried a summary arrives, then the recorded summary stays', async () => {
    const h = new History();
    h.requested(606);
    h.completed(606, ['h1']);
    rescored(h, 606, 0);
    const schema = await freshSchema(screeningsProjection, 'old');
    await applyOneByOne(screeningsProjection, h.events, schema);
    assert.deepEqual(await row(schema, 606), { summary: '1 hits', risk_score: 0, position: 2 });
  });
});

describe('screenings read model: per-category hit counts after monitoring alerts', () => {
  const alert = (h: History, id: number, alertId: string, kind: 'new_hit' | 'changed_hit' | 'removed_hit', hitId: string, category = 'sanctions') =>
    h.screening(id, 'MonitoringAlertRaised', {
      alertId, kind, hitId, entityId: `ofac_sdn:${id}-${hitId}`, category, source: 'ofac_sdn', matchedName: `Subject ${id}`, score: 0.9, diff: {}, listVersion: alertId,
      ...(kind === 'removed_hit' ? {} : { entityRecordHash: `e-${alertId}` }), raisedAt: DAY2,
    });
  const counts = async (schema: string, id: number) =>
    (await client.query(`SELECT sanctions_hits, pep_hits, hit_ids FROM ${quoteIdent(schema)}.screenings WHERE screening_id = $1`, [id])).rows[0];

  it('given a screening completed with two sanctions hits, when alerts add, change and remove hits, then the counts follow as the report\'s do', async () => {
    const h = new History();
    h.requested(701);
    h.completed(701, ['h1', 'h2']);
    const schema = await freshSchema(screeningsProjection, 'counts');
    await applyOneByOne(screeningsProjection, h.events, schema);
    assert.deepEqual(await counts(schema, 701), { sanctions_hits: 2, pep_hits: 0, hit_ids: ['h1', 'h2'] });

    const added = alert(h, 701, 'v2', 'new_hit', 'h3');
    alert(h, 701, 'v2b', 'new_hit', 'p1', 'pep');
    alert(h, 701, 'v3', 'changed_hit', 'h1'); // a changed record of a hit it counts: the same count
    alert(h, 701, 'v3b', 'new_hit', 'h2'); // the matcher calls it new, the screening reports it: counted once
    alert(h, 701, 'v4', 'removed_hit', 'h2');
    await applyOneByOne(screeningsProjection, h.events.slice(2), schema);
    assert.deepEqual(await counts(schema, 701), { sanctions_hits: 2, pep_hits: 1, hit_ids: ['h1', 'h3', 'p1'] });

    // Idempotent by stream position: an alert delivered again (one by one or in a batch) counts nothing twice.
    await screeningsProjection.apply(client, added, schema);
    await applyAsBatch(screeningsProjection, [added], schema);
    assert.deepEqual(await counts(schema, 701), { sanctions_hits: 2, pep_hits: 1, hit_ids: ['h1', 'h3', 'p1'] });
  });

  it('given a removal of a hit the screening no longer counts, then no count goes below what it shows', async () => {
    const h = new History();
    h.requested(702);
    h.completed(702, ['h1']);
    alert(h, 702, 'v2', 'removed_hit', 'h1');
    alert(h, 702, 'v3', 'removed_hit', 'h1'); // never decided so, but a count must not go negative
    const schema = await freshSchema(screeningsProjection, 'removals');
    await applyAsBatch(screeningsProjection, h.events, schema);
    assert.deepEqual(await counts(schema, 702), { sanctions_hits: 0, pep_hits: 0, hit_ids: [] });
  });
});

describe('monitoring read model: the facts of an enrolled subject check (issue 27)', () => {
  const facts = async (schema: string, id: number) =>
    (await client.query(`SELECT facts FROM ${quoteIdent(schema)}.subject_check_subjects WHERE subject_check_id = $1`, [id])).rows[0]?.facts;
  const started = (h: History, id: number, extra: Record<string, unknown>) =>
    h.add(`subject-check-${id}`, 'SubjectCheckStarted', {
      subjectCheckId: String(id), accountId: '42', status: 'running', firstName: 'Mehmet', lastName: 'Yilmaz', locations: [{ country: 'TR' }],
      purpose: 'employment', consent: { certified: true, certifiedAt: DAY1 }, processingAt: DAY1, ...extra,
    });
  const enrolled = (h: History, id: number, subject: Record<string, unknown>) =>
    h.add(`subject-check-${id}`, 'SubjectCheckMonitoringEnrolled', { subjectCheckId: String(id), accountId: '42', subject: { name: 'Mehmet Yilmaz', entityType: 'individual', jurisdiction: 'TR', ...subject }, hits: [], enrolledAt: DAY2 });

  it('an enrolment of version 2 keeps its facts; one of version 1 takes those its check was started with; a check without any has none', async () => {
    const h = new History();
    started(h, 801, { dateOfBirth: '1970-01-01' });
    enrolled(h, 801, { dateOfBirth: '1970-01-01', identifiers: [{ type: 'passport', value: 'U1' }] }); // version 2 (the decider copies the start's facts)
    started(h, 802, { dateOfBirth: '1980-05-05', nationality: 'TR' });
    enrolled(h, 802, {}); // version 1: name and country only
    started(h, 803, {});
    enrolled(h, 803, {});
    const schema = await freshSchema(monitoringProjection, 'facts');
    await applyAsBatch(monitoringProjection, h.events, schema);
    assert.deepEqual(await facts(schema, 801), { dateOfBirth: '1970-01-01', identifiers: [{ type: 'passport', value: 'U1' }] });
    assert.deepEqual(await facts(schema, 802), { dateOfBirth: '1980-05-05', nationality: 'TR' });
    assert.equal(await facts(schema, 803), null);
  });
});
