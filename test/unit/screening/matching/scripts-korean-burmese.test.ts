/**
 * Korean (Hangul, Hanja, romanisations), Burmese and Armenian readings (issue 20): each asserts the
 * side of the threshold and that the reading shows in the explanation.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ScreeningEngine } from '../../../../src/screening/engine';
import { burmeseSyllables } from '../../../../src/screening/matching/burmese';
import { hanjaReading, koreanKey } from '../../../../src/screening/matching/korean';
import * as F from './fixtures';

const KJU = F.KIM_JONG_UN; // OFAC SDN 20157
const KJI = F.entity({ primaryName: 'KIM Jong Il', sourceId: 'kji', schema: 'person' });
const MAH = F.entity({ primaryName: 'MIN AUNG HLAING', sourceId: 'mah', schema: 'person' });
const engine = ScreeningEngine.build([...F.ALL, KJI, MAH], []);
const T = engine.defaultThreshold;
const notes = (r: { explanation: { qualifiers: { detail: string }[] } }) => r.explanation.qualifiers.map((q) => q.detail).join(' | ');

describe('Korean names', () => {
  it('reads Hanja in Korean, the surname 金 as Kim, and says so in the explanation', () => {
    assert.equal(hanjaReading('金正恩'), '김정은');
    assert.equal(hanjaReading('李雪主'), '리설주');
    assert.equal(hanjaReading('Kim 正恩'), undefined);
    const hits = engine.screen({ name: '金正恩' });
    assert.equal(hits[0]?.entity.id, KJU.id);
    assert.ok(hits[0].score >= T);
    assert.match(notes(hits[0]), /read in Korean \(Hanja\) as 김정은/);
    assert.ok(!hits.some((h) => h.entity.id === KJI.id && h.score >= T), '金正恩 is not Kim Jong Il');
  });
  it('one key for a syllable in RR, McCune–Reischauer, DPRK and passport spellings', () => {
    assert.equal(koreanKey('jeong'), koreanKey('chong'));
    assert.equal(koreanKey('jeong'), koreanKey('jung'));
    assert.equal(koreanKey('eun'), koreanKey('un'));
    assert.equal(koreanKey('hyeon'), koreanKey('hyun'));
    assert.equal(koreanKey('jongun'), `${koreanKey('jong')}.${koreanKey('un')}`);
    assert.notEqual(koreanKey('il'), koreanKey('un'));
    assert.equal(koreanKey('smith'), undefined);
  });
  it('matches Latin spellings of one Korean name, not a name with another syllable', () => {
    for (const [a, b] of [
      ['Gim Jeong-eun', 'KIM Jong Un'],
      ['Choi Ryong-hae', 'CHOE Ryong Hae'],
      ['Hyun Young-chul', 'HYON Yong Chol'],
      ['Chun Doo-hwan', 'JEON Du-hwan'],
      ['김정은', 'Kim Jong-un'],
    ]) assert.ok(engine.compare(a, b, 'Person').score >= T, `${a} / ${b}`);
    for (const [a, b] of [
      ['Kim Jong Un', 'KIM Jong Nam'],
      ['김정은', 'KIM Jong Il'],
      ['Jang Song Thaek', 'JANG Song Gil'],
    ]) assert.ok(engine.compare(a, b, 'Person').score < T, `${a} / ${b}`);
  });
  it('gives no Korean key to a name with a non-Korean word (the key is too loose for other languages)', () => {
    assert.ok(engine.compare('John Young', 'John Yong', 'Person').score < T);
  });
});

describe('Burmese names', () => {
  it('cuts a Burmese word into syllables spelt as lists write them', () => {
    assert.deepEqual(burmeseSyllables('မင်းအောင်လှိုင်'), ['min', 'aung', 'hlaing']);
    assert.deepEqual(burmeseSyllables('ဝင်းမြင့်'), ['win', 'myint']);
    assert.deepEqual(burmeseSyllables('ခင်ညွန့်'), ['khin', 'nyunt']);
    assert.deepEqual(burmeseSyllables('ထွန်းထွန်းဦး'), ['htun', 'htun', 'u']);
    assert.deepEqual(burmeseSyllables('မြန်မာ့စီးပွားရေးဘဏ်'), ['myanma', 'economic', 'bank']);
  });
  it('finds the listed person from the Burmese script, with the honorific and a military title dropped', () => {
    for (const q of ['မင်းအောင်လှိုင်', 'ဗိုလ်ချုပ်မှူးကြီးမင်းအောင်လှိုင်', 'U Min Aung Hlaing']) {
      const hit = engine.screen({ name: q })[0];
      assert.equal(hit?.entity.id, MAH.id, q);
      assert.ok(hit.score >= T, q);
    }
    assert.match(notes(engine.screen({ name: 'ဦးမင်းအောင်လှိုင်' })[0]), /title "u" is not part of the name/);
  });
  it('the honorifics U and Daw never carry a match, and every syllable of a Burmese name counts', () => {
    assert.ok(engine.compare('U Thein Sein', 'U AUNG WIN', 'Person').score < T);
    assert.ok(engine.compare('Daw Aung San Suu Kyi', 'DAW KHIN KYI', 'Person').score < T);
    const r = engine.compare('မင်းအောင်လှိုင်', 'MIN AUNG', 'Person');
    assert.ok(r.score < T);
    assert.match(notes(r), /Burmese names have no surname/);
    assert.ok(engine.compare('ဇော်မင်းထွန်း', 'ZAW MIN TUN', 'Person').score >= T, 'Htun/Tun');
  });
});

describe('Armenian and Georgian', () => {
  it('reads Armenian script in its Eastern and Western spellings, Georgian as lists write it', () => {
    assert.ok(engine.compare('Նիկոլ Փաշինյան', 'Nikol PASHINYAN', 'Person').score >= T);
    assert.ok(engine.compare('Գևորգ Մարտիրոսյան', 'Kevork Martirosian', 'Person').score >= T, 'Western Armenian');
    assert.ok(engine.compare('Պետրոս Ղազարյան', 'Bedros Kazarian', 'Person').score >= T, 'Western Armenian');
    assert.ok(engine.compare('Ռոբերտ Քոչարյան', 'Robert KARAPETYAN', 'Person').score < T);
    assert.ok(engine.compare('სალომე ზურაბიშვილი', 'Salome ZOURABICHVILI', 'Person').score >= T);
    assert.ok(engine.compare('ირაკლი კობახიძე', 'Irakli GARIBASHVILI', 'Person').score < T);
  });
});

describe('acronyms that skip words, and related-entity discriminators', () => {
  it('an acronym leaving out one distinctive word is a weak potential match and says which word', () => {
    const r = engine.compare('MCI', 'MOBILE TELECOMMUNICATION COMPANY OF IRAN', 'Company');
    assert.ok(r.score >= T && r.score <= 0.82, String(r.score));
    assert.match(notes(r), /leaving out "telecommunication"/);
    assert.ok(engine.compare('MTC', 'MOBILE TELECOMMUNICATION COMPANY OF IRAN', 'Company').score < T, 'the last distinctive word is always spelt');
    assert.ok(engine.compare('IRS', 'ISLAMIC REPUBLIC OF IRAN SHIPPING LINES', 'Company').score < T, 'two distinctive words left out');
  });
  it('a subsidiary, a holding or a vessel against its parent, operating company or owner is potential, never confirmed', () => {
    for (const [a, b, re] of [
      ['SEA STAR TRADING (HONG KONG) LIMITED', 'SEA STAR TRADING LIMITED', /only in one name: a subsidiary/],
      ['SEA STAR HOLDINGS LIMITED', 'SEA STAR LIMITED', /holding company and its operating company/],
    ] as const) {
      const r = engine.compare(a, b, 'Company');
      assert.ok(r.score >= T && r.score < 0.95, `${a}: ${r.score}`);
      assert.match(notes(r), re);
    }
    const v = engine.compare('SEA STAR', 'SEA STAR SHIPPING CO LTD', 'Vessel');
    assert.ok(v.score <= 0.85, String(v.score));
    assert.match(notes(v), /vessel and its owner company/);
    assert.ok(engine.compare('SEA STAR HOLDINGS LIMITED', 'SEA STAR HOLDINGS LTD', 'Company').score >= 0.95, 'the same holding stays confirmed');
  });
  it('two subsidiaries in different places fall below the threshold', () => {
    const r = engine.compare('BLUE OCEAN LOGISTICS (HONG KONG) LIMITED', 'BLUE OCEAN LOGISTICS (SINGAPORE) PTE LTD', 'Company');
    assert.ok(r.score < T);
    assert.match(notes(r), /another place/);
  });
  it('a company in another jurisdiction loses 0.10 and cannot be confirmed; a person only 0.05', () => {
    const org = engine.compare('ARIAN ENERGY LLC', 'ARIAN ENERGY LLC', 'Company', { country: 'DE', countries: ['IR'] });
    assert.equal(org.score, 0.85);
    assert.match(notes(org), /another jurisdiction may be another company/);
    const person = engine.compare('JOHN ALEXANDER SMITHERS', 'JOHN ALEXANDER SMITHERS', 'Person', { country: 'US', countries: ['RU'] });
    assert.equal(person.score, 0.9);
  });
});
