/**
 * Locations of a person check: US states (the FCRA context) or countries.
 *
 * Reading rule (documented in docs/person-checks.md):
 * - a US state name ("California"), USPS code ("CA") or "US-CA" is a state. Two-letter codes are
 *   read as USPS codes first: "CA" is California, not Canada; write the country's name ("Canada")
 *   or its ISO alpha-3 code ("CAN") for a country whose alpha-2 code is also a state code;
 * - "Georgia" is the US state; the country is "Georgia (country)" or "GEO";
 * - anything else must resolve to an ISO 3166 country (name, alpha-2 or alpha-3); otherwise the
 *   location is refused at the edge.
 */
import { countryInfo, iso3ToIso2, toIso2 } from '../../screening/lists/countries';

export interface UsState {
  code: string;
  name: string;
  /** Official statewide judiciary site or case search, where we know it. */
  courts?: string;
}

/** The 50 states, DC and the inhabited territories with their judiciary sites. */
export const US_STATES: readonly UsState[] = [
  { code: 'AL', name: 'Alabama', courts: 'https://judicial.alabama.gov' },
  { code: 'AK', name: 'Alaska', courts: 'https://courts.alaska.gov' },
  { code: 'AZ', name: 'Arizona', courts: 'https://www.azcourts.gov' },
  { code: 'AR', name: 'Arkansas', courts: 'https://www.arcourts.gov' },
  { code: 'CA', name: 'California', courts: 'https://www.courts.ca.gov' },
  { code: 'CO', name: 'Colorado', courts: 'https://www.coloradojudicial.gov' },
  { code: 'CT', name: 'Connecticut', courts: 'https://www.jud.ct.gov' },
  { code: 'DE', name: 'Delaware', courts: 'https://courts.delaware.gov' },
  { code: 'DC', name: 'District of Columbia', courts: 'https://www.dccourts.gov' },
  { code: 'FL', name: 'Florida', courts: 'https://www.flcourts.gov' },
  { code: 'GA', name: 'Georgia', courts: 'https://www.gasupreme.us' },
  { code: 'HI', name: 'Hawaii', courts: 'https://www.courts.state.hi.us' },
  { code: 'ID', name: 'Idaho', courts: 'https://isc.idaho.gov' },
  { code: 'IL', name: 'Illinois', courts: 'https://www.illinoiscourts.gov' },
  { code: 'IN', name: 'Indiana', courts: 'https://www.in.gov/courts' },
  { code: 'IA', name: 'Iowa', courts: 'https://www.iowacourts.gov' },
  { code: 'KS', name: 'Kansas', courts: 'https://www.kscourts.org' },
  { code: 'KY', name: 'Kentucky', courts: 'https://kycourts.gov' },
  { code: 'LA', name: 'Louisiana', courts: 'https://www.lasc.org' },
  { code: 'ME', name: 'Maine', courts: 'https://www.courts.maine.gov' },
  { code: 'MD', name: 'Maryland', courts: 'https://casesearch.courts.state.md.us/casesearch/' },
  { code: 'MA', name: 'Massachusetts', courts: 'https://www.mass.gov/orgs/massachusetts-court-system' },
  { code: 'MI', name: 'Michigan', courts: 'https://www.courts.michigan.gov' },
  { code: 'MN', name: 'Minnesota', courts: 'https://www.mncourts.gov' },
  { code: 'MS', name: 'Mississippi', courts: 'https://courts.ms.gov' },
  { code: 'MO', name: 'Missouri', courts: 'https://www.courts.mo.gov/casenet' },
  { code: 'MT', name: 'Montana', courts: 'https://courts.mt.gov' },
  { code: 'NE', name: 'Nebraska', courts: 'https://supremecourt.nebraska.gov' },
  { code: 'NV', name: 'Nevada', courts: 'https://nvcourts.gov' },
  { code: 'NH', name: 'New Hampshire', courts: 'https://www.courts.nh.gov' },
  { code: 'NJ', name: 'New Jersey', courts: 'https://www.njcourts.gov' },
  { code: 'NM', name: 'New Mexico', courts: 'https://www.nmcourts.gov' },
  { code: 'NY', name: 'New York', courts: 'https://iapps.courts.state.ny.us/webcivil/ecourtsMain' },
  { code: 'NC', name: 'North Carolina', courts: 'https://www.nccourts.gov' },
  { code: 'ND', name: 'North Dakota', courts: 'https://www.ndcourts.gov' },
  { code: 'OH', name: 'Ohio', courts: 'https://www.supremecourt.ohio.gov' },
  { code: 'OK', name: 'Oklahoma', courts: 'https://www.oscn.net' },
  { code: 'OR', name: 'Oregon', courts: 'https://www.courts.oregon.gov' },
  { code: 'PA', name: 'Pennsylvania', courts: 'https://ujsportal.pacourts.us' },
  { code: 'RI', name: 'Rhode Island', courts: 'https://www.courts.ri.gov' },
  { code: 'SC', name: 'South Carolina', courts: 'https://www.sccourts.org' },
  { code: 'SD', name: 'South Dakota', courts: 'https://ujs.sd.gov' },
  { code: 'TN', name: 'Tennessee', courts: 'https://www.tncourts.gov' },
  { code: 'TX', name: 'Texas', courts: 'https://www.txcourts.gov' },
  { code: 'UT', name: 'Utah', courts: 'https://www.utcourts.gov' },
  { code: 'VT', name: 'Vermont', courts: 'https://www.vermontjudiciary.org' },
  { code: 'VA', name: 'Virginia', courts: 'https://www.vacourts.gov' },
  { code: 'WA', name: 'Washington', courts: 'https://www.courts.wa.gov' },
  { code: 'WV', name: 'West Virginia', courts: 'https://www.courtswv.gov' },
  { code: 'WI', name: 'Wisconsin', courts: 'https://wcca.wicourts.gov' },
  { code: 'WY', name: 'Wyoming', courts: 'https://www.wyocourts.gov' },
  { code: 'PR', name: 'Puerto Rico', courts: 'https://poderjudicial.pr' },
  { code: 'GU', name: 'Guam' },
  { code: 'VI', name: 'U.S. Virgin Islands' },
];

/** National directory of every state's court websites (fallback and county-level entry point). */
export const NCSC_COURT_DIRECTORY = 'https://www.ncsc.org/information-and-resources/state-court-websites';

export type ResolvedLocation =
  | { kind: 'state'; code: string; name: string; input: string; country: 'US' }
  | { kind: 'country'; code: string; name: string; input: string };

const byCode = new Map(US_STATES.map((s) => [s.code, s]));
const byName = new Map(US_STATES.map((s) => [s.name.toLowerCase(), s]));

export function stateByCode(code: string): UsState | undefined {
  return byCode.get(code.toUpperCase());
}

/** Resolves one location, or undefined when it is neither a US state nor a country. */
export function resolveLocation(raw: string): ResolvedLocation | undefined {
  const input = raw.trim();
  if (!input) return undefined;
  const lower = input.toLowerCase().replace(/\s+/g, ' ');
  const usPrefixed = /^us[-\s]([a-z]{2})$/i.exec(input);
  const state = usPrefixed ? byCode.get(usPrefixed[1]!.toUpperCase()) : /^[a-z]{2}$/i.test(input) ? byCode.get(input.toUpperCase()) : byName.get(lower.replace(/^state of /, ''));
  if (state) return { kind: 'state', code: state.code, name: state.name, input, country: 'US' };
  const withoutQualifier = lower.replace(/\s*\(country\)$/, '');
  let iso2: string | undefined;
  if (/^[a-z]{3}$/i.test(withoutQualifier)) iso2 = iso3ToIso2(withoutQualifier.toUpperCase());
  iso2 ??= toIso2(withoutQualifier);
  if (!iso2) return undefined;
  const info = countryInfo(iso2);
  return { kind: 'country', code: iso2, name: info?.name ?? input, input };
}

/** ISO alpha-2 countries of a location history (states count as US). */
export function countriesOf(locations: readonly ResolvedLocation[]): string[] {
  return [...new Set(locations.map((l) => (l.kind === 'state' ? 'US' : l.code)))];
}
