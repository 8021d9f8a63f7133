/**
 * The screening report on the live path: the pipeline records each agent's result and the
 * finalisation steps' (risk score, summary) as AgentResultRecorded, completes the screening, and
 * src/projections/screening-report.ts folds that stream into the report every read serves (the
 * screening-detail read model keeps the same fold). Outside sources become report pieces through
 * the catalog's sources agent. These cases are what the old, unused report assembler was tested
 * for, asserted where the service actually does it.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildScreeningReport, finishReport, foldReportEvent, riskFactsOf, startReport } from '../../../src/projections/screening-report';
import { finalisers, type FinalisationContext } from '../../../src/agents/finalisation/finalisers';
import { sourcesAgent } from '../../../src/agents/catalog';
import type { ExternalSource } from '../../../src/agents/sources/types';
import type { AgentOutcome } from '../../../src/agents/sources/types';
import { buildJsonReport } from '../../../src/reports/json-report';
import type { ReportHit, ScreeningReport } from '../../../src/reports/model';
import { type RequestScreening, screeningDecider, type ScreeningRequested } from '../../../src/commands/screening';
import type { RecordedEvent } from '../../../src/shared/events';
import { meta, NOW } from '../commands/helpers';
import { sampleReport } from '../reports/sample-report';
import { deepFreeze } from '../../../src/shared/freeze';

const ids = { screeningId: '77', accountId: '42' };
const request: RequestScreening = {
  type: 'RequestScreening',
  data: { ...ids, uuid: '0b6f2d9e-3c1a-4e8b-9f70-5a4d3c2b1e0f', kind: 'cdd', surface: 's1', plan: 'enterprise', subject: { query: 'Zala Aero Group', entityType: 'company', jurisdiction: 'Iran' } },
  metadata: meta(),
};
const context = { agentLabels: { market_data: 'Market data' } };

type Later = { type: string; data: Record<string, unknown> };

function recorded(events: Later[]): RecordedEvent[] {
  const requested = screeningDecider.decide(request, screeningDecider.initialState());
  return [...requested, ...events].map((event, position) => ({
    ...event,
    metadata: { eventId: `e-${position}`, occurredAt: NOW },
    streamName: 'screening-77',
    streamPosition: BigInt(position),
    globalPosition: BigInt(position),
    recordedAt: NOW,
  })) as RecordedEvent[];
}

const result = (phase: string, agent: string, payload: Record<string, unknown>, queried = true, error?: string): Later => ({
  type: 'AgentResultRecorded',
  data: { ...ids, phase, agent, queried, ...(error ? { error } : {}), result: payload, startedAt: NOW, finishedAt: NOW },
});

/** FATF's call for action on Iran (countermeasures), as the lists in service would give it. */
const iran = { iso2: 'IR', jurisdiction: 'Iran', list: 'high_risk_call_for_action' as const, measure: 'countermeasures', asOf: '2026-02-13' };
const finalisation: FinalisationContext = {
  countryRisk: () => [iran],
  analyse: async () => ({ markdown: '', generatedBy: 'rules' }),
};

/** A screening's stream as the pipeline writes it: agent results, then the risk score and summary steps on the report so far, then completion. */
async function pipelineStream(hits: ReportHit[], extra: Later[] = []): Promise<RecordedEvent[]> {
  const countryRisk = [{ iso2: iran.iso2, jurisdiction: iran.jurisdiction, fatfStatus: iran.list, measure: iran.measure, asOf: iran.asOf, basis: 'subject_jurisdiction' }];
  const found: Later[] = [
    result('1a', 'sanctions', { hits }),
    result('1b', 'country_risk', { countryRisk: hits.length > 0 ? countryRisk : [] }),
    result('1b', 'market_data', {}, false, 'not configured: set MARKET_DATA_API_KEY'),
    ...extra,
  ];
  const soFar = buildScreeningReport(recorded(found), context)!;
  const risk = await finalisers.risk_score!(soFar, finalisation);
  const summary = await finalisers.summary!(soFar, finalisation);
  const scored = [...found, result('5', 'risk_score', risk.result), result('5', 'summary', summary.result)];
  const assessment = risk.result.assessment as { riskScore: number; riskLevel: string };
  return recorded([
    ...scored,
    {
      type: 'ScreeningCompleted',
      data: { ...ids, uuid: request.data.uuid, kind: 'cdd', surface: 's1', riskScore: assessment.riskScore, riskLevel: assessment.riskLevel, counts: {}, hits: [], listVersions: [], matcherVersion: 'matcher-1.0.0', completedAt: NOW },
    },
  ]);
}

const sampleHits = (): ReportHit[] => Object.values(sampleReport().hits).flat();

describe('screening report fold (live path)', () => {
  it('carries the verdict the scorer computed from the hits, as the risk_score step recorded it', async () => {
    const report = buildScreeningReport(await pipelineStream(sampleHits()), context)!;
    assert.equal(report.status, 'completed');
    assert.deepEqual([report.verdict.riskScore, report.verdict.riskLevel], [100, 'critical']);
    // The breakdown explains the score: its points add up to the uncapped score, FATF's countermeasures among them.
    assert.equal(report.verdict.uncappedScore, report.verdict.breakdown.reduce((sum, line) => sum + line.points, 0));
    assert.ok(report.verdict.breakdown.some((line) => line.rule === 'fatf.call_for_action.countermeasures'));
    assert.ok(report.verdict.uncappedScore! > 100);
    assert.deepEqual(report.verdict.flags, ['confirmed_sanctions_hit', 'pep', 'fatf_black_list']);
  });

  it('lists a source that could not be queried as not searched, under its label, with its reason', async () => {
    const report = buildScreeningReport(await pipelineStream(sampleHits()), context)!;
    assert.deepEqual(report.sourcesNotSearched, [{ source: 'Market data', reason: 'not configured: set MARKET_DATA_API_KEY' }]);
  });

  it('takes the summary step\'s factual summary when completion carries none, counting the hits by standing in the words of the one definition', async () => {
    const report = buildScreeningReport(await pipelineStream(sampleHits()), context)!;
    assert.equal(
      report.verdict.summary,
      'Zala Aero Group (company, Iran) was screened against 2 sources. 7 matches (identity corroborated 3, name match 4): ZALA AERO GROUP on OFAC SDN List (100, identity corroborated); ' +
        'TIANSHENG INDUSTRY AND TRADING CO., LTD. 天盛工贸有限公司 on icij_offshore (97, identity corroborated); Alexander Vyacheslavovich ZAKHAROV on Commercial sanctions and PEP screening API (96, identity corroborated). 1 source could not be searched; see data gaps.',
    );
  });

  it('counts the summary\'s matches as they stand after the decisions: a false positive is dismissed and no longer named, a true match is analyst-confirmed', async () => {
    const [best, , third] = sampleReport().hits.sanctions;
    const stream = await pipelineStream([best!, third!]);
    const n = stream.length;
    const decided = (hit: ReportHit, disposition: string, position: number): RecordedEvent =>
      ({
        type: 'HitDispositioned',
        data: { ...ids, hitId: hit.hitId, entityId: hit.entityId, disposition, reason: 'checked', analyst: 'user:u2', entityRecordHash: 'h1', dispositionedAt: NOW },
        metadata: { eventId: `decided-${position}`, occurredAt: NOW },
        streamName: 'screening-77',
        streamPosition: BigInt(position),
        globalPosition: BigInt(position),
        recordedAt: NOW,
      }) as RecordedEvent;
    const before = buildScreeningReport(stream, context)!.verdict.summary!;
    assert.match(before, /2 matches \(identity corroborated 1, name match 1\): ZALA AERO GROUP on OFAC SDN List \(100, identity corroborated\); /);
    const dismissed = buildScreeningReport([...stream, decided(best!, 'false_positive', n)], context)!.verdict.summary!;
    assert.match(dismissed, /^Zala Aero Group \(company, Iran\) was screened against 2 sources\. 2 matches \(name match 1, dismissed 1\): /);
    assert.doesNotMatch(dismissed, /ZALA AERO GROUP|confirmed|corroborated/, dismissed);
    assert.match(dismissed, / 1 source could not be searched; see data gaps\.$/, 'the coverage sentence is kept as recorded');
    const both = buildScreeningReport([...stream, decided(best!, 'false_positive', n), decided(third!, 'true_match', n + 1)], context)!.verdict.summary!;
    assert.match(both, /2 matches \(analyst-confirmed 1, dismissed 1\): [^;]+ \(\d+, analyst-confirmed\)\./);
  });

  it('a screening with nothing found is low, with no flags, and its JSON report has every section', async () => {
    const report = buildScreeningReport(await pipelineStream([]), context)!;
    assert.deepEqual([report.verdict.riskScore, report.verdict.riskLevel, report.verdict.flags], [0, 'low', []]);
    assert.equal(buildJsonReport(report, { generatedAt: '2026-01-01T00:00:00Z' }).sections.length, 13);
  });

  it('keeps one hit per hit id and sorts each category best first', async () => {
    const [best, second, third] = sampleReport().hits.sanctions;
    const report = buildScreeningReport(await pipelineStream([third!, best!], [result('1a', 'sanctions_again', { hits: [best!, second!] })]), context)!;
    assert.deepEqual(
      report.hits.sanctions.map((h) => [h.hitId, h.score]),
      [best!, second!, third!].map((h) => [h.hitId, h.score]),
    );
  });

  it('is a fold: the same events give the same report however often it is built, and the events are not written to', async () => {
    const [best, second] = sampleReport().hits.sanctions;
    const completedStream = await pipelineStream([best!, second!]);
    const later = (type: string, data: Record<string, unknown>, position: number): RecordedEvent =>
      ({ type, data: { ...ids, ...data }, metadata: { eventId: `later-${position}`, occurredAt: NOW }, streamName: 'screening-77', streamPosition: BigInt(position), globalPosition: BigInt(position), recordedAt: NOW }) as RecordedEvent;
    const n = completedStream.length;
    const events = deepFreeze([
      ...completedStream,
      later('HitDispositioned', { hitId: second!.hitId, entityId: second!.entityId, disposition: 'false_positive', reason: 'other DOB', analyst: 'user-1', entityRecordHash: 'h1', dispositionedAt: NOW }, n),
      // Monitoring changes a hit the pipeline found: the report shows the new score and one note.
      later('MonitoringAlertRaised', { alertId: 'a1', kind: 'changed_hit', hitId: best!.hitId, entityId: best!.entityId, category: 'sanctions', source: best!.source, matchedName: best!.matchedName, score: 0.97, diff: {}, listVersion: 'v2', raisedAt: NOW }, n + 1),
    ]);
    const before = JSON.stringify(events, (_k, v) => (typeof v === 'bigint' ? v.toString() : v));
    const first = buildScreeningReport(events, context)!;
    const second_ = buildScreeningReport(events, context)!;
    assert.deepEqual(second_, first);
    const changed = first.hits.sanctions.find((h) => h.hitId === best!.hitId)!;
    assert.equal(changed.score, 0.97);
    assert.equal(changed.explanation.summary.split('list version v2').length - 1, 1, changed.explanation.summary);
    assert.equal(first.hits.sanctions.find((h) => h.hitId === second!.hitId)!.disposition?.decision, 'false_positive');
    assert.equal(JSON.stringify(events, (_k, v) => (typeof v === 'bigint' ? v.toString() : v)), before, 'the events are as recorded');
  });
});

describe("monitoring alerts read as a screening's own hits (issue 27)", () => {
  const later = (type: string, data: Record<string, unknown>, position: number): RecordedEvent =>
    ({ type, data: { ...ids, ...data }, metadata: { eventId: `later-${position}`, occurredAt: NOW }, streamName: 'screening-77', streamPosition: BigInt(position), globalPosition: BigInt(position), recordedAt: NOW }) as RecordedEvent;
  const alert = (kind: string, hitId: string, entityId: string, score: number, identity?: Record<string, unknown>) => ({
    alertId: `a-${hitId}-${kind}`, kind, hitId, entityId, category: 'sanctions', source: 'ofac_sdn', matchedName: 'ZALA AERO GROUP', score, diff: {}, listVersion: 'ofac_sdn@v2', entityRecordHash: `rec-${kind}`, raisedAt: NOW,
    ...(identity ? { identity } : {}),
  });
  const byDob = { basis: 'date_of_birth', detail: 'date of birth 1970-01-01 equals listed 01 Jan 1970' };

  it('given a completed screening, when alerts add hits with and without an assessment, then each is read by its assessment: confirmed only with a confirmation, contradicted kept potential, an old alert by its score', async () => {
    const stream = await pipelineStream([]);
    const n = stream.length;
    const report = buildScreeningReport([
      ...stream,
      later('MonitoringAlertRaised', alert('new_hit', 'sanctions:ofac_sdn:1', 'ofac_sdn:1', 0.99, { assessment: 'identity_corroborated', confirmation: byDob, note: `identity corroborated: ${byDob.detail}` }), n),
      later('MonitoringAlertRaised', alert('new_hit', 'sanctions:ofac_sdn:2', 'ofac_sdn:2', 0.84, { assessment: 'identity_contradicted', note: 'identity contradicted: date of birth 1980-05-05 is outside listed 1970' }), n + 1),
      later('MonitoringAlertRaised', alert('new_hit', 'sanctions:ofac_sdn:3', 'ofac_sdn:3', 0.99), n + 2),
    ], context)!;
    const hit = (id: string) => report.hits.sanctions.find((h) => h.hitId === id)!;
    assert.deepEqual([hit('sanctions:ofac_sdn:1').status, hit('sanctions:ofac_sdn:1').assessment, hit('sanctions:ofac_sdn:1').confirmation], ['confirmed', 'identity_corroborated', byDob]);
    assert.match(hit('sanctions:ofac_sdn:1').explanation.summary, /ongoing monitoring \(new hit\).*Identity corroborated: date of birth 1970-01-01/);
    assert.deepEqual([hit('sanctions:ofac_sdn:2').status, hit('sanctions:ofac_sdn:2').assessment], ['potential', 'identity_contradicted']);
    assert.deepEqual([hit('sanctions:ofac_sdn:3').status, hit('sanctions:ofac_sdn:3').assessment], ['potential', undefined], 'an alert recorded before v3: at most a strong name match');
  });

  it('given a hit monitoring confirmed, when a changed record is assessed again as contradicted, then the confirmation goes; a change without an assessment keeps the one the hit had', async () => {
    const stream = await pipelineStream([]);
    const n = stream.length;
    const confirmed = later('MonitoringAlertRaised', alert('new_hit', 'sanctions:ofac_sdn:1', 'ofac_sdn:1', 0.99, { assessment: 'identity_corroborated', confirmation: byDob, note: 'identity corroborated' }), n);
    const kept = buildScreeningReport([...stream, confirmed, later('MonitoringAlertRaised', alert('changed_hit', 'sanctions:ofac_sdn:1', 'ofac_sdn:1', 0.98), n + 1)], context)!.hits.sanctions[0]!;
    assert.deepEqual([kept.status, kept.assessment, kept.score], ['confirmed', 'identity_corroborated', 0.98]);
    const reassessed = buildScreeningReport(
      [...stream, confirmed, later('MonitoringAlertRaised', alert('changed_hit', 'sanctions:ofac_sdn:1', 'ofac_sdn:1', 0.84, { assessment: 'identity_contradicted', note: 'identity contradicted: the listing now gives 1950' }), n + 1)],
      context,
    )!.hits.sanctions[0]!;
    assert.deepEqual([reassessed.status, reassessed.assessment, reassessed.confirmation], ['potential', 'identity_contradicted', undefined]);
    assert.match(reassessed.identityNote ?? '', /now gives 1950/);
  });
});

describe('outside sources as report pieces (the catalog\'s sources agent)', () => {
  const source = (outcome: AgentOutcome, configured = true): ExternalSource => ({
    name: 'companies_house',
    label: 'UK Companies House',
    phase: '1b',
    tier: 'free' as never,
    enableWith: 'COMPANIES_HOUSE_API_KEY',
    configured: () => configured,
    query: async () => outcome,
  });
  const subject = { workflow: 'screening-77', name: 'X LTD', entityType: 'company' as const };
  const ctx = { signal: new AbortController().signal };

  it('splits an outcome into hits (none under the minimum match score), registry records and UK registry facts', async () => {
    const agent = sourcesAgent('company_registries', 'Company registries', [
      source({
        queried: true,
        matches: [
          { kind: 'registry', record: { source: 'companies_house', legalName: 'X LTD' }, ukRegistry: { companyNumber: '1', status: 'dissolved' } },
          { kind: 'hit', category: 'pep', entityId: 'p1', entityName: 'P', matchedName: 'P', score: 0.9, summary: 's', programs: [] },
          { kind: 'hit', category: 'pep', entityId: 'p2', entityName: 'Q', matchedName: 'Q', score: 0.6, summary: 's', programs: [] },
        ],
      }),
    ]);
    const outcome = await agent.run(subject, ctx);
    assert.equal(outcome.queried, true);
    if (!outcome.queried) return;
    assert.deepEqual(outcome.hits.map((h) => [h.hitId, h.sourceLabel, h.status]), [['pep:companies_house:p1', 'UK Companies House', 'potential']]);
    assert.deepEqual(outcome.registry?.map((r) => r.legalName), ['X LTD']);
    assert.deepEqual(outcome.data, { ukRegistry: { companyNumber: '1', status: 'dissolved' } });
  });

  it('a failed source is not queried, with its error, and nothing else', async () => {
    const outcome = await sourcesAgent('company_registries', 'Company registries', [source({ queried: false, error: 'network error ENOTFOUND', matches: [] })]).run(subject, ctx);
    assert.deepEqual(outcome, { queried: false, error: 'companies_house: network error ENOTFOUND', hits: [] });
  });
});

describe('the finalisation recorded whole (PhaseCompleted v2, results) folds as the events it replaces', () => {
  const steps = ['country_risk', 'risk_score', 'merged_adverse_media', 'data_gaps', 'summary', 'verification'];
  const completion = (riskScore: number, riskLevel: string): Later => ({
    type: 'ScreeningCompleted',
    data: { ...ids, uuid: request.data.uuid, kind: 'cdd', surface: 's1', riskScore, riskLevel, counts: {}, hits: [], listVersions: [], matcherVersion: 'matcher-1.0.0', completedAt: NOW },
  });

  /** The real finalisers, each on the report of the stream so far (as the pipeline ran them one answer at a time); the stream in both forms. */
  async function bothForms(hits: ReportHit[]): Promise<{ perAgent: RecordedEvent[]; whole: RecordedEvent[] }> {
    const found: Later[] = [result('1', 'sanctions', { hits }), result('1', 'pep', {}, false, 'not configured: set PEP_API_KEY')];
    const answers: Later[] = [];
    for (const agent of steps) {
      const outcome = await finalisers[agent]!(buildScreeningReport(recorded([...found, ...answers]), context)!, finalisation);
      answers.push(result('5', agent, outcome.result, outcome.queried, outcome.error));
    }
    const assessment = (answers[1]!.data.result as { assessment: { riskScore: number; riskLevel: string } }).assessment;
    const queried = answers.filter((a) => a.data.queried).map((a) => a.data.agent);
    const notQueried = answers.filter((a) => !a.data.queried).map((a) => a.data.agent);
    const perAgent = recorded([
      ...found,
      { type: 'PhaseStarted', data: { ...ids, phase: '5', agents: steps, mode: 'sequential', startedAt: NOW } },
      ...answers,
      { type: 'PhaseCompleted', data: { ...ids, phase: '5', agentsQueried: queried, agentsNotQueried: notQueried, completedAt: NOW } },
      completion(assessment.riskScore, assessment.riskLevel),
    ]);
    const results = answers.map(({ data: { screeningId: _s, accountId: _a, phase: _p, ...r } }) => r);
    const whole = recorded([
      ...found,
      { type: 'PhaseCompleted', data: { ...ids, phase: '5', agentsQueried: queried, agentsNotQueried: notQueried, results, completedAt: NOW } },
      completion(assessment.riskScore, assessment.riskLevel),
    ]);
    return { perAgent: deepFreeze(perAgent), whole: deepFreeze(whole) };
  }
  const withoutAudit = ({ audit: _audit, ...report }: ScreeningReport) => report;

  it('gives the report of PhaseStarted + one AgentResultRecorded per result + PhaseCompleted, but for the stored events of the audit trail', async () => {
    const { perAgent, whole } = await bothForms(sampleHits());
    const [a, b] = [buildScreeningReport(perAgent, context)!, buildScreeningReport(whole, context)!];
    assert.deepEqual(withoutAudit(b), withoutAudit(a));
    assert.deepEqual(b.audit.events.map((e) => e.type), ['ScreeningRequested', 'AgentResultRecorded', 'AgentResultRecorded', 'PhaseCompleted', 'ScreeningCompleted']);
    assert.equal(a.audit.events.length, b.audit.events.length + 7);
    // What the finalisers settle is there: the scorer's verdict and breakdown, the data gaps, the summary, each step as an agent.
    assert.deepEqual([b.verdict.riskScore, b.verdict.riskLevel], [100, 'critical']);
    assert.ok(b.verdict.breakdown.some((line) => line.rule === 'fatf.call_for_action.countermeasures'));
    assert.deepEqual(b.dataGaps.map((g) => g.code), ['not_searched:pep']);
    assert.match(b.verdict.summary ?? '', /^Zala Aero Group \(company, Iran\) was screened against /);
    assert.deepEqual(b.agents.filter((x) => x.phase === '5').map((x) => x.agent), steps);
    assert.deepEqual(riskFactsOf(whole), riskFactsOf(perAgent));
    assert.ok(riskFactsOf(whole)?.countryRisk?.length, 'the risk facts are read from the results');
  });

  it('folded event by event (the detail read model) and finished, it gives the report built at once', async () => {
    const { whole } = await bothForms(sampleHits().slice(0, 2));
    const fold = startReport(whole[0] as RecordedEvent & ScreeningRequested);
    for (const event of whole) foldReportEvent(fold, event);
    assert.deepEqual(finishReport(fold, context), buildScreeningReport(whole, context));
  });

  it('finishing leaves the fold as it was: a fold finished, taken further and finished again gives the report of the longer stream', async () => {
    const { whole } = await bothForms(sampleHits().slice(0, 2));
    const hitId = (buildScreeningReport(whole, context)!.hits.sanctions[0]!).hitId;
    const decided = { ...whole[0]!, type: 'HitDispositioned', data: { ...ids, hitId, entityId: 'x', disposition: 'false_positive', reason: 'other DOB', analyst: 'user-1', entityRecordHash: 'h1', dispositionedAt: NOW }, streamPosition: BigInt(whole.length) } as RecordedEvent;
    const fold = startReport(whole[0] as RecordedEvent & ScreeningRequested);
    for (const event of [...whole, decided]) foldReportEvent(fold, event);
    const before = JSON.stringify(fold);
    const once = finishReport(fold, context);
    assert.equal(JSON.stringify(fold), before, 'finishReport wrote nothing into the fold');
    assert.equal(once.hits.sanctions.find((h) => h.hitId === hitId)!.disposition?.decision, 'false_positive');
    const reopened = { ...decided, type: 'HitReopened', data: { ...ids, hitId, entityId: 'x', previousDisposition: 'false_positive', diff: {}, reopenedAt: NOW }, streamPosition: BigInt(whole.length + 1) } as RecordedEvent;
    foldReportEvent(fold, reopened);
    const again = finishReport(fold, context);
    assert.deepEqual(withoutAudit(again), withoutAudit(buildScreeningReport([...whole, decided, reopened], context)!));
    assert.equal(again.hits.sanctions.find((h) => h.hitId === hitId)!.disposition, undefined, 'the reopened hit carries no stale decision');
  });
});
