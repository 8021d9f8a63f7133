/**
 * How a name match against an internal-list entry becomes a hit score (issue 21).
 *
 * Internal lists hold ordinary names ("Robert Smith" exited for fraud), so the name alone must not
 * alert: it is capped below the hit threshold (0.80), and agreement on date of birth, address and
 * identifiers (passport, national id, phone, e-mail…) lifts it; a conflicting date of birth or
 * identifier pushes it down. Every step is a qualifier in the explanation.
 *
 * This is the first, simple version; the tuned policy (nickname-aware names, day/month swaps,
 * address normalisation, phone/e-mail canonical forms, measured on a development set in bench/)
 * replaces the body of `scoreWatchlistCandidate`. Keep its signature: the internal-list agent,
 * monitoring and `svc audit reproduce` all call it.
 */
import type { QualifierApplied } from '../model';
import type { WatchlistAddress, WatchlistEntry } from './model';

/** What we know of the screened subject beyond its name. */
export interface WatchlistSubject {
  name: string;
  entityType?: 'individual' | 'company' | 'organization';
  /** YYYY, YYYY-MM or YYYY-MM-DD. */
  birthDate?: string;
  /** ISO alpha-2. */
  nationality?: string;
  address?: WatchlistAddress;
  /** type: passport, national_id, tax_id, registration_number, imo, phone, email, other. */
  identifiers?: { type: string; value: string }[];
}

/** The name comparison the engine made (its name score and the alias that matched). */
export interface WatchlistNameMatch {
  /** Name similarity in [0,1] (the engine's nameScore, before its own qualifiers). */
  nameScore: number;
  matchedName: string;
  /** True when the names are equal after normalisation. */
  exact: boolean;
  /** How the subject's name was varied to find it, e.g. `nickname Bob → Robert`. */
  variant?: string;
}

export interface WatchlistCandidateScore {
  /** Final score in [0,1]; the list agent reports ≥ 0.80 as a hit, ≥ 0.95 confirmed. */
  score: number;
  qualifiers: QualifierApplied[];
  summary: string;
}

/** The first version's weights (documented in docs/watchlists.md). */
export const WATCHLIST_POLICY = {
  /** A name alone reaches at most 0.70: below the 0.80 hit threshold. */
  nameWeight: 0.7,
  dobExact: 0.17,
  dobPartial: 0.08,
  dobConflict: -0.3,
  addressStrong: 0.13,
  addressWeak: 0.04,
  identifierMatch: 0.27,
  identifierConflict: -0.15,
  nationalityMatch: 0.02,
} as const;

const round = (x: number) => Math.round(x * 1000) / 1000;

function fold(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9@.+]+/g, ' ')
    .trim();
}

/** Identifier values compared without spaces, dashes and case; phones by their digits. */
function canonicalIdentifier(type: string, value: string): string {
  if (type === 'phone') return value.replace(/\D/g, '').replace(/^00/, '');
  if (type === 'email') return value.trim().toLowerCase();
  return value.replace(/[\s./-]/g, '').toUpperCase();
}

function dobRelation(subject: string, listed: string): 'exact' | 'partial' | 'conflict' {
  const [sy, sm, sd] = subject.split('-');
  const [ly, lm, ld] = listed.split('-');
  if (sy !== ly) return 'conflict';
  if (!sm || !lm) return 'partial';
  if (sm !== lm) return 'conflict';
  if (!sd || !ld) return 'partial';
  return sd === ld ? 'exact' : 'conflict';
}

function addressRelation(subject: WatchlistAddress, listed: WatchlistAddress): 'strong' | 'weak' | undefined {
  const postal = (p?: string) => (p ? p.replace(/\s/g, '').toUpperCase() : undefined);
  const samePostal = postal(subject.postalCode) !== undefined && postal(subject.postalCode) === postal(listed.postalCode);
  const sameLine = subject.line !== undefined && listed.line !== undefined && fold(subject.line) === fold(listed.line);
  const sameCity = subject.city !== undefined && listed.city !== undefined && fold(subject.city) === fold(listed.city);
  if (sameLine && (samePostal || sameCity)) return 'strong';
  if (samePostal || sameLine || sameCity) return 'weak';
  return undefined;
}

export function scoreWatchlistCandidate(subject: WatchlistSubject, entry: WatchlistEntry, nameMatch: WatchlistNameMatch): WatchlistCandidateScore {
  const p = WATCHLIST_POLICY;
  const qualifiers: QualifierApplied[] = [];
  if (nameMatch.variant) qualifiers.push({ kind: 'name_variant', effect: 0, detail: nameMatch.variant });

  if (subject.birthDate && entry.datesOfBirth.length) {
    const relations = entry.datesOfBirth.map((d) => ({ d, rel: dobRelation(subject.birthDate!, d) }));
    const best = relations.find((r) => r.rel === 'exact') ?? relations.find((r) => r.rel === 'partial') ?? relations[0]!;
    if (best.rel === 'exact') qualifiers.push({ kind: 'dob_match', effect: p.dobExact, detail: `date of birth ${subject.birthDate} equals listed ${best.d}` });
    else if (best.rel === 'partial') qualifiers.push({ kind: 'dob_partial', effect: p.dobPartial, detail: `date of birth ${subject.birthDate} agrees with listed ${best.d} as far as both go` });
    else qualifiers.push({ kind: 'dob_conflict', effect: p.dobConflict, detail: `date of birth ${subject.birthDate} differs from listed ${entry.datesOfBirth.join(', ')}` });
  }

  if (subject.address && entry.addresses.length) {
    const rels = entry.addresses.map((a) => ({ a, rel: addressRelation(subject.address!, a) }));
    const best = rels.find((r) => r.rel === 'strong') ?? rels.find((r) => r.rel === 'weak');
    const text = (a: WatchlistAddress) => [a.line, a.city, a.postalCode, a.country].filter(Boolean).join(', ');
    if (best?.rel === 'strong') qualifiers.push({ kind: 'address_match', effect: p.addressStrong, detail: `address ${text(subject.address)} matches listed ${text(best.a)}` });
    else if (best?.rel === 'weak') qualifiers.push({ kind: 'address_partial', effect: p.addressWeak, detail: `address ${text(subject.address)} shares a part with listed ${text(best.a)}` });
  }

  if (subject.identifiers?.length && entry.identifiers.length) {
    let matched: string | undefined;
    let conflicted: string | undefined;
    for (const s of subject.identifiers) {
      for (const l of entry.identifiers) {
        if (s.type !== l.kind) continue;
        if (canonicalIdentifier(s.type, s.value) === canonicalIdentifier(l.kind, l.value)) matched ??= `${l.kind} ${l.value}`;
        else if (l.kind !== 'phone' && l.kind !== 'email') conflicted ??= `${l.kind} ${s.value} ≠ listed ${l.value}`;
      }
    }
    if (matched) qualifiers.push({ kind: 'identifier_match', effect: p.identifierMatch, detail: `same ${matched}` });
    else if (conflicted) qualifiers.push({ kind: 'identifier_conflict', effect: p.identifierConflict, detail: conflicted });
  }

  if (subject.nationality && entry.nationalities.includes(subject.nationality)) {
    qualifiers.push({ kind: 'nationality_match', effect: p.nationalityMatch, detail: `nationality ${subject.nationality} is listed` });
  }

  let score = p.nameWeight * nameMatch.nameScore;
  for (const q of qualifiers) score += q.effect;
  score = round(Math.max(0, Math.min(0.99, score)));
  const corroborated = qualifiers.some((q) => q.kind === 'identifier_match') || (qualifiers.some((q) => q.kind === 'dob_match') && qualifiers.some((q) => q.kind === 'address_match'));
  if (nameMatch.exact && corroborated && !qualifiers.some((q) => q.effect < 0)) score = 1;
  const because = qualifiers.filter((q) => q.effect !== 0).map((q) => q.detail);
  const summary =
    `${nameMatch.exact ? 'Exact' : 'Partial'} name match on "${nameMatch.matchedName}" (name ${round(nameMatch.nameScore)}${nameMatch.variant ? `, ${nameMatch.variant}` : ''})` +
    `${because.length ? `; ${because.join('; ')}` : '; nothing beyond the name agrees (internal lists need more than a name)'}; score ${score}.`;
  return { score, qualifiers, summary };
}
