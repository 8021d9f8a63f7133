import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decideVerdict, type SourceCoverage } from '../../../src/agents/person/verdict';
import type { Corroboration, FindingSeverity } from '../../../src/commands/person-check';
import { decide } from '../../../src/commands/person-check';

/** 15 sources as the pipeline has them (whois excluded): `searched` of them searched, critical ones first. */
function sources(searched: number, options: { critical?: boolean } = {}): SourceCoverage[] {
  const critical = ['sanctions_list', 'federal_courts'];
  const rest = ['identity_verification', 'state_court_portals', 'sex_offender_registry', 'professional_licences', 'secretary_of_state', 'bankruptcy', 'judgment_liens', 'county_assessor', 'news', 'encyclopedia', 'social_presence', 'pep_sanctions', 'x_extra'];
  const order = options.critical === false ? [...rest, ...critical] : [...critical, ...rest];
  return order.slice(0, 15).map((agent, i) => ({ agent, searched: i < searched }));
}
const f = (severity: FindingSeverity, corroboration: Corroboration, category = 'sanctions') => ({ severity, corroboration, category });

// The default deployment: sanctions_list and pep_sanctions only (2 of 15).
const defaultDeployment: SourceCoverage[] = sources(15).map((s) => ({ ...s, searched: s.agent === 'sanctions_list' || s.agent === 'pep_sanctions' }));

const cases: { name: string; findings: ReturnType<typeof f>[]; sources: SourceCoverage[]; result: string; confidence: string }[] = [
  { name: 'nothing found, most sources not searched: inconclusive, low (never clean)', findings: [], sources: defaultDeployment, result: 'inconclusive', confidence: 'low' },
  { name: 'nothing found, every source but links searched: clean, high', findings: [], sources: sources(13), result: 'clean', confidence: 'high' },
  { name: 'nothing found, 60 % searched with both critical sources: clean, medium', findings: [], sources: sources(9), result: 'clean', confidence: 'medium' },
  { name: 'nothing found, 60 % searched but criminal courts not: inconclusive, medium', findings: [], sources: sources(9, { critical: false }), result: 'inconclusive', confidence: 'medium' },
  { name: 'only info findings count as nothing adverse', findings: [f('info', 'name_only'), f('info', 'name_only', 'pep')], sources: sources(13), result: 'clean', confidence: 'high' },
  { name: 'sanctions red flag by name and DOB, good coverage: adverse, high', findings: [f('red_flag', 'name_dob')], sources: sources(13), result: 'adverse_found', confidence: 'high' },
  { name: 'sanctions red flag by name and DOB, low coverage: adverse, medium', findings: [f('red_flag', 'name_dob')], sources: defaultDeployment, result: 'adverse_found', confidence: 'medium' },
  { name: 'corroborated warning by location: adverse, medium', findings: [f('warning', 'name_location', 'pep')], sources: sources(13), result: 'adverse_found', confidence: 'medium' },
  { name: 'name-only warning: inconclusive pending identity, medium at good coverage', findings: [f('warning', 'name_only')], sources: sources(13), result: 'inconclusive', confidence: 'medium' },
  { name: 'name-only warning at low coverage: inconclusive, low', findings: [f('warning', 'name_only')], sources: defaultDeployment, result: 'inconclusive', confidence: 'low' },
  { name: 'no sources at all: inconclusive, low', findings: [], sources: [], result: 'inconclusive', confidence: 'low' },
];

for (const c of cases) {
  test(`verdict: ${c.name}`, () => {
    const v = decideVerdict(c.findings, c.sources);
    assert.equal(v.result, c.result);
    assert.equal(v.confidence, c.confidence);
    assert.ok(v.reasons.length >= 2, 'the verdict says why');
    assert.equal(v.sourcesTotal, c.sources.length);
  });
}

test('risk score: list findings are scored by the shared scorer, court records by the person-check rows; capped at 100', () => {
  const sdn = (nameScore: number, extra: Record<string, unknown> = {}) => ({
    ...f('red_flag', 'name_dob'),
    source: { name: 'OFAC SDN List', entityId: 'ofac_sdn:20157' },
    matchedName: 'KIM, Jong Un',
    nameScore,
    ...extra,
  });
  // Tied by date of birth, the identity agrees: a confirmed SDN hit, critical.
  const byDob = { assessment: 'identity_corroborated' as const, confirmation: { basis: 'date_of_birth' as const, detail: 'date of birth 1984-01-08 equals listed 08 Jan 1984' } };
  const confirmed = decideVerdict([sdn(1, byDob)], sources(13));
  assert.deepEqual([confirmed.riskScore, confirmed.riskLevel], [70, 'critical']);
  assert.ok(confirmed.breakdown.some((c) => c.rule === 'floor.blocking_sanctions_confirmed'));
  assert.match(confirmed.reasons.at(-1)!, /^risk: Critical \(70\), do not proceed: confirmed match on a blocking sanctions list/);
  assert.match(confirmed.reasons.at(-1)!, /confirmed by date of birth 1984-01-08 equals listed 08 Jan 1984/);
  // The same SDN record on the name alone (no date of birth given): a strong name match confirms nothing, high.
  const nameOnly = { ...sdn(0.95, { assessment: 'strong_name_match', identityNote: 'name only: common name: about 10,000 expected bearers among Korean names; needs an identity fact' }), severity: 'warning' as const, corroboration: 'name_only' as const };
  assert.equal(decideVerdict([nameOnly], sources(13)).riskLevel, 'high');
  // ... unless the name is an exact match on a distinctive one, as a screening's hit of the same record would be.
  const distinctive = { ...nameOnly, assessment: 'identity_corroborated' as const, confirmation: { basis: 'distinctive_name' as const, detail: 'exact match on a distinctive name' } };
  assert.equal(decideVerdict([distinctive], sources(13)).riskLevel, 'critical');
  // A potential name match is high; a record whose date of birth contradicts the subject's is not counted.
  assert.equal(decideVerdict([sdn(0.88)], sources(13)).riskLevel, 'high');
  const other = decideVerdict([{ ...sdn(0.95), severity: 'info' as const, corroboration: 'name_only' as const, dobConflict: true }], sources(13));
  assert.deepEqual([other.riskScore, other.riskLevel], [0, 'low']);
  assert.ok(other.breakdown.some((c) => c.rule === 'person.list_record.dob_conflict'));
  // A CSL Entity List record is export control: high when confirmed, medium on the name alone.
  const el = { ...f('red_flag', 'name_dob', 'debarment'), source: { name: 'US Consolidated Screening List', entityId: 'us_csl:1' }, nameScore: 1, sourceList: 'Entity List (EL) - Bureau of Industry and Security' };
  assert.equal(decideVerdict([{ ...el, ...byDob }], sources(13)).riskLevel, 'high');
  assert.equal(decideVerdict([el], sources(13)).riskLevel, 'medium');
  // Person-check rows for what screenings do not search.
  assert.deepEqual([decideVerdict([f('red_flag', 'name_dob', 'criminal')], sources(13)).riskScore, decideVerdict([f('red_flag', 'name_dob', 'criminal')], sources(13)).riskLevel], [50, 'high']);
  assert.equal(decideVerdict([f('warning', 'name_only', 'civil')], sources(13)).riskScore, 8);
  assert.equal(decideVerdict([f('warning', 'name_location', 'criminal'), f('warning', 'name_location', 'civil')], sources(13)).riskLevel, 'medium');
  assert.equal(decideVerdict([f('red_flag', 'name_dob', 'criminal'), f('red_flag', 'name_dob', 'sex_offender'), sdn(1, byDob)], sources(13)).riskScore, 100);
  assert.equal(decideVerdict([], sources(13)).riskLevel, 'low');
});

test('no combination of findings and coverage below one half yields clean or high confidence', () => {
  const severities: FindingSeverity[] = ['info', 'warning', 'red_flag'];
  const corroborations: Corroboration[] = ['name_dob', 'name_location', 'name_only'];
  for (let searched = 0; searched <= 7; searched++) {
    for (const s of severities) {
      for (const c of corroborations) {
        for (const findings of [[], [f(s, c)]]) {
          const v = decideVerdict(findings, sources(searched));
          assert.notEqual(v.result, 'clean', `${searched}/15 ${s} ${c}`);
          assert.notEqual(v.confidence, 'high', `${searched}/15 ${s} ${c}`);
        }
      }
    }
  }
});

test('every verdict the rule produces passes the decider\'s honesty invariants', () => {
  const state = { status: 'running', personCheckId: 'SVC-0a1b2c3d-P', accountId: '1', surface: 's1', agents: {}, recorded: {} } as const;
  for (let searched = 0; searched <= 15; searched++) {
    for (const findings of [[], [f('red_flag', 'name_dob')], [f('warning', 'name_only')], [f('warning', 'name_location')], [f('info', 'name_only')]]) {
      const v = decideVerdict(findings, sources(searched));
      const full = findings.map((x) => ({ ...x, source: { name: 's', retrievedAt: '2026-01-01T00:00:00.000Z' }, matchedName: 'n', why: 'w' }));
      const events = decide(
        {
          type: 'CompletePersonCheck',
          data: { personCheckId: 'SVC-0a1b2c3d-P', result: v.result, confidence: v.confidence, riskScore: v.riskScore, riskLevel: v.riskLevel, redFlagCount: v.redFlagCount, warningCount: v.warningCount, sourcesChecked: v.sourcesChecked, sourcesTotal: v.sourcesTotal, findings: full },
          metadata: { now: '2026-01-01T00:00:00.000Z', actor: { surface: 'system' }, commandId: 'c' },
        },
        state,
      );
      assert.equal(events.length, 1);
    }
  }
});

test('given the sanctions list was not searched, when the verdict is decided, then the risk is at least high, never low (issue 27 §4: fails closed)', () => {
  const withoutSanctions = sources(13).map((s) => (s.agent === 'sanctions_list' ? { ...s, searched: false } : s));
  const v = decideVerdict([], withoutSanctions);
  assert.deepEqual([v.result, v.riskLevel, v.riskScore], ['inconclusive', 'high', 45]);
  assert.ok(v.breakdown.some((c) => c.rule === 'floor.sanctions_not_searched'), 'the floor says why');
  assert.match(v.reasons.join(' '), /not searched: .*sanctions_list/);
  // the control: the same check with the sanctions list searched is clean and low
  assert.deepEqual([decideVerdict([], sources(13)).result, decideVerdict([], sources(13)).riskLevel], ['clean', 'low']);
});
