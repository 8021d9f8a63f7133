/**
 * Issue 27 §1: matching that accounts for every name part. Each case gives two names and the band
 * its score must fall in (engine.compare: final score, name only); the invented examples
 * scored 0.86–0.95 before these rules. A rule that lowers a score says so in the explanation.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ScreeningEngine } from '../../../../src/screening/engine';
import type { MatchExplanation } from '../../../../src/screening/model';
import * as F from './fixtures';

const engine = ScreeningEngine.build(F.ALL, []);
const T = engine.defaultThreshold;
/** Well below the alert threshold: a DOB (+0.05) and a country (+0.03) agreeing still do not alert. */
const WELL_BELOW = T - 0.08;

function score(a: string, b: string, schema?: string): { score: number; explanation: MatchExplanation } {
  return engine.compare(a, b, schema);
}
function notes(e: MatchExplanation): string {
  return e.qualifiers.map((q) => q.detail).join(' | ');
}
function below(a: string, b: string, note: RegExp | undefined, schema?: string): void {
  const r = score(a, b, schema);
  assert.ok(r.score <= WELL_BELOW, `${a} / ${b}: ${r.score} should be ≤ ${WELL_BELOW}`);
  if (note) assert.match(notes(r.explanation), note, `${a} / ${b}: explanation`);
}
function alerts(a: string, b: string, min = T, max = 0.95, schema = 'Person'): void {
  const r = score(a, b, schema);
  assert.ok(r.score >= min && r.score <= max, `${a} / ${b}: ${r.score} should be in [${min}, ${max}]`);
}

describe('fragments: a one-word listed name matches only the whole query', () => {
  it('"سارا زمانی" (Sara Zamani) is not the one-word alias ZAMAN, in Arabic script or romanised', () => {
    below('سارا زمانی', 'ZAMAN', undefined, 'Person');
    below('Sara Zamani', 'ZAMAN', undefined, 'Person');
    below('Sara Zaman', 'ZAMAN', /one word "zaman"/, 'Person');
  });
  it('the one word alone still matches', () => {
    alerts('Zaman', 'ZAMAN');
  });
  it('an unvowelled Persian given name is not read as a title ("سارا" is Sara, not "Sr.")', () => {
    const r = score('سارا زمانی', 'Sara Zamani', 'Person');
    assert.ok(r.score >= T, String(r.score));
    assert.doesNotMatch(notes(r.explanation), /title/);
  });
});

describe('transliterations agree on each word\'s sound skeleton, not on a shared syllable', () => {
  it('"اسرا کریمی" (Esra Karimi) is not CAYAURIMA', () => {
    below('اسرا کریمی', 'CAYAURIMA', undefined);
    below('Esra Karimi', 'CAYAURIMA', undefined);
  });
  it('"کریمی" still reads as Karimi and "حسين" as Hussein', () => {
    alerts('اسرا کریمی', 'KARIMI, Esra');
    alerts('حسين', 'Hussein', 0.8, 0.95);
  });
  it('"韩磊" (Han Lei, a person) is not HANLEY LIMITED', () => {
    below('韩磊', 'HANLEY LIMITED', undefined);
    below('Han Lei', 'HANLEY', undefined, 'Person');
  });
  it('"林斌" (Lin Bin) is not LIN PING: "Bin" in a Chinese name is a syllable, not a particle', () => {
    below('林斌', 'LIN PING', undefined, 'Person');
    below('Lin Bin', 'LIN Ping', undefined, 'Person');
    alerts('林斌', 'LIN Bin', 0.9);
  });
  it('a shared consonant skeleton with another number of vowel sounds is another name (Fang / Fangwei)', () => {
    below('Li Fang', 'LI, Fangwei', undefined, 'Person');
    below('Hamid Rahimi', 'AHMADI, Rahim', undefined, 'Person');
  });
});

describe('Chinese, Japanese and Korean: one different syllable is another name', () => {
  it('김정민 and 김종민 are different names (0.95 before)', () => {
    below('김정민', '김종민', undefined, 'Person');
  });
  it('the same Hangul name in South and North Korean spelling is one name (리/이)', () => {
    alerts('리정민', '이정민', 0.9);
  });
  it('homophone Han characters are the same romanised name', () => {
    alerts('张伟', '章伟', 0.9);
    alerts('林斌', '林彬', 0.9);
    alerts('张伟', 'ZHANG Wei', 0.9);
  });
  it('a pinyin syllable that differs is not a typo (Wang Guiying / WANG Guoying)', () => {
    below('Wang Guiying', 'WANG, Guoying', undefined, 'Person');
  });
});

describe('Arabic patronymic chains are ordered', () => {
  it('"Ahmad bin Khalid al-Tamimi" is not "Khalid bin Ahmad al-Tamimi" (0.95 before)', () => {
    below('Ahmad bin Khalid al-Tamimi', 'Khalid bin Ahmad al-Tamimi', /son of/, 'Person');
    below('Khalid Ahmad al-Tamimi', 'AHMAD BIN KHALID AL-TAMIMI', /son of/, 'Person');
  });
  it('the chain in its order, with or without "bin", still matches', () => {
    alerts('Ahmad Khalid al-Tamimi', 'AHMAD BIN KHALID AL-TAMIMI', 0.85);
    alerts('Ahmad bin Khalid al-Tamimi', 'AHMAD BIN KHALID AL-TAMIMI', 0.95);
  });
});

describe('every name part is accounted for', () => {
  it('name words unmatched on both sides: another person', () => {
    below('Kim Jong Min', 'Kim Jong Un', /unmatched/, 'Person');
  });
  it('a query whose surname is unmatched does not alert through its middle name', () => {
    below('Mohammed Hassan Al-Masri', 'HASSAN, Mohammed', /query's last name word "masri"/, 'Person');
    below('Ali Ibrahim Khalil', 'IBRAHIM, Khalil', /query's first name word "ali"/, 'Person');
  });
  it('a listed given name or surname missing from the query: no alert', () => {
    below('Larry Turner', 'Robert L. Turner', /first name word "robert"/, 'Person');
    below('Rajesh Kumar', 'GUPTA, Rajesh Kumar', /listed name's surname/, 'Person');
  });
  it('a missing middle name, an agreeing initial or a patronymic is a small penalty, not none', () => {
    alerts('Vladimir Putin', 'PUTIN, Vladimir Vladimirovich', T, 0.94);
    alerts('V. Putin', 'PUTIN, Vladimir Vladimirovich', T, 0.94);
    alerts('Ali Khalil', 'KHALIL, Ali Hassan', T, 0.94);
    alerts('Juan Carlos Martinez Perez', 'MARTINEZ, Juan Carlos', T, 0.94);
    alerts('Saddam Hussein', 'SADDAM HUSSEIN AL-TIKRITI', T, 0.94);
  });
});

describe('weak aliases and acronyms alert only as the whole query', () => {
  const weak = F.entity({ primaryName: 'GARCIA LOPEZ, Manuel Antonio', names: [{ value: 'GARCIA LOPEZ, Manuel Antonio', kind: 'primary' }, { value: 'MANOLO', kind: 'weak_alias' }, { value: 'PAT', kind: 'weak_alias' }] });
  const acronym = F.entity({ primaryName: 'BANCO NACIONAL DE CUBA', schema: 'organization', names: [{ value: 'BANCO NACIONAL DE CUBA', kind: 'primary' }, { value: 'BNC', kind: 'weak_alias' }] });
  const e = ScreeningEngine.build([weak, acronym], []);
  it('a one-word weak alias inside a longer name is no alert; alone it is', () => {
    assert.equal(e.screen({ name: 'Manolo Hernandez' }).length, 0);
    assert.equal(e.screen({ name: 'Manolo' })[0]?.entity.id, weak.id);
  });
  it('a three-letter weak alias never matches a full name', () => {
    assert.equal(e.screen({ name: 'Pat Smith' }).length, 0);
    assert.equal(e.screen({ name: 'Pat Manuel Garcia' }).filter((h) => h.explanation.matchedName === 'PAT').length, 0);
  });
  it('an acronym alias is not reached through the initials of a transliterated personal name', () => {
    assert.equal(e.screen({ name: '裴年昌' }).length, 0);
    assert.equal(e.screen({ name: 'بنك نور كريم' }).length, 0);
    assert.equal(e.screen({ name: 'BNC' })[0]?.entity.id, acronym.id);
  });
});
