/**
 * The alert rule for partial matches on common names (issue 27; docs/name-matching.md, "Alerts on
 * partial matches"). Most screenings carry a name only. A partial match (a name part of either side
 * unmatched: an extra middle name, a second surname, a grandfather's name) on a name many people
 * carry says nothing about who the customer is, so it raises no alert unless a date of birth or an
 * identifier agrees; the engine then caps the hit's final score just under the threshold and says why.
 * The pair's name score is left alone. Pure functions over the alignment and the name-frequency model.
 */
import type { TokenAlignment } from './model';
import { prepareName, type PreparedName } from './matching/prepare';
import { abjadVowelsAgree } from './matching/compare';
import { isForeignReading } from './matching/foreign/readings';
import { skeleton } from './matching/text';
import { commonNameReason, namePools, nameRarity, SKELETON_KEY_PREFIX, type ListNameFrequency, type NamePools } from './identity/name-frequency';

/** Longest surname (letters) whose near spelling is another name rather than a spelling of the same one. */
const NEAR_WORD_MAX_LENGTH = 6;

/** Final score of such a hit: just under the default threshold (0.80), so a caller asking for less still sees it. */
export const PARTIAL_COMMON_NAME_CAP = 0.79;

/** Name-frequency cultures whose pools are written unvowelled (Arabic, Persian, Urdu, Hebrew script). */
const UNVOWELLED_CULTURES = new Set(['ar', 'fa', 'ur', 'he']);

/**
 * Reads a matched name as the name-frequency model's pools know it. The pools of the Arabic, Persian,
 * Urdu and Hebrew cultures hold their names as written, unvowelled ("hshmi" for هاشمی), so a romanised
 * Hashemi or Karimi is in no pool and the model takes it for a rare name; this reader finds the pool
 * word a Latin spelling writes, as the matcher compares them (same consonant skeleton, the written long
 * vowels where the Latin has vowels), and asks the model about that spelling too.
 */
export class CommonNames {
  private readonly bySkeleton = new Map<string, string[]>();

  constructor(
    private readonly lists: ListNameFrequency,
    private readonly pools: NamePools = namePools(),
  ) {
    for (const culture of pools.cultures) {
      if (!UNVOWELLED_CULTURES.has(culture.id)) continue;
      for (const pool of [culture.given, culture.surname]) {
        for (const word of pool.counts.keys()) {
          if (word.startsWith(SKELETON_KEY_PREFIX)) continue; // a skeleton key, not a written word
          // (the pools fold و to v; read it as the vowel letter it mostly is)
          const key = skeleton(word.replace(/v/g, 'w'));
          if (key.length < 2) continue;
          const words = this.bySkeleton.get(key);
          if (!words) this.bySkeleton.set(key, [word]);
          else if (!words.includes(word)) words.push(word);
        }
      }
    }
  }

  private pooled(fold: string): boolean {
    return this.pools.cultures.some((c) => c.given.counts.has(fold) || c.surname.counts.has(fold));
  }

  /** The unvowelled pool word a Latin word (folded) is a spelling of, if any. */
  private written(latin: string): string | undefined {
    if (!/^[a-z]+$/.test(latin)) return undefined;
    return this.bySkeleton.get(skeleton(latin))?.find((word) => abjadVowelsAgree(word.replace(/v/g, 'w'), latin));
  }

  /**
   * A given name the pools hold (as written, or the unvowelled pool word a Latin spelling writes: Javad
   * for جواد): a name shared by many, like the lexicon's very common given names.
   */
  pooledGivenName(fold: string): boolean {
    const written = this.written(fold);
    return this.pools.cultures.some((c) => c.given.counts.has(fold) || (written !== undefined && c.given.counts.has(written)));
  }

  /** Why a person's name (its words as matched) is common (≥ 100 expected bearers in a culture), or undefined. */
  commonReason(words: readonly string[]): string | undefined {
    const text = words.join(' ');
    const asWritten = nameRarity(text, 'person', this.lists);
    if (asWritten.commonIn.length) return asWritten.reason;
    // (each word as the pools fold it; a word a pool already knows stays as it is)
    const folded = words.map((w) => prepareName(w).tokens.find((t) => t.kind === 'name')?.fold ?? w);
    const unvowelled = folded.map((w) => (this.pooled(w) ? w : (this.written(w) ?? w)));
    if (unvowelled.every((w, i) => w === folded[i])) return undefined;
    const asScript = nameRarity(unvowelled.join(' '), 'person', this.lists);
    // (read in an unvowelled script, the name is common only in a culture writing that script: a word read
    // as an Arabic or Persian entry beside one read as a Latin name is no reading of one name, Carlos Lobo
    // is not "Carlos al-Libi", round 4)
    const where = asScript.commonIn.find((c) => UNVOWELLED_CULTURES.has(c.culture));
    if (!where) return undefined;
    const reason = where === asScript.commonIn[0] ? asScript.reason : commonNameReason(where.bearers, where.label);
    return `${reason}, read as written in its script`;
  }
}

/**
 * Why the aligned pair is a partial match on a common name, or undefined. Not partial: every full name
 * word of both sides aligned (a missing patronymic or initial is a small penalty, not another name:
 * IVANOVA, Elena Nikolaevna for Elena Ivanova), or fewer than two words aligned (a one-word query has
 * its own band). Common: the words aligned, read on either side, are carried by ≥ 100 people in a
 * culture; merely "not distinctive" is not enough (Ali Khamenei, a common given name and a rare
 * surname, still alerts).
 *
 * Why a patronymic stays out (round 4, measured): a listed Russian is most often screened as given
 * name and surname (Dmitry Medvedev for MEDVEDEV, Dmitry Anatolievich, in any script); the pools
 * make Medvedev as common as Ivanova, so counting the patronymic would silence exactly those
 * true matches (issue 32's foreign-name recall fell on every form). Without an identity fact the
 * name cannot tell Elena Ivanova from him: both stay potential hits for an analyst.
 */
export function partialMatchOnCommonName(alignment: readonly TokenAlignment[], query: PreparedName, listed: PreparedName, names: CommonNames): string | undefined {
  const fullWord = (display: string, side: PreparedName) => side.tokens.some((t) => t.display === display && t.kind === 'name' && !t.initial && !t.patronymic);
  const unmatched = alignment.filter((a) => a.how === 'missing' && (a.query ? fullWord(a.query, query) : fullWord(a.candidate, listed)));
  if (!unmatched.length) return nearSpellingOfCommonName(alignment, query, names);
  const matched = alignment.filter((a) => a.how !== 'missing' && a.query && a.candidate);
  if (matched.length < 2) return undefined;
  const listedWords = matched.map((a) => a.candidate);
  // (a foreign-name reading's words are a transcription, which read as a native name of its script say
  // nothing of how many carry the name: 카르로스 로보 is no Korean name with the surname 로; the listed words
  // it spells are the name, as for a Latin query: issue 32)
  const reason = (isForeignReading(query) ? undefined : names.commonReason(matched.map((a) => a.query))) ?? names.commonReason(listedWords);
  if (!reason) return undefined;
  return (
    `partial match on a common name: "${listedWords.join(' ')}" matched (${reason}), ` +
    `${unmatched.map((a) => `"${a.query || a.candidate}"`).join(', ')} unmatched, and no date of birth or identifier agrees: no alert on the name alone`
  );
}

/**
 * A whole-name match whose only name word besides common given names matched by a near spelling (a
 * typo's distance or a sound code, not a transliteration of one name) and is short (Amini, Sahib,
 * Garza: six letters at most, where a letter more or less makes another name): Mohammad Amini / AMEEN,
 * Mohamad; Robert Garza / Robert Garcia; Mehmet Sahin / MUHAMMAD, Sahib. The given name is shared by
 * millions and the surname is another word: without an identity fact, no alert on the name alone.
 * Common given names: the lexicon's, and (round 4) a given name of the name pools standing first in
 * the query (Javad Rahimi / JAVAD RAHIQI, Mohsen Rahimi / EBRAHIMI, Mohsen).
 */
function nearSpellingOfCommonName(alignment: readonly TokenAlignment[], query: PreparedName, names: CommonNames): string | undefined {
  const token = (display: string) => query.tokens.find((t) => t.display === display && t.kind === 'name');
  const firstName = query.tokens.find((t) => t.kind === 'name');
  let near: TokenAlignment | undefined;
  let words = 0;
  for (const a of alignment) {
    if (a.how === 'missing' || !a.query || !a.candidate) continue;
    const t = token(a.query);
    if (!t) continue; // particles, titles
    words++;
    // (a pool's given name counts as the name's given name where it stands first: Husaynas al-Shami's
    // "shami" is its family name, whatever given name its letters also write)
    if (t.common || (a.how === 'exact' && t === firstName && names.pooledGivenName(t.fold))) continue;
    const nearSpelling = a.how === 'fuzzy' || a.how === 'phonetic';
    // (a short word only: two long words a letter or two apart are one name's spellings, Medvedyev / Medvedev)
    if (nearSpelling && !near && Math.min(t.fold.length, a.candidate.length) <= NEAR_WORD_MAX_LENGTH) near = a;
    else return undefined; // a rarer word matched as written or transliterated: not only common names
  }
  if (!near || words < 2) return undefined;
  return `"${near.query}" only resembles "${near.candidate}" (a near spelling, not the same name) and the other words matched are common given names: no alert on the name alone without a date of birth or identifier`;
}
