/**
 * One hit per real-world entity (src/screening/grouping.ts), as given/when/then specifications:
 * given the rows a query matched, when they are grouped, then the groups and their merged facts.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { filingMember, groupMatches, mergeFacts, type MatchGroup } from '../../../src/screening/grouping';
import type { ListEntity, MatchResult } from '../../../src/screening/model';
import { entity } from './matching/fixtures';

function match(e: ListEntity, score: number): MatchResult {
  return { entity: e, score, explanation: { matchedName: e.primaryName, matchedNameKind: 'primary', nameScore: score, alignment: [], qualifiers: [], summary: '' } };
}

const spec = (given: MatchResult[]) => ({
  then(check: (groups: MatchGroup[]) => void) {
    // the grouping does not depend on the order the rows came in
    check(groupMatches(given));
    check(groupMatches([...given].reverse()));
  },
});
const ids = (g: MatchGroup) => g.members.map((m) => m.entity.id).sort();

describe('groupMatches: shared identifiers', () => {
  it('given the SDN row, the Enhanced XML row and three CSL rows of one ent_num, then one group with the issuer list first', () => {
    const sdn = entity({ source: 'ofac_sdn', sourceId: '17018', schema: 'organization', primaryName: 'SBERBANK OF RUSSIA' });
    const xml = entity({ source: 'ofac_enhanced', sourceId: '17018', schema: 'organization', primaryName: 'PUBLIC JOINT STOCK COMPANY SBERBANK OF RUSSIA' });
    const csl = ['17018', '17018-2', '17018-3'].map((id, i) =>
      entity({ source: 'us_csl', sourceId: id, schema: 'organization', primaryName: 'PUBLIC JOINT STOCK COMPANY SBERBANK OF RUSSIA', extra: { list: ['Specially Designated Nationals (SDN) - Treasury Department', 'Sectoral Sanctions Identifications List (SSI) - Treasury Department', 'Capta List (CAP) - Treasury Department'][i]!, entity_number: '17018' } }),
    );
    spec([match(sdn, 0.89), match(xml, 0.89), ...csl.map((c) => match(c, 0.89))]).then((groups) => {
      assert.equal(groups.length, 1);
      assert.equal(groups[0]!.members.length, 5);
      assert.equal(groups[0]!.best.entity.id, 'ofac_sdn:17018', 'on a tie the issuer list is the primary source');
      assert.deepEqual(groups[0]!.links.map((l) => l.kind), ['ofac_id']);
    });
  });

  it('given a CSL row of a BIS list whose id happens to equal an OFAC ent_num, then it stays apart', () => {
    const sdn = entity({ source: 'ofac_sdn', sourceId: '306', schema: 'organization', primaryName: 'BANCO NACIONAL DE CUBA' });
    const el = entity({ source: 'us_csl', sourceId: '306', schema: 'organization', primaryName: 'BANCO NACIONAL DE CUBA SA', extra: { list: 'Entity List (EL) - Bureau of Industry and Security' } });
    spec([match(sdn, 0.95), match(el, 0.9)]).then((groups) => assert.equal(groups.length, 2));
  });

  it('given a UN entry and an OFAC row quoting its UN reference, then one group', () => {
    const un = entity({ source: 'un_sc', sourceId: '6908', primaryName: 'KIM JONG UN', extra: { reference_number: 'KPi.066' } });
    const other = { ...entity({ source: 'uk_sanctions', sourceId: '13770', primaryName: 'KIM Jong Un' }), remarks: 'UN Ref KPi.066. Supreme Leader.' };
    spec([match(un, 0.95), match(other, 0.93)]).then((groups) => {
      assert.equal(groups.length, 1);
      assert.equal(groups[0]!.links[0]!.detail, 'UN reference KPi.066');
    });
  });

  it('given two vessels with one IMO number, then one group; given a shared website, then two', () => {
    const a = entity({ source: 'ofac_sdn', sourceId: '1', schema: 'vessel', primaryName: 'SEA STAR', identifiers: [{ type: 'imo', value: '9187629' }, { type: 'website', value: 'www.nitc.co.ir' }] });
    const b = entity({ source: 'un_sc', sourceId: '2', schema: 'vessel', primaryName: 'SEA STAR 2', identifiers: [{ type: 'imo', value: 'IMO 9187629' }] });
    const c = entity({ source: 'un_sc', sourceId: '3', schema: 'vessel', primaryName: 'SEA QUEEN', identifiers: [{ type: 'website', value: 'www.nitc.co.ir' }] });
    spec([match(a, 0.9), match(b, 0.85), match(c, 0.82)]).then((groups) => {
      assert.deepEqual(groups.map(ids), [['ofac_sdn:1', 'un_sc:2'], ['un_sc:3']]);
    });
  });

  it('given a person and a company that share a registration-like number, then they are never merged', () => {
    const person = entity({ source: 'ofac_sdn', sourceId: '10', schema: 'person', primaryName: 'IVAN PETROV', identifiers: [{ type: 'national_id', value: '7707083893' }] });
    const company = entity({ source: 'ofac_sdn', sourceId: '11', schema: 'organization', primaryName: 'PETROV LLC', identifiers: [{ type: 'registration', value: '7707083893' }] });
    spec([match(person, 0.9), match(company, 0.85)]).then((groups) => assert.equal(groups.length, 2));
  });

  it('given short or digit-free identifier values, then they link nothing', () => {
    const a = entity({ source: 'ofac_sdn', sourceId: '20', primaryName: 'ALI HASSAN', identifiers: [{ type: 'passport', value: '1234' }] });
    const b = entity({ source: 'un_sc', sourceId: '21', primaryName: 'ALI HASAN', identifiers: [{ type: 'passport', value: '1234' }] });
    spec([match(a, 0.9), match(b, 0.9)]).then((groups) => assert.equal(groups.length, 2));
  });
});

describe('groupMatches: same name and agreeing attributes', () => {
  const putinCsl = entity({ source: 'us_csl', sourceId: 'x1', primaryName: 'PUTIN, Vladimir Vladimirovich', birthDates: [{ date: '1952-10-07' }], nationalities: ['RU'], extra: { list: 'Entity List (EL) - Bureau of Industry and Security' } });
  it('given the same name in another word order and the same DOB, then one group', () => {
    const eu = entity({ source: 'eu_fsf', sourceId: '7', primaryName: 'Vladimir Vladimirovich PUTIN', birthDates: [{ year: 1952 }] });
    spec([match(putinCsl, 0.95), match(eu, 0.95)]).then((groups) => {
      assert.equal(groups.length, 1);
      assert.equal(groups[0]!.links[0]!.kind, 'name_and_dob');
    });
  });
  it('given the same name and a shared nationality but no DOB on one side, then one group', () => {
    const uk = entity({ source: 'uk_sanctions', sourceId: '8', primaryName: 'Putin Vladimir Vladimirovich', nationalities: ['RU'] });
    spec([match(putinCsl, 0.95), match(uk, 0.95)]).then((groups) => assert.equal(groups[0]!.links[0]!.kind, 'name_and_country'));
  });
  it('given the same name with different dates of birth, then two people', () => {
    const namesake = entity({ source: 'eu_fsf', sourceId: '9', primaryName: 'Vladimir Vladimirovich Putin', birthDates: [{ date: '1975-03-02' }], nationalities: ['RU'] });
    spec([match(putinCsl, 0.95), match(namesake, 0.95)]).then((groups) => assert.equal(groups.length, 2));
  });
  it('given the same name and nothing else to compare, then two rows (a name alone does not make one entity)', () => {
    const a = entity({ source: 'ofac_sdn', sourceId: '30', primaryName: 'MOHAMMED ALI' });
    const b = entity({ source: 'un_sc', sourceId: '31', primaryName: 'MOHAMMED ALI' });
    spec([match(a, 0.95), match(b, 0.95)]).then((groups) => assert.equal(groups.length, 2));
  });
  it('given groups of different scores, then the best group comes first and each group is led by its best row', () => {
    const a = entity({ source: 'ofac_sdn', sourceId: '40', primaryName: 'ALPHA TRADING', schema: 'organization' });
    const b1 = entity({ source: 'ofac_cons', sourceId: '41', primaryName: 'BETA BANK', schema: 'organization' });
    const b2 = entity({ source: 'us_csl', sourceId: '41', primaryName: 'BETA BANK', schema: 'organization', extra: { list: 'Specially Designated Nationals (SDN) - Treasury Department' } });
    spec([match(a, 0.85), match(b1, 0.88), match(b2, 0.93)]).then((groups) => {
      assert.deepEqual(groups.map((g) => g.best.entity.id), ['us_csl:41', 'ofac_sdn:40']);
    });
  });
});

describe('groupMatches: one organisation on another authority\'s list', () => {
  const usBank = entity({ source: 'ofac_sdn', sourceId: '35000', primaryName: 'PUBLIC JOINT STOCK COMPANY SBERBANK OF RUSSIA', schema: 'organization' });
  it('given the UK row naming the bank by a strong alias, legal forms aside, and no country against it, then one group', () => {
    const ukBank = entity({
      source: 'uk_sanctions',
      sourceId: 'RUS0254',
      primaryName: 'PJSC SBERBANK (PUBLIC JOINT-STOCK COMPANY SBERBANK)',
      schema: 'organization',
      countries: ['RU'],
      names: [{ value: 'PJSC SBERBANK OF RUSSIA', kind: 'strong_alias', script: 'Latn' }],
    });
    spec([match(usBank, 0.95), match(ukBank, 0.9)]).then((groups) => {
      assert.equal(groups.length, 1);
      assert.equal(groups[0]!.links[0]!.kind, 'name_and_country');
      assert.match(groups[0]!.links[0]!.detail, /same organisation name "of russia sberbank"|same organisation name "russia sberbank"/);
    });
  });
  it('given one distinctive word only ("Sberbank"), or a conflicting country, or the same authority, then the rows stay apart', () => {
    const oneWord = entity({ source: 'uk_sanctions', sourceId: 'A', primaryName: 'SBERBANK', schema: 'organization' });
    const europe = entity({ source: 'uk_sanctions', sourceId: 'B', primaryName: 'SBERBANK OF RUSSIA AG', schema: 'organization', countries: ['AT'] });
    const usEurope = entity({ source: 'ofac_sdn', sourceId: 'C', primaryName: 'SBERBANK OF RUSSIA', schema: 'organization', countries: ['RU'] });
    const sameAuthority = entity({ source: 'us_csl', sourceId: 'D', primaryName: 'JSC SBERBANK OF RUSSIA', schema: 'organization' });
    spec([match(usBank, 0.95), match(oneWord, 0.9)]).then((groups) => assert.equal(groups.length, 2));
    spec([match(usEurope, 0.95), match(europe, 0.9)]).then((groups) => assert.equal(groups.length, 2));
    spec([match(usBank, 0.95), match(sameAuthority, 0.9)]).then((groups) => assert.equal(groups.length, 2));
  });
  it('given two people with the same name on two authorities\' lists, then the organisation rule does not apply', () => {
    const a = entity({ source: 'ofac_sdn', sourceId: '50', primaryName: 'IVAN IVANOV PETROV' });
    const b = entity({ source: 'uk_sanctions', sourceId: '51', primaryName: 'IVAN IVANOV PETROV' });
    spec([match(a, 0.95), match(b, 0.95)]).then((groups) => assert.equal(groups.length, 2));
  });
});

describe('filingMember: the list a merged hit is filed under', () => {
  const sdn = entity({ source: 'ofac_sdn', sourceId: '20157', schema: 'person', primaryName: 'KIM, Jong Un' });
  const csl = entity({ source: 'us_csl', sourceId: '06f3f6', schema: 'person', primaryName: 'KIM, Jong Un', extra: { list: 'Specially Designated Nationals (SDN) - Treasury Department', entity_number: '20157' } });
  const un = entity({ source: 'un_sc', sourceId: '6908', schema: 'person', primaryName: 'KIM JONG UN' });

  it('given the CSL row scoring best (the Latin name) and the SDN row (the Chinese name), then the hit is filed under the SDN either way', () => {
    spec([match(csl, 0.97), match(sdn, 0.9)]).then((groups) => {
      assert.equal(groups[0]!.best.entity.id, 'us_csl:06f3f6', 'the score stays the best row\'s');
      assert.equal(filingMember(groups[0]!).entity.id, 'ofac_sdn:20157');
    });
    spec([match(csl, 0.85), match(sdn, 0.99)]).then((groups) => assert.equal(filingMember(groups[0]!).entity.id, 'ofac_sdn:20157'));
  });

  it('given only an aggregate\'s row, then it is filed there; given two issuers\' own lists, then in the SOURCE_RANK order', () => {
    assert.equal(filingMember({ members: [match(csl, 0.97)] }).entity.id, 'us_csl:06f3f6');
    assert.equal(filingMember({ members: [match(un, 0.99), match(sdn, 0.9)] }).entity.id, 'ofac_sdn:20157');
  });
});

describe('mergeFacts', () => {
  it('given the rows of one entity, then the union of aliases, DOBs, nationalities, identifiers, programs and addresses without repeats', () => {
    const a = entity({
      source: 'ofac_sdn', sourceId: '1', primaryName: 'PUTIN, Vladimir Vladimirovich',
      names: [{ value: 'PUTIN, Vladimir Vladimirovich', kind: 'primary' }, { value: 'PUTIN, Vladimir', kind: 'weak_alias' }],
      birthDates: [{ date: '1952-10-07' }], nationalities: ['RU'], programs: ['RUSSIA-EO14024'],
      identifiers: [{ type: 'passport', value: '123456789', country: 'RU' }], addresses: [{ full: 'Kremlin, Moscow, RU', country: 'RU' }],
    });
    const b = entity({
      source: 'us_csl', sourceId: '1', primaryName: 'Vladimir Vladimirovich PUTIN',
      names: [{ value: 'Vladimir Vladimirovich PUTIN', kind: 'primary' }, { value: 'Владимир Владимирович Путин', kind: 'original_script' }],
      birthDates: [{ date: '1952-10-07' }, { year: 1952, approximate: true }], nationalities: ['RU'], programs: ['RUSSIA-EO14024', 'UKRAINE-EO13660'],
      identifiers: [{ type: 'passport', value: '1234-56789' }], addresses: [{ city: 'Sochi', country: 'RU' }],
    });
    const facts = mergeFacts([a, b]);
    assert.deepEqual(facts.aliases, ['PUTIN, Vladimir', 'Владимир Владимирович Путин'], 'the primary name and its reordering are not aliases');
    assert.deepEqual(facts.birthDates, ['1952-10-07', 'circa 1952']);
    assert.deepEqual(facts.nationalities, ['RU']);
    assert.deepEqual(facts.programs, ['RUSSIA-EO14024', 'UKRAINE-EO13660']);
    assert.equal(facts.identifiers.length, 1, 'the same passport written two ways is one identifier');
    assert.deepEqual(facts.addresses, ['Kremlin, Moscow, RU', 'Sochi, RU']);
  });
});
