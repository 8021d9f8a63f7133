/**
 * Innocent native names in the scripts and languages issue 32 reads foreign names from: the people a
 * foreign-name reading must not start matching (a phonetic back-transcription of a common Korean,
 * Japanese, Chinese, Persian, Hebrew or Greek name must not spell a listed foreigner).
 *
 * Korean, Japanese (kanji), Chinese, Greek, Persian, Arabic, Hebrew and Russian: the native-script people
 * of the issue-27 multicultural set (innocents/multicultural.ts), the very same people, so their figures
 * come from the same run. Added here, seeded and halved by position like that set:
 *  - Korean names written with a space (김 민준) and Japanese names in katakana (サトウ・ケンジ): the
 *    forms a reading sees as two words;
 *  - Thai, Georgian, Ukrainian, Latvian, Polish, Czech, Slovak, Hungarian, Urdu, German and Dutch names
 *    from @faker-js/faker's locale pools (MIT);
 *  - Lithuanian, Belarusian and Burmese names from the pools below (written here: common given names
 *    and surnames of each language, no list of people looked up).
 */
import { allLocales } from '@faker-js/faker';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { rng } from '../devsets';
import { multiculturalInnocents, type Culture } from '../innocents/multicultural';
import * as P from '../innocents/pools';

export type InnocentGroup =
  | 'ko' | 'ko_spaced' | 'ja' | 'ja_kana' | 'zh' | 'el' | 'fa' | 'ar' | 'ur' | 'he' | 'th' | 'my' | 'my_spaced' | 'ka' | 'ru' | 'uk' | 'be'
  | 'lt' | 'lv' | 'pl' | 'cs' | 'hu' | 'de' | 'nl';

export interface ForeignInnocent {
  id: string;
  group: InnocentGroup;
  name: string;
  half: 'tuning' | 'held_back';
}

const FROM_MULTICULTURAL: Partial<Record<Culture, InnocentGroup>> = { korean: 'ko', japanese: 'ja', chinese: 'zh', greek: 'el', persian: 'fa', arabic: 'ar', hebrew: 'he', russian: 'ru' };

// ---------- pools written here
const LT_MALE = 'Jonas Petras Antanas Juozas Kazimieras Vytautas Tomas Mindaugas Darius Andrius Mantas Lukas Matas Paulius Giedrius Saulius Rimantas Algirdas Gediminas Marius Deividas Tadas Dovydas Arnas Kęstutis Aurimas Linas Žygimantas Rokas Nojus Jokūbas Domantas Ignas Justinas Vilius Karolis Edvinas Audrius Arūnas Ramūnas'.split(' ');
const LT_FEMALE = 'Ona Marija Janina Aldona Irena Rasa Jurgita Laura Eglė Ieva Gabija Austėja Emilija Kotryna Greta Rūta Inga Vilma Lina Giedrė Daiva Asta Kristina Simona Agnė'.split(' ');
const LT_SURNAMES = 'Kazlauskas Jankauskas Petrauskas Stankevičius Vasiliauskas Žukauskas Butkus Paulauskas Urbonas Kavaliauskas Navickas Ramanauskas Savickas Rimkus Baranauskas Sakalauskas Mikalauskas Adomaitis Šimkus Lukoševičius Vaitkus Žilinskas Balčiūnas Kairys Jonaitis Petraitis Mažeika Bernotas Gudaitis Kriščiūnas Kazakevičius Marcinkevičius Pocius Jakubauskas Stonkus Ivanauskas Dambrauskas Šukys Grigas Rutkauskas'.split(' ');
const BE_MALE = 'Аляксандр Сяргей Дзмітрый Андрэй Аляксей Мікалай Уладзімір Іван Міхаіл Віктар Павел Юрый Ігар Алег Яўген Антон Раман Максім Вадзім Вячаслаў Генадзь Анатоль Васіль Пётр Рыгор Станіслаў Кірыл Янка Тадэвуш Францішак'.split(' ');
const BE_FEMALE = 'Вольга Алена Наталля Таццяна Ірына Ганна Святлана Марыя Кацярына Юлія Вераніка Людміла Галіна Алеся Ядвіга Марына Аксана'.split(' ');
const BE_SURNAMES = "Іваноў Коваль Шаўчук Каваленка Бандарэнка Мельнік Кравец Новік Ткачук Лук'яненка Жук Мароз Лысенка Сідарэнка Кузняцоў Грынкевіч Войтаў Шыла Карпенка Бурак Гарбачоў Дуброўскі Вашкевіч Мацкевіч Сянкевіч Навумчык Лапіцкі Зайцаў Палякоў Барысевіч Ярмоленка Курыловіч Янкоўскі Жылінскі Казлоў Лабановіч Сакалоў Міхайлаў".split(' ');
// Burmese name syllables (Aung, San, Su, Kyi, Min, Thein, …)
const MY_SYLLABLES = 'အောင် ဆန်း စု ကြည် မင်း သိန်း စိန် သန်း ရွှေ ခင် ညွန့် လှ မြင့် ထွန်း ဝင်း မောင် ကျော် ဇော် မိုး သန့် သူရ နိုင် စိုး မျိုး ထက် ဝေ ရန် ဖြိုး နေ လင်း ကို ရဲ ဇင် သန္တာ နန္ဒာ အိ မွန် အေး မြ မေ သူ နှင်း ပြည့် ချစ် နွယ် ဝင့် ရတနာ ချို သီတာ'.split(' ');

// Hepburn romaji → katakana (for the Japanese pools' readings)
const KANA_SYLLABLES: [string, string][] = (
  'kya:キャ kyu:キュ kyo:キョ sha:シャ shu:シュ sho:ショ cha:チャ chu:チュ cho:チョ nya:ニャ nyu:ニュ nyo:ニョ hya:ヒャ hyu:ヒュ hyo:ヒョ ' +
  'mya:ミャ myu:ミュ myo:ミョ rya:リャ ryu:リュ ryo:リョ gya:ギャ gyu:ギュ gyo:ギョ ja:ジャ ju:ジュ jo:ジョ bya:ビャ byu:ビュ byo:ビョ ' +
  'shi:シ chi:チ tsu:ツ fu:フ ji:ジ ka:カ ki:キ ku:ク ke:ケ ko:コ sa:サ su:ス se:セ so:ソ ta:タ te:テ to:ト na:ナ ni:ニ nu:ヌ ne:ネ no:ノ ' +
  'ha:ハ hi:ヒ he:ヘ ho:ホ ma:マ mi:ミ mu:ム me:メ mo:モ ya:ヤ yu:ユ yo:ヨ ra:ラ ri:リ ru:ル re:レ ro:ロ wa:ワ ga:ガ gi:ギ gu:グ ge:ゲ go:ゴ ' +
  'za:ザ zu:ズ ze:ゼ zo:ゾ da:ダ de:デ do:ド ba:バ bi:ビ bu:ブ be:ベ bo:ボ pa:パ pi:ピ pu:プ pe:ペ po:ポ a:ア i:イ u:ウ e:エ o:オ n:ン'
)
  .split(' ')
  .map((x) => x.split(':') as [string, string]);
export function romajiToKatakana(romaji: string): string {
  const w = romaji.toLowerCase();
  let out = '';
  for (let i = 0; i < w.length; ) {
    // a doubled consonant: ッ
    if (i + 1 < w.length && w[i] === w[i + 1] && !'aeioun'.includes(w[i])) {
      out += 'ッ';
      i++;
      continue;
    }
    // (n is ン before a consonant or at the end: a name ending in n, Ren or Rin, is a whole name, not '')
    const next = w[i + 1];
    const s = KANA_SYLLABLES.find(([r]) => w.startsWith(r, i) && !(r === 'n' && next !== undefined && 'aeiouy'.includes(next)));
    if (!s) return '';
    out += s[1];
    i += s[0].length;
  }
  return out;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const person = (locale: string): any => (allLocales as Record<string, any>)[locale].person;
const values = (x: unknown): string[] => (Array.isArray(x) ? x : x ? Object.values(x as Record<string, string[]>).flat() : []);

function fakerPools(locale: string): { male: string[]; female: string[]; lastMale: string[]; lastFemale: string[] } {
  const p = person(locale);
  const fn = p.first_name;
  const ln = p.last_name;
  const male = Array.isArray(fn) ? fn : [...values(fn?.male), ...values(fn?.generic)];
  const female = Array.isArray(fn) ? fn : [...values(fn?.female), ...values(fn?.generic)];
  const lastMale = Array.isArray(ln) ? ln : [...values(ln?.male), ...values(ln?.generic)];
  const lastFemale = Array.isArray(ln) ? ln : [...values(ln?.female), ...values(ln?.generic)];
  return { male, female: female.length ? female : male, lastMale, lastFemale: lastFemale.length ? lastFemale : lastMale };
}

type Rand = () => number;
const pick = <T>(r: Rand, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];

function generated(group: InnocentGroup, r: Rand): string {
  const fromFaker = (locale: string, surnameFirst = false) => {
    const f = fakerPools(locale);
    const female = r() < 0.5;
    const given = pick(r, female ? f.female : f.male);
    const sur = pick(r, female ? f.lastFemale : f.lastMale);
    return surnameFirst ? `${sur} ${given}` : `${given} ${sur}`;
  };
  switch (group) {
    case 'ko_spaced': {
      const sur = r() < 0.7 ? pick(r, P.KO_SURNAME_HEAD) : pick(r, values(person('ko').last_name));
      const given = r() < 0.6 ? pick(r, P.KO_GIVEN_HEAD) : pick(r, values(person('ko').first_name));
      return `${sur} ${given}`;
    }
    case 'ja_kana': {
      const [, sr] = pick(r, P.JA_SURNAMES);
      const [, gr] = pick(r, P.JA_GIVEN);
      return `${romajiToKatakana(sr)}${r() < 0.5 ? '・' : ' '}${romajiToKatakana(gr)}`;
    }
    case 'th':
      return fromFaker('th');
    case 'ka':
      return fromFaker('ka_GE');
    case 'uk':
      return fromFaker('uk');
    case 'lv':
      return fromFaker('lv');
    case 'pl':
      return fromFaker('pl');
    case 'cs':
      return fromFaker(r() < 0.7 ? 'cs_CZ' : 'sk');
    case 'hu':
      return fromFaker('hu', true);
    case 'ur':
      return fromFaker('ur');
    case 'de':
      return fromFaker('de');
    case 'nl':
      return fromFaker('nl');
    case 'lt': {
      const female = r() < 0.5;
      const sur = pick(r, LT_SURNAMES);
      const fem = sur.replace(/(as|is|ys|us)$/, (e) => (r() < 0.5 ? 'ienė' : e === 'as' ? 'aitė' : 'ytė'));
      return female ? `${pick(r, LT_FEMALE)} ${fem}` : `${pick(r, LT_MALE)} ${sur}`;
    }
    case 'be': {
      const female = r() < 0.5;
      const sur = pick(r, BE_SURNAMES);
      const fem = sur.replace(/оў$/, 'ова').replace(/аў$/, 'ава').replace(/скі$/, 'ская');
      return female ? `${pick(r, BE_FEMALE)} ${fem}` : `${pick(r, BE_MALE)} ${sur}`;
    }
    case 'my':
    case 'my_spaced': {
      const n = 2 + Math.floor(r() * 3);
      const syl = Array.from({ length: n }, () => pick(r, MY_SYLLABLES));
      return syl.join(group === 'my' ? '' : ' ');
    }
    default:
      throw new Error(`no generator for ${group}`);
  }
}

export const GENERATED_GROUPS: InnocentGroup[] = ['ko_spaced', 'ja_kana', 'th', 'my', 'my_spaced', 'ka', 'uk', 'be', 'lt', 'lv', 'pl', 'cs', 'hu', 'ur', 'de', 'nl'];

/** Every group's innocents: the multicultural set's native-script people and `perGroup` generated ones per added group. */
export function foreignInnocents(perGroup = 600, seed = 3233): ForeignInnocent[] {
  const out: ForeignInnocent[] = [];
  for (const p of multiculturalInnocents()) {
    const group = FROM_MULTICULTURAL[p.culture];
    if (group && p.form === 'native') out.push({ id: `mc:${p.id}`, group, name: p.name, half: p.half });
  }
  const r = rng(seed);
  for (const group of GENERATED_GROUPS) {
    for (let i = 0; i < perGroup; i++) {
      const name = generated(group, r);
      if (name.trim()) out.push({ id: `${group}:${i}`, group, name, half: i % 2 === 0 ? 'tuning' : 'held_back' });
    }
  }
  return out;
}

// `npx tsx bench/screening/foreign/innocents.ts [n]`: a sample per group
if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const all = foreignInnocents();
  const n = Number(process.argv[2] ?? 3);
  const groups = [...new Set(all.map((x) => x.group))];
  for (const g of groups) {
    const xs = all.filter((x) => x.group === g);
    console.log(`${g} (${xs.length}): ${xs.slice(0, n).map((x) => x.name).join(' | ')}`);
  }
  console.log(`${all.length} innocents`);
}
