/**
 * Candidates by fact: the entries that share a document number, a phone, an e-mail, a date of
 * birth or a dwelling (house number with postcode, or with street and city) with the screened
 * subject, whatever their names. The screening engine finds entries by
 * name only, so without this the policy's rules for another name never run: the same document
 * under another name, a changed surname (same given name, date of birth and home), the same phone
 * or e-mail beside a name the engine scores under its threshold. A shared fact only makes an entry a
 * candidate; scoreWatchlistCandidate decides (a shared phone under another name is no hit). Pure.
 */
import { normaliseAddress, type AddressInput } from './address-agreement';
import { parsePartialDate } from './dob-agreement';
import { normaliseDocument, normaliseEmail, normalisePhone } from './identifier-agreement';
import type { WatchlistEntryLike, WatchlistSubject } from './match-policy';

/** Identifier kinds read as documents (their number is the key, whatever the kind). */
const DOCUMENT_KINDS = new Set(['passport', 'national_id', 'tax_id', 'registration_number', 'imo', 'drivers_license', 'other']);

/** At most this many entries are taken from one key: a placeholder value (000-000-0000, 1900-01-01) shared by thousands says nothing. */
export const MAX_ENTRIES_PER_FACT = 50;

const pad = (n: number) => String(n).padStart(2, '0');

function identifierKeys(ids: readonly { kind: string; value: string; country?: string | undefined }[], country: string | undefined, out: Set<string>): void {
  for (const id of ids) {
    if (id.kind === 'phone') {
      const phone = normalisePhone(id.value, id.country ?? country);
      if (phone) out.add(`phone:${phone.tail}`);
    } else if (id.kind === 'email') {
      const email = normaliseEmail(id.value);
      if (email) out.add(`email:${email}`);
    } else if (DOCUMENT_KINDS.has(id.kind)) {
      const doc = normaliseDocument(id.value);
      if (doc.length >= 4) out.add(`doc:${doc}`);
    }
  }
}

function dateKeys(dates: readonly string[], out: Set<string>, swapped: boolean): void {
  for (const raw of dates) {
    const d = parsePartialDate(raw);
    if (!d || d.month === undefined || d.day === undefined) continue;
    out.add(`dob:${d.year}-${pad(d.month)}-${pad(d.day)}`);
    // day and month swapped (a US/European entry convention) is a candidate too
    if (swapped && d.day <= 12 && d.day !== d.month) out.add(`dob:${d.year}-${pad(d.day)}-${pad(d.month)}`);
  }
}

/** A dwelling: the house number with the postcode, or with the street's first word and the city (a one-line address parsed). */
function dwellingKeys(addresses: readonly AddressInput[], out: Set<string>): void {
  for (const a of addresses) {
    const n = normaliseAddress(a);
    if (!n.houseNumber) continue;
    if (n.postcode) out.add(`home:${n.postcode}|${n.houseNumber}`);
    const street = n.street?.split(' ').find((w) => w.length > 2);
    if (n.city && street) out.add(`home:${n.city}|${street}|${n.houseNumber}`);
  }
}

/** The facts an entry is found by. */
export function entryFactKeys(entry: Pick<WatchlistEntryLike, 'identifiers' | 'datesOfBirth' | 'addresses' | 'nationalities'>): string[] {
  const out = new Set<string>();
  identifierKeys(entry.identifiers ?? [], entry.addresses?.[0]?.country ?? entry.nationalities?.[0], out);
  dateKeys(entry.datesOfBirth ?? [], out, false);
  dwellingKeys(entry.addresses ?? [], out);
  return [...out];
}

/** The facts to look a subject up by (its date of birth also with day and month swapped). */
export function subjectFactKeys(subject: WatchlistSubject, country?: string): string[] {
  const out = new Set<string>();
  identifierKeys(
    (subject.identifiers ?? []).map((i) => ({ kind: i.type, value: i.value, country: i.country })),
    country ?? subject.country ?? subject.address?.country ?? subject.nationality,
    out,
  );
  dateKeys([...(subject.birthDate ? [subject.birthDate] : []), ...(subject.datesOfBirth ?? [])], out, true);
  dwellingKeys([...(subject.address ? [subject.address] : []), ...(subject.addresses ?? [])], out);
  return [...out];
}

/** What the screening asks of the fact index: the entries sharing any of these facts. */
export interface FactLookup {
  candidates(keys: readonly string[]): string[];
}

/** Several lists' fact indexes read as one (each list keeps its own, so an unchanged list's is reused). */
export function combinedFacts(parts: readonly FactLookup[]): FactLookup {
  return {
    candidates(keys) {
      if (parts.length === 1) return parts[0]!.candidates(keys);
      return [...new Set(parts.flatMap((p) => p.candidates(keys)))];
    },
  };
}

/** Fact key → the ids of the entries that have it (in the order they were added). */
export class WatchlistFactIndex implements FactLookup {
  private constructor(private readonly byKey: ReadonlyMap<string, readonly string[]>) {}

  /** `entries` as (id, the entry's fact keys); an id's keys are usually memoised by the caller. */
  static build(entries: Iterable<readonly [id: string, keys: readonly string[]]>): WatchlistFactIndex {
    const byKey = new Map<string, string[]>();
    for (const [id, keys] of entries) {
      for (const key of keys) {
        const ids = byKey.get(key);
        if (ids) ids.push(id);
        else byKey.set(key, [id]);
      }
    }
    return new WatchlistFactIndex(byKey);
  }

  /** The ids of the entries sharing any of `keys` (at most MAX_ENTRIES_PER_FACT per key), each once. */
  candidates(keys: readonly string[]): string[] {
    const out = new Set<string>();
    for (const key of keys) {
      const ids = this.byKey.get(key);
      if (!ids) continue;
      for (let i = 0; i < ids.length && i < MAX_ENTRIES_PER_FACT; i++) out.add(ids[i]!);
    }
    return [...out];
  }

  get size(): number {
    return this.byKey.size;
  }
}
