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
 *   surname at the same dwelling with the same date of birth (a surname changed by marriage), or an
 *   exact name with nothing on either side to compare (a namesake cannot be told apart: an analyst looks);
 * - none: everything else, in particular a namesake whose date of birth or address differs.
 */
import { addressAgreement, type AddressAgreement, type AddressInput, type AddressLevel } from './address-agreement';
import { dobAgreement, type DobAgreement, type DobLevel } from './dob-agreement';
import { identifierAgreements, type IdentifierAgreement, type IdentifierInput, type IdentifierLevel } from './identifier-agreement';
import { personNameAgreement, type PersonNameAgreement } from './person-name';

export type WatchlistMatchStrength = 'confirmed' | 'potential' | 'none';

/** The screened customer or counterparty, as far as the caller knows it. */
export interface WatchlistSubject {
  name: string;
  aliases?: readonly string[];
  entityType?: string;
  datesOfBirth?: readonly string[];
  nationalities?: readonly string[];
  /** residence or registration country (alpha-2), places a phone number without its code */
  country?: string;
  addresses?: readonly AddressInput[];
  identifiers?: readonly IdentifierInput[];
}

/** What the policy reads of an internal-list entry (structurally the watchlist model's entry). */
export interface WatchlistEntryLike {
  primaryName: string;
  aliases?: readonly (string | { name: string })[];
  entityType?: string;
  datesOfBirth?: readonly string[];
  nationalities?: readonly string[];
  addresses?: readonly AddressInput[];
  identifiers?: readonly IdentifierInput[];
}

/** The screening matcher's name comparison for this pair, when it ran (its name score before qualifiers). */
export interface NameMatchInput {
  nameScore: number;
  matchedName?: string;
}

export interface WatchlistFactor {
  kind: 'dob' | 'address' | 'identifier' | 'nationality' | 'entity_type';
  /** evidence points it adds (agreement) or takes away (disagreement) */
  effect: number;
  detail: string;
}

export interface WatchlistMatchResult {
  strength: WatchlistMatchStrength;
  /** in [0,1]: the name score weighted by how much the other attributes support it */
  score: number;
  nameScore: number;
  /** the entry's name or alias that compared best */
  matchedName: string;
  evidence: number;
  /** how the names compared, in words */
  nameDetail: string;
  /** attributes that agreed (each with its evidence points) */
  agreed: WatchlistFactor[];
  differed: WatchlistFactor[];
  /** attributes one side lacks, so they could not count either way */
  notCompared: string[];
  /** one paragraph in plain words: what agreed, what differed, and the verdict */
  explanation: string;
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
  exactName: 0.99,
  confirmEvidence: 4,
  potentialEvidence: 2,
} as const;

const DOB_WORDS: Record<DobLevel, string> = {
  exact: 'equals',
  day_month_swapped: 'is the listed date with day and month swapped:',
  typo: 'is one digit away from',
  partial: 'agrees as far as both go with',
  same_year_other_date: 'is another day of the same year than',
  conflict: 'differs from',
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
  passport_differs: 'is another passport of the same country than listed',
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
  person?: PersonNameAgreement;
}

function describePersonName(subject: string, listed: string, a: PersonNameAgreement): string {
  const parts = a.pairs.map((p) => {
    switch (p.how) {
      case 'exact':
        return `"${p.subject}" exact`;
      case 'nickname':
        return `"${p.subject}" is a short form of "${p.listed}"`;
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

function bestName(subject: WatchlistSubject, entry: WatchlistEntryLike, nameMatch: NameMatchInput | undefined): BestName {
  const listedNames = [entry.primaryName, ...(entry.aliases ?? []).map(aliasName)].filter((n) => n && n.trim());
  const subjectNames = [subject.name, ...(subject.aliases ?? [])].filter((n) => n && n.trim());
  let best: BestName = { score: 0, matchedName: entry.primaryName, detail: `name "${subject.name}" does not resemble "${entry.primaryName}"` };
  if (isPerson(subject.entityType) && isPerson(entry.entityType)) {
    for (const s of subjectNames) {
      for (const l of listedNames) {
        const a = personNameAgreement(s, l);
        if (a.score > best.score) best = { score: a.score, matchedName: l, detail: describePersonName(s, l, a), person: a };
      }
    }
  }
  if (nameMatch && nameMatch.nameScore > best.score) {
    const matched = nameMatch.matchedName ?? entry.primaryName;
    best = { score: nameMatch.nameScore, matchedName: matched, detail: `name "${subject.name}" against "${matched}": the screening matcher's name score ${round3(nameMatch.nameScore)}` };
  }
  return best;
}

/** Decide how an internal-list entry relates to a screened subject, with the reasons in words. */
export function scoreWatchlistCandidate(subject: WatchlistSubject, entry: WatchlistEntryLike, nameMatch?: NameMatchInput): WatchlistMatchResult {
  const name = bestName(subject, entry, nameMatch);
  const agreed: WatchlistFactor[] = [];
  const differed: WatchlistFactor[] = [];
  const notCompared: string[] = [];
  const push = (f: WatchlistFactor) => (f.effect > 0 ? agreed : differed).push(f);
  let evidence = 0;
  let lifelongConflict = false;
  let documentMatch = false;
  let comparable = 0;

  const typeConflict =
    !!subject.entityType && !!entry.entityType && subject.entityType !== 'unknown' && entry.entityType !== 'unknown' && isPerson(subject.entityType) !== isPerson(entry.entityType);
  if (typeConflict) differed.push({ kind: 'entity_type', effect: 0, detail: `the subject is a ${subject.entityType}, the entry a ${entry.entityType}` });

  const dob: DobAgreement | undefined = dobAgreement(subject.datesOfBirth ?? [], entry.datesOfBirth ?? []);
  if (dob) {
    comparable++;
    const effect = EVIDENCE.dob[dob.level];
    evidence += effect;
    push({ kind: 'dob', effect, detail: `date of birth ${dob.subject} ${DOB_WORDS[dob.level]} ${dob.listed}` });
  } else if (isPerson(entry.entityType)) notCompared.push(`date of birth (${!subject.datesOfBirth?.length ? 'none given for the subject' : 'none on the entry'})`);

  const address: AddressAgreement | undefined = addressAgreement(subject.addresses ?? [], entry.addresses ?? []);
  if (address) {
    comparable++;
    const effect = EVIDENCE.address[address.level];
    evidence += effect;
    push({ kind: 'address', effect, detail: `address "${address.subject}" is ${ADDRESS_WORDS[address.level]} "${address.listed}"` });
  } else notCompared.push(`address (${!subject.addresses?.length ? 'none given for the subject' : !entry.addresses?.length ? 'none on the entry' : 'nothing comparable'})`);

  const ids: IdentifierAgreement[] = identifierAgreements(subject.identifiers ?? [], entry.identifiers ?? [], {
    subject: subject.country ?? subject.addresses?.[0]?.country,
    listed: entry.addresses?.[0]?.country ?? entry.nationalities?.[0],
  });
  let positives = 0;
  let bestPositive = 0;
  for (const id of ids) {
    const effect = EVIDENCE.identifier[id.level];
    if (effect > 0) {
      positives++;
      if (id.level === 'document_match' || id.level === 'document_number_match') documentMatch = true;
      bestPositive = Math.max(bestPositive, effect);
    } else {
      evidence += effect;
      if (id.level === 'document_conflict') lifelongConflict = true;
    }
    push({ kind: 'identifier', effect, detail: `${id.kind.replace('_', ' ')} ${id.subject} ${IDENTIFIER_WORDS[id.level]} ${id.listed}` });
  }
  if (ids.length) comparable++;
  if (positives) evidence += bestPositive + EVIDENCE.extraIdentifier * (positives - 1);
  if (!ids.length && (!subject.identifiers?.length || !entry.identifiers?.length)) {
    notCompared.push(`identifiers (${!subject.identifiers?.length ? 'none given for the subject' : 'none on the entry'})`);
  }

  const sn = new Set((subject.nationalities ?? []).map((c) => c.toUpperCase()));
  const ln = (entry.nationalities ?? []).map((c) => c.toUpperCase());
  if (sn.size && ln.length) {
    const shared = ln.filter((c) => sn.has(c));
    const effect = shared.length ? EVIDENCE.nationalityAgrees : EVIDENCE.nationalityDiffers;
    evidence += effect;
    push({
      kind: 'nationality',
      effect,
      detail: shared.length ? `nationality ${shared.join(', ')} on both` : `nationality ${[...sn].join(', ')} against listed ${ln.join(', ')}`,
    });
  }
  evidence = round3(evidence);

  const n = name.score;
  // a changed surname: the given name agrees, the surname does not, and the birth date and dwelling are the same
  const renamed =
    !!name.person && name.person.givenAgrees && !name.person.surnameAgrees && dob?.level === 'exact' && address?.level === 'same_address' && !lifelongConflict;
  let strength: WatchlistMatchStrength = 'none';
  if (!typeConflict) {
    if (n >= POLICY.closeName && evidence >= POLICY.confirmEvidence && !lifelongConflict) strength = 'confirmed';
    else if (n >= POLICY.closeName && evidence >= POLICY.potentialEvidence) strength = 'potential';
    else if (n >= POLICY.weakName && evidence >= POLICY.confirmEvidence) strength = 'potential';
    else if (documentMatch && n >= POLICY.renamedName && !lifelongConflict) strength = 'potential';
    else if (renamed) strength = 'potential';
    else if (n >= POLICY.exactName && comparable === 0) strength = 'potential';
  }
  // the name score weighted by the support of the other attributes (a logistic curve centred on 1.5 points)
  const support = 1 / (1 + Math.exp(-(evidence - 1.5) / 1.2));
  const score = typeConflict ? 0 : round3(Math.min(1, n * (0.4 + 0.6 * support)));

  const verdict =
    strength === 'confirmed'
      ? 'Confirmed match: the name and strong corroborating details agree.'
      : strength === 'potential'
        ? comparable === 0 && evidence === 0
          ? 'Potential match: the name agrees and there is nothing else to compare, so a namesake cannot be ruled out.'
          : renamed && n < POLICY.weakName
            ? 'Potential match: the given name, date of birth and address agree but the surname differs (changed by marriage?); an analyst should review.'
            : 'Potential match: the name and some details agree; an analyst should review.'
        : n < POLICY.weakName
          ? 'No match: the names are different.'
          : 'No match: the name alone is not enough for an internal list, and the other details do not support it.';
  const explanation = [
    `${name.detail[0].toUpperCase()}${name.detail.slice(1)}.`,
    agreed.length ? `Agreed: ${agreed.map((f) => f.detail).join('; ')}.` : 'Nothing else agreed.',
    differed.length ? `Differed: ${differed.map((f) => f.detail).join('; ')}.` : '',
    notCompared.length ? `Not compared: ${notCompared.join('; ')}.` : '',
    verdict,
  ]
    .filter(Boolean)
    .join(' ');
  return { strength, score, nameScore: round3(n), matchedName: name.matchedName, evidence, nameDetail: name.detail, agreed, differed, notCompared, explanation };
}
