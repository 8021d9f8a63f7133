/**
 * The matching policy for the firm's own lists (issue 21). Internal lists hold ordinary names, so a
 * name alone says little: "Robert Smith" on a fraud list must not alert on every Robert Smith, and
 * must alert on "Bob Smith" born the same day at the same address. The name opens the door (the
 * engine's name score, or a nickname-aware comparison of person names); dates of birth, addresses
 * and identifiers decide. Pure: no I/O, no clock.
 *
 * Evidence points (see EVIDENCE): agreement adds, disagreement subtracts. Strength:
 * - confirmed: a close name (≥ 0.8) with strong agreement (≥ 4 points: e.g. the same date of birth
 *   and the same address, or the same document), and no lifelong-id conflict;
 * - potential: a close name with some agreement (≥ 2 points: the same date of birth alone, the same
 *   dwelling, a shared phone or e-mail), a weaker name (≥ 0.65) with strong agreement, the same
 *   document under another name (≥ 0.45: a changed surname), the same given name with another
 *   surname at the same dwelling with the same date of birth (a surname changed by marriage);
 * - none: everything else: a name alone never alerts (nothing tells the listed person from a
 *   namesake), nor a namesake whose date of birth or address differs.
 */
import type { QualifierApplied } from '../model';
import { addressAgreement, normaliseAddress, type AddressAgreement, type AddressInput, type AddressLevel } from './address-agreement';
import { dobAgreement, type DobAgreement, type DobLevel } from './dob-agreement';
import { identifierAgreements, type IdentifierAgreement, type IdentifierInput, type IdentifierLevel } from './identifier-agreement';
import { personNameAgreement, type PersonNameAgreement } from './person-name';

export type WatchlistMatchStrength = 'confirmed' | 'potential' | 'none';

/**
 * What we know of the screened subject beyond its name (the fields the internal-list agent fills
 * from a screening request; the plural ones for callers that hold more than one).
 */
export interface WatchlistSubject {
  name: string;
  /** other names the subject goes by */
  aliases?: readonly string[];
  /** individual/person, company/organization… */
  entityType?: string;
  /** YYYY, YYYY-MM or YYYY-MM-DD (also DD/MM/YYYY) */
  birthDate?: string;
  datesOfBirth?: readonly string[];
  /** ISO alpha-2 */
  nationality?: string;
  nationalities?: readonly string[];
  /** residence or registration country (alpha-2): places a phone number written without its code */
  country?: string;
  address?: AddressInput;
  addresses?: readonly AddressInput[];
  /** type: passport, national_id, tax_id, registration_number, imo, drivers_license, phone, email, other */
  identifiers?: readonly { type: string; value: string; country?: string; region?: string }[];
}

/** What the policy reads of an internal-list entry (structurally the model's WatchlistEntry). */
export interface WatchlistEntryLike {
  primaryName: string;
  aliases?: readonly (string | { name: string })[];
  entityType?: string;
  datesOfBirth?: readonly string[];
  nationalities?: readonly string[];
  addresses?: readonly AddressInput[];
  identifiers?: readonly IdentifierInput[];
}

/** The name comparison the engine made (its name score and the alias that matched). */
export interface WatchlistNameMatch {
  /** Name similarity in [0,1] (the engine's nameScore, before its own qualifiers). */
  nameScore: number;
  matchedName: string;
  /** True when the names are equal after normalisation. */
  exact?: boolean;
  /** How the subject's name was varied to find it, e.g. `nickname Bob → Robert`. */
  variant?: string;
}

export interface WatchlistFactor {
  kind: 'dob' | 'address' | 'identifier' | 'nationality' | 'entity_type';
  /** the agreement level (exact, day_month_swapped, same_address, phone_match…) */
  level: string;
  /** evidence points it adds (agreement) or takes away (disagreement) */
  points: number;
  detail: string;
}

export interface WatchlistCandidateScore {
  /**
   * Final score in [0,1], banded by strength so the list agent's thresholds read it: confirmed
   * ≥ 0.95 (1.0 for an exact name with nothing differing), potential 0.80–0.94, none below 0.80.
   */
  score: number;
  strength: WatchlistMatchStrength;
  /** one step per factor, `effect` in score units; name weight × name score + Σ effects = score */
  qualifiers: QualifierApplied[];
  /** one paragraph in plain words: how the names compared, what agreed, what differed, the verdict */
  summary: string;
  nameScore: number;
  /** the entry's name or alias that compared best */
  matchedName: string;
  /** evidence points in total (see EVIDENCE) */
  evidence: number;
  agreed: WatchlistFactor[];
  differed: WatchlistFactor[];
  /** attributes one side lacks, so they could not count either way */
  notCompared: string[];
}

export const EVIDENCE = {
  dob: { exact: 3, day_month_swapped: 2, typo: 1.5, partial: 1, same_year_other_date: -2, conflict: -3.5 } satisfies Record<DobLevel, number>,
  address: {
    same_address: 2.5, same_building_other_unit: 1.5, same_street: 1.2, same_postcode: 0.8, same_city: 0.3, different: -0.5, other_country: -0.8,
  } satisfies Record<AddressLevel, number>,
  identifier: {
    document_match: 4, document_number_match: 3, phone_match: 2.5, email_match: 2.5, phone_probable_match: 1.5, passport_differs: -0.5, document_conflict: -4,
  } satisfies Record<IdentifierLevel, number>,
  /** each further independent contact match (phone and e-mail both) */
  extraIdentifier: 0.5,
  nationalityAgrees: 0.3,
  nationalityDiffers: -0.5,
} as const;

export const POLICY = {
  closeName: 0.8,
  weakName: 0.65,
  renamedName: 0.45,
  confirmEvidence: 4,
  potentialEvidence: 2,
} as const;

const DOB_WORDS: Record<DobLevel, string> = {
  exact: 'equals listed',
  day_month_swapped: 'is listed with day and month swapped:',
  typo: 'is one digit away from listed',
  partial: 'agrees as far as both go with listed',
  same_year_other_date: 'is another day of the same year than listed',
  conflict: 'differs from listed',
};
const ADDRESS_WORDS: Record<AddressLevel, string> = {
  same_address: 'the same dwelling as',
  same_building_other_unit: 'the same building, another flat, as',
  same_street: 'the same street (another or no house number) as',
  same_postcode: 'the same postcode as',
  same_city: 'the same city as',
  different: 'another place than',
  other_country: 'another country than',
};
const IDENTIFIER_WORDS: Record<IdentifierLevel, string> = {
  document_match: 'equals listed',
  document_number_match: 'has the number of listed',
  phone_match: 'is the same number as listed',
  phone_probable_match: 'ends in the same nine digits as listed (country code unknown)',
  email_match: 'is the same address as listed',
  passport_differs: 'is another number of the same renewable document (passport, licence) and country than listed',
  document_conflict: 'is another number of the same kind and country than listed',
};

const aliasName = (a: string | { name: string }) => (typeof a === 'string' ? a : a.name);
const round3 = (x: number) => Math.round(x * 1000) / 1000;

function isPerson(t: string | undefined): boolean {
  return !t || t === 'person' || t === 'individual' || t === 'unknown';
}

interface BestName {
  score: number;
  matchedName: string;
  detail: string;
  exact: boolean;
  person?: PersonNameAgreement;
}

function describePersonName(subject: string, listed: string, a: PersonNameAgreement): string {
  const parts = a.pairs.map((p) => {
    switch (p.how) {
      case 'exact':
        return `"${p.subject}" exact`;
      case 'nickname':
        return `"${p.subject}" is a short form of "${p.listed}"`;
      case 'short_form':
        return `"${p.subject}" / "${p.listed}": one given name is the start of the other`;
      case 'initial':
        return `"${p.subject}" / "${p.listed}" by initial`;
      case 'spelling':
        return `"${p.subject}" is spelt one or two letters from "${p.listed}"`;
      case 'sounds_alike':
        return `"${p.subject}" sounds like "${p.listed}"`;
    }
  });
  const missing = [...a.unmatched.subject.map((w) => `"${w}" only on the subject`), ...a.unmatched.listed.map((w) => `"${w}" only on the list`)];
  return `name "${subject}" against "${listed}": ${[...parts, ...missing, ...a.notes].join('; ')} (name score ${round3(a.score)})`;
}

function bestName(subject: WatchlistSubject, entry: WatchlistEntryLike, nameMatch: WatchlistNameMatch | undefined): BestName {
  const listedNames = [entry.primaryName, ...(entry.aliases ?? []).map(aliasName)].filter((n) => n && n.trim());
  const subjectNames = [subject.name, ...(subject.aliases ?? [])].filter((n) => n && n.trim());
  let best: BestName = { score: 0, exact: false, matchedName: entry.primaryName, detail: `name "${subject.name}" does not resemble "${entry.primaryName}"` };
  if (isPerson(subject.entityType) && isPerson(entry.entityType)) {
    for (const s of subjectNames) {
      for (const l of listedNames) {
        const a = personNameAgreement(s, l);
        if (a.score > best.score) best = { score: a.score, exact: a.score === 1, matchedName: l, detail: describePersonName(s, l, a), person: a };
      }
    }
  }
  // The screening matcher reads neither generational suffixes nor the English given-name table: Jr
  // against Sr, Robert against Richard, Steven against Stephanie stay two people whatever it scores.
  // (It still wins elsewhere: transliterations, other scripts, organisations.)
  const decisive = best.person?.suffixConflict === true || best.person?.givenNamesDiffer === true;
  if (nameMatch && nameMatch.nameScore > best.score && !decisive) {
    const variant = nameMatch.variant ? ` (found as ${nameMatch.variant})` : '';
    best = {
      score: nameMatch.nameScore,
      exact: nameMatch.exact ?? nameMatch.nameScore >= 1,
      matchedName: nameMatch.matchedName,
      detail: `name "${subject.name}" against "${nameMatch.matchedName}"${variant}: the screening matcher's name score ${round3(nameMatch.nameScore)}`,
    };
  }
  return best;
}

/** The name's share of the score: a name alone (0.7 at most) stays below the 0.80 hit threshold. */
export const NAME_WEIGHT = 0.7;
/** Score units per evidence point in the qualifiers (DOB exact: 3 points = +0.15). */
export const POINT = 0.05;
const BANDS: Record<WatchlistMatchStrength, [number, number]> = { confirmed: [0.95, 0.99], potential: [0.8, 0.94], none: [0, 0.79] };

/**
 * Decide how an internal-list entry relates to a screened subject, with the reasons in words.
 * `nameMatch` is the screening engine's name comparison when it found the entry; persons' names are
 * also compared here, nickname-aware, and the better of the two counts.
 */
export function scoreWatchlistCandidate(subject: WatchlistSubject, entry: WatchlistEntryLike, nameMatch?: WatchlistNameMatch): WatchlistCandidateScore {
  const name = bestName(subject, entry, nameMatch);
  const agreed: WatchlistFactor[] = [];
  const differed: WatchlistFactor[] = [];
  const notCompared: string[] = [];
  const push = (f: WatchlistFactor) => (f.points > 0 ? agreed : differed).push(f);
  let evidence = 0;
  let lifelongConflict = false;
  let documentMatch = false;
  /** the same document of the same kind (not only the same number under two kinds) */
  let sameDocument = false;
  let comparable = 0;

  const subjectDates = [...(subject.birthDate ? [subject.birthDate] : []), ...(subject.datesOfBirth ?? [])];
  const subjectAddresses = [...(subject.address ? [subject.address] : []), ...(subject.addresses ?? [])];
  const subjectNationalities = [...(subject.nationality ? [subject.nationality] : []), ...(subject.nationalities ?? [])];
  const subjectIds: IdentifierInput[] = (subject.identifiers ?? []).map((i) => ({ kind: i.type, value: i.value, country: i.country, region: i.region }));

  const typeConflict =
    !!subject.entityType && !!entry.entityType && subject.entityType !== 'unknown' && entry.entityType !== 'unknown' && isPerson(subject.entityType) !== isPerson(entry.entityType);
  if (typeConflict) differed.push({ kind: 'entity_type', level: 'conflict', points: 0, detail: `the subject is a ${subject.entityType}, the entry a ${entry.entityType}` });

  const dob: DobAgreement | undefined = dobAgreement(subjectDates, entry.datesOfBirth ?? []);
  if (dob) {
    comparable++;
    const points = EVIDENCE.dob[dob.level];
    evidence += points;
    push({ kind: 'dob', level: dob.level, points, detail: `date of birth ${dob.subject} ${DOB_WORDS[dob.level]} ${dob.listed}` });
  } else if (isPerson(entry.entityType)) notCompared.push(`date of birth (${!subjectDates.length ? 'none given for the subject' : 'none on the entry'})`);

  const address: AddressAgreement | undefined = addressAgreement(subjectAddresses, entry.addresses ?? []);
  if (address) {
    comparable++;
    const points = EVIDENCE.address[address.level];
    evidence += points;
    push({ kind: 'address', level: address.level, points, detail: `address "${address.subject}" is ${ADDRESS_WORDS[address.level]} "${address.listed}"` });
  } else notCompared.push(`address (${!subjectAddresses.length ? 'none given for the subject' : !entry.addresses?.length ? 'none on the entry' : 'nothing comparable'})`);

  // a phone written without its code is placed by the country of the address (a one-line address's too)
  const addressCountry = (a: AddressInput | undefined) => (a ? normaliseAddress(a).country : undefined);
  const ids: IdentifierAgreement[] = identifierAgreements(subjectIds, entry.identifiers ?? [], {
    subject: subject.country ?? addressCountry(subjectAddresses[0]) ?? subjectNationalities[0],
    listed: addressCountry(entry.addresses?.[0]) ?? entry.nationalities?.[0],
  });
  let positives = 0;
  let bestPositive = 0;
  for (const id of ids) {
    const points = EVIDENCE.identifier[id.level];
    if (points > 0) {
      positives++;
      if (id.level === 'document_match' || id.level === 'document_number_match') documentMatch = true;
      if (id.level === 'document_match') sameDocument = true;
      bestPositive = Math.max(bestPositive, points);
    } else {
      evidence += points;
      if (id.level === 'document_conflict') lifelongConflict = true;
    }
    // matches count once (the best, plus a little for each further one): the explanation shows what each would add alone
    push({ kind: 'identifier', level: id.level, points, detail: `${id.kind.replace(/_/g, ' ')} ${id.subject} ${IDENTIFIER_WORDS[id.level]} ${id.listed}` });
  }
  if (ids.length) comparable++;
  if (positives) evidence += bestPositive + EVIDENCE.extraIdentifier * (positives - 1);
  if (!ids.length && (!subjectIds.length || !entry.identifiers?.length)) {
    notCompared.push(`identifiers (${!subjectIds.length ? 'none given for the subject' : 'none on the entry'})`);
  }

  const sn = new Set(subjectNationalities.map((c) => c.toUpperCase()));
  const ln = (entry.nationalities ?? []).map((c) => c.toUpperCase());
  if (sn.size && ln.length) {
    const shared = ln.filter((c) => sn.has(c));
    const points = shared.length ? EVIDENCE.nationalityAgrees : EVIDENCE.nationalityDiffers;
    evidence += points;
    push({
      kind: 'nationality',
      level: shared.length ? 'agrees' : 'differs',
      points,
      detail: shared.length ? `nationality ${shared.join(', ')} on both` : `nationality ${[...sn].join(', ')} against listed ${ln.join(', ')}`,
    });
  }
  evidence = round3(evidence);

  const n = name.score;
  const nameless = !entry.primaryName?.trim() && !(entry.aliases ?? []).some((a) => aliasName(a).trim());
  // a changed surname: the given name agrees, the surname does not, and the birth date and dwelling are the same
  const renamed =
    !!name.person && name.person.givenAgrees && !name.person.surnameAgrees && dob?.level === 'exact' && address?.level === 'same_address' && !lifelongConflict;
  let strength: WatchlistMatchStrength = 'none';
  if (!typeConflict) {
    if (n >= POLICY.closeName && evidence >= POLICY.confirmEvidence && !lifelongConflict) strength = 'confirmed';
    else if (n >= POLICY.closeName && evidence >= POLICY.potentialEvidence) strength = 'potential';
    else if (n >= POLICY.weakName && evidence >= POLICY.confirmEvidence) strength = 'potential';
    // the same document under another name: a person keeps a passport or national id through a change of name (and a fraud list wants one id under two names)
    else if (sameDocument && !lifelongConflict) strength = 'potential';
    else if (documentMatch && n >= POLICY.renamedName && !lifelongConflict) strength = 'potential';
    // an entry listed by its identifiers alone (a fraudster's e-mail or phone): the identifier is the listing
    else if (nameless && positives > 0 && !lifelongConflict) strength = 'potential';
    else if (renamed) strength = 'potential';
  }

  // the score: name weight × name score + evidence in score units, held inside the strength's band
  const qualifiers: QualifierApplied[] = [];
  if (name.person?.pairs.some((p) => p.how === 'nickname')) {
    const nick = name.person.pairs.filter((p) => p.how === 'nickname').map((p) => `${p.subject} → ${p.listed}`);
    qualifiers.push({ kind: 'name_variant', effect: 0, detail: `short form of a given name: ${nick.join(', ')}` });
  }
  if (typeConflict) qualifiers.push({ kind: 'entity_type_conflict', effect: 0, detail: differed[0]!.detail });
  let raw = NAME_WEIGHT * n;
  const counted = [...agreed, ...differed].filter((f) => f.kind !== 'entity_type');
  let bestCounted = false;
  for (const f of counted) {
    // the best identifier match counts in full, each further one EVIDENCE.extraIdentifier
    let points = f.points;
    if (f.kind === 'identifier' && points > 0) {
      if (points === bestPositive && !bestCounted) bestCounted = true;
      else points = EVIDENCE.extraIdentifier;
    }
    const effect = round3(points * POINT);
    raw += effect;
    qualifiers.push({ kind: `${f.kind}_${f.level}`, effect, detail: f.detail });
  }
  const [lo, hi] = BANDS[strength];
  let score = round3(Math.min(hi, Math.max(lo, raw)));
  if (typeConflict) score = 0;
  else if (strength === 'confirmed' && name.exact && differed.length === 0) score = 1;
  const band = round3(score - round3(raw));
  if (band !== 0) {
    qualifiers.push({
      kind: 'policy_band',
      effect: band,
      detail: typeConflict ? 'a person never matches an organisation' : `held to the ${strength === 'none' ? 'no-match' : strength} band ${lo}–${strength === 'confirmed' ? 1 : hi} by the internal-list policy`,
    });
  }

  const verdict =
    strength === 'confirmed'
      ? 'Confirmed match: the name and strong corroborating details agree.'
      : strength === 'potential'
        ? renamed && n < POLICY.weakName
            ? 'Potential match: the given name, date of birth and address agree but the surname differs (changed by marriage?); an analyst should review.'
            : nameless
              ? 'Potential match: the entry is listed by its identifiers alone (no name) and one of them agrees; an analyst should review.'
              : documentMatch && n < POLICY.weakName
                ? 'Potential match: the same document under another name (a changed name, or one identity used under two names); an analyst should review.'
              : 'Potential match: the name and some details agree; an analyst should review.'
        : n < POLICY.weakName
          ? 'No match: the names are different.'
          : comparable === 0
            ? 'No match: a name alone is not enough on an internal list (nothing else to tell the listed person from a namesake).'
            : 'No match: the name alone is not enough for an internal list, and the other details do not support it.';
  const summary = [
    `${name.detail[0]!.toUpperCase()}${name.detail.slice(1)}.`,
    agreed.length ? `Agreed: ${agreed.map((f) => f.detail).join('; ')}.` : 'Nothing else agreed.',
    differed.length ? `Differed: ${differed.map((f) => f.detail).join('; ')}.` : '',
    notCompared.length ? `Not compared: ${notCompared.join('; ')}.` : '',
    verdict,
    `Score ${score}.`,
  ]
    .filter(Boolean)
    .join(' ');
  return { score, strength, qualifiers, summary, nameScore: round3(n), matchedName: name.matchedName, evidence, agreed, differed, notCompared };
}
