/**
 * Burmese (Myanmar script) → the conventional Latin spellings Burmese names are written in on lists,
 * passports and in the press ("မင်းအောင်လှိုင်" → min aung hlaing, "ညွန့်" → nyunt, "ထွန်း" → htun).
 *
 * any-ascii reads Burmese letter by letter ("mn'eanlhiun"), which no list spelling resembles. Here a
 * word is cut into syllables (onset consonant, medials ျ ြ ွ ှ, vowel signs, a final consonant killed
 * by asat ် or stacked by virama ္) and each syllable is written as its rhyme is conventionally spelt
 * (ောင် aung, ိုင် aing, ိန် ein, ော် aw, ို o…). Burmese writes no spaces between the syllables of a
 * name; Latin writes one word per syllable, so each syllable is one token. A few loanwords common in
 * company names (ကုမ္ပဏီ company, လီမိတက် limited, ဘဏ် bank) are read as the English word.
 * The honorifics ဦး (U) and ဒေါ် (Daw) read as "u"/"daw", which the titles lexicon drops from the front of
 * a person's name so that they never carry a match.
 */

export const RE_MYANMAR = /[\u1000-\u109F\uAA60-\uAA7F\uA9E0-\uA9FF]/;

const ONSET: Record<string, string> = {
  က: 'k', ခ: 'kh', ဂ: 'g', ဃ: 'g', င: 'ng', စ: 's', ဆ: 's', ဇ: 'z', ဈ: 'z', ည: 'ny', ဋ: 't', ဌ: 'ht', ဍ: 'd', ဎ: 'd', ဏ: 'n',
  တ: 't', ထ: 'ht', ဒ: 'd', ဓ: 'd', န: 'n', ပ: 'p', ဖ: 'ph', ဗ: 'b', ဘ: 'b', မ: 'm', ယ: 'y', ရ: 'y', လ: 'l', ဝ: 'w', သ: 'th',
  ဟ: 'h', ဠ: 'l', အ: '', ဿ: 'th',
};
const INDEPENDENT: Record<string, string> = { ဣ: 'i', ဤ: 'i', ဥ: 'u', ဦ: 'u', ဧ: 'e', ဩ: 'aw', ဪ: 'aw' };
// onset + medial ya (ျ/ြ) as names are spelt: ကျော် Kyaw, ချစ် Chit, မြင့် Myint, ဖြိုး Phyo, ငြိမ်း Nyein
const WITH_Y: Record<string, string> = { k: 'ky', kh: 'ch', g: 'gy', ng: 'ny', p: 'py', ph: 'phy', b: 'by', m: 'my', l: 'ly' };
// onset + medial ha (ှ): လှ Hla, မှ Hm, နှ Hn, ရှ / ယှ Sh, ဝှ Hw
const WITH_H: Record<string, string> = { l: 'hl', m: 'hm', n: 'hn', ny: 'hny', y: 'sh', w: 'hw', ng: 'hng' };

// Final consonant classes: nasal (n), stop (k: က; t: တ ပ ဋ; c: စ), glide (y: ယ), palatal (ny: ည ဉ)
const CODA: Record<string, string> = {
  င: 'ng', ဉ: 'nj', ည: 'nj', ဏ: 'n', န: 'n', မ: 'n', '\u1036': 'n', က: 'k', စ: 'c', တ: 't', ဋ: 't', ပ: 't', ယ: 'y', လ: 'l', ဝ: 'w', ဟ: '',
};

interface Syllable {
  onset: string;
  y: boolean;
  w: boolean;
  h: boolean;
  vowel: string; // the vowel signs, in order
  coda: string; // coda class from CODA, '' for none
  creaky: boolean;
  independent?: string;
}

/** Rhyme spelling from the vowel signs (ၢ-free, tone marks apart) and the final consonant class. */
function rhyme(s: Syllable): string {
  const v = s.vowel;
  const c = s.coda;
  const w = s.w;
  if (c === '') {
    if (v === '' || v === 'ာ' || v === 'ါ') return w ? 'wa' : 'a';
    if (v === 'ိ' || v === 'ီ') return 'i';
    if (v === 'ု' || v === 'ူ') return w ? 'wu' : 'u';
    if (v === 'ေ') return w ? 'we' : 'ay';
    if (v === 'ဲ') return w ? 'we' : 'e';
    if (v === 'ော' || v === 'ေါ' || v === 'ော်' || v === 'ေါ်') return 'aw';
    if (v === 'ို') return 'o';
    return 'a';
  }
  if (c === 'n') {
    if (v === 'ိ') return 'ein';
    if (v === 'ု') return s.creaky ? 'ont' : 'on';
    if (w) return s.creaky ? 'unt' : 'un';
    return s.creaky ? 'ant' : 'an';
  }
  if (c === 'ng') {
    if (v === 'ို') return 'aing';
    if (v === 'ော' || v === 'ေါ') return 'aung';
    if (w) return 'win';
    return s.creaky ? 'int' : 'in';
  }
  if (c === 'nj') return s.creaky ? 'ae' : w ? 'wi' : 'i';
  if (c === 'k') {
    if (v === 'ို') return 'aik';
    if (v === 'ော' || v === 'ေါ') return 'auk';
    return w ? 'wet' : 'et';
  }
  if (c === 't') {
    if (v === 'ိ') return 'eik';
    if (v === 'ု') return 'ok';
    return w ? 'ut' : 'at';
  }
  if (c === 'c') return 'it';
  if (c === 'y') return w ? 'we' : 'e';
  if (c === 'l') return v === 'ို' ? 'o' : 'an'; // ဗိုလ် Bo
  return 'a';
}

function spell(s: Syllable): string {
  if (s.independent !== undefined) return s.independent === 'e' && s.vowel === '' ? 'aye' : s.independent;
  let on = s.onset;
  if (s.y) on = WITH_Y[on] ?? `${on}y`;
  if (s.h) on = WITH_H[on] ?? `h${on}`;
  const r = rhyme(s);
  // medial wa is spelt inside the rhyme (Lwin, Swe, Tun); after a vowel-carrier အ the rhyme starts the word (Aung, Aye)
  if (on === '' && r === 'ay') return 'aye';
  return on + r;
}

// Military and religious titles before a name, read as the title words the titles lexicon drops.
const TITLE_WORDS: [string, string][] = [
  ['ဗိုလ်ချုပ်မှူးကြီး', 'general'], ['ဒုတိယဗိုလ်ချုပ်မှူးကြီး', 'general'], ['ဗိုလ်ချုပ်ကြီး', 'general'], ['ဗိုလ်ချုပ်', 'general'],
  ['ဗိုလ်မှူးကြီး', 'colonel'], ['ဆရာတော်', 'sayadaw'],
];

const LOANWORDS: [string, string][] = [
  ...TITLE_WORDS,
  ['ကုမ္ပဏီ', 'company'], ['လီမိတက်', 'limited'], ['ဘဏ်', 'bank'], ['အုပ်စု', 'group'], ['မြန်မာ့', 'myanma'], ['မြန်မာ', 'myanmar'],
  ['ကော်ပိုရေးရှင်း', 'corporation'], ['စီးပွားရေး', 'economic'], ['ဟိုတယ်', 'hotel'],
];

const isConsonant = (ch: string) => ONSET[ch] !== undefined;

/** A Burmese word (no spaces) → its syllables in Latin, one string each; loanwords as one English word. */
export function burmeseSyllables(word: string): string[] {
  let text = word.normalize('NFC');
  for (const [b, l] of LOANWORDS) text = text.split(b).join(` ${l} `);
  const out: string[] = [];
  for (const chunk of text.split(/\s+/)) {
    if (!chunk) continue;
    if (!RE_MYANMAR.test(chunk)) {
      out.push(chunk);
      continue;
    }
    out.push(...syllables(chunk));
  }
  return out;
}

function syllables(text: string): string[] {
  const chars = [...text];
  const out: string[] = [];
  let cur: Syllable | undefined;
  const flush = () => {
    if (cur) out.push(spell(cur));
    cur = undefined;
  };
  // is the consonant at i a final (followed by asat ်, possibly after the dot below ့, or by virama ္)?
  const isFinal = (i: number) => {
    let j = i + 1;
    while (chars[j] === '\u1037') j++;
    return chars[j] === '\u103A' || chars[j] === '\u1039';
  };
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i];
    if (isConsonant(ch) && cur && isFinal(i)) {
      // a final consonant; for the vowel-sign pairs written ော် / ို် the asat belongs to the vowel
      cur.coda = CODA[ch] ?? '';
      continue;
    }
    if (isConsonant(ch)) {
      flush();
      cur = { onset: ONSET[ch], y: false, w: false, h: false, vowel: '', coda: '', creaky: false };
      continue;
    }
    if (INDEPENDENT[ch] !== undefined) {
      flush();
      cur = { onset: '', y: false, w: false, h: false, vowel: '', coda: '', creaky: false, independent: INDEPENDENT[ch] };
      continue;
    }
    if (!cur) continue;
    switch (ch) {
      case '\u103B':
      case '\u103C':
        cur.y = true;
        break;
      case '\u103D':
        cur.w = true;
        break;
      case '\u103E':
        cur.h = true;
        break;
      case '\u1036': // anusvara: a nasal final
        cur.coda = 'n';
        break;
      case '\u1037':
        cur.creaky = true;
        break;
      case '\u1038':
      case '\u1039':
        break;
      case '\u103A':
        // asat right after ော / ေါ (ော်): part of the vowel
        if (!cur.coda) cur.vowel += '်';
        break;
      default:
        if (/[\u102B-\u1032]/.test(ch)) cur.vowel += ch;
        else if (/[\u1040-\u1049]/.test(ch)) {
          flush();
          out.push(String(ch.charCodeAt(0) - 0x1040));
        }
    }
  }
  flush();
  // ဦး at a name's start is the honorific U (kept as "u": the titles lexicon drops it)
  return out;
}
