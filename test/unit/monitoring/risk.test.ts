import { test } from 'node:test';
import assert from 'node:assert/strict';
import { screeningDecider, type ScreeningEvent, type ScreeningState } from '../../../src/commands/screening';
import { recomputeRisk } from '../../../src/app/monitoring/risk';
import type { RecordedEvent } from '../../../src/shared/events';

const at = '2026-01-01T00:00:00.000Z';
// Hit 1's identity was corroborated by the date of birth when it was found (src/reports/confirmation.ts); hit 2 is a name match.
const reportHit = (id: string, score: number, confirmedBy?: string) => ({
  hitId: `sanctions:ofac_sdn:${id}`, category: 'sanctions', source: 'ofac_sdn', entityId: `ofac_sdn:${id}`, entityName: `NAME ${id}`,
  matchedName: `NAME ${id}`, score, status: confirmedBy ? 'confirmed' : 'potential', explanation: { summary: '', qualifiers: [] }, programs: [], entityRecordHash: `h${id}`,
  ...(confirmedBy ? { assessment: 'identity_corroborated', confirmation: { basis: 'date_of_birth', detail: confirmedBy } } : { assessment: 'name_match' }),
});
const stateHit = (id: string, score: number) => ({ hitId: `sanctions:ofac_sdn:${id}`, entityId: `ofac_sdn:${id}`, category: 'sanctions', source: 'ofac_sdn', matchedName: `NAME ${id}`, score, entityRecordHash: `h${id}` });

const bare: { type: ScreeningEvent['type']; data: Record<string, unknown> }[] = [
  { type: 'ScreeningRequested', data: { screeningId: '5', accountId: '1', uuid: 'u', kind: 'cdd', surface: 's1', plan: 'enterprise', subject: { query: 'X', entityType: 'individual' }, monitor: true, pipeline: [], requestedAt: at } },
  { type: 'AgentResultRecorded', data: { screeningId: '5', accountId: '1', phase: '1', agent: 'sanctions', queried: true, result: { hits: [reportHit('1', 0.97, 'date of birth 1960-01-01 equals listed 01 Jan 1960'), reportHit('2', 0.85)] }, startedAt: at, finishedAt: at } },
  { type: 'ScreeningCompleted', data: { screeningId: '5', accountId: '1', uuid: 'u', kind: 'cdd', surface: 's1', riskScore: 22, riskLevel: 'medium', counts: { sanctionsHits: 2, pepHits: 0, adverseMediaHits: 0, offshoreLeaksHits: 0, debarmentHits: 0 }, hits: [stateHit('1', 0.97), stateHit('2', 0.85)], listVersions: [], matcherVersion: 'm', completedAt: at } },
  { type: 'MonitoringEnrolled', data: { screeningId: '5', accountId: '1', subject: { query: 'X', entityType: 'individual' }, enrolledAt: at } },
];
const events = bare.map((e, i) => ({ ...e, metadata: { eventId: `e${i}`, occurredAt: at }, streamName: 'screening-5', streamPosition: BigInt(i), globalPosition: BigInt(i), recordedAt: at })) as unknown as RecordedEvent[];
let state: ScreeningState = screeningDecider.initialState();
for (const e of events) state = screeningDecider.evolve(state, e as unknown as ScreeningEvent);

/** Decides a command on the current stream and appends its events, as the monitoring service does. */
function applied(stream: RecordedEvent[], command: Record<string, unknown>): { events: RecordedEvent[]; state: ScreeningState } {
  let current: ScreeningState = screeningDecider.initialState();
  for (const e of stream) current = screeningDecider.evolve(current, e as unknown as ScreeningEvent);
  const decided = screeningDecider.decide({ ...command, metadata: { now: at, actor: { surface: 'system' }, commandId: `c${stream.length}`, correlationId: 'c' } } as never, current);
  const next = [...stream, ...decided.map((e, i) => ({ ...e, streamName: 'screening-5', streamPosition: BigInt(stream.length + i), globalPosition: 0n, recordedAt: at }))] as unknown as RecordedEvent[];
  for (const e of decided) current = screeningDecider.evolve(current, e);
  return { events: next, state: current };
}
const dispose = (hit: string, disposition: 'true_match' | 'false_positive', risk: { riskScore: number; riskLevel: string }) => ({
  type: 'DispositionHit',
  data: { screeningId: '5', hitId: `sanctions:ofac_sdn:${hit}`, disposition, reason: 'checked the passport', analyst: 'ana@bank.test', ...risk },
});

test('risk is recomputed from the report as it stands, with the pipeline scorer and its floors', () => {
  // confirmed SDN hit 15 + potential SDN hit 7 = 22 additive; the blocking-sanctions floor makes it critical 70.
  const before = recomputeRisk(events, state);
  assert.deepEqual([before.riskScore, before.riskLevel, before.countingHitIds], [70, 'critical', ['sanctions:ofac_sdn:1', 'sanctions:ofac_sdn:2']]);

  // The analyst dismisses the confirmed hit: the potential one alone is high (45), and the breakdown says who dismissed what.
  const cleared = applied(events, dispose('1', 'false_positive', { riskScore: 45, riskLevel: 'high' }));
  const afterClear = recomputeRisk(cleared.events, cleared.state);
  assert.deepEqual([afterClear.riskScore, afterClear.riskLevel, afterClear.countingHitIds], [45, 'high', ['sanctions:ofac_sdn:2']]);
  assert.ok(afterClear.assessment!.breakdown.some((c) => c.rule === 'disposition.false_positive' && /ana@bank\.test/.test(c.reason)));

  // Then marks the potential hit a true match: a sanctions true match is critical.
  const confirmed = applied(cleared.events, dispose('2', 'true_match', { riskScore: 70, riskLevel: 'critical' }));
  const afterTrue = recomputeRisk(confirmed.events, confirmed.state);
  assert.deepEqual([afterTrue.riskScore, afterTrue.riskLevel], [70, 'critical']);
  assert.match(afterTrue.assessment!.breakdown.find((c) => c.rule === 'floor.sanctions_true_match')!.reason, /true match by ana@bank\.test/);

  // Both dismissed: nothing counts.
  const none = applied(cleared.events, dispose('2', 'false_positive', { riskScore: 0, riskLevel: 'low' }));
  assert.deepEqual([recomputeRisk(none.events, none.state).riskScore, recomputeRisk(none.events, none.state).riskLevel], [0, 'low']);
});

test('a hit added by monitoring counts (the report folds the alert in)', () => {
  const cleared = applied(events, dispose('1', 'false_positive', { riskScore: 45, riskLevel: 'high' }));
  const alert = applied(cleared.events, {
    type: 'RecordMonitoringAlert',
    data: {
      screeningId: '5', alertId: 'v2:new_hit:ofac_sdn:3', kind: 'new_hit', entityId: 'ofac_sdn:3', diff: {}, listVersion: 'ofac_sdn@v2', entityRecordHash: 'h3',
      hit: { hitId: 'sanctions:ofac_sdn:3', category: 'sanctions', source: 'ofac_sdn', matchedName: 'NAME 3', score: 0.99 },
      risk: { riskScore: 70, riskLevel: 'critical' },
    },
  });
  const risk = recomputeRisk(alert.events, alert.state);
  // A hit found by monitoring is a name match: nothing corroborates its identity yet, however high its name score.
  assert.deepEqual([risk.riskScore, risk.riskLevel], [45, 'high'], 'a new SDN name match is high, "EDD required"');
  assert.deepEqual(risk.countingHitIds.sort(), ['sanctions:ofac_sdn:2', 'sanctions:ofac_sdn:3']);
  assert.ok(risk.assessment!.breakdown.some((c) => c.hitIds?.includes('sanctions:ofac_sdn:3') && c.points > 0), 'the new hit adds its points');
  // The analyst confirms it: a sanctions true match is critical again.
  const confirmed = applied(alert.events, dispose('3', 'true_match', { riskScore: 70, riskLevel: 'critical' }));
  assert.deepEqual([recomputeRisk(confirmed.events, confirmed.state).riskScore, recomputeRisk(confirmed.events, confirmed.state).riskLevel], [70, 'critical']);
});
