import { test } from 'node:test';
import assert from 'node:assert/strict';
import { screeningDecider, type ScreeningEvent, type ScreeningState } from '../../../src/commands/screening';
import { recomputeRisk } from '../../../src/app/monitoring/risk';
import type { RecordedEvent } from '../../../src/shared/events';

const at = '2026-01-01T00:00:00.000Z';
const reportHit = (id: string, score: number) => ({
  hitId: `sanctions:ofac_sdn:${id}`, category: 'sanctions', source: 'ofac_sdn', entityId: `ofac_sdn:${id}`, entityName: `NAME ${id}`,
  matchedName: `NAME ${id}`, score, status: score >= 0.95 ? 'confirmed' : 'potential', explanation: { summary: '', qualifiers: [] }, programs: [], entityRecordHash: `h${id}`,
});
const stateHit = (id: string, score: number) => ({ hitId: `sanctions:ofac_sdn:${id}`, entityId: `ofac_sdn:${id}`, category: 'sanctions', source: 'ofac_sdn', matchedName: `NAME ${id}`, score, entityRecordHash: `h${id}` });

const bare: { type: ScreeningEvent['type']; data: Record<string, unknown> }[] = [
  { type: 'ScreeningRequested', data: { screeningId: '5', accountId: '1', uuid: 'u', kind: 'cdd', surface: 's1', plan: 'enterprise', subject: { query: 'X', entityType: 'individual' }, monitor: true, pipeline: [], requestedAt: at } },
  { type: 'AgentResultRecorded', data: { screeningId: '5', accountId: '1', phase: '1', agent: 'sanctions', queried: true, result: { hits: [reportHit('1', 0.97), reportHit('2', 0.85)] }, startedAt: at, finishedAt: at } },
  { type: 'ScreeningCompleted', data: { screeningId: '5', accountId: '1', uuid: 'u', kind: 'cdd', surface: 's1', riskScore: 22, riskLevel: 'medium', counts: { sanctionsHits: 2, pepHits: 0, adverseMediaHits: 0, offshoreLeaksHits: 0, debarmentHits: 0 }, hits: [stateHit('1', 0.97), stateHit('2', 0.85)], listVersions: [], matcherVersion: 'm', completedAt: at } },
  { type: 'MonitoringEnrolled', data: { screeningId: '5', accountId: '1', subject: { query: 'X', entityType: 'individual' }, enrolledAt: at } },
];
const events = bare.map((e, i) => ({ ...e, metadata: { eventId: `e${i}`, occurredAt: at }, streamName: 'screening-5', streamPosition: BigInt(i), globalPosition: BigInt(i), recordedAt: at })) as unknown as RecordedEvent[];
let state: ScreeningState = screeningDecider.initialState();
for (const e of events) state = screeningDecider.evolve(state, e as unknown as ScreeningEvent);

test('risk is recomputed from the hits that still count, with the pipeline scorer', () => {
  // confirmed US hit 15 + potential US hit 7 (docs/risk-scoring.md)
  assert.deepEqual(recomputeRisk(events, state), { riskScore: 22, riskLevel: 'medium', countingHitIds: ['sanctions:ofac_sdn:1', 'sanctions:ofac_sdn:2'] });
  if (state.status === 'none') throw new Error('unreachable');
  const cleared: ScreeningState = { ...state, hits: { ...state.hits, 'sanctions:ofac_sdn:1': { ...state.hits['sanctions:ofac_sdn:1']!, status: 'false_positive' } } };
  assert.deepEqual(recomputeRisk(events, cleared), { riskScore: 7, riskLevel: 'low', countingHitIds: ['sanctions:ofac_sdn:2'] });
  const trueMatch: ScreeningState = { ...state, hits: { ...state.hits, 'sanctions:ofac_sdn:2': { ...state.hits['sanctions:ofac_sdn:2']!, status: 'true_match' } } };
  assert.equal(recomputeRisk(events, trueMatch).riskScore, 22, 'a true match still counts');
});

test('a hit added by monitoring counts from its state (it is not in the pipeline report)', () => {
  if (state.status === 'none') throw new Error('unreachable');
  const withNew: ScreeningState = { ...state, hits: { ...state.hits, 'sanctions:ofac_sdn:3': { ...stateHit('3', 0.99), category: 'sanctions', status: 'open' } as never } };
  assert.equal(recomputeRisk(events, withNew).riskScore, 37);
});
