/**
 * The name-frequency model (src/screening/identity/name-frequency.ts, docs/name-frequency.md): which
 * names are distinctive enough for an exact match to confirm an identity. The examples of issue 27,
 * the list frequencies (distinct names, not entities), and the committed data file being what the
 * script builds from faker today.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { buildNameFrequencyData, DATA_FILE } from '../../../scripts/build-name-frequency';
import { listNameFrequency, namePools, nameRarity, NO_LIST_FREQUENCY, DISTINCTIVE_MAX_BEARERS, LIST_RECURRING_MIN_NAMES } from '../../../src/screening/identity/name-frequency';
import type { EntitySchema, ListEntity } from '../../../src/screening/model';

function entity(id: string, primaryName: string, schema: EntitySchema = 'person'): ListEntity {
  return {
    id: `t:${id}`, source: 't', sourceId: id, listVersion: 't@1', topics: ['sanctions'], schema, primaryName, names: [], birthDates: [], birthPlaces: [],
    nationalities: [], countries: [], addresses: [], identifiers: [], programs: [],
  };
}

describe('which names are distinctive (issue 27 examples)', () => {
  const cases: [string, EntitySchema, boolean][] = [
    ['Vladimir Putin', 'person', true],
    ['Banco Nacional de Cuba', 'organization', true],
    ['Zhang Wei', 'person', false],
    ['张伟', 'person', false],
    ['Kim Min-jun', 'person', false],
    ['김민준', 'person', false],
    ['Mohammed Hassan', 'person', false],
    ['محمد حسن', 'person', false],
    ['Kim Jong Un', 'person', false],
    ['Maria Garcia Lopez', 'person', false],
    ['Ivan Petrov', 'person', false],
    // romanised names of cultures whose pools are in their own script: the pools' Latin readings know them
    ['Ikeda Takashi', 'person', false],
    ['Takashi Ikeda', 'person', false],
    ['Farhad Mohammadi', 'person', false],
    ['Eleni Papadopoulou', 'person', false],
    // an English patronymic surname the en pool leaves out (Daniel → Daniels)
    ['Emma Daniels', 'person', false],
  ];
  for (const [name, schema, distinctive] of cases) {
    it(`${name}: ${distinctive ? 'distinctive' : 'not distinctive'}`, () => {
      const r = nameRarity(name, schema);
      assert.equal(r.distinctive, distinctive, r.reason);
      if (schema === 'person') assert.equal(r.estimatedBearers! < DISTINCTIVE_MAX_BEARERS, distinctive, String(r.estimatedBearers));
    });
  }
  it('a common name says where it is common (nationality agreement is weak evidence there)', () => {
    const zhang = nameRarity('Zhang Wei', 'person');
    assert.match(zhang.reason, /^common name: about [\d,]+ expected bearers among Chinese names$/);
    assert.ok(zhang.commonIn.some((c) => c.countries.includes('CN')), JSON.stringify(zhang.commonIn));
    assert.ok(nameRarity('Kim Min-jun', 'person').commonIn.some((c) => c.countries.includes('KR')));
  });
  it('a single name part never identifies a person; a patronymic adds nothing', () => {
    assert.equal(nameRarity('Putin', 'person').distinctive, false);
    assert.equal(nameRarity('Vladimir Vladimirovich', 'person').distinctive, false);
  });
  it('vessels and aircraft are never distinctive by name', () => {
    assert.equal(nameRarity('Ocean Glory Explorer', 'vessel').distinctive, false);
  });
  it('an organisation needs two words besides legal forms and generic business words', () => {
    assert.equal(nameRarity('Global Trading LLC', 'organization').distinctive, false);
    assert.equal(nameRarity('Rosneft Oil Company', 'organization').distinctive, false);
    assert.equal(nameRarity('Bank Melli Iran', 'organization').distinctive, true);
  });
});

describe('the lists\' own word frequencies', () => {
  it('count distinct names, not entities: one person on three lists is one name', () => {
    const lists = listNameFrequency([entity('1', 'PUTIN, Vladimir Vladimirovich'), entity('2', 'Vladimir Vladimirovich PUTIN'), entity('3', 'Putin Vladimir Vladimirovich'), entity('4', 'Golden Star', 'vessel')]);
    assert.equal(lists.persons('putin'), 1);
    assert.equal(lists.organisations('golden'), 1, 'vessels count with organisations: the words things are named with');
    assert.equal(lists.persons('golden'), 0);
  });
  it('a word many listed organisations share is generic, so a name of such words is not distinctive', () => {
    const many = Array.from({ length: 25 }, (_, i) => entity(`o${i}`, `Golden Star Trading ${String.fromCharCode(65 + i)}${String.fromCharCode(65 + i)}`, 'organization'));
    assert.equal(nameRarity('Golden Star Shipping', 'organization', NO_LIST_FREQUENCY).distinctive, true);
    assert.equal(nameRarity('Golden Star Shipping', 'organization', listNameFrequency(many)).distinctive, false);
  });
  it('a word no pool knows but many listed people carry is a common name element, not a rare one', () => {
    const recurring = Array.from({ length: LIST_RECURRING_MIN_NAMES }, (_, i) => entity(`p${i}`, `Qwertzhan Person${i}`));
    const lists = listNameFrequency(recurring);
    assert.equal(nameRarity('Qwertzhan Asdfgov', 'person', NO_LIST_FREQUENCY).distinctive, true);
    const r = nameRarity('Qwertzhan Vladimir', 'person', lists);
    assert.equal(r.distinctive, false, r.reason);
  });
  it('a name whose only rare part is in no pool, beside a name element many listed people carry, is not distinctive: its rarity is unknown, not shown', () => {
    // (Not "Mohammed": the Arabic pools' entries sharing its skeleton already make "Mohammed Qwertzani" not distinctive with no list.)
    const recurring = Array.from({ length: LIST_RECURRING_MIN_NAMES }, (_, i) => entity(`m${i}`, `Vladimir Person${i}`));
    const lists = listNameFrequency(recurring);
    assert.equal(nameRarity('Vladimir Qwertzani', 'person', NO_LIST_FREQUENCY).distinctive, true, 'with no list at hand the tail estimate stands');
    const r = nameRarity('Vladimir Qwertzani', 'person', lists);
    assert.equal(r.distinctive, false, r.reason);
    assert.match(r.reason, /carried by 10 listed people.*cannot be told/);
    assert.equal(nameRarity('Qwertzan Asdfgov', 'person', lists).distinctive, true, 'two parts no pool knows and no list repeats: still distinctive');
  });
  it('the frequencies of one entity array are counted once', () => {
    const entities = [entity('1', 'A B')];
    assert.equal(listNameFrequency(entities), listNameFrequency(entities));
  });
});

describe('Latin readings of pools in other scripts (scripts/latin-readings.ts)', () => {
  it('a romanised Japanese name is found through the kanji pools\' Hepburn readings, as its kana would be', () => {
    const roman = nameRarity('Ikeda Takashi', 'person');
    assert.match(roman.reason, /Japanese names/);
    assert.equal(roman.estimatedBearers, nameRarity('いけだ たかし', 'person').estimatedBearers);
  });
  it('an Arabic-script entry is keyed by its consonant skeleton, which every Latin spelling shares', () => {
    for (const spelling of ['Farhad Mohammadi', 'Farhad Mohamadi']) assert.match(nameRarity(spelling, 'person').reason, /^common name: .* among Persian names$/, spelling);
  });
  it('a skeleton shared by chance does not make a rarity known: an unknown surname beside a recurring given name stays not distinctive', () => {
    const recurring = Array.from({ length: LIST_RECURRING_MIN_NAMES }, (_, i) => entity(`v${i}`, `Vladimir Person${i}`));
    assert.equal(nameRarity('Vladimir Putin', 'person', listNameFrequency(recurring)).distinctive, false);
  });
  it('two invented parts stay distinctive: the readings widen the pools, not the tail', () => {
    assert.equal(nameRarity('Qwertzan Xylographov', 'person').distinctive, true);
  });
});

describe('the committed data file', () => {
  it('is what scripts/build-name-frequency.ts builds from faker today (else: npx tsx scripts/build-name-frequency.ts)', async () => {
    assert.equal(readFileSync(DATA_FILE, 'utf8'), await buildNameFrequencyData());
  });
  it('covers the naming cultures issue 27 names, each with both pools', () => {
    const ids = new Set(namePools().cultures.map((c) => c.id));
    for (const id of ['zh', 'ko', 'ja', 'ru', 'fa', 'ar', 'he', 'el', 'tr', 'vi', 'es', 'en', 'de', 'fr', 'it', 'pt', 'pl', 'uk']) assert.ok(ids.has(id), id);
    for (const c of namePools().cultures) assert.ok(c.given.entries > 0 && c.surname.entries > 0 && c.population > 0, c.id);
  });
});
