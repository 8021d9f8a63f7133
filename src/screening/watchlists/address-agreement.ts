/**
 * Address normalisation and agreement for internal-list matching. Street types and directions are
 * written one way (Street/St/St. → "st", Lane → "ln"), flat/apartment/unit numbers are taken apart
 * from the house number, postcodes lose case and spacing (US ZIP+4 compares on the ZIP), and the
 * result says how much of two addresses agree: the same dwelling, the same building (another flat),
 * the same street, the same postcode or city, or a different place.
 */
import anyAscii from 'any-ascii';

export interface AddressInput {
  line?: string;
  city?: string;
  postalCode?: string;
  /** ISO alpha-2 when known */
  country?: string;
}

export interface NormalisedAddress {
  /** street words without the house number or unit, abbreviations unified ("12 High Street" → "high st") */
  street?: string;
  houseNumber?: string;
  unit?: string;
  city?: string;
  postcode?: string;
  country?: string;
}

/** Written-out words and their one spelling (USPS and Royal Mail usage; both sides are rewritten the same way). */
const WORD_FORMS: Record<string, string> = {
  street: 'st', str: 'st', strasse: 'st', road: 'rd', lane: 'ln', avenue: 'ave', av: 'ave', avenu: 'ave', drive: 'dr', drv: 'dr',
  court: 'ct', crt: 'ct', place: 'pl', square: 'sq', crescent: 'cres', cresc: 'cres', terrace: 'ter', terr: 'ter', boulevard: 'blvd',
  boul: 'blvd', close: 'cl', gardens: 'gdns', garden: 'gdn', highway: 'hwy', parkway: 'pkwy', way: 'way', mews: 'mews', grove: 'gr',
  grv: 'gr', hill: 'hl', park: 'pk', circle: 'cir', row: 'row', walk: 'wlk', green: 'grn', mount: 'mt', view: 'vw',
  north: 'n', south: 's', east: 'e', west: 'w', northeast: 'ne', northwest: 'nw', southeast: 'se', southwest: 'sw',
  saint: 'st', first: '1st', second: '2nd', third: '3rd',
};
const STREET_WORDS = new Set(Object.values(WORD_FORMS));
/** Words that introduce a flat/apartment/unit number. */
const UNIT_WORDS = new Set(['apartment', 'apt', 'flat', 'unit', 'suite', 'ste', 'room', 'rm', 'no', 'number', 'apartement', 'appartement']);
const FLOOR_WORDS = new Set(['floor', 'fl', 'level']);

function words(s: string): string[] {
  return anyAscii(s)
    .toLowerCase()
    .replace(/#\s*/g, ' unit ')
    .replace(/[^a-z0-9/]+/g, ' ')
    .split(' ')
    .filter(Boolean);
}

export function normalisePostcode(raw: string | undefined, country?: string): string | undefined {
  if (!raw) return undefined;
  let p = anyAscii(raw).toUpperCase().replace(/[^A-Z0-9]/g, '');
  // US ZIP+4 compares on the ZIP
  if ((country === 'US' || !country) && /^\d{9}$/.test(p)) p = p.slice(0, 5);
  return p || undefined;
}

const HOUSE_NUMBER = /^\d+[a-z]?$/;

export function normaliseAddress(a: AddressInput): NormalisedAddress {
  const out: NormalisedAddress = {};
  if (a.country) out.country = a.country.trim().toUpperCase();
  out.postcode = normalisePostcode(a.postalCode, out.country);
  if (a.city) out.city = words(a.city).join(' ') || undefined;
  if (!a.line) return out;
  const w = words(a.line);
  const street: string[] = [];
  for (let i = 0; i < w.length; i++) {
    const t = w[i];
    if (UNIT_WORDS.has(t) && i + 1 < w.length && /^\d+[a-z]?$|^[a-z]$/.test(w[i + 1])) {
      out.unit = w[++i];
      continue;
    }
    if (FLOOR_WORDS.has(t) && i + 1 < w.length && /^\d+/.test(w[i + 1])) {
      i++;
      continue;
    }
    // "12/3 High St" (unit/number, the Australian way) and "3-12" are kept as number + unit
    const slash = /^(\d+[a-z]?)\/(\d+[a-z]?)$/.exec(t);
    if (slash && !out.houseNumber) {
      out.unit = slash[1];
      out.houseNumber = slash[2];
      continue;
    }
    if (HOUSE_NUMBER.test(t) && !/^\d+(st|nd|rd|th)$/.test(t)) {
      // the first number is the house number, a second one before the street a unit ("Flat 3, 12 High St" was handled above)
      if (!out.houseNumber) out.houseNumber = t;
      else if (!out.unit) {
        out.unit = out.houseNumber;
        out.houseNumber = t;
      }
      continue;
    }
    street.push(WORD_FORMS[t] ?? t);
  }
  // the postcode or city sometimes sits in the line itself: leave them out of the street
  const cityWords = new Set(out.city?.split(' ') ?? []);
  const filtered = street.filter((t, i) => !(cityWords.has(t) && i > 0) && normalisePostcode(t, out.country) !== out.postcode);
  if (filtered.length) out.street = filtered.join(' ');
  return out;
}

export type AddressLevel =
  /** house number, street and town (postcode or city) agree, and the flat too when both give one */
  | 'same_address'
  /** the same building, another flat */
  | 'same_building_other_unit'
  /** the same street and town, the house number differs or is missing on one side */
  | 'same_street'
  /** only the postcode agrees */
  | 'same_postcode'
  /** only the city agrees */
  | 'same_city'
  /** same country, another town (or another postcode and street) */
  | 'different'
  /** different countries */
  | 'other_country';

export interface AddressAgreement {
  level: AddressLevel;
  subject: string;
  listed: string;
}

function streetsAgree(a: string | undefined, b: string | undefined): boolean {
  if (!a || !b) return false;
  if (a === b) return true;
  // a street type written on one side only ("High St" / "High"), never two different types ("Park Rd" / "Park Ave")
  const split = (s: string) => {
    const words = s.split(' ');
    return { name: words.filter((t) => !STREET_WORDS.has(t)).join(' '), types: words.filter((t) => STREET_WORDS.has(t)).join(' ') };
  };
  const sa = split(a);
  const sb = split(b);
  return sa.name !== '' && sa.name === sb.name && (!sa.types || !sb.types || sa.types === sb.types);
}

export function compareAddresses(s: NormalisedAddress, l: NormalisedAddress): AddressLevel | undefined {
  if (s.country && l.country && s.country !== l.country) return 'other_country';
  const samePostcode = !!s.postcode && s.postcode === l.postcode;
  const sameCity = !!s.city && s.city === l.city;
  // a postcode on both sides must agree: the same street name in one city with two postcodes is often two streets
  const sameTown = samePostcode || (sameCity && (!s.postcode || !l.postcode));
  const street = streetsAgree(s.street, l.street);
  if (street && sameTown) {
    if (s.houseNumber && s.houseNumber === l.houseNumber) {
      if (s.unit && l.unit && s.unit !== l.unit) return 'same_building_other_unit';
      return 'same_address';
    }
    return 'same_street';
  }
  if (samePostcode) return 'same_postcode';
  if (sameCity) return 'same_city';
  const comparable = (s.street || s.postcode || s.city) && (l.street || l.postcode || l.city);
  return comparable ? 'different' : undefined;
}

const RANK: Record<AddressLevel, number> = {
  same_address: 6, same_building_other_unit: 5, same_street: 4, same_postcode: 3, same_city: 2, different: 1, other_country: 0,
};

export function formatAddress(a: AddressInput): string {
  return [a.line, a.postalCode, a.city, a.country].filter((x) => x && x.trim()).join(', ');
}

/** The best agreement between any subject address and any listed one; undefined when nothing can be compared. */
export function addressAgreement(subject: readonly AddressInput[], listed: readonly AddressInput[]): AddressAgreement | undefined {
  let best: AddressAgreement | undefined;
  for (const s of subject) {
    const ns = normaliseAddress(s);
    for (const l of listed) {
      const level = compareAddresses(ns, normaliseAddress(l));
      if (level && (!best || RANK[level] > RANK[best.level])) best = { level, subject: formatAddress(s), listed: formatAddress(l) };
    }
  }
  return best;
}
