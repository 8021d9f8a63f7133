/**
 * Titles, offices and forms of address in many languages (data/titles.tsv, with its sources): noise
 * around a name, never a name word (issue 32). "Президент Медведев", "메드베데프 대통령",
 * "メドヴェージェフ大統領", "رئیس‌جمهور مدودف" and "Πρόεδρος Μεντβέντεφ" all name Medvedev.
 *
 * Two uses:
 *  - TITLE_WORDS: the single-word forms of alphabetic scripts, transliterated as text.ts does
 *    ("Πρόεδρος" → proedros, "elnök" → elnok): a foreign-name reading never takes one before the name
 *    for a name word (readings.ts);
 *  - stripTitles: a query's titles in any script, phrases included ("رئیس جمهور", "premier ministre"),
 *    dropped from its front, and in Korean, Japanese and Chinese (which write the title after the name,
 *    often attached: プーチン大統領) from its end as well. Only the query: listed names are left as listed.
 */
import { readFileSync } from 'node:fs';
import { transliterateTokens } from '../text';

interface TitleForm {
  /** The form's words, lowercased, ZWNJ read as a space. */
  words: string[];
  lang: string;
}

const normalizeWord = (w: string) => w.normalize('NFC').toLowerCase();
const words = (s: string) => s.replace(/\u200c/g, ' ').trim().split(/\s+/).map(normalizeWord).filter(Boolean);

const FORMS: TitleForm[] = [];
for (const line of readFileSync(new URL('../data/titles.tsv', import.meta.url), 'utf8').split('\n')) {
  if (!line.trim() || line.startsWith('#')) continue;
  const [form, lang] = line.split('\t');
  if (!form || !lang) throw new Error(`titles.tsv: bad line "${line}"`);
  FORMS.push({ words: words(form), lang });
}

const ALPHABETIC = /^[\p{Script=Latin}\p{Script=Cyrillic}\p{Script=Greek}\p{Script=Georgian}\p{Script=Armenian}'’.-]+$/u;
const CJK = new Set(['ko', 'ja', 'zh-Hans', 'zh-Hant']);

/** Single-word titles of alphabetic scripts, transliterated (a reading never takes one before the name for a name word). */
export const TITLE_WORDS: readonly string[] = [
  ...new Set(
    FORMS.filter((f) => f.words.length === 1 && ALPHABETIC.test(f.words[0]))
      .map((f) => transliterateTokens(f.words[0]))
      .filter((t) => t.length === 1 && t[0].norm.length >= 3)
      .map((t) => t[0].norm),
  ),
];

const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const phrase = (f: TitleForm) => f.words.map(esc).join('[\\s\\u200c]+');
// longest first, so "premier ministre" goes before "premier"
const ORDERED = [...FORMS].sort((a, b) => b.words.join(' ').length - a.words.join(' ').length);
const SEP = '[\\s,;:.·・]';
const LEADING = new RegExp(`^${SEP}*(?:${ORDERED.map(phrase).join('|')})(?=${SEP}+[^\\s,;:.·・])${SEP}*`, 'iu');
// after the name: the forms of non-Latin scripts, and of the Latin-script languages that write the title
// after the name (Hungarian "Orbán Viktor miniszterelnök", Turkish "Erdoğan cumhurbaşkanı"); not the
// others ("Banco General", "Premier Foods" keep their word)
const TITLE_AFTER = new Set(['hu', 'tr']);
const TRAILING = new RegExp(
  `${SEP}+(?:${ORDERED.filter((f) => !/\p{Script=Latin}/u.test(f.words[0]) || TITLE_AFTER.has(f.lang)).map(phrase).join('|')})${SEP}*$`,
  'iu',
);
const CJK_FORMS = ORDERED.filter((f) => CJK.has(f.lang) && f.words.length === 1).map((f) => f.words[0]);
const CJK_ATTACHED_END = new RegExp(`(${CJK_FORMS.map(esc).join('|')})$`, 'u');
const CJK_ATTACHED_START = new RegExp(`^(${CJK_FORMS.map(esc).join('|')})`, 'u');

/**
 * The query without its titles: from the front while a title form starts it, and from the end while a
 * non-Latin one (Korean, Japanese and Chinese write the title after the name) ends it; a CJK title
 * written onto the name (プーチン大統領, 普京总统) is cut off when what stays still reads as a name
 * (`isName`). The rest of the string is kept as it was written (a comma still marks "SURNAME, Given").
 * Never leaves nothing.
 */
export function stripTitles(raw: string, isName: (word: string) => boolean): { name: string; dropped: string[] } {
  let name = raw.normalize('NFC').trim();
  const dropped: string[] = [];
  for (let guard = 0; guard < 6; guard++) {
    const lead = LEADING.exec(name);
    if (lead) {
      dropped.push(lead[0].trim());
      name = name.slice(lead[0].length);
      continue;
    }
    const trail = TRAILING.exec(name);
    if (trail && trail.index > 0) {
      dropped.push(trail[0].replace(/^[\s,;:.·・]+/u, '').trim());
      name = name.slice(0, trail.index);
      continue;
    }
    const end = CJK_ATTACHED_END.exec(name);
    if (end && isName(lastWord(name.slice(0, end.index)))) {
      dropped.push(end[1]);
      name = name.slice(0, end.index);
      continue;
    }
    const start = CJK_ATTACHED_START.exec(name);
    if (start && isName(firstWord(name.slice(start[0].length)))) {
      dropped.push(start[1]);
      name = name.slice(start[0].length);
      continue;
    }
    break;
  }
  name = name.trim();
  return name ? { name, dropped } : { name: raw, dropped: [] };
}

const lastWord = (s: string) => s.trim().split(/[\s·・]+/u).pop() ?? '';
const firstWord = (s: string) => s.trim().split(/[\s·・]+/u)[0] ?? '';
