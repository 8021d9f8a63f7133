/**
 * What "confirmed" means, in one place (issue 27, docs/risk-scoring.md "Confirmed"). Every scorer,
 * surface, report and agent that says whether a hit is confirmed asks this module;
 * test/unit/reports/confirmation-single-definition.test.ts fails when another definition appears.
 *
 * A name alone confirms nothing about identity. A hit is **confirmed** only when
 * - the name matches (its name similarity at least CONFIRMABLE_NAME_SIMILARITY) and a strong identity
 *   fact agrees: the date of birth equals a listed date or falls within a listed year or range, or an
 *   identifier (passport, national id, registration, IMO, LEI, e-mail, phone…) equals a listed one;
 * - or the name matches exactly and is distinctive (src/screening/identity/name-frequency.ts: rare by
 *   the name pools and the lists' own word frequencies, and no other listed entity carries it);
 * - or an analyst decided "true match".
 * A date of birth that agrees with no listed date contradicts the identity: the hit stays a potential
 * match and counts at most "medium" (the scorer's floors). Everything else that reaches the minimum
 * match score is **potential**, a "strong name match" from the spec's 95 band.
 *
 * The machine's assessment of a hit (`MatchAssessment`) is recorded when the hit is found and kept
 * apart from the analyst's decision (`HitDisposition`); `standingOf` combines the two for scoring and
 * display, and `BADGES` words them once for the API, the JSON report and the PDF.
 */
import type { BirthDate } from '../screening/model';

/** Matcher score (in [0, 1]) from which a row is a hit at all (spec part 1: minimum match score 80). */
export const MIN_MATCH_SCORE = 0.8;
/** Matcher score of the confirmed name band (the spec's 95): a hit from here is a strong name match. */
export const STRONG_NAME_SCORE = 0.95;
/**
 * Name similarity (the matcher's name score, before qualifiers) a name needs for a date of birth or
 * an identifier to confirm it: a spelling variant, a missing middle name or patronymic, not another
 * given name. Two different but similar names born the same day are too likely in a large book.
 */
export const CONFIRMABLE_NAME_SIMILARITY = 0.9;
/** Name similarity of an exact name (primary or strong alias, every part equal after folding). */
export const EXACT_NAME_SIMILARITY = 0.995;

/** What confirmed a hit. */
export const CONFIRMATION_BASES = ['date_of_birth', 'identifier', 'distinctive_name', 'analyst'] as const;
export type ConfirmationBasis = (typeof CONFIRMATION_BASES)[number];
export interface HitConfirmation {
  basis: ConfirmationBasis;
  /** In words: which fact, e.g. "date of birth 1952-10-07 equals listed 07/10/1952". */
  detail: string;
}

/** A recorded confirmation read back from stored JSON (undefined when it is not one). */
export function parseConfirmation(value: unknown): HitConfirmation | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { basis, detail } = value as { basis?: unknown; detail?: unknown };
  if (typeof detail !== 'string' || !(CONFIRMATION_BASES as readonly unknown[]).includes(basis)) return undefined;
  return { basis: basis as ConfirmationBasis, detail };
}

/**
 * A confirmation the machine may record with its assessment (a fact or a distinctive name, its detail
 * at most `maxDetail` characters): an analyst confirms by a decision, never through a recorded assessment.
 */
export function isMachineConfirmation(value: unknown, maxDetail = 1000): value is HitConfirmation {
  const c = parseConfirmation(value);
  return c !== undefined && c.basis !== 'analyst' && c.detail.trim().length > 0 && c.detail.length <= maxDetail;
}

/** A recorded assessment read back from stored JSON (undefined when it is not one). */
export function parseAssessment(value: unknown): MatchAssessment | undefined {
  return (MATCH_ASSESSMENTS as readonly unknown[]).includes(value) ? (value as MatchAssessment) : undefined;
}

/**
 * The machine's assessment of a hit, recorded when it is found:
 * - `identity_corroborated`: confirmed by a fact or a distinctive exact name (the confirmation says which);
 * - `strong_name_match`: the name reaches the confirmed name band (score ≥ 0.95) but nothing corroborates the identity;
 * - `name_match`: a potential match below that band;
 * - `identity_contradicted`: the subject's date of birth agrees with no listed date (most likely a namesake).
 */
export const MATCH_ASSESSMENTS = ['identity_corroborated', 'strong_name_match', 'name_match', 'identity_contradicted'] as const;
export type MatchAssessment = (typeof MATCH_ASSESSMENTS)[number];

/** A hit's standing: the machine's assessment with the analyst's decision applied. */
export type HitStanding = 'analyst_confirmed' | 'dismissed' | MatchAssessment;

/** How each standing is worded (API `match_assessment` values, the report's badge and the PDF). */
export const BADGES: Record<HitStanding, { label: string; badge: string }> = {
  analyst_confirmed: { label: 'analyst-confirmed', badge: 'CONFIRMED by an analyst (true match)' },
  identity_corroborated: { label: 'identity corroborated', badge: 'CONFIRMED: identity corroborated' },
  strong_name_match: { label: 'strong name match', badge: 'POTENTIAL: strong name match, identity not corroborated' },
  name_match: { label: 'name match', badge: 'POTENTIAL: partial name match, needs review' },
  identity_contradicted: { label: 'identity contradicted', badge: 'POTENTIAL: the date of birth contradicts every listed date' },
  dismissed: { label: 'dismissed', badge: 'DISMISSED by an analyst (false positive)' },
};

/** The fields of a hit the standing reads (ReportHit satisfies it). */
export interface AssessableHit {
  score: number;
  assessment?: MatchAssessment;
  confirmation?: HitConfirmation;
  /** The analyst's decision (ReportHit's HitDisposition), apart from the machine's assessment. */
  disposition?: { decision: 'true_match' | 'false_positive' | 'needs_more_information'; by: string; at?: string };
  /** Qualifiers of hits recorded before assessments were kept: a `dob_conflict` without a `dob_match` contradicts. */
  explanation?: { qualifiers?: readonly { kind: string }[] };
}

/** The machine's assessment of a hit (for hits recorded before it was kept: from the score and qualifiers). */
export function assessmentOf(hit: AssessableHit): MatchAssessment {
  if (hit.assessment) return hit.assessment;
  const kinds = new Set((hit.explanation?.qualifiers ?? []).map((q) => q.kind));
  if (kinds.has('dob_conflict') && !kinds.has('dob_match')) return 'identity_contradicted';
  return hit.score >= STRONG_NAME_SCORE ? 'strong_name_match' : 'name_match';
}

/**
 * The hit's standing for scoring and display. "Needs more information" is not a decision: the hit
 * stands as the machine assessed it. A hit below the minimum match score is `undefined` (not a match).
 */
export function standingOf(hit: AssessableHit): HitStanding | undefined {
  if (hit.disposition?.decision === 'false_positive') return 'dismissed';
  if (hit.disposition?.decision === 'true_match') return 'analyst_confirmed';
  if (!(hit.score >= MIN_MATCH_SCORE)) return undefined;
  const assessment = assessmentOf(hit);
  // A hit recorded as corroborated carries its confirmation; one without is read as a strong name match.
  if (assessment === 'identity_corroborated' && !hit.confirmation) return hit.score >= STRONG_NAME_SCORE ? 'strong_name_match' : 'name_match';
  return assessment;
}

/**
 * The machine's standing of a hit with the analyst's decision left out, to show apart from the
 * decision (a dismissed hit was still a strong name match; an analyst-confirmed one may have been a name match).
 */
export function machineStandingOf(hit: AssessableHit): MatchAssessment {
  const { disposition: _decision, ...machine } = hit;
  const standing = standingOf(machine);
  return standing === undefined || standing === 'dismissed' || standing === 'analyst_confirmed' ? assessmentOf(hit) : standing;
}

export type HitStatus = 'confirmed' | 'potential';

/** confirmed / potential (the API's `match_strength` and hit `status` values), for a standing. */
export function statusOfStanding(standing: HitStanding | undefined): HitStatus | undefined {
  if (standing === undefined || standing === 'dismissed') return undefined;
  return standing === 'analyst_confirmed' || standing === 'identity_corroborated' ? 'confirmed' : 'potential';
}

/** The hit's status as the API shows it: confirmed only with an identity confirmation or a true-match decision. */
export function hitStatusOf(hit: AssessableHit): HitStatus {
  const standing = standingOf(hit);
  // A dismissed hit is still shown with what the machine found.
  if (standing === 'dismissed') return hit.assessment === 'identity_corroborated' && hit.confirmation ? 'confirmed' : 'potential';
  return statusOfStanding(standing) ?? 'potential';
}

/** What confirmed the hit: the analyst's decision, else the machine's fact (undefined: nothing did). */
export function confirmationOf(hit: AssessableHit): HitConfirmation | undefined {
  if (hit.disposition?.decision === 'true_match') {
    const at = hit.disposition.at ? ` on ${hit.disposition.at.slice(0, 10)}` : '';
    return { basis: 'analyst', detail: `marked a true match by ${hit.disposition.by}${at}` };
  }
  if (standingOf(hit) === 'identity_corroborated') return hit.confirmation;
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// The machine's assessment of a new hit

/** How the subject's date of birth relates to the listed ones. */
export type DobEvidence =
  | { relation: 'exact' | 'within_range'; detail: string }
  /** Agrees without confirming: the subject gave only a year, the list only says "circa", or day and month are swapped. */
  | { relation: 'consistent'; detail: string }
  | { relation: 'conflict'; detail: string };

interface DateParts {
  year: number;
  month?: number;
  day?: number;
}

function parts(value: string | undefined): DateParts | undefined {
  const m = /^(\d{4})(?:-(\d{1,2})(?:-(\d{1,2}))?)?$/.exec(value?.trim() ?? '');
  if (!m) return undefined;
  return { year: Number(m[1]), ...(m[2] ? { month: Number(m[2]) } : {}), ...(m[3] ? { day: Number(m[3]) } : {}) };
}

function listedText(d: BirthDate): string {
  return d.raw ?? d.date ?? (d.fromYear !== undefined ? `${d.fromYear}–${d.toYear ?? d.fromYear}` : String(d.year ?? ''));
}

const RANK = { exact: 3, within_range: 2, consistent: 1, conflict: 0 } as const;

function relate(subject: DateParts, subjectText: string, d: BirthDate): DobEvidence | undefined {
  const listed = d.date ? parts(d.date) : undefined;
  const from = d.fromYear ?? listed?.year ?? d.year;
  const to = d.toYear ?? d.fromYear ?? listed?.year ?? d.year;
  if (from === undefined || to === undefined) return undefined;
  const text = listedText(d);
  const slack = d.approximate ? 2 : 0;
  if (subject.year < from - slack || subject.year > to + slack) return { relation: 'conflict', detail: `date of birth ${subjectText} is outside listed ${text}` };
  if (d.approximate || subject.year < from || subject.year > to) return { relation: 'consistent', detail: `date of birth ${subjectText} is near the approximate listed ${text}` };
  // Within the listed year or range. A listed month or day must agree with what the subject gives.
  if (listed?.month !== undefined && d.fromYear === undefined) {
    if (subject.month === undefined) return { relation: 'consistent', detail: `birth year ${subject.year} agrees with listed ${text}, but a full date is needed to confirm` };
    if (subject.month === listed.month && (listed.day === undefined || subject.day === undefined || subject.day === listed.day)) {
      if (listed.day !== undefined && subject.day !== undefined) return { relation: 'exact', detail: `date of birth ${subjectText} equals listed ${text}` };
      return subject.day !== undefined
        ? { relation: 'within_range', detail: `date of birth ${subjectText} is within listed ${text}` }
        : { relation: 'consistent', detail: `birth month ${subjectText} agrees with listed ${text}, but a full date is needed to confirm` };
    }
    if (subject.day !== undefined && listed.day !== undefined && subject.day === listed.month && subject.month === listed.day) {
      return { relation: 'consistent', detail: `date of birth ${subjectText} is listed ${text} with day and month swapped` };
    }
    return { relation: 'conflict', detail: `date of birth ${subjectText} differs from listed ${text}` };
  }
  // The list gives a year or a range of years: a full date within it is within the stated range.
  if (subject.day !== undefined) return { relation: 'within_range', detail: `date of birth ${subjectText} is within listed ${text}` };
  return { relation: 'consistent', detail: `birth year ${subjectText.slice(0, 4)} agrees with listed ${text}, but a full date is needed to confirm` };
}

/**
 * The subject's date of birth (YYYY, YYYY-MM or YYYY-MM-DD) against the listed dates: the best
 * relation over them (one agreeing listed date is enough; a conflict means none agrees). Undefined
 * when either side has no usable date.
 */
export function dobEvidence(subjectDob: string | undefined, listed: readonly BirthDate[]): DobEvidence | undefined {
  const subject = parts(subjectDob);
  if (!subject || !subjectDob) return undefined;
  let best: DobEvidence | undefined;
  for (const d of listed) {
    const r = relate(subject, subjectDob.trim(), d);
    if (r && (!best || RANK[r.relation] > RANK[best.relation])) best = r;
  }
  if (best?.relation === 'conflict' && listed.length > 1) {
    return { relation: 'conflict', detail: `date of birth ${subjectDob.trim()} agrees with none of the listed ${listed.map(listedText).join(', ')}` };
  }
  return best;
}

const normId = (value: string) => value.toUpperCase().replace(/[^A-Z0-9@.]/g, '');

/** An identifier of the subject equal to a listed one (values compared without spaces, dashes and case). */
export function identifierEvidence(
  subject: readonly { type: string; value: string }[] | undefined,
  listed: readonly { type: string; value: string; country?: string }[],
): { detail: string } | undefined {
  for (const s of subject ?? []) {
    const v = normId(s.value);
    // short or digit-free values ("N/A", "1234") are not identifying
    if (v.length < 5 || (!/\d/.test(v) && !v.includes('@'))) continue;
    const hit = listed.find((l) => normId(l.value) === v);
    if (hit) return { detail: `${s.type.replace(/_/g, ' ')} ${s.value} equals listed ${hit.type.replace(/_/g, ' ')} ${hit.value}${hit.country ? ` (${hit.country})` : ''}` };
  }
  return undefined;
}

/** What is known when a hit is found: the name comparison, the facts compared, the name's rarity. */
export interface IdentityEvidence {
  /** The matcher's name similarity (name score before qualifiers; an alias's weight included). */
  nameSimilarity: number;
  /** The hit's matcher score (qualifiers included). */
  score: number;
  dob?: DobEvidence;
  identifier?: { detail: string };
  /** The subject's name, read as the listed kind: distinctive or not, and why. */
  rarity?: { distinctive: boolean; reason: string; commonIn?: readonly { label: string; countries: readonly string[] }[] };
  /** Other listed entities (not this one) the subject's name matches exactly: namesakes on the lists themselves. */
  namesakesOnLists?: number;
  /** The country the subject gave (nationality or jurisdiction, ISO alpha-2) when the listed entity's countries include it. */
  countryAgrees?: string;
}

export interface IdentityAssessment {
  assessment: MatchAssessment;
  confirmation?: HitConfirmation;
  /** One sentence for the explanation: which fact confirmed the hit, or that nothing did and what would. */
  note: string;
}

/** The machine's assessment of a hit (pure): see the module comment for the rules. */
export function assessIdentity(e: IdentityEvidence): IdentityAssessment {
  const nameAgrees = e.nameSimilarity >= CONFIRMABLE_NAME_SIMILARITY;
  if (e.identifier && nameAgrees) {
    return { assessment: 'identity_corroborated', confirmation: { basis: 'identifier', detail: e.identifier.detail }, note: `identity corroborated: ${e.identifier.detail}` };
  }
  if (e.dob?.relation === 'conflict') {
    return { assessment: 'identity_contradicted', note: `identity contradicted: ${e.dob.detail}, so this is most likely a namesake` };
  }
  if (e.dob && (e.dob.relation === 'exact' || e.dob.relation === 'within_range') && nameAgrees) {
    return { assessment: 'identity_corroborated', confirmation: { basis: 'date_of_birth', detail: e.dob.detail }, note: `identity corroborated: ${e.dob.detail}` };
  }
  const exact = e.nameSimilarity >= EXACT_NAME_SIMILARITY;
  if (exact && e.rarity?.distinctive && !(e.namesakesOnLists && e.namesakesOnLists > 0)) {
    const detail = `exact match on a ${e.rarity.reason}`;
    return { assessment: 'identity_corroborated', confirmation: { basis: 'distinctive_name', detail }, note: `identity corroborated by the name alone: ${detail}` };
  }
  const why: string[] = [];
  if (e.dob) why.push(e.dob.detail);
  if (!exact) why.push('not an exact match');
  if (e.rarity && !e.rarity.distinctive) why.push(e.rarity.reason);
  if (exact && e.namesakesOnLists && e.namesakesOnLists > 0) why.push(`the lists themselves carry ${e.namesakesOnLists + 1} different entities of this name`);
  const weakCountry = e.countryAgrees && e.rarity?.commonIn?.find((c) => c.countries.includes(e.countryAgrees!));
  if (weakCountry) why.push(`country ${e.countryAgrees} agrees, but the name is common among ${weakCountry.label} names there: weak evidence`);
  const assessment: MatchAssessment = e.score >= STRONG_NAME_SCORE ? 'strong_name_match' : 'name_match';
  return { assessment, note: `name only: ${why.join('; ') || 'nothing corroborates the identity'}; needs an identity fact (date of birth or identifier)` };
}
