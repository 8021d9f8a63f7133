/**
 * The portal's progress messages for a phase none of whose sources this deployment can query: one
 * PhaseSkipped reads to the page exactly as the PhaseStarted + PhaseCompleted pair that older
 * streams hold for such a phase (started, each source finished as not searched, completed); and a
 * phase recorded whole in its PhaseCompleted (v2, the finalisation) as the events it replaces.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { progressOf } from '../../../src/api/portal/screening-routes';
import type { ScreeningEvent } from '../../../src/commands/screening';
import type { RecordedEvent } from '../../../src/shared/events';

const AT = '2026-03-01T10:00:00.000Z';
const ids = { screeningId: '501', accountId: '42' };
const labels = { company_registries: 'Company registries' };
const notQueried = [
  { agent: 'company_registries', error: 'not configured: set COMPANIES_HOUSE_API_KEY' },
  { agent: 'market_data', error: 'no agent serves market_data in this deployment' },
];

function stored(event: Pick<ScreeningEvent, 'type' | 'data'>, position: number): RecordedEvent {
  return {
    ...event,
    metadata: { eventId: `e-${position}`, occurredAt: AT },
    streamName: 'screening-501',
    streamPosition: BigInt(position),
    globalPosition: BigInt(position),
    recordedAt: AT,
  } as RecordedEvent;
}

describe('portal progress of a skipped phase', () => {
  const skipped = progressOf(stored({ type: 'PhaseSkipped', data: { ...ids, phase: '1b', notQueried, skippedAt: AT } }, 7), labels);

  it('is the phase started, each of its sources finished as not searched with the reason, and the phase completed', () => {
    assert.deepEqual(skipped, [
      { event: 'phase_started', data: { phase: '1b', name: 'Registries and market data', at: AT } },
      {
        event: 'agent_finished',
        data: { phase: '1b', agent: 'company_registries', label: 'Company registries', queried: false, error: notQueried[0]!.error, duration_ms: 0 },
      },
      { event: 'agent_finished', data: { phase: '1b', agent: 'market_data', label: 'Market data', queried: false, error: notQueried[1]!.error, duration_ms: 0 } },
      { event: 'phase_completed', data: { phase: '1b', queried: [], not_queried: ['company_registries', 'market_data'], at: AT } },
    ]);
  });

  it('reads the same as the PhaseStarted + PhaseCompleted pair of an older stream', () => {
    const older = [
      stored({ type: 'PhaseStarted', data: { ...ids, phase: '1b', agents: ['company_registries', 'market_data'], mode: 'parallel', startedAt: AT, notQueried } }, 7),
      stored({ type: 'PhaseCompleted', data: { ...ids, phase: '1b', agentsQueried: [], agentsNotQueried: ['company_registries', 'market_data'], completedAt: AT } }, 8),
    ].flatMap((event) => progressOf(event, labels));
    assert.deepEqual(skipped, older);
  });
});

describe('portal progress of a run of skipped phases in one PhaseSkipped (v2, thenSkipped)', () => {
  const phase2 = [{ agent: 'browser_verification', error: 'no agent serves browser_verification in this deployment' }];

  it('reads, with the event\'s id, as one PhaseSkipped per phase: each phase started, its sources finished, completed', () => {
    const together = progressOf(stored({ type: 'PhaseSkipped', data: { ...ids, phase: '1b', notQueried, thenSkipped: [{ phase: '2', notQueried: phase2 }], skippedAt: AT } }, 7), labels);
    const oneEach = [
      stored({ type: 'PhaseSkipped', data: { ...ids, phase: '1b', notQueried, skippedAt: AT } }, 7),
      stored({ type: 'PhaseSkipped', data: { ...ids, phase: '2', notQueried: phase2, skippedAt: AT } }, 7),
    ].flatMap((event) => progressOf(event, labels));
    assert.deepEqual(together, oneEach);
    assert.deepEqual(
      (together as { event: string; data: { phase: string } }[]).map((m) => `${m.event} ${m.data.phase}`),
      ['phase_started 1b', 'agent_finished 1b', 'agent_finished 1b', 'phase_completed 1b', 'phase_started 2', 'agent_finished 2', 'phase_completed 2'],
    );
  });
});


describe('portal progress of the finalisation recorded whole (PhaseCompleted v2, results)', () => {
  const LATER = '2026-03-01T10:00:00.040Z';
  const answers = [
    { agent: 'country_risk', queried: false, error: 'FATF lists not loaded', result: {}, startedAt: AT, finishedAt: AT },
    { agent: 'risk_score', queried: true, result: { assessment: { riskScore: 0 } }, startedAt: AT, finishedAt: LATER },
  ];
  const completed = { ...ids, phase: '5' as const, agentsQueried: ['risk_score'], agentsNotQueried: ['country_risk'], completedAt: LATER };

  it('reads as the PhaseStarted, one AgentResultRecorded per result and the PhaseCompleted of an older stream', () => {
    const whole = progressOf(stored({ type: 'PhaseCompleted', data: { ...completed, results: answers } }, 9), labels);
    const older = [
      stored({ type: 'PhaseStarted', data: { ...ids, phase: '5', agents: ['country_risk', 'risk_score'], mode: 'sequential', startedAt: AT } }, 9),
      ...answers.map((a, i) => stored({ type: 'AgentResultRecorded', data: { ...ids, phase: '5', ...a } }, 10 + i)),
      stored({ type: 'PhaseCompleted', data: completed }, 12),
    ].flatMap((e) => progressOf(e, labels));
    assert.deepEqual(whole, older);
    assert.deepEqual(
      whole.map((m) => m.event),
      ['phase_started', 'agent_finished', 'agent_finished', 'phase_completed'],
    );
    assert.deepEqual(whole[2], { event: 'agent_finished', data: { phase: '5', agent: 'risk_score', label: 'Risk score', queried: true, error: null, duration_ms: 40 } });
  });

  it('a PhaseCompleted without results is the phase completed alone', () => {
    assert.deepEqual(progressOf(stored({ type: 'PhaseCompleted', data: completed }, 3), labels), [
      { event: 'phase_completed', data: { phase: '5', queried: ['risk_score'], not_queried: ['country_risk'], at: LATER } },
    ]);
  });
});
