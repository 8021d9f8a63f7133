/** ScreeningEngine: scores, qualifiers, request options and the index. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ScreeningEngine, toEntitySchema } from '../../../src/screening/engine';
import { NameIndex } from '../../../src/screening/matching/name-index';
import { prepareName } from '../../../src/screening/matching/prepare';
import * as F from './matching/fixtures';

const engine = ScreeningEngine.build(F.ALL, []);
const kinds = (r: { explanation: { qualifiers: { kind: string }[] } }) => r.explanation.qualifiers.map((q) => q.kind);

describe('scores and qualifiers', () => {
  it('1.0 needs an exact name plus a corroborating attribute', () => {
    const nameOnly = engine.screen({ name: 'Vladimir Vladimirovich Putin' })[0];
    assert.equal(nameOnly.score, 0.95);
    const withDob = engine.screen({ name: 'Vladimir Vladimirovich Putin', birthDate: '1952-10-07' })[0];
    assert.equal(withDob.score, 1);
    assert.ok(kinds(withDob).includes('dob_match'));
    const withCountry = engine.screen({ name: 'Vladimir Vladimirovich Putin', country: 'Russia' })[0];
    assert.equal(withCountry.score, 1);
    assert.ok(kinds(withCountry).includes('country_match'));
    const partial = engine.screen({ name: 'Vladimir Putin', birthDate: '1952' })[0];
    assert.ok(partial.score < 1 && partial.score >= engine.defaultThreshold, String(partial.score));
    assert.ok(partial.score > engine.screen({ name: 'Vladimir Putin' })[0].score, 'the DOB agreement adds to a partial name match');
  });
  it('a DOB conflict lowers the score and says why', () => {
    const r = engine.screen({ name: 'Vladimir Vladimirovich Putin', birthDate: '1980' }, { threshold: 0.5 })[0];
    assert.ok(r.score < 0.85, String(r.score));
    const q = r.explanation.qualifiers.find((x) => x.kind === 'dob_conflict')!;
    assert.ok(q.effect < 0);
    assert.match(q.detail, /1980/);
  });
  it('year ranges (UN BETWEEN) and several listed dates', () => {
    const inRange = engine.screen({ name: 'Doku Khamatovich Umarov', birthDate: '1955' })[0];
    assert.equal(inRange.score, 1);
    const other = engine.screen({ name: 'Doku Khamatovich Umarov', birthDate: '1964-05-01' })[0];
    assert.ok(kinds(other).includes('dob_match'));
    const out = engine.screen({ name: 'Doku Khamatovich Umarov', birthDate: '1970' }, { threshold: 0.5 })[0];
    assert.ok(kinds(out).includes('dob_conflict'));
  });
  it('approximate dates widen the tolerance', () => {
    const circa = F.entity({ primaryName: 'ABDUL QADEER BASIR ABDUL BASEER', birthDates: [{ year: 1964, approximate: true }] });
    const e = ScreeningEngine.build([circa], []);
    const r = e.screen({ name: 'Abdul Qadeer Basir Abdul Baseer', birthDate: '1966' })[0];
    assert.ok(kinds(r).includes('dob_match'));
    const far = e.screen({ name: 'Abdul Qadeer Basir Abdul Baseer', birthDate: '1970' }, { threshold: 0.5 })[0];
    assert.ok(kinds(far).includes('dob_conflict'));
  });
  it('country conflict, identifier hit, schema conflict', () => {
    const conflict = engine.screen({ name: 'Kim Jong Un', country: 'FR' }, { threshold: 0.5 })[0];
    assert.ok(kinds(conflict).includes('country_conflict'));
    const id = engine.screen({ name: 'Sea Star 2', identifiers: [{ value: '9187629' }] });
    assert.equal(id.length, 1);
    assert.ok(kinds(id[0]).length === 0, 'IMO digits alone are not the listed "IMO 9187629"');
    const idFull = engine.screen({ name: 'Sea Star 2', identifiers: [{ type: 'imo', value: 'imo-9187629' }] })[0];
    assert.ok(kinds(idFull).includes('identifier_match'));
    assert.equal(idFull.score, 1);
    const schema = engine.screen({ name: 'Hamas', schema: 'person' }, { threshold: 0.5 })[0];
    assert.ok(kinds(schema).includes('schema_conflict'));
    assert.ok(schema.score < engine.defaultThreshold);
  });
  it('weak aliases score a little lower than strong ones', () => {
    const strong = engine.screen({ name: 'Osama bin Laden' })[0];
    assert.equal(strong.explanation.matchedNameKind, 'strong_alias');
    const weak = engine.screen({ name: 'Abu Abdallah al-Qudwa' })[0];
    assert.equal(weak.explanation.matchedNameKind, 'weak_alias');
    assert.ok(weak.score < strong.score && weak.score >= engine.defaultThreshold, `${weak.score} < ${strong.score}`);
    assert.ok(kinds(weak).includes('weak_alias'));
  });
  it('every explanation has a summary naming the matched name', () => {
    const r = engine.screen({ name: 'Saddam Hussein', country: 'IQ' })[0];
    assert.match(r.explanation.summary, /SADDAM HUSSEIN AL-TIKRITI/);
    assert.match(r.explanation.summary, /IQ/);
  });
});

describe('request options', () => {
  it('threshold, limit, schemas, sources and topics', () => {
    const kimJong = engine.screen({ name: 'Kim Jong' }, { threshold: 0.3 });
    assert.equal(kimJong[0].entity.id, F.KIM_JONG_UN.id);
    assert.equal(engine.screen({ name: 'Kim Jong' }, { threshold: kimJong[0].score + 0.01 }).length, 0);
    assert.equal(engine.screen({ name: 'Aeroscan' }, { schemas: ['person'] }).length, 0);
    assert.equal(engine.screen({ name: 'Aeroscan' }, { schemas: ['organization'] }).length, 1);
    assert.equal(engine.screen({ name: 'Saddam Hussein' }, { sources: ['ofac_sdn'] }).length, 0);
    assert.equal(engine.screen({ name: 'Saddam Hussein' }, { sources: ['un_sc'] }).length, 1);
    assert.equal(engine.screen({ name: 'Binyamin Netanyahu' }, { topics: ['sanctions'] }).length, 0);
    assert.equal(engine.screen({ name: 'Binyamin Netanyahu' }, { topics: ['pep'] }).length, 1);
    const many = F.ALL.concat([1, 2, 3].map((i) => F.entity({ primaryName: `SEA STAR 2`, sourceId: `s${i}`, schema: 'vessel' })));
    assert.equal(ScreeningEngine.build(many, []).screen({ name: 'Sea Star 2' }, { limit: 2 }).length, 2);
  });
  it('maps benchmark schema names', () => {
    assert.equal(toEntitySchema('Person'), 'person');
    assert.equal(toEntitySchema('Company'), 'organization');
    assert.equal(toEntitySchema('Organization'), 'organization');
    assert.equal(toEntitySchema('Vessel'), 'vessel');
    assert.equal(toEntitySchema('LegalEntity'), 'unknown');
  });
  it('empty names give no hits', () => {
    assert.deepEqual(engine.screen({ name: '  ' }), []);
    assert.equal(engine.compare('', 'Putin').score, 0);
  });
});

describe('index', () => {
  it('screens only the candidates its keys point to, not every name', () => {
    const filler = Array.from({ length: 2000 }, (_, i) => F.entity({ primaryName: `COMPANY NUMBER ${i} ZETA${i} TRADING`, sourceId: `f${i}`, schema: 'organization' }));
    const idx = NameIndex.build([...filler, F.PUTIN]);
    const c = idx.candidates(prepareName('Vladimir Putin', 'person'));
    assert.equal(c.length, 1);
    assert.equal(idx.names[c[0].nameIndex].entityIndex, 2000);
    // a typo still finds it through prefix/suffix/phonetic keys
    assert.equal(idx.candidates(prepareName('Vladimir Poutin', 'person')).length, 1);
  });
  it('rarity: tokens shared by many entities weigh less', () => {
    const filler = Array.from({ length: 300 }, (_, i) => F.entity({ primaryName: `MOHAMMED X${i}Q`, sourceId: `m${i}` }));
    const idx = NameIndex.build(filler);
    // rarity is kept per folded token; every spelling of Muhammad folds to one key
    assert.ok(idx.rarity(prepareName('Mohamed').tokens[0].fold) < 0.5);
    assert.equal(prepareName('Mohamed').tokens[0].fold, prepareName('MOHAMMED').tokens[0].fold);
    assert.equal(idx.rarity('x1q'), 1);
  });
  it('reports stats', () => {
    const s = engine.stats();
    assert.equal(s.entities, F.ALL.length);
    assert.ok(s.names >= F.ALL.length && s.indexKeys > s.names);
    assert.equal(engine.matcherVersion.length > 0, true);
  });
});

describe('recent queries', () => {
  const names = ['Vladimir Putin', 'Emma Daniels', 'Kim Jong Un', 'Hamas', 'Sea Star 2', 'Nobody Atall'];
  const topicSets = [['sanctions'], ['pep'], ['sanctions', 'pep'], undefined] as const;
  const answer = (e: ScreeningEngine, name: string, topics: readonly string[] | undefined, threshold: number) =>
    e.screen({ name, schema: name === 'Hamas' ? 'organization' : undefined }, { threshold, ...(topics ? { topics: [...topics] as never } : {}) })
      .map((r) => ({ id: r.entity.id, score: r.score, summary: r.explanation.summary }));

  it('a name screened again, against other lists or another threshold, gets what a fresh engine gives', () => {
    const warm = ScreeningEngine.build(F.ALL, [], { recentQueries: 4 });
    for (const threshold of [0.8, 0.5]) {
      for (const topics of topicSets) {
        for (const name of names) {
          const fresh = ScreeningEngine.build(F.ALL, []);
          assert.deepEqual(answer(warm, name, topics, threshold), answer(fresh, name, topics, threshold), `${name} ${topics} ${threshold}`);
        }
      }
    }
    assert.ok(answer(warm, 'Emma Daniels', ['pep'], 0.8).length > 0, 'the check compares real hits');
    assert.deepEqual(answer(warm, 'Emma Daniels', ['sanctions'], 0.8), [], 'the pep-only entity is filtered out by topic');
  });
});
