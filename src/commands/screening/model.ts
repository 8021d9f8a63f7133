/**
 * Screening aggregate: stream name and the value types its commands and events carry (subject,
 * hits, list versions, dispositions). Commands and events are in messages.ts, the state in state.ts,
 * the decisions by concern in lifecycle.ts, case-desk.ts and monitoring.ts, composed in decider.ts.
 */
import type { EntityType } from './pipeline';
import type { HitConfirmation, MatchAssessment } from '../../reports/confirmation';

export function streamName(screeningId: string): string {
  return `screening-${screeningId}`;
}
export const screeningStreamName = streamName;

export type ScreeningSurface = 's1' | 's3' | 'portal';
export const dealTypes = ['acquisition', 'merger', 'joint_venture', 'restructuring'] as const;
export type DealType = (typeof dealTypes)[number];
export const hitCategories = ['sanctions', 'pep', 'adverse_media', 'offshore_leaks', 'debarment'] as const;
export type HitCategory = (typeof hitCategories)[number];

export interface ScreeningSubject {
  /** The screened name: S1 `query`, M&A `target_name`. */
  query: string;
  entityType: EntityType;
  /** Present (true) when the caller gave no type and entityType is the surface's default. */
  entityTypeDefaulted?: boolean;
  jurisdiction?: string;
  /** What separates the subject from a namesake, when the caller knows it (individuals). YYYY, YYYY-MM or YYYY-MM-DD. */
  dateOfBirth?: string;
  /** ISO 3166-1 alpha-2. */
  nationality?: string;
  /** Passport, national id, tax id, registration number, IMO… */
  identifiers?: SubjectIdentifier[];
  /** Postal address, when the caller gave it: the account's internal lists weigh address agreement (issue 21). */
  address?: SubjectAddress;
  /** Phone number as given (digits, spaces, +, ( ) . - /): compared with listed phones; internal lists weigh it. */
  phone?: string;
  /** E-mail address as given: compared with listed e-mail addresses; internal lists weigh it. */
  email?: string;
}
export interface SubjectAddress {
  line?: string;
  city?: string;
  /** State, province or county (a code or a name). */
  region?: string;
  postalCode?: string;
  /** ISO 3166-1 alpha-2. */
  country?: string;
}
const ADDRESS_PARTS = [
  ['line', 'line', 300],
  ['city', 'city', 100],
  ['region', 'region', 100],
  ['postalCode', 'postal_code', 20],
  ['country', 'country', 2],
] as const;

/**
 * What is wrong with a subject's postal address, as `[field, message]` (none when it is fine): the one
 * rule of the screening, subject-check and person-check deciders, whatever surface sent it.
 */
export function subjectAddressProblems(address: unknown): [string, string][] {
  if (typeof address !== 'object' || address === null) return [['address', 'must be an object']];
  const a = address as Record<string, unknown>;
  const problems: [string, string][] = [];
  if (!ADDRESS_PARTS.some(([key]) => a[key] !== undefined)) problems.push(['address', 'needs at least one of line, city, region, postal_code, country']);
  for (const [key, field, max] of ADDRESS_PARTS) {
    const v = a[key];
    if (v === undefined) continue;
    if (key === 'country') {
      if (typeof v !== 'string' || !/^[A-Z]{2}$/.test(v)) problems.push([`address.${field}`, 'must be an ISO 3166-1 alpha-2 code']);
    } else if (typeof v !== 'string' || v.length > max) problems.push([`address.${field}`, `must be a string of at most ${max} characters`]);
  }
  return problems;
}

/** The address as recorded: each part trimmed, empty parts left out; undefined when nothing is left. */
export function recordedSubjectAddress(address: SubjectAddress | undefined): SubjectAddress | undefined {
  if (!address) return undefined;
  const out: SubjectAddress = {};
  for (const [key] of ADDRESS_PARTS) {
    const v = address[key]?.trim();
    if (v) out[key] = v;
  }
  return Object.keys(out).length ? out : undefined;
}

export interface SubjectIdentifier {
  type: string;
  value: string;
}
export const SUBJECT_IDENTIFIER_TYPES = ['passport', 'national_id', 'tax_id', 'registration_number', 'imo', 'lei', 'other'] as const;
const PARTIAL_DATE = /^\d{4}(-(0[1-9]|1[0-2])(-(0[1-9]|[12]\d|3[01]))?)?$/;

/** A phone number: an optional +, then 6 to 15 digits with spaces, dots, dashes, slashes or brackets between (E.164 has at most 15). */
export function isPhoneNumber(value: string): boolean {
  const v = value.trim();
  if (!/^\+?[0-9(][0-9 ().\-/]{3,31}$/.test(v)) return false;
  const digits = v.replace(/\D/g, '').length;
  return digits >= 6 && digits <= 15;
}

/** An e-mail address: local part, @, a domain of at least two labels; 254 characters at most (RFC 5321). */
export function isEmailAddress(value: string): boolean {
  const v = value.trim();
  return v.length <= 254 && /^[^\s@<>"(),;:\\[\]]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/.test(v);
}

/** A real calendar date (or year, or year-month) no later than `today` (YYYY-MM-DD). */
export function isPartialBirthDate(value: string, today: string): boolean {
  if (!PARTIAL_DATE.test(value) || value < '1880') return false;
  if (value.length === 10) {
    const d = new Date(`${value}T00:00:00Z`);
    if (Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== value) return false;
  }
  return value <= today.slice(0, value.length);
}
/** EDD declared fields (S1 POST /screening/edd). */
export interface EddDeclarations {
  sourceOfWealth?: string;
  sourceOfFunds?: string;
  purposeOfRelationship?: string;
  beneficialOwnership?: string;
  pepRelationships?: string;
}
/** M&A deal fields (S1 POST /screening/ma). */
export interface MaDeal {
  targetIndustry?: string;
  acquirerName?: string;
  dealType?: DealType;
  dealValue?: string;
  additionalContext?: string;
}
/** SOW request (S3): the id `SVC-<8 chars>-SOW` and the declaration as submitted (designed by the S3 API). */
export interface SowRequest {
  sowScreeningId: string;
  declaration: Record<string, unknown>;
}

/**
 * The longest hit id: `<category>:<entity id>`, and an entity id may be 500 characters (an internal
 * list's is `internal_list:<watchlist uuid>:<the firm's own entry reference, up to 128>`, longer than
 * the 100 first allowed, which made such screenings fail to complete).
 */
export const MAX_HIT_ID_LENGTH = 600;

export interface ScreeningHit {
  hitId: string;
  /** ListEntity.id `${source}:${sourceId}` (or an adverse-media article id). */
  entityId: string;
  category: HitCategory;
  source: string;
  matchedName: string;
  /** Match score in [0,1]. */
  score: number;
  listVersion?: string;
  /** Hash of the listed entity's record when matched: monitoring compares it to detect changes. */
  entityRecordHash: string;
  /** A hit on one of the account's own lists (issue 21): which list, version, severity and entry. */
  internalList?: InternalListRef;
  /**
   * Every list the entity is on (one hit per real-world entity, its rows merged), the list it is
   * filed under first: source ids, `internal_list:<watchlistId>` for an internal list. The work
   * queue lists and filters a case by any of them. Absent in events recorded before it was kept.
   */
  lists?: string[];
}

/** As ReportHit.internalList: the scorer counts such a hit by the list's severity. */
export interface InternalListRef {
  watchlistId: string;
  name: string;
  version: number;
  severity: 'block' | 'review' | 'note';
  entryId: string;
  reason: string;
}

export interface HitCounts {
  sanctionsHits: number;
  pepHits: number;
  adverseMediaHits: number;
  offshoreLeaksHits: number;
  debarmentHits: number;
}

export interface ListVersionRef {
  id: string;
  source: string;
  contentHash: string;
  publishedAt?: string;
  /** file | manifest | download | file_date (see ListVersion.publishedAtSource). */
  publishedAtSource?: string;
  loadedAt?: string;
  /** Age of the list at completion, in whole days; absent without a publication date. */
  ageDays?: number;
  /** The list's maximum age at completion; absent when it has none. */
  maxAgeDays?: number;
  /** Older than maxAgeDays at completion. */
  stale?: boolean;
}

/**
 * An analyst's decision on a hit. `needs_more_information` is not a verdict: the hit stays
 * undecided (it counts toward risk as it did while open, and stays in the work queue, marked) until
 * a true match or false positive is recorded. It carries a comment and who/when like the others.
 */
export const dispositions = ['true_match', 'false_positive', 'needs_more_information'] as const;
export type Disposition = (typeof dispositions)[number];
/** The dispositions that close a hit. */
export type FinalDisposition = Exclude<Disposition, 'needs_more_information'>;
export function isDisposition(value: unknown): value is Disposition {
  return typeof value === 'string' && (dispositions as readonly string[]).includes(value);
}
export type MonitoringAlertKind = 'new_hit' | 'changed_hit' | 'removed_hit';

/**
 * The machine's assessment of a hit monitoring found or re-scored, made on the subject's own facts
 * exactly as a screening's hits are (issue 27, src/reports/confirmation.ts): confirmed only with a
 * confirmation (an agreeing date of birth or identifier, or an exact distinctive name), contradicted
 * when the date of birth agrees with no listed one. `note` says which fact decided, or that none did.
 */
export interface AlertIdentity {
  assessment: MatchAssessment;
  confirmation?: HitConfirmation;
  note: string;
}

