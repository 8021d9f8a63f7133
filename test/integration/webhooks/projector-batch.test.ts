/**
 * The webhook projector's applyBatch is an optimisation of apply(): the same history, applied in
 * batches into one database and one event at a time into another, leaves the same outbox rows,
 * endpoints and facts; and a batch of screenings costs a few statements, not a few per screening.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type pg from 'pg';
import type { ApiKeyCreated, ApiKeyRevoked, ApiKeyWebhookConfigured } from '../../../src/commands/api-keys';
import type { PersonCheckCompleted, PersonCheckRequested } from '../../../src/commands/person-check';
import type { MonitoringAlertRaised, ScreeningCompleted, ScreeningRequested } from '../../../src/commands/screening';
import type { SubjectCheckStarted } from '../../../src/commands/subject-check';
import type { WebhookEndpointDisabled, WebhookEndpointReenabled, WebhookEndpointRegistered } from '../../../src/commands/webhook-endpoint';
import { withTransaction } from '../../../src/infrastructure/postgres/pool';
import type { Projection } from '../../../src/projections/projection';
import type { Actor, Event, RecordedEvent } from '../../../src/shared/events';
import { createWebhookProjector } from '../../../src/webhooks/projector';
import { createTestDatabase, type TestDatabase } from '../../support/postgres';

const SCHEMA = 'proj_webhooks';
const at = '2026-06-01T08:00:00.000Z';

// ------------------------------------------------------------------ events

let position = 0n;
let eventCounter = 0;

/** Stamps an event as the store would (ids and positions are all apply() reads besides the data). */
function recorded<E extends Event>(stream: string, event: Omit<E, 'metadata'> & { actor: Actor }): RecordedEvent {
  const { actor, ...rest } = event;
  position += 1n;
  eventCounter += 1;
  return {
    ...rest,
    metadata: { eventId: `00000000-0000-4000-8000-${String(eventCounter).padStart(12, '0')}`, occurredAt: at, actor },
    streamName: stream,
    streamPosition: 0n,
    globalPosition: position,
    recordedAt: at,
  } as unknown as RecordedEvent;
}

const uuidOf = (screeningId: string) => `00000000-0000-4000-8000-${screeningId.padStart(12, '0')}`;
const s1 = (accountId: string, keyId: string): Actor => ({ surface: 's1', accountId, keyId });
const s3 = (accountId: string): Actor => ({ surface: 's3', accountId, keyId: `k${accountId}` });
const system: Actor = { surface: 'system' };

function keyCreated(accountId: string, keyId: string, withWebhook: boolean) {
  return recorded<ApiKeyCreated>(`account-keys-${accountId}`, {
    type: 'ApiKeyCreated',
    data: {
      accountId, keyId, surface: 's1', name: 'prod', keyHash: 'a'.repeat(64), prefix: 'svc_abcd', createdAt: at,
      ...(withWebhook ? { webhook: { url: `https://hooks.example/s1/${accountId}/${keyId}`, secretCiphertext: `sealed-${keyId}` } } : {}),
    },
    actor: s1(accountId, keyId),
  });
}

function webhookConfigured(accountId: string, keyId: string) {
  return recorded<ApiKeyWebhookConfigured>(`account-keys-${accountId}`, {
    type: 'ApiKeyWebhookConfigured',
    data: { accountId, keyId, webhook: { url: `https://hooks.example/s1/${accountId}/${keyId}`, secretCiphertext: `sealed-${keyId}` }, configuredAt: at },
    actor: s1(accountId, keyId),
  });
}

function keyRevoked(accountId: string, keyId: string) {
  return recorded<ApiKeyRevoked>(`account-keys-${accountId}`, {
    type: 'ApiKeyRevoked',
    data: { accountId, keyId, surface: 's1', keyHash: 'a'.repeat(64), revokedAt: at },
    actor: s1(accountId, keyId),
  });
}

function endpointRegistered(accountId: string, surface: 's2' | 's3') {
  return recorded<WebhookEndpointRegistered>(`webhook-endpoint-${surface}-${accountId}`, {
    type: 'WebhookEndpointRegistered',
    data: { accountId, surface, endpointId: accountId, url: `https://hooks.example/${surface}/${accountId}`, secretCiphertext: `sealed-${accountId}`, registeredAt: at },
    actor: { surface, accountId },
  });
}

function endpointDisabled(accountId: string) {
  return recorded<WebhookEndpointDisabled>(`webhook-endpoint-s3-${accountId}`, {
    type: 'WebhookEndpointDisabled',
    data: { accountId, surface: 's3', endpointId: accountId, reason: 'consecutive_failures', consecutiveFailures: 10, lastDeliveryId: uuidOf('9'), disabledAt: at },
    actor: system,
  });
}

function endpointReenabled(accountId: string) {
  return recorded<WebhookEndpointReenabled>(`webhook-endpoint-s3-${accountId}`, {
    type: 'WebhookEndpointReenabled',
    data: { accountId, surface: 's3', endpointId: accountId, reenabledAt: at },
    actor: { surface: 'portal', accountId },
  });
}

interface ScreeningSpec {
  id: string;
  accountId: string;
  actor: Actor;
  surface: 's1' | 's3';
  kind: 'cdd' | 'edd' | 'sow';
}

function requested(s: ScreeningSpec) {
  return recorded<ScreeningRequested>(`screening-${s.id}`, {
    type: 'ScreeningRequested',
    data: {
      screeningId: s.id, accountId: s.accountId, uuid: uuidOf(s.id), kind: s.kind, surface: s.surface, plan: 'enterprise',
      subject: { query: `Subject ${s.id}`, entityType: 'individual' }, monitor: true, pipeline: [], requestedAt: '2026-06-01T07:59:58.5Z',
    },
    actor: s.actor,
  });
}

function completed(s: ScreeningSpec) {
  return recorded<ScreeningCompleted>(`screening-${s.id}`, {
    type: 'ScreeningCompleted',
    data: {
      screeningId: s.id, accountId: s.accountId, uuid: uuidOf(s.id), kind: s.kind, surface: s.surface, riskScore: 27, riskLevel: 'medium',
      counts: { sanctionsHits: 1, pepHits: 0, adverseMediaHits: 0, offshoreLeaksHits: 0, debarmentHits: 0 },
      hits: [], listVersions: [], matcherVersion: 'test', completedAt: at,
    },
    actor: s.actor,
  });
}

function alertOn(s: ScreeningSpec) {
  return recorded<MonitoringAlertRaised>(`screening-${s.id}`, {
    type: 'MonitoringAlertRaised',
    data: {
      screeningId: s.id, accountId: s.accountId, alertId: `al-${s.id}`, kind: 'new_hit', hitId: 'h-1', entityId: 'ofac_sdn:36421', category: 'sanctions',
      source: 'ofac_sdn', matchedName: 'ACME TRADING LIMITED', score: 0.96, diff: {}, listVersion: 'v2', raisedAt: '2026-06-02T02:00:00.000Z',
    },
    actor: system,
  });
}

const personCheck = { id: 'SVC-0000abcd-P', accountId: '21', actor: s1('21', '5') };

const personCheckRequested = () =>
  recorded<PersonCheckRequested>(`person-check-${personCheck.id}`, {
    type: 'PersonCheckRequested',
    data: {
      personCheckId: personCheck.id, accountId: personCheck.accountId, surface: 's1', fullName: 'Jane Roe', purpose: 'employment', fcraConsent: true,
      consentRecordedAt: at, locations: [], aliases: [], identifiers: [], agents: {}, requestedAt: at,
    },
    actor: personCheck.actor,
  });

const personCheckCompleted = () =>
  recorded<PersonCheckCompleted>(`person-check-${personCheck.id}`, {
    type: 'PersonCheckCompleted',
    data: {
      personCheckId: personCheck.id, accountId: personCheck.accountId, surface: 's1', result: 'clean', confidence: 'high', riskScore: 3, riskLevel: 'low',
      redFlagCount: 0, warningCount: 0, findingsCount: 0, sourcesChecked: 5, sourcesTotal: 5, findings: [], completedAt: at,
    },
    actor: personCheck.actor,
  });

function subjectCheckStarted(subjectCheckId: string, accountId: string) {
  return recorded<SubjectCheckStarted>(`subject-check-${subjectCheckId}`, {
    type: 'SubjectCheckStarted',
    data: {
      subjectCheckId, accountId, status: 'running', firstName: 'John', lastName: 'Doe', locations: [{ country: 'GB' }],
      purpose: 'employment', consent: { certified: true, certifiedAt: at }, processingAt: at,
    },
    actor: { surface: 's2', accountId, keyId: '9' },
  });
}

// ------------------------------------------------------------------ databases

async function freshReadModel(projection: Projection): Promise<TestDatabase> {
  const db = await createTestDatabase();
  await withTransaction(db.pool, async (client) => {
    await client.query(`CREATE SCHEMA ${SCHEMA}`);
    await projection.setup(client, SCHEMA);
  });
  return db;
}

/** Everything the projector writes; delivery ids are random per enqueue, so rows are keyed by dedup key. */
async function readModel(db: TestDatabase) {
  const outbox = await db.pool.query(
    `SELECT o.dedup_key, o.delivery_id, o.endpoint_id, e.surface AS endpoint_surface, e.account_id AS endpoint_account, e.key_id AS endpoint_key,
            o.account_id, o.surface, o.event_type, convert_from(o.body, 'UTF8') AS body, o.subject_ref, o.status, o.attempt_count,
            o.max_attempts, o.next_attempt_at, o.last_error, o.retry_of, o.created_at, o.updated_at, o.finished_at
       FROM webhook_outbox o JOIN webhook_endpoints e ON e.id = o.endpoint_id ORDER BY o.dedup_key`,
  );
  const endpoints = await db.pool.query(`SELECT * FROM webhook_endpoints ORDER BY id`);
  const screenings = await db.pool.query(`SELECT * FROM ${SCHEMA}.screenings ORDER BY screening_id`);
  const personChecks = await db.pool.query(`SELECT * FROM ${SCHEMA}.person_checks ORDER BY person_check_id`);
  return { outbox: outbox.rows, endpoints: endpoints.rows, screenings: screenings.rows, personChecks: personChecks.rows };
}

/** What was sent, readably: subject, webhook event, status (sorted). */
async function deliveries(db: TestDatabase): Promise<string[]> {
  const { rows } = await db.pool.query<{ line: string }>(`SELECT subject_ref || ' ' || event_type || ' ' || status AS line FROM webhook_outbox`);
  return rows.map((r) => r.line).sort();
}

/** Runs `work` in a transaction on a client whose statements are counted (BEGIN and COMMIT not included). */
async function countStatements(db: TestDatabase, work: (client: pg.PoolClient) => Promise<void>): Promise<number> {
  let count = 0;
  await withTransaction(db.pool, async (client) => {
    const query = client.query;
    client.query = ((...args: Parameters<typeof query>) => {
      count++;
      return (query as (...a: unknown[]) => unknown).apply(client, args);
    }) as typeof query;
    try {
      await work(client);
    } finally {
      client.query = query;
    }
  });
  return count;
}

// ------------------------------------------------------------------ specs

describe('webhook projector: applyBatch leaves what apply() one event at a time leaves', () => {
  const projector = createWebhookProjector();
  let batched: TestDatabase;
  let oneByOne: TestDatabase;
  const history: RecordedEvent[] = [];

  before(async () => {
    [batched, oneByOne] = await Promise.all([freshReadModel(projector), freshReadModel(projector)]);
  });
  after(async () => {
    await Promise.all([batched?.drop(), oneByOne?.drop()]);
  });

  /** One read batch: applyBatch into one database, apply() per event into the other (times come from the events). */
  async function applyBoth(events: RecordedEvent[]) {
    await withTransaction(batched.pool, (client) => projector.applyBatch!(client, events, SCHEMA));
    await withTransaction(oneByOne.pool, async (client) => {
      for (const event of events) await projector.apply(client, event, SCHEMA);
    });
    history.push(...events);
    assert.deepEqual(await readModel(batched), await readModel(oneByOne));
  }

  // Account 21: S1 key 5 with a webhook, key 6 without. Account 22: S1 key 8 without a webhook.
  // Account 23: S3 endpoint registered mid-batch. Account 24: S3 endpoint, disabled. Account 25: S2 endpoint.
  const s101: ScreeningSpec = { id: '101', accountId: '21', actor: s1('21', '5'), surface: 's1', kind: 'cdd' };
  const s102: ScreeningSpec = { id: '102', accountId: '23', actor: s3('23'), surface: 's3', kind: 'cdd' };
  const s103: ScreeningSpec = { id: '103', accountId: '23', actor: s3('23'), surface: 's3', kind: 'edd' };
  const [request101, completion101] = [requested(s101), completed(s101)];

  it('applies a batch that registers endpoints between the screenings it completes', async () => {
    await applyBoth(
      [
        keyCreated('21', '5', true),
        keyCreated('21', '6', false),
        keyCreated('22', '8', false),
        request101,
        requested(s102),
        completed(s102), // before account 23 has an endpoint: nothing to send
        endpointRegistered('23', 's3'),
        requested(s103),
        completed(s103),
        completion101,
        endpointRegistered('24', 's3'),
        endpointDisabled('24'),
        endpointRegistered('25', 's2'),
      ],
    );
    assert.deepEqual(await deliveries(batched), ['101 cdd.completed pending', `${uuidOf('103')} screening.completed pending`].sort());
  });

  it('applies a batch without endpoint changes (endpoints fetched once), replays included', async () => {
    const s201: ScreeningSpec = { id: '201', accountId: '21', actor: s1('21', '5'), surface: 's1', kind: 'cdd' };
    const s202: ScreeningSpec = { id: '202', accountId: '21', actor: s1('21', '6'), surface: 's1', kind: 'edd' };
    const s203: ScreeningSpec = { id: '203', accountId: '22', actor: s1('22', '8'), surface: 's1', kind: 'cdd' };
    const s204: ScreeningSpec = { id: '204', accountId: '23', actor: s3('23'), surface: 's3', kind: 'sow' };
    const s205: ScreeningSpec = { id: '205', accountId: '24', actor: s3('24'), surface: 's3', kind: 'cdd' };
    const request201 = requested(s201);
    await applyBoth(
      [
        request201,
        requested(s202),
        request101, // redelivered from the first batch
        requested(s203),
        completed(s202),
        request201, // the same event twice in one batch
        requested(s204),
        completed(s201),
        alertOn(s101),
        requested(s205),
        completed(s203),
        completion101, // redelivered from the first batch
        personCheckRequested(),
        completed(s204),
        alertOn(s103),
        completed(s205),
        alertOn(s203),
        personCheckCompleted(),
        subjectCheckStarted('77', '25'),
        subjectCheckStarted('78', '26'),
      ],
    );
    assert.deepEqual(await deliveries(batched), [
      '101 cdd.completed pending',
      '101 monitoring.alert pending',
      '201 cdd.completed pending',
      `${uuidOf('103')} monitoring.alert pending`,
      `${uuidOf('103')} screening.completed pending`,
      `${uuidOf('204')} screening.completed pending`,
      `${uuidOf('205')} screening.completed dropped`, // account 24's endpoint is disabled
      '77 subject_check.processing pending',
      `${personCheck.id} person_check.completed pending`,
    ].sort());
  });

  it('applies a batch that revokes a key, re-enables and configures endpoints between completions', async () => {
    const s301: ScreeningSpec = { id: '301', accountId: '21', actor: s1('21', '5'), surface: 's1', kind: 'cdd' };
    const s302: ScreeningSpec = { id: '302', accountId: '24', actor: s3('24'), surface: 's3', kind: 'cdd' };
    const s303: ScreeningSpec = { id: '303', accountId: '22', actor: s1('22', '8'), surface: 's1', kind: 'cdd' };
    await applyBoth(
      [
        requested(s301),
        requested(s302),
        requested(s303),
        keyRevoked('21', '5'),
        completed(s301),
        endpointReenabled('24'),
        completed(s302),
        webhookConfigured('22', '8'),
        completed(s303),
      ],
    );
    const lines = await deliveries(batched);
    // The revoked key's queued deliveries are dropped, and so is the one completed after it.
    for (const line of ['101 cdd.completed dropped', '201 cdd.completed dropped', '301 cdd.completed dropped']) assert.ok(lines.includes(line), line);
    assert.ok(lines.includes(`${uuidOf('302')} screening.completed pending`));
    assert.ok(lines.includes('303 cdd.completed pending'));
  });

  it('enqueues no delivery twice when the whole history is applied again in one batch (a rebuild)', async () => {
    const deliveryIds = async () =>
      (await batched.pool.query<{ dedup_key: string; delivery_id: string }>(`SELECT dedup_key, delivery_id FROM webhook_outbox`)).rows;
    const before = await deliveryIds();
    const factsBefore = await readModel(batched);
    // Compared with apply() inside: sends that found no endpoint the first time may find one now.
    await applyBoth([...history]);
    const after = new Map((await deliveryIds()).map((row) => [row.dedup_key, row.delivery_id]));
    for (const row of before) assert.equal(after.get(row.dedup_key), row.delivery_id, `${row.dedup_key} kept, not enqueued again`);
    const factsAfter = await readModel(batched);
    assert.deepEqual(factsAfter.screenings, factsBefore.screenings);
    assert.deepEqual(factsAfter.personChecks, factsBefore.personChecks);
  });
});

describe('webhook projector: statements per batch', () => {
  const projector = createWebhookProjector();
  let db: TestDatabase;

  before(async () => {
    db = await freshReadModel(projector);
    // Account 31's key has no webhook: its screenings have nowhere to go.
    await withTransaction(db.pool, (client) => projector.applyBatch!(client, [keyCreated('31', '7', false)], SCHEMA));
  });
  after(async () => {
    await db?.drop();
  });

  const screenings = (from: number, count: number): ScreeningSpec[] =>
    Array.from({ length: count }, (_, i) => ({ id: String(from + i), accountId: '31', actor: s1('31', '7'), surface: 's1', kind: 'cdd' }));

  async function requestAll(specs: ScreeningSpec[]) {
    await withTransaction(db.pool, (client) => projector.applyBatch!(client, specs.map(requested), SCHEMA));
  }

  it('completes 8 screenings without endpoints in two statements (facts, endpoints), not two per screening', async () => {
    const [one, two, three] = [screenings(1000, 8), screenings(2000, 8), screenings(3000, 16)];
    await requestAll([...one, ...two, ...three]);

    const perEvent = await countStatements(db, async (client) => {
      for (const s of one) await projector.apply(client, completed(s), SCHEMA);
    });
    const batchOf8 = await countStatements(db, (client) => projector.applyBatch!(client, two.map(completed), SCHEMA));
    const batchOf16 = await countStatements(db, (client) => projector.applyBatch!(client, three.map(completed), SCHEMA));

    assert.equal(perEvent, 16);
    assert.equal(batchOf8, 2);
    assert.equal(batchOf16, 2);
    assert.equal((await db.pool.query(`SELECT count(*)::int AS n FROM webhook_outbox`)).rows[0].n, 0);
  });

  it('requests and completions of 8 screenings in one batch take three statements', async () => {
    const specs = screenings(4000, 8);
    const statements = await countStatements(db, (client) =>
      projector.applyBatch!(client, [...specs.map(requested), ...specs.map(completed)], SCHEMA),
    );
    assert.equal(statements, 3);
    const { rows } = await db.pool.query(`SELECT count(*)::int AS n FROM ${SCHEMA}.screenings WHERE screening_id LIKE '40%'`);
    assert.equal(rows[0].n, 8);
  });
});
