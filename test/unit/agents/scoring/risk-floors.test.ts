/**
 * Floors (docs/risk-scoring.md, "Floors"): given findings, when scored, then the level never
 * contradicts its meaning on the scale, the score is raised with it, and the breakdown says why.
 * The second half scores real entities of the bundled lists (Putin, Kim Jong Un, a DPL entry, a
 * member of Congress from the OpenSanctions PEP file) as the list agents report them.
 */
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { computeRiskScore, listRegimeOf, regimeOfHit, type ScorableHit, type ScoringInput } from '../../../../src/reports/risk-score';
import { createListAgents, type NameScreener } from '../../../../src/agents/lists/list-agents';
import { riskLevelForScore, type CountryRiskFinding, type HitCategory, type ReportHit } from '../../../../src/reports/model';
import { ScreeningEngine } from '../../../../src/screening/engine';
import { BUNDLED_LISTS_DIR, loadList } from '../../../../src/screening/lists';
import { SHARED_DATA_DIR } from '../../../support/shared-data';

let seq = 0;
function hit(category: HitCategory, source: string, score: number, extra: Partial<ScorableHit> = {}): ScorableHit {
  seq += 1;
  return { hitId: `${category}:${source}:${seq}`, category, source, score, entityName: `Entity ${seq}`, ...extra };
}
/** A hit whose identity agrees (a listed identifier): confirmed in the one sense (src/reports/confirmation.ts). */
function confirmed(category: HitCategory, source: string, score: number, extra: Partial<ScorableHit> = {}): ScorableHit {
  return hit(category, source, score, { assessment: 'identity_corroborated', confirmation: { basis: 'identifier', detail: 'passport X1234567 equals listed passport X1234567' }, ...extra });
}
const CSL_SDN = 'Specially Designated Nationals (SDN) - Treasury Department';
const CSL_ENTITY_LIST = 'Entity List (EL) - Bureau of Industry and Security';
const CSL_SSI = 'Sectoral Sanctions Identifications List (SSI) - Treasury Department';
const blackList: CountryRiskFinding = { iso2: 'KP', jurisdiction: 'North Korea', fatfStatus: 'high_risk_call_for_action', measure: 'countermeasures', asOf: '2026-06-19', basis: 'subject_jurisdiction' };

/** given findings → when scored → then: the level, the score and the floor rows. */
function given(input: ScoringInput) {
  const result = computeRiskScore(input);
  // Every assessment keeps score and level on the same scale, and the breakdown sums to the score.
  assert.equal(result.riskLevel, riskLevelForScore(result.riskScore));
  assert.equal(result.breakdown.reduce((s, c) => s + c.points, 0), result.uncappedScore);
  const floorRows = result.breakdown.filter((c) => c.rule.startsWith('floor.'));
  return { result, floorRows };
}

describe('which lists block, which restrict, which control exports', () => {
  const rows: [HitCategory, string, string | undefined, string][] = [
    ['sanctions', 'ofac_sdn', undefined, 'blocking_sanctions'],
    ['sanctions', 'un_sc', undefined, 'blocking_sanctions'],
    ['sanctions', 'eu_fsf', undefined, 'blocking_sanctions'],
    ['sanctions', 'uk_sanctions', undefined, 'blocking_sanctions'],
    ['sanctions', 'us_csl', CSL_SDN, 'blocking_sanctions'],
    ['sanctions', 'ofac_enhanced', 'SDN List', 'blocking_sanctions'],
    ['sanctions', 'ofac_enhanced', 'Non-SDN Menu-Based Sanctions List (NS-MBS List)', 'sanctions'],
    ['sanctions', 'us_csl', CSL_SSI, 'sanctions'],
    ['sanctions', 'ofac_cons', undefined, 'sanctions'],
    ['sanctions', 'us_csl', 'Nonproliferation Sanctions (ISN) - State Department', 'export_control'],
    ['debarment', 'us_csl', CSL_ENTITY_LIST, 'export_control'],
    ['debarment', 'us_csl', 'Unverified List (UVL) - Bureau of Industry and Security', 'export_control'],
    ['debarment', 'us_csl', 'Military End User (MEU) List - Bureau of Industry and Security', 'export_control'],
    ['debarment', 'us_dpl', undefined, 'export_control'],
  ];
  for (const [category, source, sourceList, regime] of rows) {
    it(`${category} on ${source}${sourceList ? ` "${sourceList}"` : ''} is ${regime}`, () => {
      assert.equal(listRegimeOf(category, { source, ...(sourceList ? { sourceList } : {}) }), regime);
    });
  }
  it('a merged hit takes the strongest regime among its lists', () => {
    const merged = confirmed('sanctions', 'us_csl', 1, { sourceList: CSL_ENTITY_LIST, sources: [{ source: 'us_csl', sourceList: CSL_ENTITY_LIST }, { source: 'ofac_sdn' }] });
    assert.equal(regimeOfHit(merged), 'blocking_sanctions');
  });
});

describe('floors', () => {
  it('given one confirmed OFAC SDN hit, when scored, then critical 70 with a floor row saying why', () => {
    const { result, floorRows } = given({ hits: { sanctions: [confirmed('sanctions', 'ofac_sdn', 1)] } });
    assert.equal(result.additiveScore, 15, 'the spec contribution stays');
    assert.deepEqual([result.riskScore, result.riskLevel], [70, 'critical']);
    assert.equal(floorRows.length, 1);
    assert.equal(floorRows[0]!.rule, 'floor.blocking_sanctions_confirmed');
    assert.equal(floorRows[0]!.points, 55);
    assert.match(floorRows[0]!.reason, /blocking sanctions list.*do not proceed/);
    assert.match(result.reason, /^Critical \(70\), do not proceed: confirmed match on a blocking sanctions list/);
  });
  it('given a confirmed CSL row from the SDN programme, then critical; from the SSI list, then high', () => {
    assert.equal(given({ hits: { sanctions: [confirmed('sanctions', 'us_csl', 0.95, { sourceList: CSL_SDN })] } }).result.riskLevel, 'critical');
    const ssi = given({ hits: { sanctions: [confirmed('sanctions', 'us_csl', 0.95, { sourceList: CSL_SSI })] } });
    assert.deepEqual([ssi.result.riskScore, ssi.result.riskLevel, ssi.floorRows[0]!.rule], [45, 'high', 'floor.sanctions_confirmed']);
  });
  it('given an exact SDN name with nothing corroborating the identity, then potential: high 45, never critical, and the reason says nothing confirmed it', () => {
    const nameOnly = hit('sanctions', 'ofac_sdn', 0.95, { assessment: 'strong_name_match', identityNote: 'name only: common name: about 360,000 expected bearers among Chinese names; needs an identity fact' });
    const { result, floorRows } = given({ hits: { sanctions: [nameOnly] } });
    assert.deepEqual([result.riskScore, result.riskLevel, floorRows[0]!.rule], [45, 'high', 'floor.sanctions_potential']);
    assert.ok(!result.flags.includes('confirmed_sanctions_hit'));
    assert.match(result.reason, /name only: common name.*needs an identity fact/);
  });
  it('given a confirmed SDN hit, then the reason names the fact that confirmed it', () => {
    const { result } = given({ hits: { sanctions: [confirmed('sanctions', 'ofac_sdn', 1)] } });
    assert.match(result.reason, /confirmed by passport X1234567 equals listed passport X1234567/);
  });
  it('given an SDN name match whose date of birth contradicts every listed date, then at most medium: +0 and a medium floor', () => {
    const h = hit('sanctions', 'ofac_sdn', 0.8, { assessment: 'identity_contradicted', identityNote: 'identity contradicted: date of birth 1990-03-15 is outside listed 1977' });
    const { result, floorRows } = given({ hits: { sanctions: [h, { ...h, hitId: 'other', source: 'un_sc' }] } });
    assert.deepEqual([result.additiveScore, result.riskScore, result.riskLevel], [0, 20, 'medium']);
    assert.deepEqual(floorRows.map((r) => r.rule), ['floor.sanctions_identity_contradicted']);
    assert.ok(result.breakdown.some((c) => c.rule === 'sanctions.us.contradicted' && /outside listed 1977/.test(c.reason)));
  });
  it('given many potential hits whose points pass 69, then high 69: critical needs a confirmed hit', () => {
    const potentials = ['ofac_sdn', 'un_sc', 'eu_fsf', 'uk_sanctions'].flatMap((source) => [0.9, 0.91, 0.92].map((score) => hit('sanctions', source, score)));
    const { result } = given({ hits: { sanctions: potentials }, countryRisk: [blackList] });
    assert.ok(result.additiveScore > 69, String(result.additiveScore));
    assert.deepEqual([result.riskScore, result.riskLevel], [69, 'high']);
    const limit = result.breakdown.find((c) => c.rule === 'limit.critical_needs_confirmed_hit');
    assert.ok(limit && limit.points < 0 && /critical needs a confirmed hit/.test(limit.reason), JSON.stringify(limit));
    const withOne = given({ hits: { sanctions: [...potentials, confirmed('sanctions', 'ofac_sdn', 1)] }, countryRisk: [blackList] }).result;
    assert.equal(withOne.riskLevel, 'critical');
  });
  it('given the sanctions lists were not searched, then at least high with the flag, never low', () => {
    const { result, floorRows } = given({ hits: {}, unsearched: [{ source: 'sanctions', reason: 'timed out after 15000 ms' }] });
    assert.deepEqual([result.riskScore, result.riskLevel, floorRows[0]!.rule], [45, 'high', 'floor.sanctions_not_searched']);
    assert.ok(result.flags.includes('sanctions_not_searched'));
    assert.match(result.reason, /sanctions lists not searched.*timed out after 15000 ms/);
  });
  it('given a potential SDN hit (80-94), then high 45', () => {
    const { result, floorRows } = given({ hits: { sanctions: [hit('sanctions', 'ofac_sdn', 0.9)] } });
    assert.deepEqual([result.additiveScore, result.riskScore, result.riskLevel], [7, 45, 'high']);
    assert.equal(floorRows[0]!.rule, 'floor.sanctions_potential');
  });
  it('given a confirmed Denied Persons List hit, then high 45; a potential one, then medium 20', () => {
    const sure = given({ hits: { debarment: [confirmed('debarment', 'us_dpl', 1)] } });
    assert.deepEqual([sure.result.riskScore, sure.result.riskLevel, sure.floorRows[0]!.rule], [45, 'high', 'floor.export_control_confirmed']);
    const potential = given({ hits: { debarment: [hit('debarment', 'us_dpl', 0.85)] } });
    assert.deepEqual([potential.result.riskScore, potential.result.riskLevel], [20, 'medium']);
  });
  it('given a confirmed PEP, then at least medium; the floor is shown as already reached by the +20', () => {
    const { result, floorRows } = given({ hits: { pep: [confirmed('pep', 'opensanctions_peps', 1)] } });
    assert.deepEqual([result.riskScore, result.riskLevel], [20, 'medium']);
    assert.equal(floorRows[0]!.rule, 'floor.pep_confirmed');
    assert.equal(floorRows[0]!.points, 0);
    assert.match(floorRows[0]!.reason, /already reached/);
  });
  it('given a FATF black-list subject jurisdiction and no hit, then high 45', () => {
    const { result, floorRows } = given({ hits: {}, countryRisk: [blackList] });
    assert.deepEqual([result.additiveScore, result.riskScore, result.riskLevel], [25, 45, 'high']);
    assert.equal(floorRows[0]!.rule, 'floor.fatf_black_list');
    assert.match(floorRows[0]!.reason, /North Korea \(KP\)/);
  });
  it('given nothing, then low 0 and no floor', () => {
    const { result, floorRows } = given({ hits: {} });
    assert.deepEqual([result.riskScore, result.riskLevel, floorRows.length], [0, 'low', 0]);
    assert.match(result.reason, /^Low \(0\), no significant flags/);
  });
  it('given several floors, then the highest raises the score and the others are shown as already reached', () => {
    const { result, floorRows } = given({ hits: { sanctions: [confirmed('sanctions', 'un_sc', 1)], pep: [confirmed('pep', 'p', 1)] }, countryRisk: [blackList] });
    assert.deepEqual(floorRows.map((r) => [r.rule, r.points > 0]), [
      ['floor.blocking_sanctions_confirmed', true],
      ['floor.fatf_black_list', false],
      ['floor.pep_confirmed', false],
    ]);
    assert.equal(result.riskScore, 70);
    assert.equal(result.floor?.rule, 'floor.blocking_sanctions_confirmed');
  });
  it('given contributions already above the floor, then the sum stands (capped at 100) and the floor adds nothing', () => {
    const hits = ['ofac_sdn', 'un_sc', 'eu_fsf', 'uk_sanctions', 'ofac_sdn', 'un_sc', 'eu_fsf'].map((s) => confirmed('sanctions', s, 1));
    const { result, floorRows } = given({ hits: { sanctions: hits } });
    assert.equal(result.additiveScore, 96);
    assert.equal(result.riskScore, 96);
    assert.equal(floorRows[0]!.points, 0);
  });
  it('given surface contributions (a person check court record), then they add before the floors', () => {
    const court = { rule: 'person.criminal.red_flag', points: 50, reason: 'criminal record tied by name and date of birth' };
    const { result } = given({ hits: { sanctions: [confirmed('sanctions', 'ofac_sdn', 1)] }, additional: [court] });
    assert.deepEqual([result.additiveScore, result.riskScore], [65, 70]);
  });
});

describe('merged hits count once per issuing authority', () => {
  it('given a US entity on three US files, then one US contribution', () => {
    const merged = confirmed('sanctions', 'ofac_sdn', 1, { sources: [{ source: 'ofac_sdn' }, { source: 'us_csl', sourceList: CSL_SDN }, { source: 'ofac_enhanced', sourceList: 'SDN List' }] });
    const { result } = given({ hits: { sanctions: [merged] } });
    assert.equal(result.additiveScore, 15);
    assert.deepEqual(result.breakdown.filter((c) => c.rule.startsWith('sanctions.')).map((c) => c.rule), ['sanctions.us.confirmed']);
  });
  it('given an entity on OFAC and the UN list, then US once and UN once', () => {
    const merged = confirmed('sanctions', 'ofac_sdn', 1, { sources: [{ source: 'ofac_sdn' }, { source: 'us_csl', sourceList: CSL_SDN }, { source: 'un_sc' }] });
    const { result } = given({ hits: { sanctions: [merged] } });
    assert.deepEqual(result.breakdown.filter((c) => c.rule.startsWith('sanctions.')).map((c) => c.rule).sort(), ['sanctions.un.confirmed', 'sanctions.us.confirmed']);
    assert.equal(result.additiveScore, 30);
  });
  it('given no sources field, then the hit\'s own source decides (unmerged hits count per hit, as before)', () => {
    const { result } = given({ hits: { sanctions: [confirmed('sanctions', 'ofac_sdn', 1), confirmed('sanctions', 'us_csl', 1, { sourceList: CSL_SDN })] } });
    assert.equal(result.additiveScore, 30);
  });
});

describe('analyst dispositions', () => {
  const by = { by: 'analyst@bank.test', at: '2026-11-20T10:00:00.000Z' };
  it('given a potential SDN hit marked a true match, then critical, naming who decided', () => {
    const h = hit('sanctions', 'ofac_sdn', 0.88, { disposition: { decision: 'true_match', ...by, note: 'passport matches' } });
    const { result, floorRows } = given({ hits: { sanctions: [h] } });
    assert.deepEqual([result.riskScore, result.riskLevel], [70, 'critical']);
    assert.equal(floorRows[0]!.rule, 'floor.sanctions_true_match');
    assert.match(floorRows[0]!.reason, /true match by analyst@bank\.test on 2026-11-20/);
    assert.ok(result.breakdown.some((c) => c.rule === 'disposition.true_match' && /analyst@bank\.test/.test(c.reason)));
    assert.ok(result.breakdown.some((c) => c.rule === 'sanctions.us.confirmed'), 'a true match counts as confirmed');
  });
  it('given a true match on a non-blocking sanctions list, then critical too', () => {
    const h = confirmed('sanctions', 'us_csl', 1, { sourceList: CSL_SSI, disposition: { decision: 'true_match', ...by } });
    assert.equal(given({ hits: { sanctions: [h] } }).result.riskLevel, 'critical');
  });
  it('given every hit dismissed as a false positive, then recomputed without them, with who dismissed them', () => {
    const hits = [confirmed('sanctions', 'ofac_sdn', 1), confirmed('pep', 'p', 1)].map((h) => ({ ...h, disposition: { decision: 'false_positive' as const, ...by } }));
    const { result, floorRows } = given({ hits: { sanctions: [hits[0]!], pep: [hits[1]!] } });
    assert.deepEqual([result.riskScore, result.riskLevel, floorRows.length], [0, 'low', 0]);
    const rows = result.breakdown.filter((c) => c.rule === 'disposition.false_positive');
    assert.equal(rows.length, 2);
    assert.ok(rows.every((r) => r.points === 0 && /false positive by analyst@bank\.test/.test(r.reason)));
  });
  it('given a potential SDN hit marked "needs more information", then it still counts as potential: same score and floor as undecided', () => {
    const undecided = given({ hits: { sanctions: [hit('sanctions', 'ofac_sdn', 0.85)] } }).result;
    const h = hit('sanctions', 'ofac_sdn', 0.85, { disposition: { decision: 'needs_more_information', ...by, note: 'ask for the passport' } });
    const { result, floorRows } = given({ hits: { sanctions: [h] } });
    assert.deepEqual([result.riskScore, result.riskLevel], [undecided.riskScore, undecided.riskLevel]);
    assert.equal(result.riskLevel, 'high');
    assert.equal(floorRows[0]!.rule, 'floor.sanctions_potential');
    const row = result.breakdown.find((c) => c.rule === 'disposition.needs_more_information');
    assert.ok(row && row.points === 0 && /awaiting more information by analyst@bank\.test on 2026-11-20/.test(row.reason), JSON.stringify(row));
  });
  it('given a true match sent back for more information, then it counts by its matcher score again, not as a true match', () => {
    const h = hit('sanctions', 'ofac_sdn', 0.85, { disposition: { decision: 'needs_more_information', ...by } });
    const { floorRows } = given({ hits: { sanctions: [h] } });
    assert.ok(!floorRows.some((r) => r.rule === 'floor.sanctions_true_match'));
  });
  it('given one of two hits dismissed, then the other still decides', () => {
    const dismissed = confirmed('sanctions', 'ofac_sdn', 1, { disposition: { decision: 'false_positive', ...by } });
    const { result } = given({ hits: { sanctions: [dismissed, hit('sanctions', 'ofac_sdn', 0.85)] } });
    assert.deepEqual([result.riskScore, result.riskLevel], [45, 'high']);
  });
});

describe('real entities of the bundled lists, as the list agents report them', () => {
  let screen: (name: string, entityType?: 'individual' | 'company', birthDate?: string) => Promise<Record<HitCategory, ReportHit[]>>;
  before(async () => {
    const lists = await Promise.all([
      loadList({ source: 'ofac_sdn', dir: path.join(BUNDLED_LISTS_DIR, 'ofac_sdn') }),
      loadList({ source: 'us_csl', dir: path.join(BUNDLED_LISTS_DIR, 'us_csl') }),
      loadList({ source: 'us_dpl', dir: path.join(BUNDLED_LISTS_DIR, 'us_dpl') }),
      loadList({ source: 'opensanctions_peps', dir: path.join(SHARED_DATA_DIR, 'opensanctions'), files: ['us_congress_senzing.json'] }),
    ]);
    const engine: NameScreener = ScreeningEngine.build(lists.flatMap((l) => l.entities), lists.map((l) => l.version));
    const agents = createListAgents(() => engine);
    screen = async (name, entityType = 'individual', birthDate) => {
      const hits = { sanctions: [], pep: [], adverse_media: [], offshore_leaks: [], debarment: [] } as Record<HitCategory, ReportHit[]>;
      for (const agent of agents) {
        const outcome = await agent.run({ workflow: 'screening-test', name, entityType, ...(birthDate ? { birthDate } : {}) }, { signal: new AbortController().signal });
        for (const h of outcome.hits ?? []) hits[h.category].push(h);
      }
      return hits;
    };
  });

  it('Vladimir Putin, name only: an exact match whose rarity cannot be shown ("Vladimir" recurs on the lists, "Putin" is in no name pool) is potential, high; with his date of birth the CSL row from the SDN programme makes it critical', async () => {
    const hits = await screen('Vladimir Putin');
    const putin = hits.sanctions.find((h) => /PUTIN, Vladimir/i.test(h.entityName));
    assert.ok(putin, 'Putin is on the bundled CSL');
    // Filed under OFAC's own SDN list; the CSL row that republishes the designation is one of its sources.
    assert.equal(putin.source, 'ofac_sdn');
    assert.ok(putin.sources?.some((s) => s.source === 'us_csl' && /Specially Designated Nationals/.test(s.sourceList ?? '')), JSON.stringify(putin.sources));
    assert.deepEqual([putin.status, putin.assessment, putin.confirmation], ['potential', 'strong_name_match', undefined]);
    assert.match(putin.identityNote ?? '', /not distinctive: "vladimir" is carried by \d+ listed people/);
    assert.deepEqual([given({ hits }).result.riskLevel, given({ hits }).result.floor?.rule], ['high', 'floor.sanctions_potential']);
    const withDob = await screen('Vladimir Putin', 'individual', '1952-10-07');
    const confirmed = withDob.sanctions.find((h) => /PUTIN, Vladimir/i.test(h.entityName));
    assert.equal(confirmed?.confirmation?.basis, 'date_of_birth', JSON.stringify(confirmed));
    const { result } = given({ hits: withDob });
    assert.equal(result.riskLevel, 'critical');
    assert.equal(result.floor?.rule, 'floor.blocking_sanctions_confirmed');
  });
  it('Kim Jong Un, name only: a common Korean name is a strong name match, high; with his listed date of birth, critical', async () => {
    const nameOnly = await screen('Kim Jong Un');
    const kim = nameOnly.sanctions.find((h) => h.source === 'ofac_sdn' && /KIM, Jong Un/.test(h.entityName));
    assert.ok(kim);
    assert.deepEqual([kim.status, kim.assessment, kim.confirmation], ['potential', 'strong_name_match', undefined]);
    assert.deepEqual([given({ hits: nameOnly }).result.riskLevel, given({ hits: nameOnly }).result.floor?.rule], ['high', 'floor.sanctions_potential']);
    const withDob = await screen('Kim Jong Un', 'individual', '1984-01-08');
    assert.equal(withDob.sanctions.find((h) => /KIM, Jong Un/.test(h.entityName))?.confirmation?.basis, 'date_of_birth');
    const { result } = given({ hits: withDob });
    assert.deepEqual([result.riskLevel, result.floor?.rule], ['critical', 'floor.blocking_sanctions_confirmed']);
  });
  it('a Denied Persons List entry found by a common name alone is potential: medium (export control), not critical', async () => {
    const hits = await screen('Aaron Abraham Villa');
    assert.ok(hits.debarment.some((h) => h.source === 'us_dpl' && h.assessment === 'strong_name_match'), JSON.stringify(hits.debarment.map((h) => [h.source, h.score, h.assessment])));
    assert.equal(hits.sanctions.length, 0);
    const { result } = given({ hits });
    assert.deepEqual([result.riskLevel, result.floor?.rule], ['medium', 'floor.export_control_potential']);
  });
  it('a member of Congress (OpenSanctions PEP) found by a distinctive exact name is a confirmed PEP: medium', async () => {
    const hits = await screen('Jennifer L. McClellan');
    assert.ok(hits.pep.some((h) => h.status === 'confirmed' && h.confirmation?.basis === 'distinctive_name'));
    const { result } = given({ hits });
    assert.deepEqual([result.riskLevel, result.floor?.rule], ['medium', 'floor.pep_confirmed']);
  });
});
