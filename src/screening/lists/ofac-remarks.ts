import type { BirthDate, Identifier, ListEntity } from '../model';
import { toIso2 } from './countries';
import { addName, parseLooseDate, pushUnique } from './common';

/**
 * OFAC remark prefixes that introduce an identifier, longest first so "Diplomatic Passport" wins
 * over "Passport". The type names follow model.ts (passport, national_id, tax_id, registration, imo, lei…).
 */
const ID_PREFIXES: [string, string][] = (
  [
    ['Aircraft Construction Number (also called L/N or S/N or F/N)', 'aircraft_serial'],
    ["Aircraft Manufacturer's Serial Number (MSN)", 'aircraft_serial'],
    ['Aircraft Manufacturer’s Serial Number (MSN)', 'aircraft_serial'],
    ['Previous Aircraft Tail Number', 'aircraft_tail'],
    ['Aircraft Tail Number', 'aircraft_tail'],
    ['Vessel Registration Identification IMO', 'imo'],
    ['Vessel Registration Identification', 'imo'],
    ['United Social Credit Code Certificate (USCCC)', 'registration'],
    ['Unified Social Credit Code (USCC)', 'registration'],
    ['Business Registration Document #', 'registration'],
    ['Business Registration Number', 'registration'],
    ['Commercial Registry Number', 'registration'],
    ['Chamber of Commerce Number', 'registration'],
    ['Government Gazette Number', 'registration'],
    ['Public Registration Number', 'registration'],
    ['Registered Charity No.', 'registration'],
    ['Matricula Mercantil No', 'registration'],
    ['Folio Mercantil No.', 'registration'],
    ['UK Company Number', 'registration'],
    ['Company Number', 'registration'],
    ['Registration Number', 'registration'],
    ['Registration ID', 'registration'],
    ['Trade License No.', 'registration'],
    ['Branch Unit Number', 'registration'],
    ['C.R. No.', 'registration'],
    ['Legal Entity Number', 'lei'],
    ['Diplomatic Passport', 'passport'],
    ['Passport', 'passport'],
    ['National Foreign ID Number', 'national_id'],
    ['National ID No.', 'national_id'],
    ['Personal ID Card', 'national_id'],
    ['Identification Number', 'national_id'],
    ['Personal Numerical Code', 'national_id'],
    ['Public Security and Immigration No.', 'national_id'],
    ['Electoral Registry No.', 'national_id'],
    ['Credencial electoral', 'national_id'],
    ['Residency Number', 'residency'],
    ['Cedula No.', 'national_id'],
    ['C.U.R.P.', 'national_id'],
    ['D.N.I.', 'national_id'],
    ['I.F.E.', 'national_id'],
    ['LE Number', 'national_id'],
    ['SSN', 'national_id'],
    ['Birth Certificate Number', 'birth_certificate'],
    ["Driver's License No.", 'drivers_license'],
    ['Cartilla de Servicio Militar Nacional', 'military_id'],
    ['Italian Fiscal Code', 'tax_id'],
    ['Tax ID No.', 'tax_id'],
    ['V.A.T. Number', 'tax_id'],
    ['US FEIN', 'tax_id'],
    ['C.U.I.T.', 'tax_id'],
    ['R.F.C.', 'tax_id'],
    ['RFC', 'tax_id'],
    ['NIT #', 'tax_id'],
    ['RUC #', 'tax_id'],
    ['RIF #', 'tax_id'],
    ['SWIFT/BIC', 'swift_bic'],
    ['BIK (RU)', 'bik'],
    ['D-U-N-S Number', 'duns'],
    ['ISIN', 'isin'],
    ['Equity Ticker', 'ticker'],
    ['MMSI', 'mmsi'],
    ['IMO', 'imo'],
    ['Email Address', 'email'],
    ['Email', 'email'],
    ['Website', 'website'],
    ['Telephone No.', 'phone'],
    ['Telephone', 'phone'],
    ['Phone Number', 'phone'],
    ['Phone No.', 'phone'],
    ['Fax No.', 'fax'],
    ['Fax', 'fax'],
  ] as [string, string][]
).sort((a, b) => b[0].length - a[0].length);

const MAX_YEAR_SPAN = 40;

/** The identifier type for an issuer's document label ("Tax ID No." → tax_id); "other" when unknown. */
export function idTypeFor(label: string): string {
  const l = label.trim().toLowerCase();
  for (const [prefix, type] of ID_PREFIXES) if (l === prefix.toLowerCase() || l.startsWith(prefix.toLowerCase())) return type;
  if (l.includes('passport')) return 'passport';
  if (l.includes('tax')) return 'tax_id';
  if (l.includes('registration') || l.includes('register') || l.includes('credit code')) return 'registration';
  if (l.includes('identification') || l.includes('id ')) return 'national_id';
  return 'other';
}

/** Parse the text after "DOB": "10 Dec 1948", "1960", "circa 1960", "1958 to 1962", "Feb 1960". */
export function parseOfacDob(text: string): BirthDate | undefined {
  const raw = text.trim().replace(/\.$/, '');
  let s = raw;
  let approximate = false;
  if (/^(circa|ca\.?|approximately|approx\.?)\s+/i.test(s)) {
    approximate = true;
    s = s.replace(/^\S+\s+/, '');
  }
  const range = /^(.+?)\s+to\s+(.+)$/i.exec(s) ?? /^(\d{4})\s*-\s*(\d{4})$/.exec(s);
  if (range) {
    const a = parseLooseDate(range[1]);
    const b = parseLooseDate(range[2]);
    if (!a || !b) return undefined;
    const fromYear = Number(a.slice(0, 4));
    const toYear = Number(b.slice(0, 4));
    if (toYear < fromYear || toYear - fromYear > MAX_YEAR_SPAN) return undefined;
    return { fromYear, toYear, approximate: approximate || undefined, raw };
  }
  const d = parseLooseDate(s);
  if (!d) return undefined;
  return { date: d, year: Number(d.slice(0, 4)), approximate: approximate || undefined, raw };
}

/** Split "X123 (Iran) issued 01 Jan 2010" into value, country and note. */
function splitIdValue(rest: string): { value: string; country?: string; note?: string } {
  let s = rest.trim().replace(/^(No\.?|Number|#|:)\s*/i, '').replace(/\.$/, '').trim();
  let note: string | undefined;
  const noteM = /\s+((?:issued|expires|valid|expired|alt\.).*)$/i.exec(s);
  if (noteM) {
    note = noteM[1];
    s = s.slice(0, noteM.index).trim();
  }
  let country: string | undefined;
  const paren = /\s*\(([^()]+)\)$/.exec(s);
  if (paren) {
    const iso = toIso2(paren[1]);
    if (iso) {
      country = iso;
      s = s.slice(0, paren.index).trim();
    }
  }
  return { value: s.replace(/^:\s*/, ''), country, note };
}

export interface RemarksExtraction {
  birthDates: BirthDate[];
  birthPlaces: string[];
  nationalities: string[];
  countries: string[];
  identifiers: Identifier[];
  weakAliases: string[];
  formerNames: string[];
  gender?: string;
  linkedTo: string[];
}

/** Pull the structured facts out of an OFAC `Remarks` text (the SDN.CSV / CONS_PRIM.CSV last column). */
export function extractRemarks(remarks: string): RemarksExtraction {
  const out: RemarksExtraction = {
    birthDates: [],
    birthPlaces: [],
    nationalities: [],
    countries: [],
    identifiers: [],
    weakAliases: [],
    formerNames: [],
    linkedTo: [],
  };
  // Segments are "; "-separated; the last ends with a full stop.
  const segments = remarks.split(/;\s*/);
  for (let seg of segments) {
    seg = seg.trim().replace(/^alt\.\s*/i, '');
    if (!seg) continue;
    let m: RegExpExecArray | null;
    if ((m = /^([afn])\.k\.a\.,?\s+['‘"](.+)['’"]\.?$/i.exec(seg))) {
      if (m[1].toLowerCase() === 'f') out.formerNames.push(m[2].trim());
      else out.weakAliases.push(m[2].trim());
      continue;
    }
    if ((m = /^DOB:?\s+(.+)$/.exec(seg))) {
      const d = parseOfacDob(m[1]);
      if (d) out.birthDates.push(d);
      continue;
    }
    if ((m = /^POB:?\s+(.+?)\.?$/.exec(seg))) {
      out.birthPlaces.push(m[1]);
      pushUnique(out.countries, toIso2(m[1]));
      continue;
    }
    if ((m = /^(?:nationality|citizen|Nationality of Registration)\s+(.+?)\.?$/i.exec(seg))) {
      pushUnique(out.nationalities, toIso2(m[1]));
      continue;
    }
    if ((m = /^(?:Other Vessel Flag|Vessel Flag)\s+(.+?)\.?$/i.exec(seg))) {
      pushUnique(out.countries, toIso2(m[1]));
      continue;
    }
    if ((m = /^Gender\s+(Male|Female)\.?$/i.exec(seg))) {
      out.gender = m[1].toLowerCase();
      continue;
    }
    if ((m = /^Linked To:\s+(.+?)\.?$/.exec(seg))) {
      out.linkedTo.push(m[1]);
      continue;
    }
    if ((m = /^Digital Currency Address - (\w+)\s+(\S+?)\.?$/.exec(seg))) {
      out.identifiers.push({ type: 'crypto_wallet', value: m[2], note: m[1] });
      continue;
    }
    for (const [prefix, type] of ID_PREFIXES) {
      if (seg.startsWith(prefix) && (seg.length === prefix.length || /[\s:#]/.test(seg[prefix.length]))) {
        const { value, country, note } = splitIdValue(seg.slice(prefix.length));
        // The note keeps the issuer's own label ("Cedula No.", "R.F.C.") so an analyst sees what it was.
        const label = note ? `${prefix}; ${note}` : prefix;
        if (value) out.identifiers.push({ type, value, ...(country ? { country } : {}), note: label });
        break;
      }
    }
  }
  return out;
}

/** Apply a remarks extraction to an entity (DOB, POB, nationality, IDs, gender, weak names). */
export function applyRemarks(e: ListEntity, remarks: string | undefined): void {
  if (!remarks) return;
  const x = extractRemarks(remarks);
  e.birthDates.push(...x.birthDates);
  for (const p of x.birthPlaces) pushUnique(e.birthPlaces, p);
  for (const n of x.nationalities) pushUnique(e.nationalities, n);
  for (const c of x.countries) pushUnique(e.countries, c);
  e.identifiers.push(...x.identifiers);
  if (x.gender) e.gender = x.gender;
  for (const n of x.weakAliases) addName(e, n, 'weak_alias');
  for (const n of x.formerNames) addName(e, n, 'former');
}
