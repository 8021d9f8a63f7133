/**
 * Sanctions programmes targeting a country (lists/country_sanctions): the reviewed file is well
 * formed, its programme tags are the ones the bundled lists really carry, the designations are
 * counted on the lists themselves, and the broadest scope is told apart from a regional embargo.
 */
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { BUNDLED_LISTS_DIR, loadList } from '../../../../src/screening/lists';
import { ScreeningEngine } from '../../../../src/screening/engine';
import { CountrySanctions, countryScope, loadCountrySanctions, parseCountrySanctions } from '../../../../src/screening/lists/country-sanctions';
import { computeRiskScore } from '../../../../src/reports/risk-score';
import type { CountryRiskFinding } from '../../../../src/reports/model';

const rows = loadCountrySanctions();
let engine: ScreeningEngine;

before(async () => {
  const lists = await Promise.all([
    loadList({ source: 'ofac_sdn', dir: path.join(BUNDLED_LISTS_DIR, 'ofac_sdn') }),
    loadList({ source: 'uk_sanctions', dir: path.join(BUNDLED_LISTS_DIR, 'uk_sanctions') }),
    loadList({ source: 'un_sc', dir: path.join(BUNDLED_LISTS_DIR, 'un') }),
  ]);
  engine = ScreeningEngine.build(lists.flatMap((l) => l.entities), lists.map((l) => l.version));
});

describe('the reviewed classification file', () => {
  it('every row names an issuer page, a legal basis, dates and a scope', () => {
    assert.ok(rows.length >= 30, `${rows.length} rows`);
    for (const r of rows) {
      assert.match(r.sourceUrl, /^https:\/\/(ofac\.treasury\.gov|www\.gov\.uk|www\.un\.org)\//, r.programme);
      assert.ok(r.basis.length > 10 && r.inForceSince <= r.reviewedAsOf, r.programme);
    }
  });

  it('every programme tag it names is carried by at least one designation on the bundled list of its authority', () => {
    const table = new CountrySanctions(rows);
    const missing: string[] = [];
    for (const r of rows) {
      const found = table.programmesFor(r.iso2, engine).find((p) => p.programme === r.programme)!;
      if (!found.designations) missing.push(`${r.authority} ${r.programme} (${r.listProgrammes.join(', ')})`);
    }
    assert.deepEqual(missing, [], 'a tag no list carries would link nothing to the country');
  });

  it('a malformed row is refused with its row number, never skipped', () => {
    const header = 'iso2,jurisdiction,authority,programme,list_programmes,scope,region,basis,in_force_since,reviewed_as_of,source_url';
    const good = 'CU,Cuba,us,OFAC Cuba,CUBA,comprehensive,,"31 CFR part 515",1963-07-08,2026-11-26,https://ofac.treasury.gov/x';
    assert.equal(parseCountrySanctions(`${header}\n${good}\n`).length, 1);
    assert.throws(() => parseCountrySanctions(`${header}\n${good.replace('comprehensive', 'total')}\n`), /row 2: scope "total"/);
    assert.throws(() => parseCountrySanctions(`${header}\n${good}\n${good.replace('https://ofac.treasury.gov/x', 'http://bit.ly/x')}\n`), /row 3: source_url/);
    assert.throws(() => parseCountrySanctions(`${header}\n${good.replace('CU,', 'Cuba,')}\n`), /iso2/);
  });
});

describe('programmes of a country, counted on the lists in service', () => {
  it('Iran: the US embargo first (comprehensive), then UK and UN sectoral measures, each with its designations and list date', () => {
    const programmes = new CountrySanctions(rows).programmesFor('IR', engine);
    assert.equal(programmes[0]!.scope, 'comprehensive');
    assert.equal(programmes[0]!.authority, 'us');
    assert.match(programmes[0]!.basis, /31 CFR part 560/);
    // Counted on the bundled SDN: the IRAN tag alone has 669 rows in the 2024-05-03 file.
    assert.ok(programmes[0]!.designations! >= 669, String(programmes[0]!.designations));
    assert.deepEqual(new Set(programmes.map((p) => p.authority)), new Set(['us', 'uk', 'un']));
    const un = programmes.find((p) => p.authority === 'un')!;
    assert.equal(un.list, 'un_sc');
    assert.equal(un.designations, 121, 'the UN list of 2026-02-27 lists 121 under its Iran regime');
    assert.equal(countryScope(programmes), 'comprehensive');
  });

  it('Ukraine: the Crimea / DNR / LNR embargo is regional, so the country as a whole is sectoral, not comprehensive', () => {
    const programmes = new CountrySanctions(rows).programmesFor('UA', engine);
    assert.equal(programmes.length, 1);
    assert.match(programmes[0]!.region ?? '', /Crimea/);
    assert.equal(countryScope(programmes), 'sectoral');
  });

  it('Russia is sectoral; a country no programme targets is none; without lists the classification still shows, uncounted', () => {
    const table = new CountrySanctions(rows);
    assert.equal(countryScope(table.programmesFor('RU', engine)), 'sectoral');
    assert.equal(countryScope(table.programmesFor('NO', engine)), 'none');
    const unlisted = table.programmesFor('CU');
    assert.equal(unlisted[0]!.designations, undefined);
    assert.equal(unlisted[0]!.scope, 'comprehensive');
  });
});

describe('the shared scorer and a sanctioned jurisdiction', () => {
  const finding = (iso2: string): CountryRiskFinding => {
    const sanctions = new CountrySanctions(rows).programmesFor(iso2, engine);
    return { iso2, jurisdiction: iso2, fatfStatus: 'none', asOf: '2026-06-19', basis: 'subject_jurisdiction', sanctions, sanctionsScope: countryScope(sanctions) };
  };
  it('given a subject in Cuba (comprehensive, not on an FATF list) and no hit, then high, never "no significant flags", naming the programme', () => {
    const result = computeRiskScore({ hits: {}, countryRisk: [finding('CU')] });
    assert.deepEqual([result.riskScore, result.riskLevel], [45, 'high']);
    const floor = result.breakdown.find((c) => c.rule === 'floor.comprehensive_sanctions_jurisdiction');
    assert.ok(floor && /OFAC Cuba sanctions/.test(floor.reason), JSON.stringify(result.breakdown));
    assert.ok(result.flags?.includes('comprehensive_sanctions_jurisdiction'));
  });
  it('given a subject in Russia (sectoral), then medium; in Ukraine (regional embargo only), medium too; in Norway, low', () => {
    assert.equal(computeRiskScore({ hits: {}, countryRisk: [finding('RU')] }).riskLevel, 'medium');
    assert.equal(computeRiskScore({ hits: {}, countryRisk: [finding('UA')] }).riskLevel, 'medium');
    assert.equal(computeRiskScore({ hits: {}, countryRisk: [finding('NO')] }).riskLevel, 'low');
  });
  it('given a finding recorded before programmes were kept, then FATF alone decides, as before', () => {
    const { sanctions: _s, sanctionsScope: _c, ...old } = finding('CU');
    assert.equal(computeRiskScore({ hits: {}, countryRisk: [old] }).riskLevel, 'low');
  });
});
