/**
 * The ScreeningReport: everything a finished screening knows, in one explicit, serialisable
 * structure. The pipeline's read side fills it from the screening stream's events
 * (ScreeningRequested → agent results → ScreeningCompleted); the PDF renderer
 * (./pdf/screening-report), the JSON report (./json-report) and the analysis agents read it.
 *
 * Conventions:
 * - All timestamps are ISO 8601 UTC strings taken from event metadata, never from a clock here.
 * - Matcher scores are kept as the engine gives them, in [0,1] (`score`); the 0–100 integer the
 *   scoring rules use is `Math.round(score * 100)` (see docs/risk-scoring.md).
 * - Absent data stays absent (optional fields), so nothing in a report is guessed.
 */

import type { NameRecord, QualifierApplied } from '../screening/model';
import type { HitConfirmation, MatchAssessment } from './confirmation';
import type { SanctionsProgrammeFinding } from '../screening/lists/country-sanctions';

export type ScreeningKind = 'cdd' | 'edd' | 'ma' | 'sow';
export type EntityType = 'individual' | 'company' | 'organization';
export type RiskLevel = 'low' | 'medium' | 'high' | 'critical';
/** Issuer of a sanctions list, as the spec's contributions distinguish them. */
export type ListAuthority = 'us' | 'un' | 'eu' | 'uk' | 'other';

/** The hit categories a screening reports on, each rendered as its own report section. */
export type HitCategory = 'sanctions' | 'pep' | 'adverse_media' | 'offshore_leaks' | 'debarment';
export const HIT_CATEGORIES: readonly HitCategory[] = ['sanctions', 'pep', 'adverse_media', 'offshore_leaks', 'debarment'];

/** S1 risk scale (spec part 1): inclusive score bounds per level. */
export interface RiskBand {
  level: RiskLevel;
  min: number;
  max: number;
  meaning: string;
}
export const RISK_SCALE: readonly RiskBand[] = [
  { level: 'low', min: 0, max: 19, meaning: 'No significant flags' },
  { level: 'medium', min: 20, max: 44, meaning: 'Monitor closely' },
  { level: 'high', min: 45, max: 69, meaning: 'EDD required' },
  { level: 'critical', min: 70, max: 100, meaning: 'Do not proceed' },
];

/** The one mapping from a 0-100 score to its level on the S1 scale (every surface uses it). */
export function riskLevelForScore(score: number): RiskLevel {
  for (const band of RISK_SCALE) if (score >= band.min && score <= band.max) return band.level;
  return score > 100 ? 'critical' : 'low';
}

/** The lowest score of a level: what a floor raises the score to. */
export function minimumScoreOf(level: RiskLevel): number {
  return RISK_SCALE.find((b) => b.level === level)!.min;
}

/** Declared EDD fields (S1 POST /screening/edd body, all optional). */
export interface EddDeclaration {
  sourceOfWealth?: string;
  sourceOfFunds?: string;
  purposeOfRelationship?: string;
  beneficialOwnership?: string;
  pepRelationships?: string;
}

/** Declared M&A fields (S1 POST /screening/ma body; S3 uses query/entity_type/jurisdiction). */
export interface MaDeclaration {
  targetIndustry?: string;
  acquirerName?: string;
  dealType?: 'acquisition' | 'merger' | 'joint_venture' | 'restructuring' | string;
  dealValue?: string;
  additionalContext?: string;
}

/** Declared SOW fields (S3 POST /screening/sow; the spec leaves the body open). */
export interface SowDeclaration {
  declaredSourceOfWealth?: string;
  declaredNetWorth?: string;
  occupation?: string;
  employer?: string;
  attestation?: string;
  evidence?: string[];
}

export interface ReportSubject {
  /** The submitted name (S1 `search_query`; M&A `target_name`). */
  query: string;
  entityType: EntityType;
  /** Echo of the input: a country name or code, as submitted. */
  jurisdiction?: string;
  /** ISO alpha-2 if the pipeline resolved the jurisdiction. */
  jurisdictionIso2?: string;
  /** What the caller gave to tell the subject from namesakes. */
  dateOfBirth?: string;
  nationality?: string;
  identifiers?: { type: string; value: string }[];
  /** Postal address, phone and e-mail as given (the account's internal lists weigh them). */
  address?: { line?: string; city?: string; region?: string; postalCode?: string; country?: string };
  phone?: string;
  email?: string;
  edd?: EddDeclaration;
  ma?: MaDeclaration;
  sow?: SowDeclaration;
}

/** One line of the score breakdown (built by src/agents/scoring/risk-score). */
export interface ScoreContribution {
  /** Stable rule id, e.g. `sanctions.us.confirmed`, `fatf.black_list`. */
  rule: string;
  points: number;
  reason: string;
  /** The hit ids this contribution counts, when it comes from hits. */
  hitIds?: string[];
}

export interface ReportVerdict {
  riskScore: number;
  riskLevel: RiskLevel;
  /** Always the S1 scale, carried so a filed report shows the scale it was judged on. */
  scale: readonly RiskBand[];
  breakdown: ScoreContribution[];
  /** Points before the cap of 100 (equals riskScore when not capped). */
  uncappedScore: number;
  /** One-paragraph CDD summary (S1 `summary`). */
  summary?: string;
  /** Facts a reviewer must see whatever the score (RiskAssessment.flags), e.g. `confirmed_sanctions_hit`. */
  flags?: string[];
  /** One sentence saying why the level is what it is (the governing floor's reason, else the largest contribution). */
  reason?: string;
}

/** An analyst's decision on a hit, when one was recorded. */
export interface HitDisposition {
  /** needs_more_information: asked for more before deciding; the hit stays undecided (and counted). */
  decision: 'true_match' | 'false_positive' | 'needs_more_information';
  by: string;
  at: string;
  note?: string;
}

/** One list carrying a (merged) hit's entity. */
export interface ReportHit {
  /** Unique within the screening (e.g. `sanctions:ofac_sdn:12345`). */
  hitId: string;
  category: HitCategory;
  /** The list or outside source: ListSourceId for our lists, adapter name for outside sources. */
  source: string;
  /** Human label of the list, e.g. "OFAC SDN List". */
  sourceLabel?: string;
  /**
   * A hit on one of the account's own lists (source `internal_list`, issue 21): which list, at
   * which version, its severity at screening time (the risk scorer counts the hit by it), the entry
   * and why the firm listed it.
   */
  internalList?: { watchlistId: string; name: string; version: number; severity: 'block' | 'review' | 'note'; entryId: string; reason: string };
  /**
   * The list inside a multi-list file, as the file names it: the CSL `source` column
   * ("Specially Designated Nationals (SDN) - Treasury Department", "Entity List (EL) - Bureau of
   * Industry and Security"), the Enhanced XML's sanctions lists. Decides whether a hit is on a
   * blocking sanctions list or an export-control list (src/agents/scoring/risk-score.ts).
   */
  sourceList?: string;
  /**
   * Which authority issued the list (drives the sanctions contributions). When absent the
   * scorer derives it from `source` (ofac_* / us_* → us, un_* → un, eu_* → eu, uk_* → uk).
   */
  listAuthority?: ListAuthority;
  /** The entity's id in the engine (`${source}:${sourceId}`) or the source's own id. */
  entityId: string;
  entityName: string;
  /** The name or alias of the entity that matched. */
  matchedName: string;
  matchedNameKind?: NameRecord['kind'];
  /** Matcher score in [0,1]. */
  score: number;
  /**
   * confirmed: the identity agrees (a date of birth or identifier, an exact distinctive name, or an
   * analyst's true match); potential otherwise (src/reports/confirmation.ts, the one definition).
   */
  status: 'confirmed' | 'potential';
  /** The machine's assessment when the hit was found (absent on hits recorded before it was kept). */
  assessment?: MatchAssessment;
  /** What confirmed the hit, when something did (a date of birth, an identifier, a distinctive exact name). */
  confirmation?: HitConfirmation;
  /** One sentence: which fact confirmed the hit, or that nothing did and what would. */
  identityNote?: string;
  explanation: {
    summary: string;
    qualifiers: QualifierApplied[];
  };
  programs: string[];
  sourceUrl?: string;
  /** Offshore leaks: the investigation (Panama Papers, …); adverse media: the publisher; etc. */
  investigation?: string;
  /** Adverse media / debarment: headline or action text, publication date. */
  title?: string;
  publishedAt?: string;
  /** PEP: position held. */
  position?: string;
  countries?: string[];
  /** SHA-256 of the listed entity's record when matched: monitoring and dispositions compare it to detect changes. */
  entityRecordHash?: string;
  /** person, organization, vessel, aircraft (list entities); absent for outside sources that do not say. */
  entitySchema?: string;
  disposition?: HitDisposition;
  /**
   * Every list row this real-world entity was found on (one hit per entity: src/screening/grouping.ts),
   * the primary `source` first. The scorer counts a merged hit once per distinct issuing authority;
   * absent, the hit's own `source` / `sourceList` / `listAuthority` stand for its only source.
   */
  sources?: HitSource[];
  /** Other names the lists give the entity (union over all its rows, the matched name excluded). */
  aliases?: string[];
  /** Dates of birth as the lists write them (full date, year or range), union over all rows. */
  birthDates?: string[];
  birthPlaces?: string[];
  /** ISO alpha-2 nationalities / citizenships / registration countries, union over all rows. */
  nationalities?: string[];
  identifiers?: { type: string; value: string; country?: string; note?: string }[];
  addresses?: string[];
  /**
   * Set when the listed entity is not of the kind screened: the caller's type differed (reported
   * because the name matched at confirmed strength) or, with no type given, the kind the name suggests.
   */
  typeMismatch?: { expected: string; listed: string; typeGiven: boolean };
}

/** One list row behind a (merged) hit. */
export interface HitSource {
  source: string;
  sourceLabel?: string;
  /** As ReportHit.sourceList: the list inside a multi-list file (CSL source column…); the scorer's floors read it. */
  sourceList?: string;
  listAuthority?: ListAuthority;
  entityId?: string;
  /** ListVersion.id of the list the row was loaded from, and its publication date when known. */
  listVersion?: string;
  publishedAt?: string;
}

export interface CountryRiskFinding {
  /** The country assessed (subject jurisdiction or a hit's country). */
  iso2: string;
  jurisdiction: string;
  /** FATF status; `none` when the country is on neither list at `asOf`. */
  fatfStatus: 'high_risk_call_for_action' | 'increased_monitoring' | 'none';
  measure?: string;
  /** Plenary date of the FATF statement used. */
  asOf: string;
  /** Why this country was assessed: `subject_jurisdiction`, `subject_nationality` (context: not scored), `registry_controller`, `hit_country`. */
  basis: string;
  /**
   * Sanctions programmes targeting the country (US OFAC, UK, UN), broadest first, each with its
   * scope, legal basis, dates and its designations on the list in service
   * (src/screening/lists/country-sanctions.ts). Absent in screenings recorded before they were kept.
   */
  sanctions?: SanctionsProgrammeFinding[];
  /** The broadest scope over the whole country: a comprehensive embargo is never `none`. */
  sanctionsScope?: 'comprehensive' | 'sectoral' | 'targeted' | 'none';
}

/** UK Companies House facts the scoring rules use (spec part 1). */
export interface UkRegistryFacts {
  companyNumber: string;
  companyName?: string;
  /** Companies House status, e.g. active, dissolved, liquidation. */
  status?: string;
  /** The company was struck off (status dissolved after strike-off, or a strike-off notice). */
  struckOff?: boolean;
  /** No PSC registered, or the company states it is exempt/has no registrable PSC. */
  pscNotRegisteredOrExempt?: boolean;
  /** ISO alpha-2 countries of residence/registration of persons with significant control. */
  controllerCountries?: string[];
}

export interface RegistryRecord {
  /** Adapter name: opencorporates, companies_house, gleif… */
  source: string;
  legalName?: string;
  registrationNumber?: string;
  jurisdiction?: string;
  status?: string;
  incorporationDate?: string;
  lei?: string;
  ticker?: string;
  address?: string;
  officers?: { name: string; role?: string }[];
  sourceUrl?: string;
  /** Any further source fields worth showing, as label → value. */
  extra?: Record<string, string>;
}

export interface ReportEnrichment {
  canonicalName?: string;
  ticker?: string;
  registryNumber?: string;
  jurisdiction?: string;
  registries: RegistryRecord[];
  ukRegistry?: UkRegistryFacts;
}

export interface AgentAuditEntry {
  agent: string;
  /** Pipeline phase, '0' … '5', with '1b' (spec part 1). */
  phase: string;
  queried: boolean;
  error?: string;
  durationMs: number;
  matchCount: number;
  startedAt?: string;
}

export interface DataGap {
  /** Short id, e.g. `eu_list_not_loaded`, `agent_not_configured:news`. */
  code: string;
  description: string;
}

export interface ListVersionRef {
  source: string;
  label?: string;
  /** ListVersion.id (`${source}@${hash prefix}`). */
  versionId: string;
  contentHash: string;
  publishedAt?: string;
  /** file | manifest | download | file_date: where publishedAt comes from. */
  publishedAtSource?: string;
  loadedAt: string;
  entityCount?: number;
  /** Whole days from publication to the screening's completion. */
  ageDays?: number;
  /** The list's maximum age when the screening completed (none: no maximum). */
  maxAgeDays?: number;
  /** Older than maxAgeDays: the result carries `warning`. */
  stale?: boolean;
  /** "OFAC SDN list is 937 days old: update the lists before relying on this result". */
  warning?: string;
}

export interface AuditEvent {
  type: string;
  occurredAt: string;
  eventId?: string;
  /** Stream position when known (as a decimal string: bigint is not JSON). */
  position?: string;
}

export interface ReportAudit {
  listVersions: ListVersionRef[];
  matcherVersion: string;
  /** The events of the screening's stream, in order. */
  events: AuditEvent[];
  /** Hash of the last event of the stream (hash chain head), when the store provides it. */
  streamHeadHash?: string;
}

export interface ScreeningReport {
  /** S1 numeric id. */
  id: number;
  /** S3 uuid of the same screening. */
  uuid: string;
  /** S3 SOW id `SVC-<8>-SOW`, SOW screenings only. */
  sowScreeningId?: string;
  kind: ScreeningKind;
  accountId?: string;
  status: 'running' | 'completed';
  createdAt: string;
  completedAt?: string;
  subject: ReportSubject;
  verdict: ReportVerdict;
  hits: Record<HitCategory, ReportHit[]>;
  countryRisk: CountryRiskFinding[];
  enrichment: ReportEnrichment;
  /** EDD / M&A / SOW analysis markdown (from src/agents/analysis). */
  analysis?: {
    kind: 'edd' | 'ma' | 'sow';
    markdown: string;
    /** `rules`, or `llm:<model>`. */
    generatedBy: string;
  };
  agents: AgentAuditEntry[];
  dataGaps: DataGap[];
  /** Human names of sources that were not searched (unconfigured, failed, not in plan tier). */
  sourcesNotSearched: { source: string; reason: string }[];
  audit: ReportAudit;
}

/** An empty hits record, for builders. */
export function emptyHits(): Record<HitCategory, ReportHit[]> {
  return { sanctions: [], pep: [], adverse_media: [], offshore_leaks: [], debarment: [] };
}

/** Hit counters as the S1 Screening resource shows them. */
export function hitCounts(report: Pick<ScreeningReport, 'hits'>): {
  sanctions_hits: number;
  pep_hits: number;
  adverse_media_hits: number;
  offshore_leaks_hits: number;
  debarment_hits: number;
} {
  return {
    sanctions_hits: report.hits.sanctions.length,
    pep_hits: report.hits.pep.length,
    adverse_media_hits: report.hits.adverse_media.length,
    offshore_leaks_hits: report.hits.offshore_leaks.length,
    debarment_hits: report.hits.debarment.length,
  };
}

// ---------------------------------------------------------------------------------------------
// Person checks (S1 person-check resource, S3 portal form)
// ---------------------------------------------------------------------------------------------

export type PersonCheckPurpose = 'employment' | 'business_due_diligence' | 'volunteer_screening' | 'licensing';
export type FindingSeverity = 'info' | 'warning' | 'red_flag';

export interface PersonCheckFinding {
  id: string;
  severity: FindingSeverity;
  /** criminal, sex_offender, licence, civil, bankruptcy, adverse_media, sanctions, pep, offshore_leaks, web_presence… */
  category: string;
  /** How the finding is tied to the subject (spec part 1 phase 7). */
  corroboration: 'name_dob' | 'name_location' | 'name_only';
  title: string;
  detail?: string;
  source: string;
  sourceUrl?: string;
  recordDate?: string;
}

export interface PersonCheckReport {
  /** `SVC-<8 hex>-P`. */
  id: string;
  accountId?: string;
  createdAt: string;
  completedAt?: string;
  subject: {
    fullName: string;
    aliases?: string[];
    /** Displayed masked (year only). */
    dateOfBirth?: string;
    locations?: string[];
    /** Displayed masked: only the last four characters remain. */
    identifiers?: { type: string; value: string }[];
    associatedDomain?: string;
  };
  purpose: PersonCheckPurpose;
  consent: {
    fcraConsent: boolean;
    /** When and how consent was recorded, if known. */
    recordedAt?: string;
    /** The caller's certification of permissible purpose. */
    permissiblePurposeCertified?: boolean;
  };
  result: 'clean' | 'adverse_found' | 'inconclusive';
  confidence: 'high' | 'medium' | 'low';
  riskScore?: number;
  riskLevel?: RiskLevel;
  /** The shared scorer's one sentence of why (docs/risk-scoring.md). */
  riskReason?: string;
  findings: PersonCheckFinding[];
  sourcesSearched: { source: string; durationMs?: number; matchCount?: number }[];
  sourcesNotSearched: { source: string; reason: string }[];
  audit?: { events: AuditEvent[]; matcherVersion?: string };
}
