/**
 * SOW verification over real HTTP: the 9-step framework runs inside the screening pipeline and the
 * API shows the tier, red flags, requirements, attestation checks, corroboration and the gauge
 * with its derivation, in the detail and in the JSON report.
 */
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { TestService } from '../../../support/service';
import { call, envelopeData, s3Error } from './helpers';

const today = new Date().toISOString().slice(0, 10);

const wellEvidenced = {
  query: 'Jane Marlowe',
  jurisdiction: 'GB',
  declared_source_of_wealth: 'Salary as a surgeon and an inherited house',
  declared_net_worth: { amount: 1_000_000, currency: 'GBP' },
  occupation: 'Surgeon',
  employer: 'St Example Hospital',
  wealth_sources: [
    {
      type: 'employment',
      description: 'Consultant surgeon salary since 2012',
      amount: 600_000,
      currency: 'GBP',
      counterparty: 'St Example Hospital Trust',
      evidence: [
        { type: 'employment_contract', issuer: 'St Example Hospital Trust', issued_on: today },
        { type: 'payslip', issuer: 'St Example Hospital Trust', issued_on: today },
      ],
    },
    {
      type: 'inheritance',
      description: 'House inherited from my father',
      amount: 400_000,
      currency: 'GBP',
      evidence: [
        { type: 'grant_of_probate', issuer: 'HM Courts and Tribunals Service', issued_on: '2019-03-01' },
        { type: 'will', issuer: 'Smith & Co Solicitors' },
      ],
    },
  ],
  attestation: { signed: true, signatory_name: 'Jane Marlowe', signed_on: today, statement: 'I confirm this declaration is true and complete.' },
};

/** Registered by s3-api.test.ts, which owns the one service instance (starting one costs ~15 s of list loading). */
export function sowCases(service: () => TestService): void {
describe('S3 SOW verification', () => {
  let svc: TestService;
  let key: string;
  let otherKey: string;
  before(async () => {
    svc = service();
    const account = await svc.createAccount('professional');
    key = (await svc.createKey(account.accountId, 's3', { userId: account.userId })).key;
    const other = await svc.createAccount('enterprise');
    otherKey = (await svc.createKey(other.accountId, 's3', { userId: other.userId })).key;
  });

  it('corroborates well-evidenced sources: gauge 100 with its derivation, LOW tier, valid attestation', async () => {
    const data = envelopeData(await call(svc.url, 'POST', '/api/v1/screening/sow', { key, body: wellEvidenced }), 201);
    assert.equal(data.screening_type, 'SOW');
    assert.match(data.sow_screening_id, /^SVC-[A-Za-z0-9]{8}-SOW$/);
    const sow = data.sow;
    assert.equal(sow.assessed, true, JSON.stringify(sow.not_assessed));
    assert.equal(sow.corroboration_gauge, 100);
    assert.equal(sow.gauge_derivation.method, 'amount_weighted');
    assert.deepEqual(sow.gauge_derivation.rows.map((r: any) => [r.type, r.weight_share, r.score]), [['employment', 60, 100], ['inheritance', 40, 100]]);
    assert.equal(sow.attestation.valid, true);
    assert.equal(sow.jurisdictional_requirements.group, 'standard');
    assert.equal(sow.risk_tier, 'LOW', JSON.stringify(sow.risk_tier_reasons));
    assert.equal(sow.red_flags.length, 0, JSON.stringify(sow.red_flags));
    assert.ok(sow.outside_registries.some((r: any) => r.source === 'employment' && r.queried === false && /not configured/.test(r.reason)));

    const detail = envelopeData(await call(svc.url, 'GET', `/api/v1/screening/${data.id}`, { key }), 200);
    assert.equal(detail.sow.corroboration_gauge, 100);
    const report = envelopeData(await call(svc.url, 'GET', `/api/v1/screening/${data.id}/report`, { key }), 200);
    assert.equal(report.screening.sow_screening_id, data.sow_screening_id);
    assert.equal(report.sow_verification.risk_tier, 'LOW');
    assert.match(report.sow_verification.gauge_derivation.explanation, /60% × 100 \+ 40% × 100 = 100/);
    s3Error(await call(svc.url, 'GET', `/api/v1/screening/${data.id}`, { key: otherKey }), 404);
  });

  it('flags unexplained wealth, missing evidence, a wrong signatory and a grey-list jurisdiction', async () => {
    const body = {
      query: 'Jane Marlowe',
      jurisdiction: 'Kenya',
      declared_source_of_wealth: 'Business profits and cash gifts',
      declared_net_worth: { amount: 10_000_000, currency: 'USD' },
      wealth_sources: [
        { type: 'business_ownership', description: 'Trading company', amount: 2_000_000, currency: 'USD', counterparty: 'Marlowe Trading Ltd', evidence: [{ type: 'payslip' }] },
        { type: 'other', description: 'Cash gifts from relatives', amount: 1_000_000, currency: 'USD', evidence: [] },
      ],
      attestation: { signed: true, signatory_name: 'John Other', signed_on: today, statement: 'Signed for the bank as requested.' },
    };
    const data = envelopeData(await call(svc.url, 'POST', '/api/v1/screening/sow', { key, body }), 201);
    const sow = data.sow;
    const codes = sow.red_flags.map((f: any) => f.code);
    for (const code of ['unexplained_wealth', 'source_without_evidence', 'evidence_type_mismatch', 'high_risk_source_description', 'attestation_signatory_is_subject', 'attestation_affirms_truth']) {
      assert.ok(codes.includes(code), `${code} in ${codes.join(', ')}; ${JSON.stringify(sow.corroboration)} ${JSON.stringify(sow.not_assessed)}`);
    }
    assert.equal(sow.corroboration_gauge, 0);
    assert.equal(sow.gauge_derivation.rows.at(-1).type, 'unexplained');
    assert.equal(sow.gauge_derivation.rows.at(-1).weight_share, 70);
    assert.equal(sow.attestation.valid, false);
    assert.equal(sow.risk_tier, 'HIGH', JSON.stringify(sow.risk_tier_reasons));
    assert.equal(sow.jurisdictional_requirements.group, 'fatf_increased_monitoring');
    assert.equal(sow.jurisdictional_requirements.jurisdiction, 'KE');
    assert.equal(sow.jurisdictional_requirements.evidence_max_age_months, 6);
    assert.ok(codes.includes('high_risk_jurisdiction'));
  });

  it('is CRITICAL when a counterparty is on a sanctions list or the jurisdiction is on the FATF call-for-action list', async () => {
    const body = {
      ...wellEvidenced,
      jurisdiction: 'IR',
      wealth_sources: [{ ...wellEvidenced.wealth_sources[0]!, counterparty: 'Bank Melli Iran' }, wellEvidenced.wealth_sources[1]!],
    };
    const sow = envelopeData(await call(svc.url, 'POST', '/api/v1/screening/sow', { key, body }), 201).sow;
    assert.equal(sow.risk_tier, 'CRITICAL');
    assert.equal(sow.jurisdictional_requirements.group, 'fatf_call_for_action');
    const listed = sow.red_flags.find((f: any) => f.code === 'counterparty_listed');
    assert.ok(listed, JSON.stringify(sow.red_flags));
    assert.match(listed.detail, /Bank Melli Iran/);
    assert.ok(sow.risk_tier_reasons.some((r: string) => /counterparty/.test(r)));
  });

  it('refuses a bad SOW body in the S3 shape and appends nothing', async () => {
    const before = envelopeData(await call(svc.url, 'GET', '/api/v1/screenings?type=sow', { key }), 200).pagination.total;
    const { wealth_sources: _ws, ...noSources } = wellEvidenced;
    for (const body of [
      {},
      noSources,
      { ...wellEvidenced, wealth_sources: [] },
      { ...wellEvidenced, wealth_sources: [{ type: 'lottery', description: 'x', evidence: [] }] },
      { ...wellEvidenced, declared_net_worth: { amount: -1, currency: 'GBP' } },
      { ...wellEvidenced, attestation: { ...wellEvidenced.attestation, signed_on: '2025-02-30' } },
      { ...wellEvidenced, declared_source_of_wealth: 'x'.repeat(5001) },
      { ...wellEvidenced, query: 'Jane\u0000Marlowe' },
    ]) {
      s3Error(await call(svc.url, 'POST', '/api/v1/screening/sow', { key, body }), 400);
    }
    assert.equal(envelopeData(await call(svc.url, 'GET', '/api/v1/screenings?type=sow', { key }), 200).pagination.total, before);
  });

  it('needs the Professional plan or higher', async () => {
    const essentials = await svc.createAccount('essentials');
    const essentialsKey = (await svc.createKey(essentials.accountId, 's3', { userId: essentials.userId })).key;
    s3Error(await call(svc.url, 'POST', '/api/v1/screening/sow', { key: essentialsKey, body: wellEvidenced }), 403);
  });
});
}
