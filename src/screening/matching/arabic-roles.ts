/**
 * Which word of an Arabic name is whose (issue 27 §1, round 4; docs/name-matching.md "Arabic patronymic
 * chains are ordered"). An Arabic name is read in order: the person's own given name, then the
 * father's (with or without "bin"), then the family name, which often carries the article ("al-Masri").
 * Two rules the alignment must respect, pure functions over the two prepared names and what matched:
 *
 * - **the given name is the person's own**: in a chain without "bin" (Aisha Ahmed al-Masri), leaving out
 *   the first given name makes the match go through the father's name: Aisha, daughter of Ahmed
 *   al-Masri, is not AL-MASRI, Ahmad. Only Muhammad, the first name of many compound names (Muhammad
 *   Arif ...), or a title may be left out of such a chain;
 * - **a family name with the article is not the other name's given name**: against "AL-'ALI, Salih",
 *   which says al-Ali is the family name and Salih the given name, a query "Ali Saleh" (given name Ali,
 *   as an Arabic name's first word is, without the article that would make it a family name) has the
 *   two roles the other way round: another person (round 5: a query in Arabic script, written in its own
 *   order, against any "SURNAME, Given" listing: علي ناصر is not ALI, Nasser); and against a listed name in natural order without a
 *   comma (SHEIKH AHMED UMAR: Ahmed first), "Umar al-Ahmad" is another person too.
 */
import type { NameToken, PreparedName } from './prepare';
import { foldToken } from './text';
import { HONORIFICS, NAME_VARIANTS, TITLES } from './lexicon';
import { type AlignedSpan, spanOfListedToken, spanOfQueryToken } from './aligned-span';

const MUHAMMAD = foldToken('muhammad');
const ARABIC_SCRIPT = new Set(['abjad', 'arabic_name']);

/** A form of Muhammad (Mohammed, Mohamed, محمد…): the first name of many compound Arabic names, often left out. */
export function isMuhammad(t: NameToken): boolean {
  return (NAME_VARIANTS.get(t.fold) ?? t.fold) === MUHAMMAD;
}

/** The index of a name's first name word that is not a title or honorific (its own given name), or -1. */
function firstOwnNameWord(toks: readonly NameToken[]): number {
  return toks.findIndex((t) => t.kind === 'name' && !TITLES.has(t.norm) && !HONORIFICS.has(t.norm));
}

/** An article before a name word: a family name ("al-Masri", المصري). */
function familyArticleAt(toks: readonly NameToken[], i: number): boolean {
  const prev = toks[i - 1];
  return i > 0 && prev.kind === 'particle' && prev.fold === 'al';
}

/**
 * A name read as an Arabic chain (given name, father's name, family name): at least three name words,
 * and written in Arabic script or with its family name written with the article (the last word, or in
 * "SURNAME, Given Father" the word before the comma).
 */
export function readsAsArabicChain(toks: readonly NameToken[], commaAt?: number): boolean {
  let names = 0;
  let arabic = false;
  let family = -1;
  for (let i = 0; i < toks.length; i++) {
    if (toks[i].kind !== 'name') continue;
    names++;
    if (commaAt === undefined || i < commaAt) family = i;
    if (ARABIC_SCRIPT.has(toks[i].origin)) arabic = true;
  }
  return names >= 3 && (arabic || (family >= 0 && familyArticleAt(toks, family)));
}

/**
 * The first given name of an Arabic chain may be left out only when it is Muhammad or a title: any
 * other first name is the person's own, and a match without it goes through the father's name.
 */
export function ownNameOfChain(toks: readonly NameToken[], first: number, commaAt?: number): boolean {
  const t = toks[first];
  return readsAsArabicChain(toks, commaAt) && !isMuhammad(t) && !TITLES.has(t.norm) && !HONORIFICS.has(t.norm);
}

/**
 * A query without the article and without a comma, whose first word (a given name the lexicon knows:
 * Ali, Nasir) matched the family name of a "SURNAME, Given" listed name written with the article
 * (AL-'ALI), while the listed given name matched a later query word: the two names give the roles the
 * other way round. A reason, or undefined.
 */
export function familyNameTakenForGivenName(q: PreparedName, qt: readonly NameToken[], c: PreparedName, ct: readonly NameToken[], pairs: readonly AlignedSpan[]): string | undefined {
  const cComma = c.tokens.length === ct.length ? c.commaAt : undefined;
  if (cComma === undefined || (q.tokens.length === qt.length && q.commaAt !== undefined)) return undefined;
  if (qt.some((t) => t.kind === 'particle' && t.fold === 'al')) return undefined;
  const first = qt.findIndex((t) => t.kind === 'name');
  if (first < 0 || !qt[first].common) return undefined;
  const toFirst = spanOfQueryToken(pairs, first);
  // the listed word the query's first word matched: a family name before the comma, with the article,
  // or (round 5) any family name when the query is written in Arabic script: a name in its own script is
  // written in its own order, given name first (علي ناصر is Ali, son of Nasir; ALI, Nasser is Nasser of Ali)
  if (!toFirst || toFirst.cn !== 1 || toFirst.c0 >= cComma) return undefined;
  if (!familyArticleAt(ct, toFirst.c0) && !writtenInArabicScript(qt)) return undefined;
  // and the listed given name (the first name word after the comma) matched a later word of the query
  const given = ct.findIndex((t, j) => j >= cComma && t.kind === 'name');
  if (given < 0) return undefined;
  const toGiven = spanOfListedToken(pairs, given);
  if (!toGiven || toGiven.q0 <= first) return undefined;
  const family = ct[toFirst.c0];
  const article = familyArticleAt(ct, toFirst.c0) ? 'al-' : '';
  return `"${qt[first].display}" is the query's given name (the first word of an Arabic name, without the article); the listed name gives ${article}${family.display} as the family name and "${ct[given].display}" as the given name: another person`;
}

/** Every name word is written in Arabic script (read in the script's own order: given name first). */
function writtenInArabicScript(toks: readonly NameToken[]): boolean {
  let names = 0;
  for (const t of toks) {
    if (t.kind !== 'name') continue;
    if (!ARABIC_SCRIPT.has(t.origin)) return false;
    names++;
  }
  return names > 0;
}

/**
 * The mirror of the rule above, against a listed name without a comma written in its natural order
 * (given name first, as the UN list writes ALI OMAR, SHEIKH AHMED UMAR): a query "X al-Y" (X of the
 * family al-Y) whose family word Y matched the listed name's first name word (its given name, written
 * without the article) while X matched a later word gives the roles the other way round: Umar al-Ahmad
 * is not Ahmed Umar (Ahmed, son of Umar). A reason, or undefined.
 */
export function familyNameTakenForListedGivenName(q: PreparedName, qt: readonly NameToken[], c: PreparedName, ct: readonly NameToken[], pairs: readonly AlignedSpan[]): string | undefined {
  if ((c.tokens.length === ct.length && c.commaAt !== undefined) || (q.tokens.length === qt.length && q.commaAt !== undefined)) return undefined;
  let family = -1;
  for (let i = qt.length - 1; i >= 0; i--) {
    if (qt[i].kind === 'name') {
      family = i;
      break;
    }
  }
  const own = qt.findIndex((t) => t.kind === 'name');
  if (family <= own || own < 0 || !familyArticleAt(qt, family)) return undefined;
  // the listed name's first name word, titles aside (SHEIKH AHMED UMAR: Ahmed)
  const first = firstOwnNameWord(ct);
  if (first < 0 || familyArticleAt(ct, first)) return undefined;
  const toFamily = spanOfQueryToken(pairs, family);
  const toOwn = spanOfQueryToken(pairs, own);
  if (!toFamily || !toOwn || toFamily.c0 !== first || toFamily.cn !== 1 || toOwn.c0 <= first) return undefined;
  return `"${qt[own].display} al-${qt[family].display}" is ${qt[own].display} of the family al-${qt[family].display}; the listed name starts with ${ct[first].display}, its given name: another person`;
}

/**
 * A query in Arabic script (its own order: the person's given name, then the father's) against a listed name
 * without a comma written in natural order (given name first, as the UN and the CSL write it), when each
 * name's given name matched a later word of the other: the two names give the roles the other way round,
 * father and son (محمد صالح, Muhammad son of Salih, is not Saleh Mohammad). Round 5. A reason, or undefined.
 */
export function givenNameTakenForFathersName(q: PreparedName, qt: readonly NameToken[], c: PreparedName, ct: readonly NameToken[], pairs: readonly AlignedSpan[]): string | undefined {
  if ((c.tokens.length === ct.length && c.commaAt !== undefined) || (q.tokens.length === qt.length && q.commaAt !== undefined)) return undefined;
  if (!writtenInArabicScript(qt)) return undefined;
  const qFirst = firstOwnNameWord(qt);
  const cFirst = firstOwnNameWord(ct);
  if (qFirst < 0 || cFirst < 0 || familyArticleAt(ct, cFirst)) return undefined;
  const toQFirst = spanOfQueryToken(pairs, qFirst);
  const toCFirst = spanOfListedToken(pairs, cFirst);
  if (!toQFirst || !toCFirst || toQFirst.c0 <= cFirst || toCFirst.q0 <= qFirst) return undefined;
  return `"${qt[qFirst].display}" is the query's given name and "${ct[cFirst].display}" the listed name's, each matched to a later name of the other (a father's): the roles are the other way round, another person`;
}
