/**
 * Address normalisation and agreement for internal-list matching. An address is taken apart into
 * house number, unit, street, city, region, postcode and country, from its structured fields and
 * from its line (./address-parse.ts reads a whole address written on one line: "123 Main St Apt 4,
 * Las Vegas NV 89101"). Street types and directions are written one way (Street/St/St. → "st"),
 * postcodes lose case and spacing (US ZIP+4 compares on the ZIP), and the result says how much of
 * two addresses agree: the same dwelling, the same building (another flat), the same street, the
 * same postcode or city, or a different place. The same address written the same way always agrees.
 */
import anyAscii from 'any-ascii';
import { parseAddressLine, regionCode, regionCountry, STREET_TYPES, WORD_FORMS, words } from './address-parse';

export interface AddressInput {
  line?: string;
  city?: string;
  /** state, province or county (a code or a name) */
  region?: string;
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
  /** two-letter US state or Canadian province code, else the region's words */
  region?: string;
  postcode?: string;
  country?: string;
  /** street and city words in order: compared when a one-line address could not say where its street ends */
  place?: string;
  /** every word of the address, rewritten: the same text is the same address */
  text: string;
}

export function normalisePostcode(raw: string | undefined, country?: string): string | undefined {
  if (!raw) return undefined;
  let p = (/^[\x00-\x7f]*$/.test(raw) ? raw : anyAscii(raw)).toUpperCase().replace(/[^A-Z0-9]/g, '');
  // US ZIP+4 compares on the ZIP
  if ((country === 'US' || !country) && /^\d{9}$/.test(p)) p = p.slice(0, 5);
  return p || undefined;
}

const normaliseCountry = (c: string | undefined) => (c && c.trim() ? c.trim().toUpperCase() : undefined);

/**
 * Each address object's parts, kept while the object lives: a list entry's addresses are compared
 * with every screened subject that reaches the entry, and parsing a line is the dearest step. (A memo
 * of a pure function over objects that are never changed after they are read: entries and requests.)
 */
const normalisedByObject = new WeakMap<AddressInput, NormalisedAddress>();

/** An address's parts: the structured fields, and what its line says besides (a one-line address gives them all). */
export function normaliseAddress(a: AddressInput): NormalisedAddress {
  let out = normalisedByObject.get(a);
  if (out === undefined) normalisedByObject.set(a, (out = normaliseUncached(a)));
  return out;
}

function normaliseUncached(a: AddressInput): NormalisedAddress {
  const parsed = a.line ? parseAddressLine(a.line) : undefined;
  const out: NormalisedAddress = { text: '' };
  const region = a.region ? (regionCode(a.region) ?? (words(a.region).join(' ') || undefined)) : parsed?.region;
  out.country = normaliseCountry(a.country) ?? parsed?.country ?? (region && /^[a-z]{2}$/.test(region) && regionCode(region) ? regionCountry(region) : undefined);
  out.postcode = normalisePostcode(a.postalCode, out.country) ?? (parsed?.postcode ? normalisePostcode(parsed.postcode, out.country) : undefined);
  const cityWords = a.city ? words(a.city) : [];
  const city = a.city ? cityWords.map((w) => WORD_FORMS[w] ?? w) : parsed?.city ?? [];
  if (city.length) out.city = city.join(' ');
  if (region) out.region = region;
  if (parsed) {
    if (parsed.houseNumber) out.houseNumber = parsed.houseNumber;
    if (parsed.unit) out.unit = parsed.unit;
    // the city or postcode sometimes sits in a structured line too: leave them out of the street
    const cityWords = new Set(a.city ? city : []);
    const street = parsed.street.filter((t, i) => !(cityWords.has(t) && i > 0));
    if (street.length) out.street = street.join(' ');
    const place = [...street, ...(parsed.city.length ? parsed.city : city)];
    if (place.length) out.place = place.join(' ');
  }
  const text = [...(parsed?.words ?? []), ...cityWords];
  for (const field of [a.region, a.postalCode, a.country]) if (field && field.trim() !== '') text.push(...words(field));
  out.text = text.map((w) => WORD_FORMS[w] ?? w).join(' ');
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

/** Words a street's name may have on one side only: types and directions ("High St" / "High"). */
const STREET_WORDS = new Set([...Object.values(WORD_FORMS), ...STREET_TYPES]);

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
  // the same address written the same way is the same place, however it would be parsed
  if (s.text !== '' && s.text === l.text && (s.street || s.houseNumber)) return 'same_address';
  const samePostcode = !!s.postcode && s.postcode === l.postcode;
  const postcodesDiffer = !!s.postcode && !!l.postcode && s.postcode !== l.postcode;
  const regionsDiffer = !!s.region && !!l.region && s.region !== l.region;
  const sameCity = !!s.city && s.city === l.city && !regionsDiffer;
  // a postcode on both sides must agree: the same street name in one city with two postcodes is often two streets
  const sameTown = samePostcode || (sameCity && !postcodesDiffer);
  // a one-line address that could not say where its street ends ("400 Main St Park City UT"): its
  // street and city words in order against the other side's
  const samePlace = !!s.place && s.place === l.place && !!s.city && !!l.city && !postcodesDiffer && !regionsDiffer;
  if ((streetsAgree(s.street, l.street) && sameTown) || samePlace) {
    if (s.houseNumber && s.houseNumber === l.houseNumber) {
      if (s.unit && l.unit && s.unit !== l.unit) return 'same_building_other_unit';
      return 'same_address';
    }
    return 'same_street';
  }
  if (samePostcode) return 'same_postcode';
  if (sameCity) return 'same_city';
  // a street with no town on one side: it may be the same street in another town, or another street in the same town
  const town = (a: NormalisedAddress) => !!(a.postcode || a.city);
  if (streetsAgree(s.street, l.street) && (!town(s) || !town(l))) return undefined;
  const comparable = (s.street || s.postcode || s.city) && (l.street || l.postcode || l.city);
  return comparable ? 'different' : undefined;
}

const RANK: Record<AddressLevel, number> = {
  same_address: 6, same_building_other_unit: 5, same_street: 4, same_postcode: 3, same_city: 2, different: 1, other_country: 0,
};

export function formatAddress(a: AddressInput): string {
  return [a.line, a.postalCode, a.city, a.region, a.country].filter((x) => x && x.trim()).join(', ');
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
