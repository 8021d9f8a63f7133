/**
 * Writing a listed name as a writer of another script or language would (issue 32's development set).
 *
 * The forward direction of the transcription rules, written here independently of the matcher's
 * reading of them (src/screening/matching/foreign reads a script back into Latin sound patterns; this
 * file goes from a name's sounds to one spelling in each script, making the choices a writer makes,
 * with seeded variation where writers differ: ヴ or ブ for v, デ or ジェ for a soft d, a long-vowel mark
 * or none, ь written or not, a title before or after the name). Nothing is looked up: every spelling
 * comes from the rules below applied to the listed Latin name.
 *
 * A Russian name (listed in BGN/PCGN-like Latin, "MEDVEDEV, Dmitry Anatolievich") is first written back
 * in Cyrillic (russianToCyrillic: the rules run backwards, choices as Russian spelling makes them),
 * then read as sounds (cyrillicSounds: consonants with their softness, vowels, the y glide); every
 * other name is read as sounds from its Latin spelling (latinSounds). The script writers take sounds;
 * the Latin-script languages and Ukrainian/Belarusian Cyrillic take the Russian Cyrillic.
 */

export type Rand = () => number;
const pick = <T>(r: Rand, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];

// ---------- Latin (Russian, BGN/PCGN-like) → Cyrillic

const LATIN_TO_CYRILLIC: [RegExp, string][] = [
  [/shch/g, 'щ'], [/zh/g, 'ж'], [/kh/g, 'х'], [/ts/g, 'ц'], [/ch/g, 'ч'], [/sh/g, 'ш'],
  [/iy$/g, 'ий'], [/yy$/g, 'ый'], [/([aeou])y$/g, '$1й'], [/([aeou])i$/g, '$1й'], [/ey$/g, 'ей'], [/ei$/g, 'ей'],
  [/^ye/g, 'е'], [/^yu/g, 'ю'], [/^ya/g, 'я'], [/^yo/g, 'ё'], [/([aeiouy'])ye/g, '$1е'], [/([aeiouy'])yu/g, '$1ю'], [/([aeiouy'])ya/g, '$1я'],
  [/yu/g, 'ью'], [/ya/g, 'ья'], [/ye/g, 'ье'], [/yo/g, 'ьо'], [/iya/g, 'ия'],
  [/([aeiou])y(?=[^aeiou]|$)/g, '$1й'], [/y/g, 'ы'], [/([bvgdzklmnprstfх])y$/g, '$1ий'], [/'/g, 'ь'],
  [/^e/g, 'е'], [/a/g, 'а'], [/b/g, 'б'], [/v/g, 'в'], [/w/g, 'в'], [/g/g, 'г'], [/d/g, 'д'], [/e/g, 'е'], [/z/g, 'з'], [/i/g, 'и'],
  [/j/g, 'й'], [/k/g, 'к'], [/l/g, 'л'], [/m/g, 'м'], [/n/g, 'н'], [/o/g, 'о'], [/p/g, 'п'], [/r/g, 'р'], [/s/g, 'с'], [/t/g, 'т'],
  [/u/g, 'у'], [/f/g, 'ф'], [/h/g, 'х'], [/x/g, 'кс'], [/c/g, 'к'], [/q/g, 'к'],
];

/** A Russian name word in Latin (lowercase) written back in Cyrillic: "dmitry" → дмитрий, "shoygu" → шойгу. */
export function russianToCyrillic(word: string): string {
  let s = word.toLowerCase();
  // a final consonant + y is -ий (Dmitry, Yury), a final -iy too
  s = s.replace(/([bvgdzklmnprstfhc])y$/, '$1iy');
  for (const [re, rep] of LATIN_TO_CYRILLIC) s = s.replace(re, rep);
  return s;
}

// ---------- sounds

/**
 * A name word as sounds: consonants p b t d k g f v s z S (sh) Z (zh) C (ch) T (ts) x (kh) h m n l r
 * j (the y glide) J (dzh) w, each followed by "'" when soft (palatalised); vowels a e i o u y (Russian ы).
 */
export type Sound = string;
const VOWELS = new Set(['a', 'e', 'i', 'o', 'u', 'y']);
export const isVowel = (s: Sound) => VOWELS.has(s);
const base = (s: Sound) => s.replace("'", '');
const soft = (s: Sound) => s.endsWith("'");

const CYR_CONS: Record<string, Sound> = {
  б: 'b', в: 'v', г: 'g', д: 'd', ж: 'Z', з: 'z', к: 'k', л: 'l', м: 'm', н: 'n', п: 'p', р: 'r', с: 's', т: 't', ф: 'f', х: 'x', ц: 'T',
  ч: 'C', ш: 'S', щ: 'SC', й: 'j',
};
const CYR_IOTATED: Record<string, Sound> = { е: 'e', ё: 'o', ю: 'u', я: 'a' };

/** Russian Cyrillic → sounds: е ё ю я soften the consonant before them or are j + vowel; и softens; ь softens. */
export function cyrillicSounds(word: string): Sound[] {
  const out: Sound[] = [];
  const last = () => out[out.length - 1];
  const soften = () => {
    const l = last();
    if (l && !isVowel(l) && !soft(l) && !['Z', 'S', 'T', 'C', 'SC', 'j'].includes(l)) out[out.length - 1] = `${l}'`;
  };
  for (const ch of word.toLowerCase()) {
    if (CYR_CONS[ch]) out.push(CYR_CONS[ch]);
    else if (CYR_IOTATED[ch]) {
      const l = last();
      if (l && !isVowel(l) && l !== 'j') soften();
      else out.push('j');
      out.push(CYR_IOTATED[ch]);
    } else if (ch === 'и') {
      soften();
      out.push('i');
    } else if (ch === 'ь') soften();
    else if (ch === 'ъ') continue;
    else if (ch === 'а') out.push('a');
    else if (ch === 'о') out.push('o');
    else if (ch === 'у') out.push('u');
    else if (ch === 'ы') out.push('y');
    else if (ch === 'э') out.push('e');
  }
  return out;
}

const LATIN_SOUNDS: [string, Sound[]][] = [
  ['sch', ['S']], ['tch', ['C']], ['dzh', ['J']], ['sh', ['S']], ['ch', ['C']], ['kh', ['x']], ['zh', ['Z']], ['gh', ['g']], ['th', ['t']],
  ['dh', ['d']], ['ph', ['f']], ['ts', ['T']], ['ou', ['u']], ['oo', ['u']], ['ee', ['i']], ['ck', ['k']], ['qu', ['k']], ['x', ['k', 's']],
  ['q', ['k']], ['j', ['J']], ['w', ['w']], ['c', ['k']],
];

/** A non-Russian name word's sounds from its Latin spelling (English-like reading; y before a vowel is the glide). */
export function latinSounds(word: string): Sound[] {
  const w = word.toLowerCase().replace(/[^a-z]/g, '').replace(/(.)\1+/g, '$1');
  const out: Sound[] = [];
  for (let i = 0; i < w.length; ) {
    const d = LATIN_SOUNDS.find(([g]) => w.startsWith(g, i));
    if (d) {
      out.push(...d[1]);
      i += d[0].length;
      continue;
    }
    const ch = w[i];
    if (ch === 'y') out.push(isVowel(w[i + 1] ?? '') || i === 0 ? 'j' : 'i');
    else if (ch === 'c') out.push(/[eiy]/.test(w[i + 1] ?? '') ? 's' : 'k');
    else out.push(ch);
    i++;
  }
  return out;
}

// ---------- Korean (외래어 표기법; its Russian table for Russian names)

const K_LEAD: Record<string, number> = { g: 0, n: 2, d: 3, r: 5, l: 5, m: 6, b: 7, v: 7, s: 9, S: 9, '': 11, z: 12, Z: 12, J: 12, C: 14, T: 14, k: 15, t: 16, p: 17, f: 17, x: 18, h: 18 };
const K_VOWEL: Record<string, number> = { a: 0, e: 5, i: 20, o: 8, u: 13, y: 20, ja: 2, je: 7, jo: 12, ju: 17, wa: 9, we: 15, wi: 16, wo: 14, wu: 13, eu: 18 };
const K_TAIL: Record<string, number> = { k: 1, n: 4, l: 8, r: 8, m: 16, p: 17, s: 19, t: 19 };
const hangul = (lead: number, vowel: number, tail = 0) => String.fromCharCode(0xac00 + lead * 588 + vowel * 28 + tail);
const VOICED_FINAL: Record<string, string> = { b: 'p', v: 'f', d: 't', g: 'k', z: 's', Z: 'S' };

export function writeKorean(sounds: Sound[], r: Rand): string {
  const s = sounds.map(base);
  let out = '';
  let lastOpen = -1; // index in `out` of the last syllable that can take a final consonant
  for (let i = 0; i < s.length; i++) {
    let c = s[i];
    if (c === 'SC') c = 'S';
    if (isVowel(c) || c === 'j' || c === 'w') {
      // a vowel with no consonant: ㅇ; a glide joins its vowel
      let v = c;
      if ((c === 'j' || c === 'w') && isVowel(s[i + 1] ?? '')) {
        v = c + s[i + 1];
        i++;
      } else if (c === 'j') {
        // й after a vowel: 이, but -ий / -ый at the end is written 리, 니 (Дмитрий 드미트리)
        if (i === s.length - 1 && (s[i - 1] === 'i' || s[i - 1] === 'y')) continue;
        out += hangul(11, 20);
        lastOpen = -1;
        continue;
      } else if (c === 'w') v = 'u';
      out += hangul(11, K_VOWEL[v] ?? 20);
      lastOpen = out.length - 1;
      continue;
    }
    const next = s[i + 1];
    if (next && (isVowel(next) || (next === 'j' && isVowel(s[i + 2] ?? '')) || (next === 'w' && isVowel(s[i + 2] ?? '')))) {
      let v = next;
      let used = 1;
      if (next === 'j' || next === 'w') {
        v = next + s[i + 2];
        used = 2;
      }
      // ш + vowel is 샤 쇼 슈 셰 (a y vowel); a soft consonant before а о у (я ё ю) takes the y vowel
      // too (Тюрин 튜린, Люда 류다), before е the plain one (Медведев 메드베데프)
      if (c === 'S' && ['a', 'o', 'u', 'e'].includes(v)) v = `j${v}`;
      else if (soft(sounds[i]) && ['a', 'o', 'u'].includes(v)) v = `j${v}`;
      if (v === 'y') v = 'i';
      // l between vowels is ㄹㄹ: the syllable before takes ㄹ
      if ((c === 'l' || c === 'r') && c === 'l' && lastOpen === out.length - 1 && lastOpen >= 0 && i > 0) {
        out = out.slice(0, -1) + addTail(out[out.length - 1], 8);
      }
      out += hangul(K_LEAD[c] ?? 11, K_VOWEL[v] ?? 20);
      lastOpen = out.length - 1;
      i += used;
      continue;
    }
    // a consonant with no vowel after it
    const atEnd = i === s.length - 1;
    if ((c === 'm' || c === 'n' || c === 'l' || c === 'r') && lastOpen === out.length - 1 && lastOpen >= 0 && (c !== 'r' || r() < 0.3)) {
      out = out.slice(0, -1) + addTail(out[out.length - 1], K_TAIL[c]);
      lastOpen = -1;
      continue;
    }
    if ((c === 'k' || c === 'p') && !atEnd && lastOpen === out.length - 1 && lastOpen >= 0 && r() < 0.4) {
      out = out.slice(0, -1) + addTail(out[out.length - 1], K_TAIL[c]);
      lastOpen = -1;
      continue;
    }
    const devoiced = (atEnd || (next && !isVowel(next) && 'ptkfsSCTx'.includes(next))) && VOICED_FINAL[c] ? VOICED_FINAL[c] : c;
    // sh, zh, ch at the end take ㅣ (시 지 치), other consonants ㅡ
    const v = atEnd && ['S', 'Z', 'C', 'J'].includes(devoiced) ? 20 : 18;
    out += hangul(K_LEAD[devoiced] ?? 11, v);
    lastOpen = -1;
  }
  return out;
}

function addTail(block: string, tail: number): string {
  const code = block.charCodeAt(0) - 0xac00;
  return code % 28 ? block : String.fromCharCode(block.charCodeAt(0) + tail);
}

// ---------- Japanese (katakana)

const KANA_ROWS: Record<string, string> = {
  '': 'アイウエオ', k: 'カキクケコ', g: 'ガギグゲゴ', s: 'サシスセソ', z: 'ザジズゼゾ', t: 'タチツテト', d: 'ダヂヅデド', n: 'ナニヌネノ',
  h: 'ハヒフヘホ', b: 'バビブベボ', p: 'パピプペポ', m: 'マミムメモ', r: 'ラリルレロ',
};
const VIDX: Record<string, number> = { a: 0, i: 1, u: 2, e: 3, o: 4, y: 1 };
const SMALL = { a: 'ァ', i: 'ィ', u: 'ゥ', e: 'ェ', o: 'ォ' } as Record<string, string>;
const YOON = { a: 'ャ', u: 'ュ', o: 'ョ' } as Record<string, string>;

function kanaCV(c: string, v: string, softC: boolean, r: Rand): string {
  const vi = VIDX[v];
  const vv = v === 'y' ? 'i' : v;
  switch (c) {
    case 'l':
    case 'r':
      c = 'r';
      break;
    case 'x':
    case 'h':
      c = 'h';
      break;
    case 'v':
      if (r() < 0.3) c = 'b';
      else return vv === 'u' ? 'ヴ' : `ヴ${SMALL[vv]}`;
      break;
    case 'f':
      return vv === 'u' ? 'フ' : `フ${SMALL[vv]}`;
    case 'w':
      return vv === 'a' ? 'ワ' : vv === 'o' ? 'ウォ' : vv === 'u' ? 'ウ' : `ウ${SMALL[vv]}`;
    case 'j':
      return vv === 'a' ? 'ヤ' : vv === 'u' ? 'ユ' : vv === 'o' ? 'ヨ' : vv === 'e' ? 'イェ' : 'イ';
    case 'S':
    case 'SC':
      return vv === 'i' ? 'シ' : vv === 'e' ? 'シェ' : `シ${YOON[vv]}`;
    case 'Z':
    case 'J':
      return vv === 'i' ? 'ジ' : vv === 'e' ? 'ジェ' : `ジ${YOON[vv]}`;
    case 'C':
      return vv === 'i' ? 'チ' : vv === 'e' ? 'チェ' : `チ${YOON[vv]}`;
    case 'T':
      return vv === 'u' ? 'ツ' : `ツ${SMALL[vv]}`;
    case 't':
      if (vv === 'i') return softC && r() < 0.5 ? 'チ' : 'ティ';
      if (vv === 'u') return softC ? 'チュ' : 'トゥ';
      if (vv === 'e' && softC && r() < 0.4) return 'チェ';
      break;
    case 'd':
      if (vv === 'i') return softC && r() < 0.6 ? 'ジ' : 'ディ';
      if (vv === 'u') return softC ? 'ジュ' : 'ドゥ';
      if (vv === 'e' && softC && r() < 0.5) return 'ジェ';
      break;
  }
  const row = KANA_ROWS[c] ?? KANA_ROWS[''];
  // a soft consonant before a, u, o: the small ya yu yo (ミャ リュ ニョ; チュ ジュ for t d: Тюрин チュリン)
  if (softC && YOON[vv] && c !== '' && 'kgnhbpmr'.includes(c)) return row[1] + YOON[vv];
  if (softC && YOON[vv] && (c === 't' || c === 'd')) return (c === 't' ? 'チ' : 'ジ') + YOON[vv];
  return row[vi];
}

const KANA_ALONE: Record<string, string> = {
  k: 'ク', g: 'グ', s: 'ス', z: 'ズ', t: 'ト', d: 'ド', n: 'ン', h: 'フ', x: 'フ', b: 'ブ', p: 'プ', m: 'ム', r: 'ル', l: 'ル', f: 'フ',
  v: 'フ', S: 'シュ', SC: 'シチ', Z: 'ジュ', J: 'ジ', C: 'チ', T: 'ツ', j: 'イ', w: 'ウ',
};

export function writeJapanese(sounds: Sound[], r: Rand): string {
  let out = '';
  const lengthen = sounds.length > 3 && r() < 0.7 ? Math.floor(r() * sounds.length) : -1;
  for (let i = 0; i < sounds.length; i++) {
    const c = base(sounds[i]);
    if (isVowel(c)) {
      out += KANA_ROWS[''][VIDX[c]];
      if (i === lengthen) out += 'ー';
      continue;
    }
    const next = sounds[i + 1];
    if (next && isVowel(next)) {
      // a word-initial v before l or r: ウ (ウラジーミル)
      out += kanaCV(c, next, soft(sounds[i]), r);
      if (i + 1 === lengthen || (i === lengthen && r() < 0.5)) out += 'ー';
      i++;
      continue;
    }
    if (i === 0 && c === 'v' && (next === 'l' || next === 'r')) {
      out += r() < 0.6 ? 'ウ' : 'ヴ';
      continue;
    }
    // a final -iy / -yy after a vowel (Дмитрий: …リー), a j between vowels
    if (c === 'j' && i === sounds.length - 1 && sounds[i - 1] === 'i') {
      out += r() < 0.5 ? 'ー' : '';
      continue;
    }
    out += KANA_ALONE[c] ?? '';
  }
  return out;
}

// ---------- Chinese (the Xinhua Russian–Chinese and English–Chinese tables, forward: syllable → character)

// consonant → [alone, a, e, i, o, u, ai, an, en, in, on] (e is э/е; y reads as i; soft consonants before a/o/u: ya/yo/yu forms below)
const ZH: Record<string, string[]> = {
  '': ['', '阿', '埃', '伊', '奥', '乌', '艾', '安', '恩', '因', '翁'],
  b: ['布', '巴', '别', '比', '博', '布', '拜', '班', '边', '宾', '邦'],
  p: ['普', '帕', '佩', '皮', '波', '普', '派', '潘', '片', '平', '蓬'],
  d: ['德', '达', '杰', '季', '多', '杜', '代', '丹', '坚', '金', '东'],
  t: ['特', '塔', '捷', '季', '托', '图', '泰', '坦', '坚', '京', '通'],
  g: ['格', '加', '盖', '吉', '戈', '古', '盖', '甘', '根', '金', '贡'],
  k: ['克', '卡', '克', '基', '科', '库', '凯', '坎', '肯', '金', '孔'],
  v: ['夫', '瓦', '韦', '维', '沃', '武', '瓦伊', '万', '文', '文', '翁'],
  f: ['夫', '法', '费', '菲', '福', '富', '法伊', '凡', '芬', '芬', '丰'],
  z: ['兹', '扎', '泽', '济', '佐', '祖', '宰', '赞', '津', '津', '宗'],
  s: ['斯', '萨', '谢', '西', '索', '苏', '赛', '桑', '先', '辛', '松'],
  Z: ['日', '扎', '热', '日', '若', '茹', '扎伊', '然', '任', '任', '容'],
  S: ['什', '沙', '舍', '希', '绍', '舒', '沙伊', '尚', '申', '申', '雄'],
  J: ['季', '贾', '杰', '吉', '焦', '朱', '贾伊', '詹', '真', '金', '琼'],
  C: ['奇', '恰', '切', '奇', '乔', '丘', '柴', '昌', '琴', '钦', '琼'],
  SC: ['希', '夏', '谢', '希', '晓', '休', '夏伊', '相', '先', '先', '雄'],
  T: ['茨', '察', '采', '齐', '措', '楚', '采', '灿', '岑', '钦', '宗'],
  x: ['赫', '哈', '赫', '希', '霍', '胡', '海', '汉', '亨', '欣', '洪'],
  h: ['赫', '哈', '赫', '希', '霍', '胡', '海', '汉', '亨', '欣', '洪'],
  m: ['姆', '马', '梅', '米', '莫', '穆', '迈', '曼', '缅', '明', '蒙'],
  n: ['恩', '纳', '涅', '尼', '诺', '努', '奈', '南', '年', '宁', '农'],
  l: ['尔', '拉', '列', '利', '洛', '卢', '莱', '兰', '连', '林', '隆'],
  r: ['尔', '拉', '列', '里', '罗', '鲁', '赖', '兰', '连', '林', '龙'],
  j: ['伊', '亚', '耶', '伊', '约', '尤', '亚伊', '扬', '延', '因', '永'],
  w: ['乌', '瓦', '韦', '威', '沃', '伍', '怀', '万', '温', '温', '翁'],
};
// soft consonants before a, o, u (я ё ю): one character where the table has one (佳 дя, 焦 дё, 久 дю, 廖 лё, 柳 лю, 夏 ся, 休 сю)
const ZH_SOFT: Record<string, Record<string, string>> = {
  d: { a: '佳', o: '焦', u: '久' }, t: { a: '佳', o: '乔', u: '秋' }, l: { a: '利亚', o: '廖', u: '柳' }, r: { a: '里亚', o: '廖', u: '留' },
  s: { a: '夏', o: '肖', u: '休' }, n: { a: '尼亚', o: '尼奥', u: '纽' }, m: { a: '米亚', o: '苗', u: '缪' }, b: { a: '比亚', o: '比奥', u: '比尤' },
  v: { a: '维亚', o: '维奥', u: '维尤' }, k: { a: '基亚', o: '基奥', u: '丘' }, g: { a: '吉亚', o: '吉奥', u: '久' }, p: { a: '皮亚', o: '皮奥', u: '皮尤' },
  f: { a: '菲亚', o: '菲奥', u: '菲尤' }, z: { a: '齐亚', o: '佐', u: '久' },
};
const ZH_COL: Record<string, number> = { a: 1, e: 2, i: 3, y: 3, o: 4, u: 5 };

export function writeChinese(sounds: Sound[], r: Rand): string {
  let out = '';
  for (let i = 0; i < sounds.length; i++) {
    const c = base(sounds[i]);
    const isSoft = soft(sounds[i]);
    if (isVowel(c)) {
      out += ZH[''][ZH_COL[c]];
      continue;
    }
    let next = sounds[i + 1];
    let row = ZH[c] ?? ZH[''];
    if (next === 'j' && isVowel(sounds[i + 2] ?? '')) {
      // a consonant + y + vowel (бь + я): the consonant's i syllable, then the vowel's y syllable
      out += row[3];
      continue;
    }
    if (next && isVowel(next)) {
      const after = sounds[i + 2];
      const closing = after === 'n' && !isVowel(sounds[i + 3] ?? '') && !(sounds[i + 3] === 'j');
      if (isSoft && ZH_SOFT[c]?.[next]) {
        out += ZH_SOFT[c][next];
        i++;
        continue;
      }
      if (closing && next !== 'u' && next !== 'y') {
        const col = next === 'a' ? 7 : next === 'e' ? 8 : next === 'i' ? 9 : 10;
        out += row[col];
        i += 2;
        continue;
      }
      if (next === 'a' && after === 'j' && !isVowel(sounds[i + 3] ?? '')) {
        out += row[6];
        i += 2;
        continue;
      }
      out += row[ZH_COL[next]];
      i++;
      continue;
    }
    if (c === 'j' && i > 0) {
      // й after a vowel: 伊 (Сергей 谢尔盖: ей reads as the e+i syllable: 盖 for гей)
      if (sounds[i - 1] === 'e' && out.length && r() < 0.5) continue;
      out += '伊';
      continue;
    }
    if (i === 0 && c === 'v' && (next === 'l' || next === 'r')) row = ZH.f; // 弗拉基米尔: the initial v is 弗
    out += i === 0 && (c === 'v' || c === 'f') ? '弗' : row[0];
  }
  return out;
}

// ---------- Greek

const GR: Record<string, string> = {
  b: 'μπ', d: 'ντ', g: 'γκ', p: 'π', t: 'τ', k: 'κ', f: 'φ', v: 'β', s: 'σ', z: 'ζ', S: 'σ', Z: 'ζ', C: 'τσ', SC: 'στσ', T: 'τσ', J: 'τζ', x: 'χ',
  h: 'χ', m: 'μ', n: 'ν', l: 'λ', r: 'ρ', w: 'ου', a: 'α', e: 'ε', i: 'ι', o: 'ο', u: 'ου', y: 'ι',
};
const GR_ACCENT: Record<string, string> = { α: 'ά', ε: 'έ', ι: 'ί', ο: 'ό', υ: 'ύ' };

export function writeGreek(sounds: Sound[], r: Rand): string {
  let out = '';
  sounds.forEach((s, i) => {
    const c = base(s);
    if (c === 'j') {
      out += i === 0 ? 'Γι' : 'ι';
      return;
    }
    out += GR[c] ?? '';
    // a soft consonant before а о у (я ё ю) is written with ι (Τιούριν, Λιουντμίλα)
    if (soft(s) && ['a', 'o', 'u'].includes(sounds[i + 1] ?? '')) out += 'ι';
  });
  // one accent on a vowel (Greek writes the stress), a final σ as ς
  // (on the second letter of ου, ει, οι, αι: Πούτιν, not Πόυτιν)
  const chars = [...out];
  const vowelsAt = chars.map((ch, i) => (GR_ACCENT[ch] && !(chars[i + 1] === 'υ' && ch === 'ο') && !(chars[i + 1] === 'ι' && 'αεο'.includes(ch)) ? i : -1)).filter((i) => i >= 0);
  if (vowelsAt.length) {
    const at = pick(r, vowelsAt);
    out = [...out].map((ch, i) => (i === at ? GR_ACCENT[ch] : ch)).join('');
  }
  out = out.replace(/σ$/, 'ς');
  return out.charAt(0).toUpperCase() + out.slice(1);
}

// ---------- Persian (Arabic script)

const FA: Record<string, string> = {
  b: 'ب', p: 'پ', t: 'ت', d: 'د', k: 'ک', g: 'گ', f: 'ف', v: 'و', s: 'س', z: 'ز', S: 'ش', Z: 'ژ', C: 'چ', SC: 'شچ', T: 'تس', J: 'ج', x: 'خ',
  h: 'ه', m: 'م', n: 'ن', l: 'ل', r: 'ر', j: 'ی', w: 'و',
};

export function writePersian(sounds: Sound[], r: Rand): string {
  let out = '';
  sounds.forEach((s, i) => {
    const c = base(s);
    const initial = i === 0;
    if (isVowel(c)) {
      if (c === 'a') out += initial ? 'آ' : 'ا';
      else if (c === 'i' || c === 'y') out += initial ? 'ای' : 'ی';
      else if (c === 'o' || c === 'u') out += initial ? 'او' : 'و';
      else if (c === 'e') out += initial ? 'ا' : i === sounds.length - 1 ? 'ه' : r() < 0.2 ? 'ی' : '';
      return;
    }
    if (c === 'j' && i === sounds.length - 1 && (sounds[i - 1] === 'i' || sounds[i - 1] === 'y')) return; // -ий: دمیتری
    // Persian writes a final -v of a Russian name as ف (مدودف)
    out += c === 'v' && i === sounds.length - 1 ? 'ف' : FA[c] ?? '';
  });
  return out;
}

// ---------- Hebrew

const HE: Record<string, string> = {
  b: 'ב', v: 'ב', p: 'פ', f: 'פ', t: 'ט', d: 'ד', k: 'ק', g: 'ג', s: 'ס', z: 'ז', S: 'ש', Z: "ז'", C: "צ'", SC: "שצ'", T: 'צ', J: "ג'", x: 'ח',
  h: 'ה', m: 'מ', n: 'נ', l: 'ל', r: 'ר', j: 'י', w: 'ו',
};
const HE_FINAL: Record<string, string> = { מ: 'ם', נ: 'ן', פ: 'ף', צ: 'ץ', כ: 'ך' };

export function writeHebrew(sounds: Sound[], r: Rand): string {
  let out = '';
  sounds.forEach((s, i) => {
    const c = base(s);
    if (isVowel(c)) {
      if (i === 0) out += c === 'i' || c === 'e' ? 'אי' : c === 'o' || c === 'u' ? 'או' : 'א';
      else if (c === 'i' || c === 'y') out += 'י';
      else if (c === 'o' || c === 'u') out += 'ו';
      else if (c === 'a' && i === sounds.length - 1) out += 'ה';
      else if (c === 'a' && r() < 0.3) out += 'א';
      return;
    }
    // v at the start of a word is וו or ו; inside, ב
    if (c === 'v' && i === 0) out += r() < 0.5 ? 'וו' : 'ו';
    else out += HE[c] ?? '';
  });
  const last = out[out.length - 1];
  if (HE_FINAL[last]) out = out.slice(0, -1) + HE_FINAL[last];
  return out;
}

// ---------- Thai (Royal Institute transcription of foreign words)

const TH: Record<string, string> = {
  b: 'บ', p: 'ป', t: 'ต', d: 'ด', k: 'ค', g: 'ก', f: 'ฟ', v: 'ว', s: 'ซ', z: 'ซ', S: 'ช', Z: 'ช', C: 'ช', SC: 'ช', T: 'ซ', J: 'จ', x: 'ค',
  h: 'ฮ', m: 'ม', n: 'น', l: 'ล', r: 'ร', j: 'ย', w: 'ว',
};

export function writeThai(sounds: Sound[], r: Rand): string {
  let out = '';
  for (let i = 0; i < sounds.length; i++) {
    const c = base(sounds[i]);
    if (isVowel(c)) {
      out += c === 'a' ? 'อา' : c === 'e' ? 'เอ' : c === 'o' ? 'โอ' : c === 'u' ? 'อู' : 'อี';
      continue;
    }
    const cons = TH[c] ?? '';
    const next = sounds[i + 1];
    if (next && isVowel(next)) {
      if (next === 'a') out += cons + (r() < 0.7 ? 'า' : 'ะ');
      else if (next === 'e') out += `เ${cons}`;
      else if (next === 'o') out += `โ${cons}`;
      else if (next === 'u') out += `${cons}ู`;
      else out += `${cons}${r() < 0.6 ? 'ี' : 'ิ'}`;
      i++;
      continue;
    }
    if (c === 'j' && i === sounds.length - 1 && (sounds[i - 1] === 'i' || sounds[i - 1] === 'y')) continue; // -ий: ดมิตรี
    // a final r or a final consonant of a cluster is written with the cancellation mark ์ now and then
    out += cons + (i === sounds.length - 1 && (c === 'r' || c === 'T') && r() < 0.6 ? '์' : '');
  }
  return out;
}

// ---------- Burmese

const MY: Record<string, string> = {
  b: 'ဗ', p: 'ပ', t: 'တ', d: 'ဒ', k: 'က', g: 'ဂ', f: 'ဖ', v: 'ဗ', s: 'ဆ', z: 'ဇ', S: 'ရှ', Z: 'ဂျ', C: 'ချ', SC: 'ရှ', T: 'ဆ', J: 'ဂျ', x: 'ခ',
  h: 'ဟ', m: 'မ', n: 'န', l: 'လ', r: 'ရ', j: 'ယ', w: 'ဝ',
};
const MY_VOWEL: Record<string, string> = { a: 'ာ', e: 'ေ', i: 'ီ', y: 'ီ', o: 'ို', u: 'ူ' };

export function writeBurmese(sounds: Sound[]): string {
  let out = '';
  for (let i = 0; i < sounds.length; i++) {
    const c = base(sounds[i]);
    if (isVowel(c)) {
      out += `အ${MY_VOWEL[c]}`;
      continue;
    }
    const cons = MY[c] ?? '';
    const next = sounds[i + 1];
    if (next && isVowel(next)) {
      // ေ is written before the consonant in memory order after it (Unicode: consonant, then ေ)
      out += cons + MY_VOWEL[next];
      i++;
      continue;
    }
    out += `${cons}်`; // a consonant with no vowel: the killer
  }
  return out;
}

// ---------- Georgian

const KA: Record<string, string> = {
  a: 'ა', b: 'ბ', g: 'გ', d: 'დ', e: 'ე', v: 'ვ', z: 'ზ', t: 'ტ', i: 'ი', k: 'კ', l: 'ლ', m: 'მ', n: 'ნ', o: 'ო', p: 'პ', Z: 'ჟ', r: 'რ',
  s: 'ს', u: 'უ', f: 'ფ', x: 'ხ', h: 'ჰ', S: 'შ', C: 'ჩ', SC: 'შჩ', T: 'ც', J: 'ჯ', y: 'ი', j: 'ი', w: 'უ',
};

export function writeGeorgian(sounds: Sound[]): string {
  let out = sounds.map((s) => KA[base(s)] ?? '').join('');
  // the nominative ending -ი after a final consonant (მედვედევი, პუტინი)
  const last = base(sounds[sounds.length - 1] ?? 'a');
  if (!isVowel(last) && last !== 'j') out += 'ი';
  return out;
}

// ---------- Latin-script languages from Russian Cyrillic

type LetterMap = Record<string, string>;
const BASE_LATIN: LetterMap = {
  а: 'a', б: 'b', в: 'v', г: 'g', д: 'd', з: 'z', и: 'i', к: 'k', л: 'l', м: 'm', н: 'n', о: 'o', п: 'p', р: 'r', с: 's', т: 't', у: 'u',
  ф: 'f', ъ: '', э: 'e', й: 'j', ы: 'y',
};
const LANG_LETTERS: Record<string, LetterMap> = {
  lt: { ж: 'ž', х: 'ch', ц: 'c', ч: 'č', ш: 'š', щ: 'šč', ь: '', е: 'e', ё: 'jo', ю: 'ju', я: 'ja' },
  lv: { ж: 'ž', х: 'h', ц: 'c', ч: 'č', ш: 'š', щ: 'šč', ь: '', е: 'e', ё: 'jo', ю: 'ju', я: 'ja', ы: 'i' },
  pl: { в: 'w', ж: 'ż', х: 'ch', ц: 'c', ч: 'cz', ш: 'sz', щ: 'szcz', ь: '', е: 'ie', ё: 'io', ю: 'iu', я: 'ia', л: 'ł' },
  cs: { ж: 'ž', х: 'ch', ц: 'c', ч: 'č', ш: 'š', щ: 'šč', ь: '', е: 'e', ё: 'jo', ю: 'ju', я: 'ja' },
  hu: { с: 'sz', ж: 'zs', х: 'h', ц: 'c', ч: 'cs', ш: 's', щ: 'scs', ь: '', е: 'e', ё: 'jo', ю: 'ju', я: 'ja', ы: 'i' },
  de: { в: 'w', з: 's', ж: 'sch', х: 'ch', ц: 'z', ч: 'tsch', ш: 'sch', щ: 'schtsch', ь: '', е: 'e', ё: 'jo', ю: 'ju', я: 'ja', й: 'j' },
  nl: { у: 'oe', ж: 'zj', х: 'ch', ц: 'ts', ч: 'tsj', ш: 'sj', щ: 'sjtsj', ь: '', е: 'e', ё: 'jo', ю: 'joe', я: 'ja', й: 'j' },
};
const CYR_VOWEL = /[аеёиоуыэюяі]/;
const SOFTENING = /[еёиюяь]/;

/** A Russian word in one Latin-script language's transcription (lowercase). */
export function writeLatinLanguage(word: string, lang: string, r: Rand): string {
  const w = word.toLowerCase();
  const letters = { ...BASE_LATIN, ...LANG_LETTERS[lang] };
  let out = '';
  for (let i = 0; i < w.length; i++) {
    const ch = w[i];
    const prev = w[i - 1];
    const next = w[i + 1];
    const afterVowel = !prev || CYR_VOWEL.test(prev) || prev === 'ь' || prev === 'ъ';
    // е ё ю я at the start or after a vowel are j + vowel (je, jo, ju, ja; Polish and German too)
    if ('еёюя'.includes(ch) && afterVowel) {
      const v = { е: 'e', ё: 'o', ю: lang === 'nl' ? 'oe' : 'u', я: 'a' }[ch as 'е'];
      out += (lang === 'pl' || lang === 'de' || lang === 'nl' || lang === 'cs' || lang === 'lt' || lang === 'lv' || lang === 'hu' ? 'j' : 'j') + v;
      continue;
    }
    // Polish: е after ж ш ц ч is e, and и after them is y; л before a softening letter is l
    if (lang === 'pl') {
      if (ch === 'е' && prev && 'жшцч'.includes(prev)) { out += 'e'; continue; }
      if (ch === 'и' && prev && 'жшц'.includes(prev)) { out += 'y'; continue; }
      if (ch === 'л' && next && SOFTENING.test(next)) { out += 'l'; continue; }
      if (ch === 'ь') { out += ''; continue; }
    }
    // Czech writes е after д т н as ě now and then (Medveděv)
    if (lang === 'cs' && ch === 'е' && prev && 'дтнбвпм'.includes(prev) && r() < 0.5) { out += 'ě'; continue; }
    // Hungarian: a soft д т н are gy ty ny (Vlagyimir Putyin Medvegyev)
    if (lang === 'hu' && 'дтн'.includes(ch) && next && SOFTENING.test(next)) {
      out += { д: 'gy', т: 'ty', н: 'ny' }[ch as 'д'];
      if (next === 'ь') i++;
      continue;
    }
    if (lang === 'hu' && ch === 'е') { out += 'e'; continue; }
    // German: с between vowels is ss
    if (lang === 'de' && ch === 'с' && prev && next && CYR_VOWEL.test(prev) && CYR_VOWEL.test(next)) { out += 'ss'; continue; }
    out += letters[ch] ?? ch;
  }
  // endings
  if (lang === 'lt') return ltEnding(out);
  if (lang === 'lv') return lvEnding(out);
  if (lang === 'de' || lang === 'nl') return out.replace(/ij$/, 'i').replace(/yj$/, 'y');
  if (lang === 'pl') return out.replace(/yj$/, 'y');
  return out;
}

/** Lithuanian nominative: -ijus for -ий, -ejus for -ей, -as after a consonant and for -ый/-ой, -a kept. */
function ltEnding(w: string): string {
  if (/ij$/.test(w)) return `${w}us`;
  if (/[eao]j$/.test(w)) return `${w}us`;
  if (/yj$/.test(w)) return w.replace(/yj$/, 'as');
  if (/[aeiouy]$/.test(w)) return w.replace(/o$/, 'a');
  return `${w}as`;
}
/** Latvian nominative: -ijs, -ejs, -s after a consonant, -ijs for -ый, -a kept. */
function lvEnding(w: string): string {
  if (/(ij|ej|aj|oj)$/.test(w)) return `${w}s`;
  if (/ij$/.test(w)) return `${w}s`;
  if (/[aeiou]$/.test(w)) return w;
  return w.endsWith('s') || w.endsWith('š') ? `${w}s` : `${w}s`;
}

// ---------- Ukrainian and Belarusian Cyrillic

// given names each language forms its own way (the rest of a name is respelt by the letters' rules)
const UK_GIVEN: Record<string, string> = {
  дмитрий: 'Дмитро', владимир: 'Володимир', сергей: 'Сергій', алексей: 'Олексій', александр: 'Олександр', николай: 'Микола', михаил: 'Михайло',
  андрей: 'Андрій', евгений: 'Євген', юрий: 'Юрій', виктор: 'Віктор', игорь: 'Ігор', олег: 'Олег', павел: 'Павло', петр: 'Петро',
  иван: 'Іван', василий: 'Василь', григорий: 'Григорій', анатолий: 'Анатолій', геннадий: 'Геннадій', валерий: 'Валерій',
  константин: 'Костянтин', борис: 'Борис', роман: 'Роман', вячеслав: "В'ячеслав", леонид: 'Леонід', аркадий: 'Аркадій', илья: 'Ілля',
  максим: 'Максим', денис: 'Денис', кирилл: 'Кирило', станислав: 'Станіслав', вадим: 'Вадим', руслан: 'Руслан', владислав: 'Владислав',
  елена: 'Олена', ольга: 'Ольга', наталья: 'Наталія', татьяна: 'Тетяна', ирина: 'Ірина', анна: 'Анна', светлана: 'Світлана', мария: 'Марія',
};
const BE_GIVEN: Record<string, string> = {
  дмитрий: 'Дзмітрый', владимир: 'Уладзімір', сергей: 'Сяргей', алексей: 'Аляксей', александр: 'Аляксандр', николай: 'Мікалай', михаил: 'Міхаіл',
  андрей: 'Андрэй', евгений: 'Яўген', юрий: 'Юрый', виктор: 'Віктар', игорь: 'Ігар', олег: 'Алег', павел: 'Павел', петр: 'Пётр', иван: 'Іван',
  василий: 'Васіль', григорий: 'Рыгор', анатолий: 'Анатоль', геннадий: 'Генадзь', валерий: 'Валерый', константин: 'Канстанцін',
  борис: 'Барыс', роман: 'Раман', вячеслав: 'Вячаслаў', леонид: 'Леанід', аркадий: 'Аркадзь', илья: 'Ілля', максим: 'Максім', денис: 'Дзяніс',
  кирилл: 'Кірыла', станислав: 'Станіслаў', вадим: 'Вадзім', руслан: 'Руслан', владислав: 'Уладзіслаў', елена: 'Алена', ольга: 'Вольга',
  наталья: 'Наталля', татьяна: 'Таццяна', ирина: 'Ірына', анна: 'Ганна', светлана: 'Святлана', мария: 'Марыя',
};

/** A Russian word as Ukrainian writes it: и → і, ы → и, э → е, е after a vowel → є, -ий kept; given names by UK_GIVEN. */
export function writeUkrainian(word: string): string {
  const w = word.toLowerCase();
  if (UK_GIVEN[w]) return UK_GIVEN[w];
  let out = '';
  for (let i = 0; i < w.length; i++) {
    const ch = w[i];
    const prev = w[i - 1];
    if (ch === 'и' && !(w[i + 1] === 'й' && i === w.length - 2)) out += 'і';
    else if (ch === 'ы') out += 'и';
    else if (ch === 'э') out += 'е';
    else if (ch === 'е' && (!prev || CYR_VOWEL.test(prev))) out += 'є';
    else if (ch === 'ё') out += prev && !CYR_VOWEL.test(prev) ? 'ьо' : 'йо';
    else if (ch === 'ъ') out += "'";
    else out += ch;
  }
  return cap(out);
}

/**
 * A Russian word as Belarusian writes it: дз and ц for soft д and т, ў for в before a consonant or at the
 * end, і for и (ы after ж ш ч р ц), э for е after ж ш ч р ц, о unstressed as а (the stress is not known:
 * every о but one, chosen at random), е before the stress as я now and then; given names by BE_GIVEN.
 */
export function writeBelarusian(word: string, r: Rand): string {
  const w = word.toLowerCase();
  if (BE_GIVEN[w]) return BE_GIVEN[w];
  const os = [...w].map((c, i) => (c === 'о' ? i : -1)).filter((i) => i >= 0);
  const stressed = os.length ? pick(r, os) : -1;
  let out = '';
  for (let i = 0; i < w.length; i++) {
    const ch = w[i];
    const prev = w[i - 1];
    const next = w[i + 1];
    const hard = prev && 'жшчрц'.includes(prev);
    if (ch === 'д' && next && SOFTENING.test(next)) out += 'дз';
    else if (ch === 'т' && next && SOFTENING.test(next)) out += 'ц';
    else if (ch === 'в' && (!next || !CYR_VOWEL.test(next)) && prev && CYR_VOWEL.test(prev)) out += 'ў';
    else if (ch === 'и') out += hard ? 'ы' : i === w.length - 2 && next === 'й' ? 'і' : 'і';
    else if (ch === 'е') out += hard ? 'э' : i < w.length - 2 && r() < 0.3 ? 'я' : 'е';
    else if (ch === 'о') out += i === stressed ? 'о' : 'а';
    else out += ch;
  }
  out = out.replace(/ій$/, 'і').replace(/ый$/, 'ы');
  return cap(out);
}

export const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
