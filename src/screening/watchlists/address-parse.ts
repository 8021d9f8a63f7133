/**
 * Reading a postal address written on one line ("123 Main St Apt 4, Las Vegas NV 89101-1234",
 * "Flat 3, 12 High Street, London SW1A 1AA, United Kingdom"): most customer files keep addresses
 * that way, and a list entry may be structured. The parser takes the line apart into house number,
 * unit, street, city, region (US state, Canadian province), postcode and country, working from the
 * end (country, then postcode and region, then city), so both sides can be compared part by part.
 *
 * Why our own parser and not a library: the one well-kept JS parser that reads such lines
 * (@sroussey/parse-address, a port of Geo::StreetAddress::US) knows US addresses only (a UK line
 * loses its city and postcode and is labelled US), takes about 120 µs a line on this machine (12 s
 * for a 100,000-entry list) and brings core-js-pure (16 MB) through xregexp; libpostal needs a native
 * model. Street types, directions and units follow USPS Publication 28 and Royal Mail usage.
 */
import anyAscii from 'any-ascii';
import { countryNamed } from '../lists/countries';

/** Written-out words and their one spelling (USPS and Royal Mail usage; both sides are rewritten the same way). */
export const WORD_FORMS: Readonly<Record<string, string>> = {
  street: 'st', str: 'st', strasse: 'st', road: 'rd', lane: 'ln', avenue: 'ave', av: 'ave', avenu: 'ave', drive: 'dr', drv: 'dr',
  court: 'ct', crt: 'ct', place: 'pl', square: 'sq', crescent: 'cres', cresc: 'cres', terrace: 'ter', terr: 'ter', boulevard: 'blvd',
  boul: 'blvd', close: 'cl', gardens: 'gdns', garden: 'gdn', highway: 'hwy', parkway: 'pkwy', pky: 'pkwy', way: 'way', mews: 'mews', grove: 'gr',
  grv: 'gr', hill: 'hl', park: 'pk', circle: 'cir', row: 'row', walk: 'wlk', green: 'grn', mount: 'mt', view: 'vw', trail: 'trl',
  expressway: 'expy', freeway: 'fwy', plaza: 'plz', point: 'pt', ridge: 'rdg', loop: 'loop', pike: 'pike', alley: 'aly', run: 'run',
  north: 'n', south: 's', east: 'e', west: 'w', northeast: 'ne', northwest: 'nw', southeast: 'se', southwest: 'sw',
  saint: 'st', fort: 'ft', first: '1st', second: '2nd', third: '3rd', fourth: '4th', fifth: '5th', sixth: '6th', seventh: '7th',
  eighth: '8th', ninth: '9th', tenth: '10th',
};
/** Street types (after rewriting): what ends a street name on a one-line address. */
export const STREET_TYPES: ReadonlySet<string> = new Set([
  'st', 'rd', 'ln', 'ave', 'dr', 'ct', 'pl', 'sq', 'cres', 'ter', 'blvd', 'cl', 'gdns', 'gdn', 'hwy', 'pkwy', 'way', 'mews', 'gr', 'hl', 'pk', 'cir',
  'row', 'wlk', 'grn', 'vw', 'trl', 'expy', 'fwy', 'plz', 'pt', 'rdg', 'loop', 'pike', 'aly', 'run',
]);
const DIRECTIONS = new Set(['n', 's', 'e', 'w', 'ne', 'nw', 'se', 'sw']);
/** Words that introduce a flat/apartment/unit number ("#" is read as "unit"). */
const UNIT_WORDS = new Set(['apartment', 'apt', 'flat', 'unit', 'suite', 'ste', 'room', 'rm', 'no', 'number', 'apartement', 'appartement', 'lot', 'bldg', 'building']);
const FLOOR_WORDS = new Set(['floor', 'fl', 'level']);

/** US states, DC and territories, Canadian provinces: code and name. */
const REGIONS: readonly [string, string][] = [
  ['al', 'alabama'], ['ak', 'alaska'], ['az', 'arizona'], ['ar', 'arkansas'], ['ca', 'california'], ['co', 'colorado'], ['ct', 'connecticut'],
  ['de', 'delaware'], ['dc', 'district of columbia'], ['fl', 'florida'], ['ga', 'georgia'], ['hi', 'hawaii'], ['id', 'idaho'], ['il', 'illinois'],
  ['in', 'indiana'], ['ia', 'iowa'], ['ks', 'kansas'], ['ky', 'kentucky'], ['la', 'louisiana'], ['me', 'maine'], ['md', 'maryland'],
  ['ma', 'massachusetts'], ['mi', 'michigan'], ['mn', 'minnesota'], ['ms', 'mississippi'], ['mo', 'missouri'], ['mt', 'montana'],
  ['ne', 'nebraska'], ['nv', 'nevada'], ['nh', 'new hampshire'], ['nj', 'new jersey'], ['nm', 'new mexico'], ['ny', 'new york'],
  ['nc', 'north carolina'], ['nd', 'north dakota'], ['oh', 'ohio'], ['ok', 'oklahoma'], ['or', 'oregon'], ['pa', 'pennsylvania'],
  ['ri', 'rhode island'], ['sc', 'south carolina'], ['sd', 'south dakota'], ['tn', 'tennessee'], ['tx', 'texas'], ['ut', 'utah'],
  ['vt', 'vermont'], ['va', 'virginia'], ['wa', 'washington'], ['wv', 'west virginia'], ['wi', 'wisconsin'], ['wy', 'wyoming'],
  ['pr', 'puerto rico'], ['gu', 'guam'], ['vi', 'virgin islands'],
  ['ab', 'alberta'], ['bc', 'british columbia'], ['mb', 'manitoba'], ['nb', 'new brunswick'], ['nl', 'newfoundland and labrador'],
  ['ns', 'nova scotia'], ['nt', 'northwest territories'], ['nu', 'nunavut'], ['on', 'ontario'], ['pe', 'prince edward island'],
  ['qc', 'quebec'], ['sk', 'saskatchewan'], ['yt', 'yukon'],
];
const CANADIAN = new Set(['ab', 'bc', 'mb', 'nb', 'nl', 'ns', 'nt', 'nu', 'on', 'pe', 'qc', 'sk', 'yt']);
const REGION_CODES = new Set(REGIONS.map(([c]) => c));
const REGION_BY_NAME = new Map(REGIONS.map(([c, n]) => [n, c]));
/** The last word of every region name: only a line ending on one of these (or on a code) is looked up. */
const REGION_LAST_WORDS = new Set(REGIONS.map(([, n]) => n.split(' ').at(-1)!));

/** A region (state or province) as its two-letter code, from a code or a name; undefined otherwise. */
export function regionCode(raw: string | undefined): string | undefined {
  if (!raw) return undefined;
  const s = words(raw).join(' ');
  if (REGION_CODES.has(s)) return s;
  return REGION_BY_NAME.get(s);
}

/** The country a region code implies (a US state ⇒ US, a province ⇒ CA). */
export function regionCountry(code: string): string {
  return CANADIAN.has(code) ? 'CA' : 'US';
}

/** Lower-case words, accents and punctuation aside ("#" ⇒ "unit"; "U.S.A." ⇒ "usa"). */
export function words(s: string): string[] {
  return tokens(s).flat();
}

const ASCII = /^[\x00-\x7f]*$/;
const KEPT_WITH_DASH = /^\d{5}-\d{4}$|^\d+[a-z]?-\d+[a-z]?$/;
const trimSlashes = (t: string) => (t.startsWith('/') || t.endsWith('/') ? t.replace(/^\/+|\/+$/g, '') : t);

/** The words of each comma (or line) separated segment; written for speed: a list's every address goes through it. */
function tokens(s: string): string[][] {
  let text = (ASCII.test(s) ? s : anyAscii(s)).toLowerCase();
  if (text.includes('.')) text = text.replace(/\bu\.\s?s\.\s?a\.?(?![a-z])/g, 'usa').replace(/\bu\.\s?s\.(?![a-z])/g, 'us').replace(/\bu\.\s?k\.(?![a-z])/g, 'uk');
  if (text.includes('#')) text = text.replace(/#\s*/g, ' unit ');
  const out: string[][] = [];
  for (const segment of text.split(/[,;\n\r]+/)) {
    const words: string[] = [];
    for (const raw of segment.split(/[^a-z0-9/-]+/)) {
      if (!raw) continue;
      if (raw.includes('-') && !KEPT_WITH_DASH.test(raw)) {
        for (const part of raw.split('-')) {
          const t = trimSlashes(part);
          if (t) words.push(t);
        }
      } else {
        const t = trimSlashes(raw);
        if (t) words.push(t);
      }
    }
    if (words.length) out.push(words);
  }
  return out;
}

export interface ParsedAddressLine {
  /** every word of the line, in order (the same address written the same way has the same words) */
  words: string[];
  houseNumber?: string;
  unit?: string;
  /** street words, rewritten (USPS/Royal Mail forms), without house number or unit */
  street: string[];
  /** true when the street name ended on a street type (a one-line address then says where the city begins) */
  streetTyped: boolean;
  city: string[];
  /** two-letter state or province code */
  region?: string;
  /** upper case, no spaces */
  postcode?: string;
  /** ISO alpha-2 */
  country?: string;
}

const UK_OUTWARD = /^[a-z]{1,2}\d[a-z\d]?$/;
const UK_INWARD = /^\d[a-z]{2}$/;
const UK_WHOLE = /^[a-z]{1,2}\d[a-z\d]?\d[a-z]{2}$/;
const CA_FSA = /^[a-z]\d[a-z]$/;
const CA_LDU = /^\d[a-z]\d$/;
const CA_WHOLE = /^[a-z]\d[a-z]\d[a-z]\d$/;
const US_ZIP = /^\d{5}(-\d{4})?$|^\d{9}$/;
const NUMERIC_POSTCODE = /^\d{4,6}$/;
const HOUSE_NUMBER = /^\d+[a-z]?$|^\d+[a-z]?-\d+[a-z]?$/;
const ORDINAL = /^\d+(st|nd|rd|th)$/;

interface Token {
  w: string;
  seg: number;
}

/** How many tokens at `i` (going back from the end) form a postcode, and the postcode. */
function postcodeAt(ts: readonly Token[], i: number): { start: number; code: string; kind: 'uk' | 'ca' | 'us' | 'numeric' } | undefined {
  const t = ts[i]!.w;
  const prev = i > 0 && ts[i - 1]!.seg === ts[i]!.seg ? ts[i - 1]!.w : undefined;
  if (UK_INWARD.test(t) && prev && UK_OUTWARD.test(prev)) return { start: i - 1, code: (prev + t).toUpperCase(), kind: 'uk' };
  if (CA_LDU.test(t) && prev && CA_FSA.test(prev)) return { start: i - 1, code: (prev + t).toUpperCase(), kind: 'ca' };
  if (UK_WHOLE.test(t)) return { start: i, code: t.toUpperCase(), kind: 'uk' };
  if (CA_WHOLE.test(t)) return { start: i, code: t.toUpperCase(), kind: 'ca' };
  if (US_ZIP.test(t)) return { start: i, code: t.replace('-', '').slice(0, 5), kind: 'us' };
  if (NUMERIC_POSTCODE.test(t) && ts[i]!.seg > 0) return { start: i, code: t, kind: 'numeric' };
  return undefined;
}

/** A region name or code ending at token i (names of up to three words): its start and code. */
function regionAt(ts: readonly Token[], i: number, seg: number): { start: number; code: string } | undefined {
  if (!REGION_CODES.has(ts[i]!.w) && !REGION_LAST_WORDS.has(ts[i]!.w)) return undefined;
  for (let n = 3; n >= 1; n--) {
    const start = i - n + 1;
    if (start < 0 || ts[start]!.seg !== seg) continue;
    const text = ts
      .slice(start, i + 1)
      .map((t) => t.w)
      .join(' ');
    const code = n === 1 && REGION_CODES.has(text) ? text : REGION_BY_NAME.get(text);
    if (code) return { start, code };
  }
  return undefined;
}

/**
 * Takes a one-line address apart (see the module comment). Parts it cannot place stay in the street
 * (a line of street words only, the usual `line` of a structured address, gives just the street).
 */
export function parseAddressLine(line: string): ParsedAddressLine {
  const segments = tokens(line);
  let ts: Token[] = segments.flatMap((segment, seg) => segment.map((w) => ({ w, seg })));
  const out: ParsedAddressLine = { words: segments.flat(), street: [], streetTyped: false, city: [] };
  if (!ts.length) return out;
  const lastSeg = () => ts[ts.length - 1]!.seg;

  // 1. the country: the last segment, or its last words ("London SW1A 1AA United Kingdom");
  // a line ending on a number or a street type ("12 High Street", "… NV 89101") names none
  const last = ts.filter((t) => t.seg === lastSeg());
  const lastWord = ts[ts.length - 1]!.w;
  if ((segments.length > 1 || ts.length > 2) && !/\d/.test(lastWord) && !STREET_TYPES.has(WORD_FORMS[lastWord] ?? lastWord)) {
    const whole = last.map((t) => t.w).join(' ');
    const named = last.length <= 4 && (last.length > 1 || whole.length > 2 || !REGION_CODES.has(whole)) ? countryNamed(whole) : undefined;
    if (named && ts.length > last.length) {
      out.country = named;
      ts = ts.slice(0, ts.length - last.length);
    } else {
      for (let n = Math.min(3, last.length - 1); n >= 1; n--) {
        const tail = last.slice(-n).map((t) => t.w);
        const text = tail.join(' ');
        if (text.length < 3 && text !== 'uk' && text !== 'us') continue;
        // "New Jersey", "New Mexico": a state before a country
        const withPrevious = last.length > n ? `${last[last.length - n - 1]!.w} ${text}` : '';
        if (REGION_BY_NAME.has(withPrevious)) continue;
        const country = countryNamed(text);
        if (country) {
          out.country = country;
          ts = ts.slice(0, ts.length - n);
          break;
        }
      }
    }
  }
  if (!ts.length) return out;

  // 2. the postcode and the region, in either order at the end ("NV 89101", "K1A 0B1", "SW1A 1AA"; "75001 Paris" keeps its city after)
  const firstSeg = ts[0]!.seg;
  let cityEnd = ts.length;
  for (let i = ts.length - 1; i >= 1 && i >= ts.length - 4; i--) {
    if (out.postcode) break;
    const p = postcodeAt(ts, i);
    if (!p || (p.kind === 'numeric' && ts[i]!.seg === firstSeg)) continue;
    out.postcode = p.code;
    if (!out.country && p.kind === 'ca') out.country = 'CA';
    // a numeric postcode leads its city ("75001 Paris"): the city is what follows it in its segment
    if (p.kind === 'numeric' && i < ts.length - 1) {
      out.city = ts.slice(i + 1).map((t) => t.w);
      ts = ts.slice(0, p.start);
    } else ts = [...ts.slice(0, p.start), ...ts.slice(i + 1)];
    cityEnd = ts.length;
  }
  if (ts.length > 1) {
    const end = ts.length - 1;
    const r = regionAt(ts, end, ts[end]!.seg);
    // a region stands after its city (a segment of its own, or after a city on a line with a postcode)
    if (r && r.start > 0 && (ts[end]!.seg !== firstSeg || out.postcode)) {
      out.region = r.code;
      ts = ts.slice(0, r.start);
      cityEnd = ts.length;
    }
  }
  if (out.region && !out.country && (out.postcode === undefined || /^\d{5}$/.test(out.postcode) === !CANADIAN.has(out.region))) out.country = regionCountry(out.region);
  if (!ts.length) return out;

  // 3. the city: the last segment that is not the street or a unit; on one segment, what follows the street type
  const segs = [...new Set(ts.map((t) => t.seg))];
  const unitSegments = new Set(
    segs.filter((seg) => {
      const ws = ts.filter((t) => t.seg === seg);
      return ws.length === 2 && UNIT_WORDS.has(ws[0]!.w) && /^\d+[a-z]?$|^[a-z]$/.test(ws[1]!.w);
    }),
  );
  const isUnitSegment = (seg: number) => unitSegments.has(seg);
  const streetSeg = segs.find((seg) => !isUnitSegment(seg) && ts.some((t) => t.seg === seg && (HOUSE_NUMBER.test(t.w) || STREET_TYPES.has(WORD_FORMS[t.w] ?? t.w)))) ?? segs.find((seg) => !isUnitSegment(seg));
  let streetTokens = ts;
  if (out.city.length === 0 && cityEnd > 0) {
    const citySeg = [...segs].reverse().find((seg) => seg !== streetSeg && !isUnitSegment(seg) && streetSeg !== undefined && seg > streetSeg);
    if (citySeg !== undefined) {
      out.city = ts.filter((t) => t.seg === citySeg).map((t) => t.w);
      streetTokens = ts.filter((t) => t.seg !== citySeg && (t.seg <= streetSeg! || isUnitSegment(t.seg)));
    } else if (segs.length === 1 || (out.postcode ?? out.region)) {
      // one segment holds street and city: the street ends on its first street type after a name word
      const inStreet = ts.filter((t) => t.seg === streetSeg);
      const cut = streetCut(inStreet.map((t) => t.w));
      if (cut !== undefined && (out.postcode || out.region || out.country)) {
        out.city = inStreet.slice(cut).map((t) => t.w);
        streetTokens = ts.filter((t) => t.seg !== streetSeg || inStreet.indexOf(t) < cut);
      }
    }
  }
  out.city = out.city.map((w) => WORD_FORMS[w] ?? w);

  // 4. the street: unit, house number, street words
  const w = streetTokens.map((t) => t.w);
  for (let i = 0; i < w.length; i++) {
    const t = w[i]!;
    if (UNIT_WORDS.has(t) && i + 1 < w.length && /^\d+[a-z]?$|^[a-z]$/.test(w[i + 1]!)) {
      out.unit = w[++i];
      continue;
    }
    if (FLOOR_WORDS.has(t) && i + 1 < w.length && /^\d+/.test(w[i + 1]!)) {
      i++;
      continue;
    }
    // "12/3 High St" (unit/number, the Australian way)
    const slash = /^(\d+[a-z]?)\/(\d+[a-z]?)$/.exec(t);
    if (slash && !out.houseNumber) {
      out.unit = slash[1];
      out.houseNumber = slash[2];
      continue;
    }
    if (HOUSE_NUMBER.test(t) && !ORDINAL.test(t)) {
      // the first number is the house number, a second one before the street a unit ("Flat 3, 12 High St" was handled above)
      if (!out.houseNumber) out.houseNumber = t;
      else if (!out.unit && out.street.length === 0) {
        out.unit = out.houseNumber;
        out.houseNumber = t;
      } else if (!out.unit) out.unit = t;
      continue;
    }
    out.street.push(WORD_FORMS[t] ?? t);
  }
  out.streetTyped = out.street.some((x) => STREET_TYPES.has(x));
  return out;
}

/**
 * Where the street ends on a one-segment line: after the first street type that follows a name
 * word (a direction or a unit after it stays with the street). undefined when there is none.
 */
function streetCut(ws: readonly string[]): number | undefined {
  let named = false;
  for (let i = 0; i < ws.length; i++) {
    const w = WORD_FORMS[ws[i]!] ?? ws[i]!;
    if (HOUSE_NUMBER.test(w) && !named) continue;
    if (UNIT_WORDS.has(w)) continue;
    if (STREET_TYPES.has(w) && named && !STREET_TYPES.has(WORD_FORMS[ws[i + 1] ?? ''] ?? ws[i + 1] ?? '')) {
      let cut = i + 1;
      if (cut < ws.length - 1 && DIRECTIONS.has(WORD_FORMS[ws[cut]!] ?? ws[cut]!)) cut++;
      while (cut < ws.length - 1 && UNIT_WORDS.has(ws[cut]!) && /^\d+[a-z]?$|^[a-z]$/.test(ws[cut + 1]!)) cut += 2;
      return cut < ws.length ? cut : undefined;
    }
    named = true;
  }
  return undefined;
}
