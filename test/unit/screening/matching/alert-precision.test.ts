/**
 * Issue 27, second round: the alerts an innocent customer's name raises. Two kinds of rule:
 * - pair rules (engine.compare, the name score): transliterations must agree on each word's
 *   consonants and on where its vowels are, not on a skeleton two different names share;
 * - one alert rule (engine.screen, the final score only): a partial match on a common name, with no
 *   date of birth or identifier agreeing, raises no alert; the pair score is left as it is.
 * Names of listed persons below are real list entries (OFAC SDN, UN) unless a comment says otherwise.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PARTIAL_COMMON_NAME_CAP, ScreeningEngine } from '../../../../src/screening/engine';
import { entity } from './fixtures';
import { hebrewMatchesLatin } from '../../../../src/screening/matching/text';

const pairs = ScreeningEngine.build([], []);
const T = pairs.defaultThreshold;
const compare = (a: string, b: string) => pairs.compare(a, b, 'Person').score;
function differ(a: string, b: string): void {
  const s = compare(a, b);
  assert.ok(s < T, `${a} / ${b}: ${s} should be below ${T}`);
}
function same(a: string, b: string): void {
  const s = compare(a, b);
  assert.ok(s >= T, `${a} / ${b}: ${s} should alert (≥ ${T})`);
}

describe('transliterations: two names sharing a consonant skeleton are not one name', () => {
  it('a vowel before the first consonant or after the last is a sound the other name lacks (Ehsan / Hassan, Salma / Salim)', () => {
    differ('Hassan Mohammadi', 'MOHAMMADI, Ehsan');
    differ('Salma Hassan', 'Salim Hassan');
  });
  it('spelling variants of one name keep matching (Hussein / Husayn, Fatemeh / Fatima, Qaddafi / Gadhafi, Osama / Usama)', () => {
    same('Hussein Ali', 'Husayn Ali');
    same('فاطمه احمدی', 'Fatemeh Ahmadi');
    same('Moammar Qaddafi', 'Muammar Gadhafi');
    same('Osama bin Laden', 'Usama bin Ladin');
  });
  it('a feminine -a is another name even when the sound code agrees (Salma / Salim)', () => {
    differ('Salma Haddad', 'Salim Haddad');
  });
  it('an unvowelled word keeps every consonant it writes: خليل (khlyl) is Khalil, not Kalai', () => {
    differ('محمد خليل', 'MOHAMMED KALAI');
    same('محمد خليل', 'Mohammed Khalil');
  });
  it('a cross-script pair the script\'s reading leaves alef and ain out of still matches (القاعدة / Qaida, منير / Mounir)', () => {
    same('القاعدة', 'AL-QAIDA');
    same('منير المتصدق', 'MOUNIR EL MOTASSADEQ');
  });
});

describe('Arabic family names: "X al-Y" is X of the family al-Y', () => {
  it('against "SURNAME, Given" with the words the other way round, another person (Ahmad al-Hasan is not AHMAD, Hasan)', () => {
    differ('أحمد الحسن', 'AHMAD, Hasan');
    differ('Ahmad al-Hasan', 'AHMAD, Hasan');
    differ('حسين العلي', "HUSAYN, 'Ali");
  });
  it('a word the name repeats says nothing about roles (HASSAN, Hassan el-Hajj is HASSAN EL-HADZHDZH HASSAN)', () => {
    same('HASSAN, Hassan el-Hajj', 'HASSAN EL-HADZHDZH HASSAN');
    same('AL-MUHAMMAD, Muhammad', 'MUHAMMAD EL-MUHAMMAD');
  });
  it('in the same roles, the same name (Muhammad al-Hasan is HASSAN, Mohamed; Hamza al-Masri is AL-MASRI, Abu Hamza)', () => {
    same('محمد الحسن', 'HASSAN, Mohamed');
    same('Ahmad al-Hasan', 'HASAN, Ahmad');
    same('Hamza Al-Masri', 'AL-MASRI, Abu Hamza');
  });
});

describe('alerts: a partial match on a common name raises none without an identity fact', () => {
  // Real entries (OFAC SDN 29886, 11940, 26945, 35096; UN QDi.6908419).
  const ivanova = entity({ primaryName: 'IVANOVA, Elena Nikolaevna', birthDates: [{ date: '1962-03-01' }] });
  const gonzalez = entity({ primaryName: 'GONZALEZ DIAZ, Juan', birthDates: [{ date: '1969-05-19' }] });
  const khalil = entity({ primaryName: 'Umar Muhammad Khalil Mustafa', source: 'un_sc', birthDates: [{ date: '1976-05-03' }] });
  const khamenei = entity({ primaryName: 'KHAMENEI, Ali Husseini' });
  const putin = entity({ primaryName: 'PUTIN, Vladimir Vladimirovich', birthDates: [{ date: '1952-10-07' }] });
  const engine = ScreeningEngine.build([ivanova, gonzalez, khalil, khamenei, putin], []);
  const hitOn = (name: string, id: string, birthDate?: string) => engine.screen({ name, ...(birthDate ? { birthDate } : {}) }, { threshold: 0.5 }).find((h) => h.entity.id === id);

  it('given a common name with the listed second surname missing, when screened by name only, then no alert, and the note says why', () => {
    const hit = hitOn('Juan Gonzalez', gonzalez.id);
    assert.ok(hit, 'still found below the threshold');
    assert.equal(hit.score, PARTIAL_COMMON_NAME_CAP);
    assert.ok(hit.score < T);
    const note = hit.explanation.qualifiers.map((q) => q.detail).join(' | ');
    assert.match(note, /partial match on a common name.*"diaz" unmatched.*no alert on the name alone/);
    assert.equal(engine.screen({ name: 'Juan Gonzalez' }).length, 0, 'no alert at the default threshold');
  });
  it('given the listed name with the grandfather\'s name only (Omar Khalil / Umar Muhammad Khalil Mustafa), then no alert', () => {
    assert.ok((hitOn('Omar Khalil', khalil.id)?.score ?? 0) < T);
  });
  it('the pair score is left as it is: the rule is an alert rule, not a name score', () => {
    assert.ok(pairs.compare('Juan Gonzalez', 'GONZALEZ DIAZ, Juan').score >= T);
  });
  it('given the listed date of birth, then the partial match alerts', () => {
    const hit = hitOn('Juan Gonzalez', gonzalez.id, '1969-05-19');
    assert.ok(hit && hit.score >= T, JSON.stringify(hit?.score));
  });
  it('given a date of birth that conflicts, then still no alert', () => {
    assert.ok((hitOn('Juan Gonzalez', gonzalez.id, '1990-01-01')?.score ?? 0) < T);
  });
  it('a missing patronymic is a small penalty, not another name: Elena Ivanova still alerts on IVANOVA, Elena Nikolaevna', () => {
    assert.ok((hitOn('Elena Ivanova', ivanova.id)?.score ?? 0) >= T);
  });
  it('a common given name with a rare surname is not a common name: Ali Khamenei alerts on KHAMENEI, Ali Husseini', () => {
    assert.ok((hitOn('Ali Khamenei', khamenei.id)?.score ?? 0) >= T);
  });
  it('a common given name with a surname only near the listed one (a typo\'s distance, not a transliteration) raises no alert alone', () => {
    const ameen = entity({ primaryName: 'AMEEN, Mohamad', birthDates: [{ date: '1971-02-02' }] });
    const near = ScreeningEngine.build([ameen, putin], []);
    const hit = near.screen({ name: 'Mohammad Amini' }, { threshold: 0.5 }).find((h) => h.entity.id === ameen.id);
    assert.ok(hit && hit.score < T, String(hit?.score));
    assert.match(hit.explanation.qualifiers.map((q) => q.detail).join(' | '), /"amini" only resembles "ameen"/);
    assert.ok(pairs.compare('Mohammad Amini', 'AMEEN, Mohamad', 'Person').score >= T, 'the pair score is unchanged');
    assert.ok((near.screen({ name: 'Mohammad Amini', birthDate: '1971-02-02' })[0]?.score ?? 0) >= T, 'with the listed DOB it alerts');
    assert.ok((near.screen({ name: 'Vladimir Poutine' })[0]?.score ?? 0) >= T, 'a distinctive surname in another spelling still alerts');
  });
  it('a whole name and a distinctive name keep their alerts: Vladimir Putin, and Putin alone', () => {
    assert.ok((hitOn('Vladimir Putin', putin.id)?.score ?? 0) >= T);
    assert.ok((hitOn('Putin', putin.id)?.score ?? 0) >= T);
    assert.ok((hitOn('Juan Gonzalez Diaz', gonzalez.id)?.score ?? 0) >= T, 'the whole listed name alerts however common');
  });
});

// Round 3 (issue 27 §1): absurd classes read on the innocents' tuning half. The query names are invented;
// the listed names are real list entries' names (vessel, persons) unless a comment says otherwise.
/** The best score of `query` screened against `listed` alone (the engine's alert rules included). */
const screenOne = (query: string, listed: ReturnType<typeof entity>) => ScreeningEngine.build([listed], []).screen({ name: query }, { threshold: 0.5 })[0]?.score ?? 0;
describe('Hebrew letters: where a letter stands decides what it can be', () => {
  it('a ה inside a word is the consonant h, never a silent letter: דביר דהן (Dvir Dahan) is not THE DAPPER DON', () => {
    assert.ok(pairs.compare('דביר דהן', 'THE DAPPER DON', 'Vessel').score < T);
    differ('פלג דהן', 'Diane Black');
    differ('אילון כהן', 'KINAYEH, Lina');
    same('דביר דהן', 'Dvir Dahan');
    same('יוסף כהן', 'Yosef Cohen');
    same('אהוד ברק', 'Ehud Barak');
  });
  it('a word-initial vowel is always written: an initial א or ע carries one (עומר is Omer, not Mar), and דליה is not Adel', () => {
    differ('עומר אזולאי', 'Mar Azul'); // (invented person name: MAR AZUL is a listed vessel)
    same('עומר אזולאי', 'Omer Azoulay');
    differ('דליה יוסף', 'ADEL, Youcef');
    same('דליה יוסף', 'Dalia Yosef');
  });
  it('an initial י is a consonant or a vowel, never silent: יותם (Yotam) is not Tom (letter by letter; issue 32\'s readings are a path of their own)', () => {
    assert.equal(hebrewMatchesLatin('יותם', 'tom'), false);
    assert.equal(hebrewMatchesLatin('יותם', 'yotam'), true);
    assert.equal(hebrewMatchesLatin('ישראל', 'israel'), true);
    same('יצחק רבין', 'Yitzhak Rabin');
  });
  it('Hebrew is compared letter by letter, not by the Arabic consonant skeleton (which merges p/b and g/k): שמאי כהן is not Osama al Kuni', () => {
    differ('שמאי כהן', 'Osama al Kuni');
    differ('צוף פרץ', 'Safia Barassi'); // (invented: the listed FARKASH AL-BARASSI, Safia without her first surname)
    same('משה יעלון', 'Moshe Yaalon');
  });
});

describe('Han characters read in Korean (Hanja) find a Korean person\'s whole name, nothing else', () => {
  it('not a vessel: 林静 (Lin Jing; rim jong in Korean) is not CHONG RIM 2, 中村 剛 not CHONG CHON GANG', () => {
    assert.ok(screenOne('林静', entity({ primaryName: 'CHONG RIM 2', schema: 'vessel' })) < T);
    assert.ok(screenOne('中村 剛', entity({ primaryName: 'CHONG CHON GANG', schema: 'vessel' })) < T);
  });
  it('not an organisation: 罗娜 (Luo Na; ra na) is not RANA INSTITUTE', () => {
    assert.ok(screenOne('罗娜', entity({ primaryName: 'RANA INSTITUTE', schema: 'organization' })) < T);
  });
  it('not a name with a syllable or a name part left over: 刘思 (ryu sa) is not Yu Long, 谢静 not Matti Chong', () => {
    differ('刘思', 'Yu Long');
    differ('谢静', 'Matti Chong');
  });
  it('a Korean name in Hanja keeps matching its romanised form', () => {
    same('金正恩', 'KIM JONG UN');
    same('朴槿惠', 'Park Geun-hye');
  });
});

describe('Hangul blocks run together only into the same syllables', () => {
  it('이우진 (Lee Woo-jin): 이+우 is two syllables, never the one syllable Ryu', () => {
    differ('이우진', 'RYU, Jin');
    same('이우진', 'Lee Woo-jin');
    same('김 정 은', 'Kim Jongun');
  });
});

describe('an unvowelled word is the name its letters write', () => {
  it('محمدی (Mohammadi) is not Mahmoudi: the written و of Mahmoud is missing, whatever the skeleton mhmd shares', () => {
    differ('محمد محمدی', 'MAHMOUDI, Mohammad');
    same('محمد محمدی', 'Mohammad Mohammadi');
    differ('محمود', 'Mohammed');
  });
  it('the long vowel written is the one read: کریمی (Karimi) is not Karami, همایون (Homayoun) not Hamani', () => {
    differ('محمد کریمی', 'KARAMI, Mohammad');
    same('محمد کریمی', 'Mohammad Karimi');
    differ('محمد همایون', 'HAMANI, Mohammed');
    same('حسين', 'Hussein');
    same('منير المتصدق', 'MOUNIR EL MOTASSADEQ');
  });
});

describe('names that differ by a meaningful ending', () => {
  it('a well-known given name and its other gender\'s form are two people: Juana / Juan, Daniela / Daniel', () => {
    differ('Juana López Hernández', 'Juan Lopez-Hernandez');
    differ('Daniela Ortega', 'Daniel Ortega');
    differ('Ivana Ivanova', 'Ivan Ivanov');
    same('Elena Ivanova', 'IVANOVA, Elena'); // a surname's feminine form stays one family's name
    same('DENIZ, Mustafa Alper', 'MUSTAAF Alper DENIZ'); // a typo of a well-known name that ends in -a is no gendered form
  });
  it('a Persian family name with -yeh, -iyan, -zadeh, -pour or -nejad is another family: Jafari / Jafariyeh, Ghorbani / Ghorbaniyan', () => {
    differ('Mehdi Jafari', 'Mehdi Jafariyeh');
    differ('Mohammad Ghorbani', 'GHORBANIYAN, Mohammad');
    differ('Mahmoud Ahmadi', 'Mahmoud Ahmadinejad');
    same('Mehdi Jafari', 'JAFARI, Mehdi');
  });
});

describe('a person\'s name against a company or vessel', () => {
  it('name words run together into one company word are not that word: Ma Na is not MANA INTERNATIONAL INVESTMENTS, אניעם עמר not NIMR INTERNATIONAL L.L.C.', () => {
    assert.ok(screenOne('Ma Na', entity({ primaryName: 'Mana International Investments', schema: 'organization' })) < T);
    assert.ok(screenOne('אניעם עמר', entity({ primaryName: 'NIMR INTERNATIONAL L.L.C.', schema: 'organization' })) < T);
    assert.ok(screenOne('Mana International', entity({ primaryName: 'Mana International Investments', schema: 'organization' })) >= T, 'the company\'s own words still find it');
  });
});

describe('a consonant the Latin repeats across a vowel is written twice', () => {
  it('Akbaba (k-b-a-b) is not يعقوب (Yaqub), whose skeleton the repeat collapsed into; Babak is بابک', () => {
    differ('Mehmet Akbaba', 'محمد يعقوب');
    same('Babak Zanjani', 'بابک زنجانی');
    same('Yaqub', 'يعقوب');
  });
});

describe('a given name before "bin" is the person\'s own', () => {
  it('Omar bin Mohammed al-Masri is not AL-MASRI, Mohammed (his father\'s name): a common first name may be left out, not one a chain follows', () => {
    differ('Omar bin Mohammed Al-Masri', 'AL-MASRI, Mohammed');
    same('Ahmed bin Khaled Al-Masri', 'AL-MASRI, Ahmad');
    same('Mohammed bin Salman', 'Muhammad bin Salman Al Saud');
  });
});
