/**
 * Country fields (nationality, an address's country): suggestions as the user types, and what the
 * typed text means. People type "North Korea", "Russian", "DPRK", "kp" or "PRK", not the lists'
 * "Korea, North": every name the list parsers know for a country is offered and accepted.
 */
import { h } from './dom';
import { COUNTRIES } from './countries';

/** Accents, case, "the" and punctuation aside, as the service's own country table compares names. */
function key(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[’'`´]/g, "'")
    .replace(/\s+/g, ' ')
    .replace(/^the /, '')
    .replace(/[.\s]+$/, '')
    .trim();
}

const byName = new Map<string, string>();
const byIso3 = new Map<string, string>();
const iso2 = new Set<string>();
for (const [code, iso3, name, others] of COUNTRIES) {
  iso2.add(code);
  byIso3.set(iso3, code);
  for (const n of [name, ...others]) if (!byName.has(key(n))) byName.set(key(n), code);
}

/** The English name of a country code ("KP" → "Korea, North"), or the code itself when unknown. */
export function countryName(code: string): string {
  return COUNTRIES.find(([c]) => c === code.toUpperCase())?.[2] ?? code;
}

/**
 * "Russia (RU)", "RU", "rus", "russia", "Russian Federation", "North Korea": the ISO alpha-2 code,
 * or undefined when the text names no country.
 */
export function countryCode(raw: string): string | undefined {
  const text = raw.trim();
  if (!text) return undefined;
  const suffixed = /\(([A-Za-z]{2})\)$/.exec(text)?.[1];
  if (suffixed) return iso2.has(suffixed.toUpperCase()) ? suffixed.toUpperCase() : undefined;
  if (/^[A-Za-z]{2}$/.test(text)) {
    const up = text.toUpperCase() === 'UK' ? 'GB' : text.toUpperCase();
    return iso2.has(up) ? up : undefined;
  }
  if (/^[A-Za-z]{3}$/.test(text) && byIso3.has(text.toUpperCase())) return byIso3.get(text.toUpperCase());
  return byName.get(key(text));
}

/**
 * The suggestions: one option per name a country goes by, "North Korea (KP)" beside
 * "Korea, North (KP)", so the browser's own list finds either as the user types.
 */
export function countryDatalist(id: string): HTMLDataListElement {
  const options: HTMLOptionElement[] = [];
  for (const [code, , name, others] of COUNTRIES) {
    options.push(h('option', { value: `${name} (${code})` }));
    for (const other of others) options.push(h('option', { value: `${other} (${code})` }));
  }
  return h('datalist', { id }, options);
}
