/** The SOW framework's pure rules: evidence scoring, the gauge and its derivation, attestation, tiers. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { corroborateSource } from '../../../../src/agents/sow/corroboration';
import { assessSow, corroborationGauge, jurisdictionalRequirements, sameName, validateAttestation, type SowInputs } from '../../../../src/agents/sow/framework';
import { toStoredDeclaration, type SowRequestBody } from '../../../../src/agents/sow/declaration';
import type { SowAgentResult } from '../../../../src/agents/sow/agents';

const REQUESTED = '2026-05-10T12:00:00.000Z';

function inputs(body: Partial<SowRequestBody>, extra: Partial<SowInputs> = {}): SowInputs {
  const declaration = toStoredDeclaration({ declared_source_of_wealth: 'Salary', wealth_sources: [], ...body } as SowRequestBody);
  // What the corroboration agents would have recorded for this declaration.
  const agentResults: SowInputs['agentResults'] = {};
  const agentOf: Record<string, string> = { employment: 'sow_employment', business_ownership: 'sow_business_ownership', inheritance: 'sow_inheritance', investment_portfolio: 'sow_investment_portfolio', property: 'sow_property_registries' };
  declaration.sources.forEach((source, index) => {
    const agent = agentOf[source.type];
    if (!agent) return;
    const r = (agentResults[agent] ??= { queried: true, sow: { source: source.type, label: '', declaredSources: 0, corroborations: [], counterpartyChecks: [], registry: { name: 'x', queried: false, reason: 'not configured' } } as SowAgentResult });
    r.sow!.corroborations.push(corroborateSource(source, index, REQUESTED));
  });
  return {
    subjectName: 'Ana María López',
    declaration,
    requestedAt: REQUESTED,
    agentResults,
    hits: { sanctions: [], pep: [], offshore_leaks: [], debarment: [], adverse_media: [] },
    subjectCountry: { iso2: 'ES', jurisdiction: 'Spain', fatfStatus: 'none', asOf: '2026-02-13', basis: 'subject_jurisdiction' },
    jurisdictionGiven: true,
    ...extra,
  };
}

describe('SOW corroboration of one source', () => {
  it('weighs primary and supporting evidence, counts each type once, halves stale and rejects future or unrelated documents', () => {
    const c = corroborateSource(
      {
        type: 'employment',
        description: 'salary',
        evidence: [
          { type: 'payslip', issuer: 'Acme', issuedOn: '2026-04-30' }, // 50
          { type: 'payslip', issuer: 'Acme', issuedOn: '2026-03-31' }, // duplicate type
          { type: 'tax_return', issuedOn: '2020-04-01' }, // 15, stale → 7
          { type: 'title_deed', issuer: 'Land Registry' }, // unrelated
          { type: 'employment_contract', issuer: 'Acme', issuedOn: '2026-06-01' }, // future
        ],
      },
      0,
      REQUESTED,
    );
    assert.deepEqual(c.evidence.map((e) => [e.type, e.accepted, e.weight]), [
      ['payslip', true, 50],
      ['payslip', false, 0],
      ['tax_return', true, 7],
      ['title_deed', false, 0],
      ['employment_contract', false, 0],
    ]);
    assert.equal(c.score, 57);
    assert.equal(c.status, 'partially_corroborated');
  });
});

describe('SOW gauge', () => {
  it('weights by declared amounts and adds the unexplained remainder of the net worth at score 0', () => {
    const i = inputs({
      declared_net_worth: { amount: 1000, currency: 'EUR' },
      wealth_sources: [
        { type: 'employment', description: 'salary', amount: 500, currency: 'EUR', evidence: [{ type: 'payslip', issuer: 'A' }, { type: 'employment_contract', issuer: 'A' }] },
        { type: 'property', description: 'flat', amount: 250, currency: 'EUR', evidence: [{ type: 'title_deed' }] },
      ],
    });
    const a = assessSow(i);
    assert.equal(a.gauge.method, 'amount_weighted');
    assert.deepEqual(a.gauge.rows.map((r) => [r.type, r.weightShare, r.score]), [['employment', 50, 100], ['property', 25, 35], ['unexplained', 25, 0]]);
    assert.equal(a.gauge.value, Math.round(0.5 * 100 + 0.25 * 35));
    assert.match(a.gauge.explanation, /50% × 100 \+ 25% × 35 \+ 25% × 0 = 59/);
    assert.ok(a.redFlags.some((f) => f.code === 'unexplained_wealth'));
  });

  it('uses equal weights when an amount is missing, and is 0 with no sources', () => {
    const i = inputs({ wealth_sources: [{ type: 'employment', description: 's', amount: 10, evidence: [{ type: 'payslip', issuer: 'A' }] }, { type: 'inheritance', description: 'i', evidence: [] }] });
    const g = corroborationGauge(i, assessSow(i).corroboration);
    assert.equal(g.method, 'equal_weights');
    assert.equal(g.value, 25);
    assert.equal(corroborationGauge(inputs({}), []).value, 0);
  });

  it('scores 0 the sources whose agent did not answer, saying why', () => {
    const i = inputs({ wealth_sources: [{ type: 'employment', description: 'salary', evidence: [{ type: 'payslip', issuer: 'A' }, { type: 'employment_contract', issuer: 'A' }] }] });
    i.agentResults = { sow_employment: { queried: false, error: 'timed out after 30000 ms' } };
    const a = assessSow(i);
    assert.equal(a.gauge.value, 0);
    assert.match(a.corroboration[0]!.description, /timed out/);
  });
});

describe('SOW attestation, jurisdictions and tiers', () => {
  it('validates the attestation: signed, by the subject (accents and order ignored), dated, recent, affirming', () => {
    assert.equal(sameName('LOPEZ, Ana Maria', 'Ana María López'), true);
    assert.equal(sameName('Ana Lopez', 'Ana María López'), false);
    const ok = validateAttestation(inputs({ attestation: { signed: true, signatory_name: 'ana maria lopez', signed_on: '2026-05-01', statement: 'This is true and complete.' } }));
    assert.equal(ok.valid, true);
    const bad = validateAttestation(inputs({ attestation: { signed: false, signatory_name: 'Someone Else', signed_on: '2024-01-01', statement: 'Here you go, as asked.' } }));
    assert.deepEqual(bad.checks.filter((c) => !c.passed).map((c) => c.check), ['signed', 'signatory_is_subject', 'recent', 'affirms_truth']);
    assert.equal(validateAttestation(inputs({})).provided, false);
  });

  it('maps FATF status to the requirement groups', () => {
    const base = { iso2: 'XX', jurisdiction: 'X', asOf: '2026-06-19', basis: 'subject_jurisdiction' };
    assert.equal(jurisdictionalRequirements({ subjectCountry: { ...base, fatfStatus: 'high_risk_call_for_action' }, jurisdictionGiven: true }).group, 'fatf_call_for_action');
    assert.equal(jurisdictionalRequirements({ subjectCountry: { ...base, fatfStatus: 'increased_monitoring' }, jurisdictionGiven: true }).evidenceMaxAgeMonths, 6);
    assert.equal(jurisdictionalRequirements({ subjectCountry: { ...base, fatfStatus: 'none' }, jurisdictionGiven: true }).group, 'standard');
    assert.equal(jurisdictionalRequirements({ jurisdictionGiven: false }).group, 'unknown');
  });

  it('tiers: LOW when clean, MEDIUM for a large net worth, HIGH for a PEP, CRITICAL for a confirmed sanctions match', () => {
    const clean = {
      declared_net_worth: { amount: 100_000, currency: 'EUR' },
      wealth_sources: [{ type: 'employment' as const, description: 'salary', amount: 100_000, currency: 'EUR', evidence: [{ type: 'payslip', issuer: 'A' }, { type: 'employment_contract', issuer: 'A' }] }],
      attestation: { signed: true, signatory_name: 'Ana María López', signed_on: '2026-05-01', statement: 'I declare this is accurate.' },
    };
    assert.equal(assessSow(inputs(clean)).riskTier.tier, 'LOW');
    const large = { ...clean, declared_net_worth: { amount: 6_000_000, currency: 'EUR' }, wealth_sources: [{ ...clean.wealth_sources[0]!, amount: 6_000_000 }] };
    assert.equal(assessSow(inputs(large)).riskTier.tier, 'MEDIUM');
    const hit = { hitId: 'h', category: 'pep', source: 'x', entityId: 'e', entityName: 'n', matchedName: 'n', score: 0.97, status: 'confirmed', explanation: { summary: 's', qualifiers: [] }, programs: [] } as never;
    assert.equal(assessSow(inputs(clean, { hits: { sanctions: [], pep: [hit], offshore_leaks: [], debarment: [], adverse_media: [] } })).riskTier.tier, 'HIGH');
    assert.equal(assessSow(inputs(clean, { hits: { sanctions: [hit], pep: [], offshore_leaks: [], debarment: [], adverse_media: [] } })).riskTier.tier, 'CRITICAL');
  });
});
