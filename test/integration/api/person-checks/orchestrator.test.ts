/**
 * The person-check process manager on a real PostgreSQL event store: a throwing agent and a hanging
 * agent are recorded as not searched (with the error) and the check still completes; a second run
 * appends nothing; a pipeline error is recorded as a failed check, never left running.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { PostgresEventStore } from '../../../../src/infrastructure/eventstore/postgres/store';
import { PersonCheckOrchestrator } from '../../../../src/agents/orchestrator/person-check-orchestrator';
import { handleCommand } from '../../../../src/commands/command-handler';
import { personCheckDecider, streamName } from '../../../../src/commands/person-check';
import { newPersonCheckId, buildPersonCheckView } from '../../../../src/app/person-checks/person-check-service';
import { createLogger } from '../../../../src/shared/logger';
import type { PersonAgent, PersonAgentContext, PersonSubject } from '../../../../src/agents/person/types';
import { HeldDocuments } from '../../../../src/agents/person/held-documents';
import { createTestDatabase, type TestDatabase } from '../../../support/postgres';
import { AvroRegistry, encodeEventData } from '../../../../src/infrastructure/bus/avro';

let db: TestDatabase;
let store: PostgresEventStore;
before(async () => {
  db = await createTestDatabase();
  store = new PostgresEventStore({ pool: db.pool, pollIntervalMs: 50 });
});
after(async () => {
  await store?.close();
  await db?.drop();
});

const clock = { now: () => new Date() };

async function request(): Promise<string> {
  const id = newPersonCheckId();
  await handleCommand(store, personCheckDecider, streamName(id), {
    type: 'RequestPersonCheck',
    data: { personCheckId: id, accountId: '7', surface: 's1', fullName: 'Jane Roe', purpose: 'employment', fcraConsent: true, dateOfBirth: '1970-05-05', locations: ['TX'] },
    metadata: { now: new Date().toISOString(), actor: { accountId: '7', surface: 's1' }, commandId: randomUUID() },
  });
  return id;
}

function orchestrator(agents: PersonAgent[]) {
  return new PersonCheckOrchestrator({ store, bus: {} as never, registry: {} as never, clock, logger: createLogger({ level: 'silent' }), agents, agentTimeoutMs: 200 });
}

const ok = (name: string, phase: number): PersonAgent => ({
  name,
  phase,
  label: name,
  run: async (subject, ctx) => ({
    queried: true,
    records:
      name === 'federal_courts'
        ? [{ category: 'criminal', sourceName: 'Court', retrievedAt: ctx.now().toISOString(), searchedName: subject.fullName, matchedName: 'United States v. Jane Roe', nameScore: 0.95, nameWhy: 'caption', dob: 'unknown', location: 'match', locationDetail: 'Texas', title: 'United States v. Jane Roe' }]
        : [],
  }),
});

test('failing and hanging agents are recorded as not searched and the check completes; a re-run appends nothing', async () => {
  const id = await request();
  const agents: PersonAgent[] = [
    { name: 'identity_verification', phase: 2, label: 'throws', run: async () => { throw new Error('registry exploded'); } },
    { name: 'federal_courts', phase: 3, label: 'hangs', run: () => new Promise(() => undefined) },
    ok('sanctions_list', 3),
    ok('sex_offender_registry', 4),
  ];
  await orchestrator(agents).run(id);
  const events = await store.readStream(streamName(id));
  const view = buildPersonCheckView(events)!;
  assert.equal(view.status, 'completed');
  const identity = view.sources.find((s) => s.source === 'identity_verification')!;
  assert.deepEqual([identity.searched, identity.error], [false, 'registry exploded']);
  const courts = view.sources.find((s) => s.source === 'federal_courts')!;
  assert.equal(courts.searched, false);
  assert.match(courts.error!, /timed out after 200 ms/);
  const missing = view.sources.find((s) => s.source === 'bankruptcy')!;
  assert.match(missing.error!, /no agent serves bankruptcy/);
  assert.equal(view.sources_checked, 2);
  assert.equal(view.result, 'inconclusive');
  assert.equal(view.confidence, 'low');

  await orchestrator(agents).run(id);
  assert.equal((await store.readStream(streamName(id))).length, events.length, 'a second run appends nothing');
});

test('records from the agents become corroborated findings and the verdict', async () => {
  const id = await request();
  await orchestrator([ok('federal_courts', 3), ok('sanctions_list', 3)]).run(id);
  const view = buildPersonCheckView(await store.readStream(streamName(id)))!;
  assert.equal(view.status, 'completed');
  assert.equal(view.findings.length, 1);
  assert.equal(view.findings[0]!.corroboration, 'name_location');
  assert.equal(view.findings[0]!.severity, 'warning');
  assert.equal(view.result, 'adverse_found');
  assert.equal(view.confidence, 'medium');
  assert.ok(view.verdict_reasons.some((r) => /adverse finding/.test(r)));
  assert.equal(view.findings[0]!.id, 'F1');
  // Every event the pipeline wrote fits its typed Avro record, so the relay publishes typed data.
  const registry = AvroRegistry.load();
  for (const event of await store.readStream(streamName(id))) {
    assert.doesNotThrow(() => encodeEventData(registry, event.type, event.data), event.type);
  }
});

test('a pipeline error is recorded as a failed check, never left running', async () => {
  const id = await request();
  const broken: PersonAgent = { name: 'sanctions_list', phase: 3, label: 'broken', run: async () => ({ queried: true, records: [null as never] }) };
  await orchestrator([broken]).run(id);
  const view = buildPersonCheckView(await store.readStream(streamName(id)))!;
  assert.equal(view.status, 'failed');
  assert.match(view.failure_reason!, /pipeline error/);
});

test('a check left running by a dead process is resumed by the supervisor once stalled for a deadline, and completes', async () => {
  const id = await request(); // requested, never picked up: the process that would run it died
  const supervised = new PersonCheckOrchestrator({
    store,
    bus: {} as never,
    registry: {} as never,
    clock,
    logger: createLogger({ level: 'silent' }),
    agents: [ok('federal_courts', 3), ok('sanctions_list', 3)],
    agentTimeoutMs: 100,
    stallDeadlineMs: 300,
  });
  assert.equal(await supervised.supervise(id), 'on_time', 'not stalled yet: left alone');
  assert.equal((await store.readStream(streamName(id))).length, 1);
  await new Promise((r) => setTimeout(r, 350));
  assert.equal(await supervised.supervise(id), 'resumed');
  await supervised.stop(); // waits for the resumed run
  const view = buildPersonCheckView(await store.readStream(streamName(id)))!;
  assert.equal(view.status, 'completed');
  assert.equal(view.result, 'adverse_found');
  assert.equal(await supervised.supervise(id), 'ended', 'a completed check is left alone');
});

test('the list agent gets the pinned internal-list versions and the documents this process holds; they are dropped once the sources answered (issue 30)', async () => {
  const version = 'watchlist-0b9f5c1e-3a2d-4c1b-9e8f-1a2b3c4d5e6f@v3';
  const id = newPersonCheckId();
  await handleCommand(store, personCheckDecider, streamName(id), {
    type: 'RequestPersonCheck',
    data: {
      personCheckId: id, accountId: '7', surface: 's1', fullName: 'Jane Roe', purpose: 'employment', fcraConsent: true,
      identifiers: [{ type: 'ssn', value: '123-45-6789' }], address: { line: '1 Main St', city: 'Austin', region: 'TX' }, internalListVersions: [version],
    },
    metadata: { now: new Date().toISOString(), actor: { accountId: '7', surface: 's1' }, commandId: randomUUID() },
  });
  const held = new HeldDocuments();
  held.hold(id, [{ type: 'national_id', value: '123-45-6789', country: 'US' }]);
  const seen: { subject: PersonSubject; ctx: PersonAgentContext }[] = [];
  const listAgent: PersonAgent = { name: 'sanctions_list', phase: 3, label: 'lists', run: async (subject, ctx) => (seen.push({ subject, ctx }), { queried: true, records: [] }) };
  const run = new PersonCheckOrchestrator({ store, bus: {} as never, registry: {} as never, clock, logger: createLogger({ level: 'silent' }), agents: [listAgent], agentTimeoutMs: 200, heldDocuments: held });
  await run.run(id);
  assert.equal(seen.length, 1);
  assert.deepEqual(seen[0]!.ctx.internalListVersions, [version]);
  assert.deepEqual(seen[0]!.ctx.documents, [{ type: 'national_id', value: '123-45-6789', country: 'US' }]);
  assert.equal(seen[0]!.ctx.documentsNotHeld, undefined);
  assert.deepEqual(seen[0]!.subject.address, { line: '1 Main St', city: 'Austin', region: 'TX' });
  assert.equal(held.of(id), undefined, 'released after the last source answered');
  const stored = JSON.stringify((await store.readStream(streamName(id))).map((e) => e.data));
  assert.ok(!stored.includes('123-45') && !stored.includes('123456789'), 'the whole SSN is in no event, not even the list agent\'s subject');
});

test('a check resumed where its documents are not held still pins its versions, and its list agent is told the documents are missing', async () => {
  const version = 'watchlist-0b9f5c1e-3a2d-4c1b-9e8f-1a2b3c4d5e6f@v2';
  const id = newPersonCheckId();
  await handleCommand(store, personCheckDecider, streamName(id), {
    type: 'RequestPersonCheck',
    data: { personCheckId: id, accountId: '7', surface: 's1', fullName: 'Jane Roe', purpose: 'employment', fcraConsent: true, identifiers: [{ type: 'passport', value: 'X1234567' }], internalListVersions: [version] },
    metadata: { now: new Date().toISOString(), actor: { accountId: '7', surface: 's1' }, commandId: randomUUID() },
  });
  const seen: PersonAgentContext[] = [];
  const listAgent: PersonAgent = { name: 'sanctions_list', phase: 3, label: 'lists', run: async (_subject, ctx) => (seen.push(ctx), { queried: true, records: [] }) };
  // another process (a restart): nothing held for this check
  const resumed = new PersonCheckOrchestrator({ store, bus: {} as never, registry: {} as never, clock, logger: createLogger({ level: 'silent' }), agents: [listAgent], agentTimeoutMs: 200, stallDeadlineMs: 1, heldDocuments: new HeldDocuments() });
  await new Promise((r) => setTimeout(r, 5));
  assert.equal(await resumed.supervise(id), 'resumed');
  await resumed.stop();
  assert.deepEqual(seen.map((c) => [c.internalListVersions, c.documents, c.documentsNotHeld]), [[[version], undefined, true]]);
  assert.equal(buildPersonCheckView(await store.readStream(streamName(id)))!.status, 'completed');
});
