/**
 * One verdict everywhere (issue 16, part 1): the same subjects, screened by the running service on
 * the bundled lists (plus the OpenSanctions US Congress PEP file), get the same risk level on every
 * surface: the pure scorer over the hits the screening reported, S1 CDD over HTTP, S3 CDD over HTTP,
 * the JSON report, the monitoring re-score of the stored stream, S1 person checks and S2 subject
 * checks. A table: one row per kind of finding, one expected level, every surface.
 *
 * Person checks and S2 subject checks take no subject jurisdiction for country risk, so the FATF row
 * runs on the screening surfaces only. Person checks match on the name alone (their design: a
 * same-name record with another date of birth is reported as name-only); the rows' names score
 * on the same side of 95 with or without the country, so the hits, and the answer, are the same.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { computeRiskScore } from '../../../src/reports/risk-score';
import { recomputeRisk } from '../../../src/app/monitoring/risk';
import { answersRecordedBy, screeningDecider, type ScreeningEvent, type ScreeningState } from '../../../src/commands/screening';
import { emptyHits, riskLevelForScore, type HitCategory, type ReportHit, type RiskLevel } from '../../../src/reports/model';
import { startTestService, type TestService } from '../../support/service';
import { SHARED_DATA_DIR } from '../../support/shared-data';

interface Row {
  finding: string;
  /** S1/S3 screening subject; the jurisdiction is also the S2 check's location (the same query, so the same hits). */
  query: string;
  jurisdiction: string;
  /** Person check / S2 subject (absent: not applicable on those surfaces). */
  person?: { full: string; first: string; middle?: string; last: string };
  level: RiskLevel;
  floor?: string;
  /** S1/S3 entity_type: individual when absent; null = not given (the name decides the kinds searched). */
  entityType?: 'individual' | 'company' | null;
}

const rows: Row[] = [
  // A name alone confirms nothing when it is common (issue 27): Kim Jong Un, name only, is a potential SDN hit, high ("EDD required").
  { finding: 'potential SDN hit: an exact match on a common name, nothing else known', query: 'Kim Jong Un', jurisdiction: 'KP', person: { full: 'Kim Jong Un', first: 'Kim', middle: 'Jong', last: 'Un' }, level: 'high', floor: 'floor.sanctions_potential' },
  // By name only even Vladimir Putin is potential: "Putin" is in no name pool and "Vladimir" is carried by
  // many listed people, so nothing shows the name is rare (docs/name-frequency.md); with his date of birth
  // it is critical (test/integration/scoring/name-only-verdicts.test.ts).
  { finding: 'potential SDN hit (CSL row from the SDN programme): an exact name whose rarity cannot be shown', query: 'Vladimir Putin', jurisdiction: 'RU', person: { full: 'Vladimir Putin', first: 'Vladimir', last: 'Putin' }, level: 'high', floor: 'floor.sanctions_potential' },
  { finding: 'confirmed SDN hit on a bank, no entity type given', query: 'Banco Nacional de Cuba', jurisdiction: 'CU', entityType: null, level: 'critical', floor: 'floor.blocking_sanctions_confirmed' },
  { finding: 'confirmed SDN hit on a bank screened as a company', query: 'Banco Nacional de Cuba', jurisdiction: 'CU', entityType: 'company', level: 'critical', floor: 'floor.blocking_sanctions_confirmed' },
  // A near spelling of a short surname beside a common given name raises no alert by name alone (issue 27 §1,
  // src/screening/partial-matches.ts): only the jurisdiction's sectoral sanctions count.
  { finding: 'no alert: a near spelling of a short surname beside a common given name (country risk: screening surfaces only)', query: 'Vladimir Putn', jurisdiction: 'RU', level: 'medium', floor: 'floor.sectoral_sanctions_jurisdiction' },
  { finding: 'potential Denied Persons List hit: a common name, nothing else known', query: 'Aaron Abraham Villa', jurisdiction: 'US', person: { full: 'Aaron Abraham Villa', first: 'Aaron', middle: 'Abraham', last: 'Villa' }, level: 'medium', floor: 'floor.export_control_potential' },
  { finding: 'confirmed PEP', query: 'Jennifer L. McClellan', jurisdiction: 'US', person: { full: 'Jennifer L. McClellan', first: 'Jennifer', middle: 'L.', last: 'McClellan' }, level: 'medium', floor: 'floor.pep_confirmed' },
  { finding: 'FATF black-list jurisdiction', query: 'Margaret Thistlewood', jurisdiction: 'KP', level: 'high', floor: 'floor.fatf_black_list' },
  { finding: 'clean', query: 'Margaret Thistlewood', jurisdiction: 'GB', person: { full: 'Margaret Thistlewood', first: 'Margaret', last: 'Thistlewood' }, level: 'low' },
];

let svc: TestService;
let s1: string;
let s2: string;
let s3: string;

async function http(method: string, url: string, headers: Record<string, string>, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(url, { method, headers: { ...headers, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) }, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
  return { status: res.status, body: await res.json() };
}
async function until<T>(what: string, probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

before(async () => {
  // The OpenSanctions PEP file is opt-in (licence): configured here so the PEP row has a real list.
  svc = await startTestService({ env: { OPENSANCTIONS_DIR: path.join(SHARED_DATA_DIR, 'opensanctions'), SCREENING_WAIT_MS: '60000' } });
  const account = await svc.createAccount('enterprise');
  s1 = (await svc.createKey(account.accountId, 's1')).key;
  s2 = (await svc.createKey(account.accountId, 's2')).key;
  s3 = (await svc.createKey(account.accountId, 's3', { userId: account.userId })).key;
});
after(async () => {
  await svc?.stop();
});

describe('one set of subjects, every surface, one answer', () => {
  for (const row of rows) {
    it(`${row.finding}: ${row.level} everywhere`, async () => {
      const subject = { ...(row.entityType === null ? {} : { entity_type: row.entityType ?? 'individual' }), jurisdiction: row.jurisdiction };
      const answers: Record<string, { score: number; level: string }> = {};

      // S1 CDD over HTTP.
      const first = await http('POST', `${svc.url}/api/v1/screening/cdd`, { authorization: `Bearer ${s1}` }, { query: row.query, ...subject });
      assert.equal(first.status, 201, JSON.stringify(first.body));
      answers.s1 = { score: first.body.screening.risk_score, level: first.body.screening.risk_level };

      // The pure scorer over the very hits the screening reported, read from its stream, and the
      // monitoring re-score of that stream: the same function, the same answer.
      const events = await svc.service.store.readStream(`screening-${first.body.screening.id}`);
      const hits = emptyHits();
      // Every answer the stream records: AgentResultRecorded, and the finalisation's in its PhaseCompleted (v2).
      const recorded = events.flatMap((e) => answersRecordedBy(e));
      for (const answer of recorded) {
        for (const h of ((answer.result as { hits?: ReportHit[] }).hits ?? [])) hits[h.category as HitCategory].push(h);
      }
      const facts = (recorded.find((a) => a.agent === 'risk_score')?.result as { facts?: object } | undefined)?.facts ?? {};
      assert.ok(recorded.some((a) => a.agent === 'risk_score'), 'the risk-score step answered');
      const pure = computeRiskScore({ hits, ...facts });
      answers.pure = { score: pure.riskScore, level: pure.riskLevel };
      if (row.floor) assert.equal(pure.floor?.rule, row.floor, pure.reason);
      let state: ScreeningState = screeningDecider.initialState();
      for (const e of events) state = screeningDecider.evolve(state, e as unknown as ScreeningEvent);
      const rescored = recomputeRisk(events, state);
      answers.monitoring = { score: rescored.riskScore, level: rescored.riskLevel };

      // S3 CDD over HTTP, and its JSON report.
      const third = await http('POST', `${svc.url}/api/v1/screening/cdd`, { 'x-api-key': s3 }, { query: row.query, ...subject });
      assert.equal(third.status, 201, JSON.stringify(third.body));
      answers.s3 = { score: third.body.data.risk_score, level: third.body.data.risk_level };
      const report = await http('GET', `${svc.url}/api/v1/screening/${third.body.data.id}/report`, { 'x-api-key': s3 });
      assert.equal(report.status, 200, JSON.stringify(report.body));
      const json = report.body.data ?? report.body;
      answers.json_report = { score: json.screening.risk_score, level: json.screening.risk_level };
      const cover = json.sections.find((s: { key: string }) => s.key === 'cover').content;
      assert.equal(cover.risk_reason, pure.reason, 'the report says why in the scorer\'s words');

      if (row.person) {
        // S1 person check over HTTP.
        const created = await http('POST', `${svc.url}/api/v1/person-checks`, { authorization: `Bearer ${s1}` }, { full_name: row.person.full, purpose: 'business_due_diligence', fcra_consent: true });
        assert.ok([200, 201, 202].includes(created.status), JSON.stringify(created.body));
        const check = await until('person check', async () => {
          const got = await http('GET', `${svc.url}/api/v1/person-checks/${created.body.person_check.id}`, { authorization: `Bearer ${s1}` });
          return got.body.person_check?.status === 'completed' ? got.body.person_check : undefined;
        });
        answers.person_check = { score: check.risk_score, level: check.risk_level };

        // S2 subject check over HTTP.
        const started = await http('POST', `${svc.url}/api/v1/compliance/subject-checks`, { authorization: `Bearer ${s2}` }, {
          first_name: row.person.first,
          ...(row.person.middle ? { middle_name: row.person.middle } : {}),
          last_name: row.person.last,
          locations: [{ country: row.jurisdiction }],
          purpose: 'employment',
          consent: { certified: true },
        });
        assert.equal(started.status, 201, JSON.stringify(started.body));
        const concluded = await until('subject check', async () => {
          const got = await http('GET', `${svc.url}/api/v1/compliance/subject-checks/${started.body.subject_check_id}`, { authorization: `Bearer ${s2}` });
          return got.body.subject_check && got.body.subject_check.status !== 'running' ? got.body.subject_check : undefined;
        });
        answers.s2_subject_check = { score: concluded.risk_score, level: concluded.risk_level };
        if (row.level === 'critical') assert.equal(concluded.status, 'escalated', 'a critical subject is escalated on S2');
        if (row.level === 'low') assert.equal(concluded.overall_result, 'clean');
      }

      for (const [surface, answer] of Object.entries(answers)) {
        assert.equal(answer.level, row.level, `${surface}: ${JSON.stringify(answers)}`);
        assert.equal(answer.level, riskLevelForScore(answer.score), `${surface}: level and score agree`);
      }
      // The screening surfaces score the very same hits: the same score too.
      for (const surface of ['s1', 's3', 'json_report', 'monitoring']) assert.equal(answers[surface]!.score, answers.pure!.score, `${surface}: ${JSON.stringify(answers)}`);
    });
  }
});
