/**
 * Discriminators between related but different organisations that share a name (issue 20): a foreign
 * subsidiary and its parent ("X (Hong Kong) Ltd" / "X Ltd"), two subsidiaries in different places, a
 * holding company and its operating company ("X Holdings" / "X"). Sanctions screening prefers recall, so
 * a one-sided place or holding word only keeps the match from being confirmed (a potential match at
 * most, with the reason in the explanation); two different places lower the score.
 */
import { toIso2 } from '../lists/countries';

/** What this module reads of a prepared token (prepare.ts NameToken). */
interface Tok {
  kind: string;
  norm: string;
  display: string;
  generic?: string;
}

/** Highest final score of a match whose names differ only by a place or a holding word (below confirmed). */
export const RELATED_ENTITY_CAP = 0.9;
/** Factor on the name score when each name carries another place. */
export const OTHER_PLACE_FACTOR = 0.8;

// Places that name foreign subsidiaries and are not countries (country names are read by toIso2).
const PLACES = new Set(
  ('uk usa uae hong kong hk dubai abu dhabi sharjah shanghai shenzhen beijing guangzhou tianjin dalian qingdao ningbo macau macao ' +
    'london moscow st petersburg istanbul singapore labuan bvi fze fzco fzc jafza europe asia pacific americas africa middle east')
    .split(' '),
);

const countryCache = new Map<string, boolean>();
function isCountry(words: string): boolean {
  let known = countryCache.get(words);
  if (known === undefined) {
    known = !!toIso2(words);
    if (countryCache.size > 50_000) countryCache.clear();
    countryCache.set(words, known);
  }
  return known;
}

function placeSpans(toks: Tok[]): string[] | undefined {
  // every token must be part of a place name (a country name of 1–2 words, or a known place)
  const words = toks.map((t) => t.norm);
  const places: string[] = [];
  for (let i = 0; i < words.length; ) {
    const two = i + 1 < words.length ? `${words[i]} ${words[i + 1]}` : '';
    if (two && ((PLACES.has(words[i]) && PLACES.has(words[i + 1])) || isCountry(two))) {
      places.push(two);
      i += 2;
    } else if (PLACES.has(words[i]) || (words[i].length > 3 && isCountry(words[i]))) {
      places.push(words[i]);
      i++;
    } else return undefined;
  }
  return places.length ? places : undefined;
}

export interface Discrimination {
  note: string;
  /** Highest final score. */
  cap?: number;
  /** Factor on the name score. */
  factor?: number;
}

/**
 * Given the unmatched name words of each side of an otherwise matching organisation name, say whether
 * they make the names a related but different entity.
 */
export function relatedEntity(qLeft: Tok[], cLeft: Tok[]): Discrimination | undefined {
  if (!qLeft.length && !cLeft.length) return undefined;
  const qp = qLeft.length ? placeSpans(qLeft) : undefined;
  const cp = cLeft.length ? placeSpans(cLeft) : undefined;
  if (qp && cp) {
    return { factor: OTHER_PLACE_FACTOR, note: `each name carries another place ("${qp.join(' ')}" / "${cp.join(' ')}"): subsidiaries in different places are different companies` };
  }
  if ((qp && !cLeft.length) || (cp && !qLeft.length)) {
    const place = (qp ?? cp)!.join(' ');
    return { cap: RELATED_ENTITY_CAP, note: `"${place}" is only in one name: a subsidiary in another place may be another company than its parent; potential, not confirmed` };
  }
  const holding = (toks: Tok[]) => toks.length > 0 && toks.every((t) => t.generic === 'holding' || (t.kind !== 'name' && t.kind !== 'stop'));
  if ((holding(qLeft) && !cLeft.length) || (holding(cLeft) && !qLeft.length)) {
    const w = (qLeft.length ? qLeft : cLeft).map((t) => t.display).join(' ');
    return { cap: RELATED_ENTITY_CAP, note: `"${w}" is only in one name: a holding company and its operating company are different entities; potential, not confirmed` };
  }
  return undefined;
}
