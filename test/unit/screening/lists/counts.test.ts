/**
 * Every list in ../shared/data loads, and the counts match its README.
 * The numbers below are the README's (not measured by this code).
 */
import { SHARED_DATA_DIR } from '../../../support/shared-data';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadAllLists, loadList, listsFromRoot, type LoadResult } from '../../../../src/screening/lists';
import type { ListEntity } from '../../../../src/screening/model';

const DATA = SHARED_DATA_DIR;

const bySchema = (es: ListEntity[]) => {
  const c: Record<string, number> = {};
  for (const e of es) c[e.schema] = (c[e.schema] ?? 0) + 1;
  return c;
};

let all: LoadResult;
const listOf = (source: string) => {
  const l = all.lists.find((x) => x.version.source === source);
  assert.ok(l, `${source} did not load: ${JSON.stringify(all.failures)}`);
  return l;
};

test('all lists load from ../shared/data with no failure', async () => {
  all = await loadAllLists({ lists: listsFromRoot(DATA, { includeOptIn: true }) }, { progressBar: false });
  assert.deepEqual(all.failures, []);
  const counts = Object.fromEntries(all.versions.map((v) => [v.source, v.entityCount]));
  console.log('entity counts:', counts);
  assert.deepEqual(Object.keys(counts).sort(), [
    'fatf', 'icij_offshore', 'ofac_cons', 'ofac_enhanced', 'ofac_sdn', 'opensanctions_ftm', 'opensanctions_peps', 'un_sc', 'us_csl', 'us_dpl',
  ]);
  for (const v of all.versions) {
    assert.match(v.contentHash, /^[0-9a-f]{64}$/);
    assert.equal(v.id, `${v.source}@${v.contentHash.slice(0, 16)}`);
  }
});

test('OFAC SDN: 8,976 = 4,620 individual + 3,673 entity + 406 vessel + 277 aircraft; 11,910 aliases; 13,837 addresses; 5 comments', () => {
  const l = listOf('ofac_sdn');
  assert.equal(l.entities.length, 8976);
  assert.deepEqual(bySchema(l.entities), { organization: 3673, person: 4620, vessel: 406, aircraft: 277 });
  assert.deepEqual(l.stats, { primary: 8976, alt: 11910, aka: 11523, fka: 369, nka: 18, add: 13837, comments: 5 });
  assert.equal(l.entities.filter((e) => e.programs.length > 1).length, 1195, 'README: 1,195 rows have several programs');
  assert.ok(l.entities.every((e) => e.listVersion === l.version.id));
  const longest = Math.max(...l.entities.map((e) => e.remarks?.length ?? 0));
  assert.ok(longest > 1000, 'overflow remarks from sdn_comments are appended');
});

test('OFAC non-SDN cons_*: 442 = 79 individual + 363 entity; 1,073 aliases; 574 addresses; 10 comments', () => {
  const l = listOf('ofac_cons');
  assert.equal(l.entities.length, 442);
  assert.deepEqual(bySchema(l.entities), { person: 79, organization: 363 });
  assert.equal(l.stats?.alt, 1073);
  assert.equal(l.stats?.add, 574);
  assert.equal(l.stats?.comments, 10);
});

test('OFAC Enhanced XML: 443 entities (363 Entity, 80 Individual), 1,579 names, dataAsOf 2025-01-10', () => {
  const l = listOf('ofac_enhanced');
  assert.equal(l.entities.length, 443);
  assert.deepEqual(bySchema(l.entities), { person: 80, organization: 363 });
  assert.equal(l.version.publishedAt, '2025-01-10');
  assert.deepEqual(l.stats, { entities: 443, names: 1579 });
  assert.ok(l.entities.some((e) => e.names.some((n) => n.kind === 'original_script' && n.script === 'Cyrl')), 'Cyrillic translations kept');
});

test('UN consolidated: 1,003 = 730 individuals + 273 entities, dateGenerated 2026-02-27; older snapshot 1,000 = 727 + 273', async () => {
  const l = listOf('un_sc');
  assert.deepEqual(l.stats, { individuals: 730, entities: 273 });
  assert.equal(l.version.publishedAt, '2026-02-27');
  const regimes: Record<string, number> = {};
  for (const e of l.entities) regimes[e.programs[0]] = (regimes[e.programs[0]] ?? 0) + 1;
  assert.equal(regimes['Al-Qaida'], 341);
  assert.equal(regimes.DPRK, 155);
  assert.equal(regimes.Taliban, 140);
  assert.equal(regimes.Iran, 121);
  assert.equal(regimes.Iraq, 75);
  const old = await loadList({ source: 'un_sc', dir: `${DATA}/un`, files: ['UN_consolidated_2025-11-20.xml'] });
  assert.deepEqual(old.stats, { individuals: 727, entities: 273 });
  assert.equal(old.version.publishedAt, '2025-11-20');
});

test('US CSL: 14,160 rows with the per-list split; 29- and 28-column subsets load', async () => {
  const l = listOf('us_csl');
  assert.equal(l.entities.length, 14160);
  const perList: Record<string, number> = {};
  for (const e of l.entities) {
    const abbr = /\(([^)]+)\)/.exec(e.extra!.list)![1];
    perList[abbr] = (perList[abbr] ?? 0) + 1;
  }
  assert.deepEqual(perList, {
    SDN: 10026, EL: 2001, DTC: 727, DPL: 462, SSI: 290, UVL: 201, ISN: 163, PLC: 78, MEU: 71, CMIC: 68, CAP: 53, 'NS-MBS List': 17, FSE: 3,
  });
  const subset = await loadList({ source: 'us_csl', dir: `${DATA}/us_csl`, files: ['consolidated_subset_2025.csv'] });
  assert.equal(subset.entities.length, 13);
  const old = await loadList({ source: 'us_csl', dir: `${DATA}/us_csl`, files: ['csl_2019_subset.csv'] });
  assert.equal(old.entities.length, 115);
  const oldSdn = old.entities.filter((e) => e.extra!.list.includes('(SDN)'));
  assert.equal(oldSdn.length, 28);
});

test('BIS DPL: 581 rows; the implausible Last_Update years do not become the publication date', () => {
  const l = listOf('us_dpl');
  assert.equal(l.entities.length, 581);
  assert.equal(l.version.publishedAt, '2022-09-02');
  assert.ok(l.entities.some((e) => e.extra?.last_update === '2922-09-01'));
});

test('OpenSanctions: Senzing 1,319 records (1,317 PERSON); FtM files 7 + 91 records with links and programs', () => {
  const peps = listOf('opensanctions_peps');
  assert.equal(peps.entities.length, 1319);
  assert.equal(bySchema(peps.entities).person, 1317);
  assert.equal(peps.version.publishedAt, '2025-12-08');
  assert.ok(peps.entities.filter((e) => e.schema === 'person').every((e) => e.topics.includes('pep')));
  const ftm = listOf('opensanctions_ftm');
  // t1: 4 Person, 2 Organization, 1 Address; zala: 6 Person, 11 Address (+ the rest below).
  assert.deepEqual({ Person: ftm.stats!.Person, Organization: ftm.stats!.Organization, Address: ftm.stats!.Address }, { Person: 10, Organization: 2, Address: 12 });
  assert.deepEqual(
    { Sanction: ftm.stats!.Sanction, Ownership: ftm.stats!.Ownership, Company: ftm.stats!.Company, Family: ftm.stats!.Family, Directorship: ftm.stats!.Directorship, Passport: ftm.stats!.Passport },
    { Sanction: 41, Ownership: 14, Company: 11, Family: 4, Directorship: 3, Passport: 1 },
  );
  // t1: 4 Person + 2 Organization; zala: 11 Company + 6 Person.
  assert.equal(ftm.entities.length, 23);
  const links = ftm.entities.flatMap((e) => e.links ?? []);
  assert.equal(links.filter((x) => x.relation === 'owner_of').length, 14);
  assert.equal(links.filter((x) => x.relation === 'family').length, 8);
  assert.equal(links.filter((x) => x.relation === 'director_of').length, 3);
  assert.ok(ftm.entities.some((e) => e.programs.length > 0), 'Sanction entities become programs');
});

test('ICIJ: 13 entities + 32 officers + 31 intermediaries as entities; 69 edges as links', () => {
  const l = listOf('icij_offshore');
  assert.deepEqual(l.stats, { entity: 13, officer: 32, intermediary: 31, edges: 69 });
  assert.equal(l.entities.length, 76);
  assert.ok(l.entities.every((e) => e.topics.includes('offshore_leaks')));
  assert.ok(l.entities.flatMap((e) => e.links ?? []).length > 0);
});

test('FATF: 73 rows of history; current = latest plenary 2026-06-19 (3 black + 22 grey)', () => {
  assert.equal(all.countryRiskHistory.length, 73);
  assert.equal(all.countryRisk.length, 25);
  assert.ok(all.countryRisk.every((r) => r.asOf === '2026-06-19'));
  assert.deepEqual(
    all.countryRisk.filter((r) => r.list === 'high_risk_call_for_action').map((r) => [r.iso2, r.measure]).sort(),
    [['IR', 'countermeasures'], ['KP', 'countermeasures'], ['MM', 'enhanced due diligence']],
  );
  assert.ok(!all.countryRisk.some((r) => r.iso2 === 'DZ'), 'Algeria was removed at the 2026-06-19 plenary');
  assert.ok(all.countryRiskHistory.some((r) => r.iso2 === 'DZ'));
});
