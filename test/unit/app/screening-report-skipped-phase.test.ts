/**
 * The screening report of a phase none of whose sources this deployment can query: written today
 * as one PhaseSkipped, in older streams as PhaseStarted (every agent not queried) + PhaseCompleted.
 * Both list each source as not queried, with its reason, in the agents and the sources not searched.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildScreeningReport } from '../../../src/projections/screening-report';
import { type RequestScreening, screeningDecider, type ScreeningEvent } from '../../../src/commands/screening';
import type { RecordedEvent } from '../../../src/shared/events';
import { meta, NOW } from '../commands/helpers';

const ids = { screeningId: '501', accountId: '42' };
const notQueried = [
  { agent: 'company_registries', error: 'not configured: set COMPANIES_HOUSE_API_KEY' },
  { agent: 'market_data', error: 'no agent serves market_data in this deployment' },
];
const request: RequestScreening = {
  type: 'RequestScreening',
  data: { ...ids, uuid: '6f1c2a0e-8b7d-4c3e-9a1f-0b2c3d4e5f60', kind: 'cdd', surface: 's1', plan: 'essentials', subject: { query: 'Rosneft', entityType: 'individual' } },
  metadata: meta(),
};

function stream(events: Pick<ScreeningEvent, 'type' | 'data'>[]): RecordedEvent[] {
  const requested = screeningDecider.decide(request, screeningDecider.initialState());
  return [...requested, ...events].map((event, position) => ({
    ...event,
    metadata: { eventId: `e-${position}`, occurredAt: NOW },
    streamName: 'screening-501',
    streamPosition: BigInt(position),
    globalPosition: BigInt(position),
    recordedAt: NOW,
  })) as RecordedEvent[];
}

const context = { agentLabels: { company_registries: 'Company registries' } };

describe('screening report: a phase none of whose sources can be queried', () => {
  const skipped = buildScreeningReport(stream([{ type: 'PhaseSkipped', data: { ...ids, phase: '1b', notQueried, skippedAt: NOW } }]), context)!;

  it('lists each of its sources as not queried, with its reason', () => {
    assert.deepEqual(skipped.agents, [
      { agent: 'company_registries', phase: '1b', queried: false, durationMs: 0, matchCount: 0, startedAt: NOW, error: notQueried[0]!.error },
      { agent: 'market_data', phase: '1b', queried: false, durationMs: 0, matchCount: 0, startedAt: NOW, error: notQueried[1]!.error },
    ]);
    assert.deepEqual(skipped.sourcesNotSearched, [
      { source: 'Company registries', reason: notQueried[0]!.error },
      { source: 'market_data', reason: notQueried[1]!.error },
    ]);
    assert.deepEqual(skipped.audit.events.map((e) => e.type), ['ScreeningRequested', 'PhaseSkipped']);
  });

  it('as the PhaseStarted + PhaseCompleted pair of an older stream does', () => {
    const older = buildScreeningReport(
      stream([
        { type: 'PhaseStarted', data: { ...ids, phase: '1b', agents: ['company_registries', 'market_data'], mode: 'parallel', startedAt: NOW, notQueried } },
        { type: 'PhaseCompleted', data: { ...ids, phase: '1b', agentsQueried: [], agentsNotQueried: ['company_registries', 'market_data'], completedAt: NOW } },
      ]),
      context,
    )!;
    assert.deepEqual(older.agents, skipped.agents);
    assert.deepEqual(older.sourcesNotSearched, skipped.sourcesNotSearched);
  });
});

describe('screening report: a run of such phases in one PhaseSkipped (v2, thenSkipped)', () => {
  const phase2 = [{ agent: 'browser_verification', error: 'no agent serves browser_verification in this deployment' }];
  const together = buildScreeningReport(
    stream([{ type: 'PhaseSkipped', data: { ...ids, phase: '1b', notQueried, thenSkipped: [{ phase: '2', notQueried: phase2 }], skippedAt: NOW } }]),
    context,
  )!;
  const oneEach = buildScreeningReport(
    stream([
      { type: 'PhaseSkipped', data: { ...ids, phase: '1b', notQueried, skippedAt: NOW } },
      { type: 'PhaseSkipped', data: { ...ids, phase: '2', notQueried: phase2, skippedAt: NOW } },
    ]),
    context,
  )!;

  it('lists the sources of every phase it records, as one PhaseSkipped per phase (v1) does', () => {
    assert.deepEqual(together.agents.map((a) => `${a.phase}/${a.agent}`), ['1b/company_registries', '1b/market_data', '2/browser_verification']);
    assert.ok(together.agents.every((a) => a.queried === false && a.error));
    assert.deepEqual(together.agents, oneEach.agents);
    assert.deepEqual(together.sourcesNotSearched, oneEach.sourcesNotSearched);
    assert.deepEqual(together.audit.events.map((e) => e.type), ['ScreeningRequested', 'PhaseSkipped']);
  });
});
