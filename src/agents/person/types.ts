/**
 * The person-check pipeline's own agent contract. Person agents read the standardised subject
 * (phase 1) and return the records a source holds under the subject's names, with the facts that
 * tie each record to the subject (date of birth, location). Phase 7 turns records into findings.
 * A source that could not be searched answers `queried: false` with the reason; it never invents
 * a record, and it is never read as "nothing found".
 */
import type { ResolvedLocation } from './locations';
import type { IdentityAssessment } from '../../reports/confirmation';

export type PersonCheckPurpose = 'employment' | 'business_due_diligence' | 'volunteer_screening' | 'licensing';

/** Phase 1 output: what every later agent searches with. */
export interface PersonSubject {
  personCheckId: string;
  purpose: PersonCheckPurpose;
  fullName: string;
  givenName: string;
  middleName?: string;
  familyName: string;
  /** Every name to search: the full name, first + last, nickname variants, aliases (deduplicated, capped). */
  searchNames: string[];
  /** Where each search name came from, for the "why" of a finding. */
  nameOrigins: Record<string, string>;
  /** YYYY-MM-DD. */
  dateOfBirth?: string;
  locations: ResolvedLocation[];
  associatedDomain?: string;
  /** Phone and e-mail as given: the account's internal lists weigh them (issue 27). */
  phone?: string;
  email?: string;
  /** The postal address as given (issue 30): the account's internal lists weigh it. */
  address?: { line?: string; city?: string; region?: string; postalCode?: string; country?: string };
}

export type RecordCategory =
  | 'sanctions'
  | 'debarment'
  | 'pep'
  | 'offshore_leaks'
  | 'criminal'
  | 'sex_offender'
  | 'civil'
  | 'bankruptcy'
  | 'licence'
  | 'corporate_role'
  | 'adverse_media'
  | 'web_presence'
  | 'domain';

/** How a record's date of birth relates to the subject's. */
export type DobRelation = 'match' | 'year_match' | 'conflict' | 'unknown';
export type LocationRelation = 'match' | 'conflict' | 'unknown';

/** A record a source holds under one of the subject's names, before corroboration. */
export interface SourceRecord {
  category: RecordCategory;
  /** Source name for attribution (e.g. "OFAC SDN List", "CourtListener"). */
  sourceName: string;
  url?: string;
  /** The list entity id (`ofac_sdn:9760`) or the source's record id. */
  entityId?: string;
  /** The list inside a multi-list file (CSL source column), for the scorer's floors. */
  sourceList?: string;
  retrievedAt: string;
  /** The subject's search name that found the record. */
  searchedName: string;
  /** The record's name that matched. */
  matchedName: string;
  /** Name similarity in [0, 1]. */
  nameScore: number;
  /** Why the name matched (matcher explanation). */
  nameWhy: string;
  dob: DobRelation;
  dobDetail?: string;
  location: LocationRelation;
  locationDetail?: string;
  title: string;
  detail?: string;
  /** Media and web records: the text itself reports wrongdoing (adverse terms). */
  adverse?: boolean;
  /** A record on one of the account's own lists (issue 21): its finding's severity and risk follow the list's severity. */
  internalList?: { watchlistId: string; name: string; version: number; severity: 'block' | 'review' | 'note'; entryId: string; reason: string };
  /** List records: the identity assessment a screening's hit of the same record gets (src/reports/confirmation.ts). */
  identity?: IdentityAssessment;
}

/** A place to search by hand (state court portals, county assessors): not a search. */
export interface ManualSearchLink {
  label: string;
  url: string;
}

export type PersonAgentOutcome =
  | { queried: true; records: SourceRecord[]; links?: ManualSearchLink[]; data?: Record<string, unknown> }
  | { queried: false; error: string; links?: ManualSearchLink[] };

export interface PersonAgentContext {
  signal: AbortSignal;
  now: () => Date;
  /** The account the check belongs to: the list agent also screens that account's internal lists. */
  accountId?: string;
  /**
   * The account's internal-list versions the check was requested against (`watchlist-<id>@v<n>`,
   * PersonCheckRequested.internalListVersions): a run resumed after the lists changed screens these.
   * Absent on checks recorded before they were kept: the lists active now.
   */
  internalListVersions?: readonly string[];
  /**
   * The request's documents with their whole values (passport, national id, SSN, licence…), held in
   * this process only (held-documents.ts): the stream keeps their last four characters. Undefined
   * when this process does not hold them (a resumed or another instance's check).
   */
  documents?: readonly { type: string; value: string; country?: string }[];
  /** The request named documents this process does not hold (see `documents`): the list agent says it searched without them. */
  documentsNotHeld?: boolean;
}

export interface PersonAgent {
  readonly name: string;
  /** Pipeline phase 2-6 (1 and 7 run inside the orchestrator). */
  readonly phase: number;
  readonly label: string;
  run(subject: PersonSubject, context: PersonAgentContext): Promise<PersonAgentOutcome>;
}
