import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { hitStatusOf, standingOf } from '../../../../src/reports/confirmation';
import {
  computeRiskScore,
  listAuthorityOf,
  riskLevelFor,
  toScore100,
  type ScorableHit,
} from '../../../../src/reports/risk-score';
import type { CountryRiskFinding, HitCategory } from '../../../../src/reports/model';

let seq = 0;
function hit(category: HitCategory, source: string, score: number, extra: Partial<ScorableHit> = {}): ScorableHit {
  seq += 1;
  return { hitId: `${category}-${seq}`, category, source, score, ...extra };
}
/** A hit whose identity agrees (a date of birth equal to the listed one): confirmed in the one sense (src/reports/confirmation.ts). */
function confirmed(category: HitCategory, source: string, score: number, extra: Partial<ScorableHit> = {}): ScorableHit {
  return hit(category, source, score, { assessment: 'identity_corroborated', confirmation: { basis: 'date_of_birth', detail: 'date of birth 1960-01-02 equals listed 1960-01-02' }, ...extra });
}
/** The spec's additive sum (the contribution tables), before the floors (tested in risk-floors.test.ts). */
function scoreOf(category: HitCategory, hits: ScorableHit[]): number {
  return computeRiskScore({ hits: { [category]: hits } }).additiveScore;
}
function additiveRows(r: { breakdown: { rule: string; reason: string }[] }) {
  return r.breakdown.filter((c) => !c.rule.startsWith('floor.'));
}
function country(iso2: string, fatfStatus: CountryRiskFinding['fatfStatus'], measure?: string): CountryRiskFinding {
  return { iso2, jurisdiction: iso2, fatfStatus, measure, asOf: '2026-02-13', basis: 'subject_jurisdiction' };
}

describe('matcher score mapping (×100, rounded)', () => {
  it('maps [0,1] to 0–100 integers', () => {
    assert.equal(toScore100(0.954), 95);
    assert.equal(toScore100(0.944), 94);
    assert.equal(toScore100(1.2), 100);
    assert.equal(toScore100(Number.NaN), 0);
  });
  it('confirmed means the identity agrees: a score of 95 or more alone is a strong name match, potential', () => {
    assert.equal(hitStatusOf(hit('sanctions', 'ofac_sdn', 0.95)), 'potential');
    assert.equal(standingOf(hit('sanctions', 'ofac_sdn', 0.954)), 'strong_name_match');
    assert.equal(standingOf(hit('sanctions', 'ofac_sdn', 0.944)), 'name_match');
    assert.equal(hitStatusOf(confirmed('sanctions', 'ofac_sdn', 0.9)), 'confirmed');
    assert.equal(standingOf(hit('sanctions', 'ofac_sdn', 0.79)), undefined);
    assert.equal(hitStatusOf(hit('sanctions', 'ofac_sdn', 0.88, { disposition: { decision: 'true_match', by: 'a', at: '2026-01-01' } })), 'confirmed');
  });
  it('a hit recorded as corroborated without saying what corroborated it is not confirmed', () => {
    assert.equal(hitStatusOf(hit('sanctions', 'ofac_sdn', 0.97, { assessment: 'identity_corroborated' })), 'potential');
  });
  it('a hit recorded before assessments were kept: a date-of-birth conflict without a match contradicts the identity', () => {
    const old = hit('sanctions', 'ofac_sdn', 0.8, { explanation: { qualifiers: [{ kind: 'dob_conflict' }] } });
    assert.equal(standingOf(old), 'identity_contradicted');
  });
});

describe('sanctions rows', () => {
  const rows: [string, string, number, number][] = [
    // source, expected authority, confirmed points, potential points
    ['ofac_sdn', 'us', 15, 7],
    ['ofac_cons', 'us', 15, 7],
    ['us_csl', 'us', 15, 7],
    ['un_sc', 'un', 15, 7],
    ['eu_fsf', 'eu', 12, 6],
    ['uk_sanctions', 'uk', 12, 6],
    ['commercial_sanctions_api', 'other', 10, 5],
  ];
  for (const [source, authority, confirmedPoints, potential] of rows) {
    it(`${source}: ${authority} +${confirmedPoints} confirmed, +${potential} potential, 0 below 80`, () => {
      assert.equal(listAuthorityOf({ source }), authority);
      assert.equal(scoreOf('sanctions', [confirmed('sanctions', source, 0.97)]), confirmedPoints);
      assert.equal(scoreOf('sanctions', [hit('sanctions', source, 0.85)]), potential);
      assert.equal(scoreOf('sanctions', [hit('sanctions', source, 0.79)]), 0);
    });
  }
  it('a name match of 97 with nothing corroborating the identity counts as potential', () => {
    const r = computeRiskScore({ hits: { sanctions: [hit('sanctions', 'ofac_sdn', 0.97, { identityNote: 'name only: common name, needs an identity fact' })] } });
    assert.equal(r.additiveScore, 7);
    assert.deepEqual(additiveRows(r).map((c) => c.rule), ['sanctions.us.potential']);
    assert.match(additiveRows(r)[0]!.reason, /name only: common name, needs an identity fact/);
    assert.ok(!r.flags.includes('confirmed_sanctions_hit'));
  });
  it('adds per confirmed hit', () => {
    const r = computeRiskScore({ hits: { sanctions: [confirmed('sanctions', 'ofac_sdn', 1), confirmed('sanctions', 'ofac_sdn', 0.96)] } });
    assert.equal(r.additiveScore, 30);
    assert.equal(additiveRows(r).length, 2);
    assert.ok(additiveRows(r).every((c) => c.rule === 'sanctions.us.confirmed'));
    assert.ok(r.flags.includes('confirmed_sanctions_hit'));
  });
  it('an explicit listAuthority wins over the source id', () => {
    assert.equal(scoreOf('sanctions', [confirmed('sanctions', 'opensanctions_ftm', 1, { listAuthority: 'eu' })]), 12);
  });
  it('records hits below the minimum match score as not counted', () => {
    const h = hit('sanctions', 'un_sc', 0.5);
    const r = computeRiskScore({ hits: { sanctions: [h] } });
    assert.deepEqual(r.belowThreshold, [h.hitId]);
    assert.deepEqual(r.breakdown, []);
    assert.deepEqual(r.flags, []);
  });
});

describe('offshore-leak rows (+8 to +25 by investigation)', () => {
  const rows: [string, number, number][] = [
    ['Pandora Papers', 25, 12],
    ['Panama Papers', 20, 10],
    ['Paradise Papers', 15, 7],
    ['Offshore Leaks', 12, 6],
    ['Bahamas Leaks', 10, 5],
    ['Some future leak', 8, 4],
  ];
  for (const [investigation, confirmedPoints, potential] of rows) {
    it(`${investigation}: +${confirmedPoints} confirmed, +${potential} potential`, () => {
      assert.equal(scoreOf('offshore_leaks', [confirmed('offshore_leaks', 'icij_offshore', 1, { investigation })]), confirmedPoints);
      assert.equal(scoreOf('offshore_leaks', [hit('offshore_leaks', 'icij_offshore', 0.9, { investigation })]), potential);
    });
  }
  it('recognises the ICIJ sourceID text ("Panama Papers" in a longer string)', () => {
    assert.equal(
      scoreOf('offshore_leaks', [confirmed('offshore_leaks', 'icij_offshore', 1, { investigation: 'Panama Papers data is current through 2015' })]),
      20,
    );
  });
});

describe('PEP, adverse media and debarment rows', () => {
  it('PEP +20 confirmed, +10 potential, capped at 30 for the category', () => {
    assert.equal(scoreOf('pep', [confirmed('pep', 'opensanctions_peps', 0.99)]), 20);
    assert.equal(scoreOf('pep', [hit('pep', 'opensanctions_peps', 0.82)]), 10);
    const r = computeRiskScore({ hits: { pep: [confirmed('pep', 'a', 1), confirmed('pep', 'b', 1)] } });
    assert.equal(r.riskScore, 30);
    assert.equal(r.additiveScore, 30);
    assert.equal(r.breakdown[1]!.points, 10);
    assert.match(r.breakdown[1]!.reason, /category cap 30/);
    assert.ok(r.flags.includes('pep'));
  });
  it('adverse media +5 confirmed, +2 potential, capped at 20', () => {
    assert.equal(scoreOf('adverse_media', [confirmed('adverse_media', 'news', 0.95)]), 5);
    assert.equal(scoreOf('adverse_media', [hit('adverse_media', 'news', 0.8)]), 2);
    const many = Array.from({ length: 6 }, () => confirmed('adverse_media', 'news', 1));
    assert.equal(scoreOf('adverse_media', many), 20);
  });
  it('BIS Denied Persons List +15 confirmed, +7 potential; other debarment +10/+5', () => {
    assert.equal(scoreOf('debarment', [confirmed('debarment', 'us_dpl', 1)]), 15);
    assert.equal(scoreOf('debarment', [hit('debarment', 'us_dpl', 0.88)]), 7);
    assert.equal(scoreOf('debarment', [confirmed('debarment', 'worldbank_debarred', 1)]), 10);
    assert.equal(scoreOf('debarment', [hit('debarment', 'worldbank_debarred', 0.88)]), 5);
  });
});

describe('FATF country risk rows', () => {
  it('black list with countermeasures +25', () => {
    const r = computeRiskScore({ hits: {}, countryRisk: [country('IR', 'high_risk_call_for_action', 'countermeasures')] });
    assert.equal(r.additiveScore, 25);
    assert.equal(r.breakdown[0]!.rule, 'fatf.call_for_action.countermeasures');
    assert.ok(r.flags.includes('fatf_black_list'));
  });
  it('black list with enhanced due diligence +20', () => {
    const r = computeRiskScore({ hits: {}, countryRisk: [country('MM', 'high_risk_call_for_action', 'enhanced due diligence')] });
    assert.equal(r.additiveScore, 20);
  });
  it('grey list +10', () => {
    assert.equal(computeRiskScore({ hits: {}, countryRisk: [country('VN', 'increased_monitoring')] }).riskScore, 10);
  });
  it('not listed 0; applied once, for the worst status', () => {
    assert.equal(computeRiskScore({ hits: {}, countryRisk: [country('FR', 'none')] }).riskScore, 0);
    const r = computeRiskScore({
      hits: {},
      countryRisk: [country('VN', 'increased_monitoring'), country('KP', 'high_risk_call_for_action', 'countermeasures'), country('IR', 'high_risk_call_for_action', 'countermeasures')],
    });
    assert.equal(r.additiveScore, 25);
    assert.equal(additiveRows(r).length, 1);
  });
});

describe('UK registry rows', () => {
  it('+3 dissolved or struck off', () => {
    assert.equal(computeRiskScore({ hits: {}, ukRegistry: { companyNumber: '1', status: 'dissolved' } }).riskScore, 3);
    assert.equal(computeRiskScore({ hits: {}, ukRegistry: { companyNumber: '1', status: 'active', struckOff: true } }).riskScore, 3);
    assert.equal(computeRiskScore({ hits: {}, ukRegistry: { companyNumber: '1', status: 'active' } }).riskScore, 0);
  });
  it('+5 PSC not registered or exempt', () => {
    assert.equal(computeRiskScore({ hits: {}, ukRegistry: { companyNumber: '1', pscNotRegisteredOrExempt: true } }).riskScore, 5);
  });
  it('+3 controller in a high-risk jurisdiction (once, however many controllers)', () => {
    const r = computeRiskScore({
      hits: {},
      ukRegistry: { companyNumber: '1', controllerCountries: ['IR', 'KP', 'GB'] },
      highRiskJurisdictions: ['IR', 'KP'],
    });
    assert.equal(r.riskScore, 3);
    assert.equal(computeRiskScore({ hits: {}, ukRegistry: { companyNumber: '1', controllerCountries: ['GB'] }, highRiskJurisdictions: ['IR'] }).riskScore, 0);
  });
  it('all three together add 11', () => {
    const r = computeRiskScore({
      hits: {},
      ukRegistry: { companyNumber: '1', status: 'dissolved', pscNotRegisteredOrExempt: true, controllerCountries: ['ir'] },
      highRiskJurisdictions: ['IR'],
    });
    assert.equal(r.riskScore, 11);
    assert.deepEqual(r.breakdown.map((c) => c.rule), ['uk_registry.dissolved', 'uk_registry.psc_not_registered', 'uk_registry.controller_high_risk_jurisdiction']);
  });
});

describe('cap and level boundaries', () => {
  it('caps at 100 and keeps the uncapped total', () => {
    const hits = Array.from({ length: 8 }, () => confirmed('sanctions', 'ofac_sdn', 1));
    const r = computeRiskScore({ hits: { sanctions: hits } });
    assert.equal(r.uncappedScore, 120);
    assert.equal(r.riskScore, 100);
    assert.equal(r.riskLevel, 'critical');
  });
  it('maps the S1 scale boundaries', () => {
    assert.equal(riskLevelFor(0), 'low');
    assert.equal(riskLevelFor(19), 'low');
    assert.equal(riskLevelFor(20), 'medium');
    assert.equal(riskLevelFor(44), 'medium');
    assert.equal(riskLevelFor(45), 'high');
    assert.equal(riskLevelFor(69), 'high');
    assert.equal(riskLevelFor(70), 'critical');
    assert.equal(riskLevelFor(100), 'critical');
  });
  it('reaches the boundaries through real contributions of the additive sum (floors: risk-floors.test.ts)', () => {
    // 12 (EU) + 7 (US potential) = 19 → low
    const base = { sanctions: [confirmed('sanctions', 'eu_fsf', 1), hit('sanctions', 'ofac_sdn', 0.9)] };
    assert.deepEqual(additive(computeRiskScore({ hits: base })), [19, 'low']);
    // 15 + 5 = 20 → medium
    assert.deepEqual(additive(computeRiskScore({ hits: { sanctions: [confirmed('sanctions', 'un_sc', 1)], adverse_media: [confirmed('adverse_media', 'news', 1)] } })), [20, 'medium']);
    // 15 (UN) + 15 (US) + 12 (UK) + 2 (adverse potential) = 44 → medium
    const s42 = [confirmed('sanctions', 'un_sc', 1), confirmed('sanctions', 'ofac_sdn', 1), confirmed('sanctions', 'uk_sanctions', 1)];
    assert.deepEqual(additive(computeRiskScore({ hits: { sanctions: s42, adverse_media: [hit('adverse_media', 'n', 0.8)] } })), [44, 'medium']);
    // 20 (PEP) + 25 (Pandora) = 45 → high
    assert.deepEqual(
      additive(computeRiskScore({ hits: { pep: [confirmed('pep', 'p', 1)], offshore_leaks: [confirmed('offshore_leaks', 'icij', 1, { investigation: 'Pandora Papers' })] } })),
      [45, 'high'],
    );
    // 15 (UN) + 15 (US) + 12 (EU) + 12 (UK) + 15 (DPL) = 69 → high
    const s69 = {
      sanctions: [confirmed('sanctions', 'un_sc', 1), confirmed('sanctions', 'ofac_sdn', 1), confirmed('sanctions', 'eu_fsf', 1), confirmed('sanctions', 'uk_sanctions', 1)],
      debarment: [confirmed('debarment', 'us_dpl', 1)],
    };
    assert.deepEqual(additive(computeRiskScore({ hits: s69 })), [69, 'high']);
    // 20 PEP + 25 Pandora + 25 FATF countermeasures = 70 → critical
    assert.deepEqual(
      additive(
        computeRiskScore({
          hits: { pep: [confirmed('pep', 'p', 1)], offshore_leaks: [confirmed('offshore_leaks', 'icij', 1, { investigation: 'Pandora Papers' })] },
          countryRisk: [country('IR', 'high_risk_call_for_action', 'countermeasures')],
        }),
      ),
      [70, 'critical'],
    );
  });
  it('an empty screening is 0, low, with an empty breakdown', () => {
    const r = computeRiskScore({ hits: {} });
    assert.deepEqual([r.riskScore, r.riskLevel, r.breakdown.length], [0, 'low', 0]);
  });
});

function pick(r: { riskScore: number; riskLevel: string }): [number, string] {
  return [r.riskScore, r.riskLevel];
}

/** The additive sum and the level it alone would give. */
function additive(r: { additiveScore: number }): [number, string] {
  return [r.additiveScore, riskLevelFor(r.additiveScore)];
}
