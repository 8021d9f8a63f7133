/**
 * Identifier, phone and e-mail agreement for internal-list matching.
 * - Documents (passport, national id, tax id, registration number, IMO) compare on their letters
 *   and digits, case and punctuation aside; two documents of one kind and one issuing country with
 *   different numbers are a conflict for ids a person keeps for life (national id, tax id), and
 *   only a difference for passports (renewed, several held).
 * - Phones are brought to an E.164-like form (+ country code, national number without its trunk 0)
 *   when the country is known or the number is international. Two numbers written without a code
 *   are the same number when all their national digits agree, and a number without a code is read
 *   in the other side's country when only that one is known (a customer file and a list of one firm
 *   use one numbering plan); when no country places a national number against an international
 *   one, the last nine digits are compared, which is weaker and said so.
 * - E-mail addresses compare case-insensitively and otherwise exactly: dots or "+tags" in the local
 *   part are not assumed to be ignorable (only some providers do so).
 */

export type IdentifierKind = 'passport' | 'national_id' | 'tax_id' | 'registration_number' | 'imo' | 'drivers_license' | 'phone' | 'email' | 'other';

export interface IdentifierInput {
  kind: IdentifierKind | string;
  value: string;
  /** ISO alpha-2 of the issuing country (documents) or of the phone number */
  country?: string;
  /** issuing state or province (a driver's licence): the same number in two states is two licences */
  region?: string;
}

/** Country calling codes of the countries a UK/EU/US firm's customers most often give (ITU-T E.164 assignments). */
const CALLING_CODES: Record<string, string> = {
  GB: '44', IE: '353', US: '1', CA: '1', FR: '33', DE: '49', NL: '31', BE: '32', LU: '352', ES: '34', PT: '351', IT: '39', CH: '41',
  AT: '43', DK: '45', SE: '46', NO: '47', FI: '358', PL: '48', CZ: '420', SK: '421', HU: '36', RO: '40', BG: '359', GR: '30', CY: '357',
  MT: '356', EE: '372', LV: '371', LT: '370', SI: '386', HR: '385', RU: '7', UA: '380', TR: '90', IL: '972', AE: '971', SA: '966',
  IN: '91', PK: '92', CN: '86', HK: '852', SG: '65', JP: '81', KR: '82', AU: '61', NZ: '64', ZA: '27', NG: '234', KE: '254', BR: '55',
  MX: '52', AR: '54',
};

export interface NormalisedPhone {
  /** "+447700900123" when the country code is known */
  e164?: string;
  /** without a known code: the digits without the trunk 0 ("07700 900123" → "7700900123") */
  national?: string;
  /** the last nine digits: the national significant number of most countries */
  tail: string;
}

export function normalisePhone(raw: string, country?: string): NormalisedPhone | undefined {
  const trimmed = raw.trim();
  let digits = trimmed.replace(/\(0\)/g, '').replace(/[^\d+]/g, '');
  if (digits.startsWith('00')) digits = '+' + digits.slice(2);
  const plus = digits.startsWith('+');
  digits = digits.replace(/\+/g, '');
  if (digits.length < 7) return undefined;
  let e164: string | undefined;
  if (plus) e164 = '+' + digits;
  else {
    const cc = country ? CALLING_CODES[country.toUpperCase()] : undefined;
    if (cc && digits.startsWith(cc) && digits.length > 10) e164 = '+' + digits;
    else if (cc) e164 = '+' + cc + (cc === '1' ? digits.replace(/^1(?=\d{10}$)/, '') : digits.replace(/^0/, ''));
  }
  const national = e164 ? e164.slice(1) : digits.replace(/^0/, '');
  return e164 ? { e164, tail: national.slice(-9) } : { national, tail: national.slice(-9) };
}

export function normaliseEmail(raw: string): string | undefined {
  const s = raw.trim().toLowerCase();
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(s) ? s : undefined;
}

/** Document numbers: letters and digits, upper case ("AB 12-34.56" → "AB123456"). */
export function normaliseDocument(raw: string): string {
  return raw.toUpperCase().replace(/[^A-Z0-9]/g, '');
}

const DOCUMENT_KINDS = new Set(['passport', 'national_id', 'tax_id', 'registration_number', 'imo', 'drivers_license', 'other']);
/** Identifiers a person or company keeps: two different values of one kind and country are two different holders. */
const LIFELONG_KINDS = new Set(['national_id', 'tax_id', 'registration_number', 'imo']);

export type IdentifierLevel =
  /** same document kind and number */
  | 'document_match'
  /** same number, kinds differ or unstated ("other") */
  | 'document_number_match'
  | 'phone_match'
  /** same last nine digits, country code unknown on a side */
  | 'phone_probable_match'
  | 'email_match'
  /** a lifelong id of one kind and country with another number */
  | 'document_conflict'
  /** passports of one country with different numbers */
  | 'passport_differs';

export interface IdentifierAgreement {
  level: IdentifierLevel;
  kind: string;
  subject: string;
  listed: string;
}

const RANK: Record<IdentifierLevel, number> = {
  document_match: 7, document_number_match: 6, phone_match: 5, email_match: 5, phone_probable_match: 4, passport_differs: 1, document_conflict: 0,
};

/**
 * Every agreement worth reporting between two sets of identifiers: matches first, then conflicts
 * (a match and a conflict can both hold, e.g. the same e-mail and another tax id).
 * `defaultCountry` places a phone without a country code (the subject's or the entry's country).
 */
export function identifierAgreements(
  subject: readonly IdentifierInput[],
  listed: readonly IdentifierInput[],
  defaultCountry: { subject?: string; listed?: string } = {},
): IdentifierAgreement[] {
  const found = new Map<string, IdentifierAgreement>();
  const add = (a: IdentifierAgreement) => {
    const key = `${a.level}\u0000${a.kind}\u0000${a.listed}`;
    if (!found.has(key)) found.set(key, a);
  };
  for (const s of subject) {
    for (const l of listed) {
      const kind = s.kind === l.kind ? s.kind : `${s.kind}/${l.kind}`;
      if (s.kind === 'phone' && l.kind === 'phone') {
        // a number without a code is read in its own side's country, else in the other side's (one firm's customers and lists share a plan)
        const subjectCountry = s.country ?? defaultCountry.subject;
        const listedCountry = l.country ?? defaultCountry.listed;
        const ps = normalisePhone(s.value, subjectCountry ?? listedCountry);
        const pl = normalisePhone(l.value, listedCountry ?? subjectCountry);
        if (!ps || !pl) continue;
        if (ps.e164 && pl.e164) {
          if (ps.e164 === pl.e164) add({ level: 'phone_match', kind, subject: s.value, listed: l.value });
        } else if (ps.national && ps.national.length >= 9 && ps.national === pl.national) add({ level: 'phone_match', kind, subject: s.value, listed: l.value });
        else if (ps.tail === pl.tail) add({ level: 'phone_probable_match', kind, subject: s.value, listed: l.value });
        continue;
      }
      if (s.kind === 'email' && l.kind === 'email') {
        const es = normaliseEmail(s.value);
        if (es && es === normaliseEmail(l.value)) add({ level: 'email_match', kind, subject: s.value, listed: l.value });
        continue;
      }
      if (!DOCUMENT_KINDS.has(s.kind) || !DOCUMENT_KINDS.has(l.kind)) continue;
      const ds = normaliseDocument(s.value);
      const dl = normaliseDocument(l.value);
      if (ds.length < 4 || dl.length < 4) continue;
      const countriesAgree =
        (!s.country || !l.country || s.country.toUpperCase() === l.country.toUpperCase()) && (!s.region || !l.region || s.region.toLowerCase() === l.region.toLowerCase());
      if (ds === dl && countriesAgree) {
        add({ level: s.kind === l.kind && s.kind !== 'other' ? 'document_match' : 'document_number_match', kind, subject: s.value, listed: l.value });
      } else if (s.kind === l.kind && s.country && l.country && s.country.toUpperCase() === l.country.toUpperCase()) {
        if (LIFELONG_KINDS.has(s.kind)) add({ level: 'document_conflict', kind, subject: s.value, listed: l.value });
        else if (s.kind === 'passport' || s.kind === 'drivers_license') add({ level: 'passport_differs', kind, subject: s.value, listed: l.value });
      }
    }
  }
  return [...found.values()].sort((a, b) => RANK[b.level] - RANK[a.level]);
}
