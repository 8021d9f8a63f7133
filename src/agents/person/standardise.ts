/**
 * Phase 1: input standardisation. Splits the name, builds every name to search (nickname and
 * spelling variants of the given name, aliases), keeps the date of birth as YYYY-MM-DD and
 * resolves the location history to US states and countries.
 */
import { givenNameVariants } from './nicknames';
import { resolveLocation, type ResolvedLocation } from './locations';
import type { PersonCheckPurpose, PersonSubject } from './types';

/** At most this many names are searched per source (the full name and aliases come first). */
export const MAX_SEARCH_NAMES = 16;

const SUFFIXES = new Set(['jr', 'sr', 'ii', 'iii', 'iv', 'v', 'phd', 'md', 'esq']);

export interface StandardiseInput {
  personCheckId: string;
  purpose: PersonCheckPurpose;
  fullName: string;
  firstName?: string;
  middleName?: string;
  lastName?: string;
  dateOfBirth?: string;
  aliases?: string[];
  locations?: string[];
  associatedDomain?: string;
  phone?: string;
  email?: string;
  /** The subject's postal address (issue 30): the account's internal lists weigh it. */
  address?: PersonSubject['address'];
}

export function splitName(fullName: string): { given: string; middle?: string; family: string } {
  const clean = fullName.replace(/\s+/g, ' ').trim();
  // "Last, First Middle" as lists and HR systems often write it.
  const comma = /^([^,]+),\s*(.+)$/.exec(clean);
  const ordered = comma ? `${comma[2]} ${comma[1]}` : clean;
  const tokens = ordered.split(' ').filter((t) => !SUFFIXES.has(t.toLowerCase().replace(/\./g, '')));
  if (tokens.length === 0) return { given: clean, family: clean };
  if (tokens.length === 1) return { given: tokens[0]!, family: tokens[0]! };
  const given = tokens[0]!;
  const family = tokens[tokens.length - 1]!;
  const middle = tokens.slice(1, -1).join(' ');
  return middle ? { given, middle, family } : { given, family };
}

function capitalise(name: string): string {
  return name.charAt(0).toUpperCase() + name.slice(1);
}

export function standardise(input: StandardiseInput): { subject: PersonSubject; unresolvedLocations: string[] } {
  const split = splitName(input.fullName);
  const given = input.firstName?.trim() || split.given;
  const family = input.lastName?.trim() || split.family;
  const middle = input.middleName?.trim() || split.middle;

  const origins = new Map<string, string>();
  const add = (name: string, origin: string) => {
    const clean = name.replace(/\s+/g, ' ').trim();
    if (clean.length < 2) return;
    const key = clean.toLowerCase();
    if ([...origins.keys()].some((k) => k.toLowerCase() === key)) return;
    origins.set(clean, origin);
  };
  add(input.fullName, 'full name as submitted');
  if (middle) add(`${given} ${middle} ${family}`, 'full name');
  add(`${given} ${family}`, 'first and last name');
  for (const alias of input.aliases ?? []) add(alias, 'alias supplied by the requester');
  for (const variant of givenNameVariants(given)) {
    add(`${capitalise(variant)} ${family}`, `"${capitalise(variant)}" is a variant of the given name "${given}"`);
  }
  const searchNames = [...origins.keys()].slice(0, MAX_SEARCH_NAMES);

  const locations: ResolvedLocation[] = [];
  const unresolvedLocations: string[] = [];
  for (const raw of input.locations ?? []) {
    const resolved = resolveLocation(raw);
    if (!resolved) unresolvedLocations.push(raw);
    else if (!locations.some((l) => l.kind === resolved.kind && l.code === resolved.code)) locations.push(resolved);
  }

  const subject: PersonSubject = {
    personCheckId: input.personCheckId,
    purpose: input.purpose,
    fullName: input.fullName.trim(),
    givenName: given,
    ...(middle ? { middleName: middle } : {}),
    familyName: family,
    searchNames,
    nameOrigins: Object.fromEntries(searchNames.map((n) => [n, origins.get(n)!])),
    ...(input.dateOfBirth ? { dateOfBirth: input.dateOfBirth } : {}),
    locations,
    ...(input.associatedDomain ? { associatedDomain: input.associatedDomain.toLowerCase() } : {}),
    ...(input.phone ? { phone: input.phone } : {}),
    ...(input.email ? { email: input.email } : {}),
    ...(input.address ? { address: input.address } : {}),
  };
  return { subject, unresolvedLocations };
}
