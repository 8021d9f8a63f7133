/**
 * Over 500 lines on purpose: the scoring rules are one table of contributions and floors with the
 * reason each one states; splitting them would hide how the floors interact with the sum.
 *
 * Risk score: a pure function from a screening's findings to `risk_score` (0–100 integer),
 * `risk_level` (S1 scale) and the breakdown of every contribution with its reason.
 *
 * The spec's contributions (part 1) are implemented exactly; where the spec is silent
 * (potential hits, PEP, adverse media, debarment, FATF) the values are ours and are
 * documented, row by row, in docs/risk-scoring.md. Tables are exported so the tests and
 * the report can show them.
 *
 * After the additive sum come the floors (FLOORS below): the level must never contradict its
 * meaning on the scale ("Do not proceed" for a confirmed SDN designation), so a floor raises the
 * score itself to the level's minimum and says why in its own breakdown row. Analyst dispositions
 * are inputs too: a false positive is not counted, a true match counts as confirmed. "Confirmed" is
 * the identity agreeing, never a name score alone (src/reports/confirmation.ts): critical needs a
 * confirmed hit, a name-only match on a common name is potential (high at most), and a hit whose
 * date of birth contradicts every listed date counts at most medium.
 *
 * This is the only scorer: screenings (S1, S3, portal), reports, monitoring re-scores, person
 * checks and S2 subject checks all take their score and level from computeRiskScore.
 */

import { authorityOfSource } from '../screening/lists/authority';
import type {
  CountryRiskFinding,
  HitCategory,
  HitDisposition,
  HitSource,
  ListAuthority,
  ReportHit,
  RiskLevel,
  ScoreContribution,
  UkRegistryFacts,
} from './model';
import { minimumScoreOf, RISK_SCALE, riskLevelForScore } from './model';
import { BADGES, confirmationOf, standingOf, statusOfStanding, type HitStatus } from './confirmation';

export const MAX_RISK_SCORE = 100;

/** Matcher scores are in [0,1]; reports show them as the 0–100 integer `round(score × 100)`. */
export function toScore100(score: number): number {
  if (!Number.isFinite(score)) return 0;
  return Math.max(0, Math.min(100, Math.round(score * 100)));
}

export interface PointsRow {
  confirmed: number;
  potential: number;
  reason: string;
}

/** Sanctions lists by issuing authority: per hit, no category cap. */
export const SANCTIONS_POINTS: Record<ListAuthority, PointsRow> = {
  us: { confirmed: 15, potential: 7, reason: 'US sanctions list (OFAC SDN/non-SDN, Consolidated Screening List)' },
  un: { confirmed: 15, potential: 7, reason: 'UN Security Council Consolidated List' },
  eu: { confirmed: 12, potential: 6, reason: 'EU Financial Sanctions Files' },
  uk: { confirmed: 12, potential: 6, reason: 'UK Sanctions List' },
  other: { confirmed: 10, potential: 5, reason: 'other sanctions source (commercial API, aggregated or curated list)' },
};

/**
 * Offshore-leak investigations, +8 to +25 per confirmed hit (spec part 1). Ordered by how
 * strongly an appearance indicates concealment risk today: see docs/risk-scoring.md.
 */
export interface OffshoreRow extends PointsRow {
  investigation: string;
  /** Lower-case fragments that identify the investigation in ICIJ `sourceID` / dataset text. */
  aliases: string[];
}
export const OFFSHORE_LEAK_POINTS: readonly OffshoreRow[] = [
  {
    investigation: 'Pandora Papers',
    aliases: ['pandora'],
    confirmed: 25,
    potential: 12,
    reason: 'Pandora Papers (2021): 14 providers, recent structures, many serving politically exposed owners',
  },
  {
    investigation: 'Panama Papers',
    aliases: ['panama'],
    confirmed: 20,
    potential: 10,
    reason: 'Panama Papers (2016): Mossack Fonseca shell companies, widely linked to evasion and sanctions cases',
  },
  {
    investigation: 'Paradise Papers',
    aliases: ['paradise', 'appleby'],
    confirmed: 15,
    potential: 7,
    reason: 'Paradise Papers (2017): Appleby and registries, largely tax planning by corporations and the wealthy',
  },
  {
    investigation: 'Offshore Leaks',
    aliases: ['offshore leaks', 'offshore_leaks', 'offshoreleaks'],
    confirmed: 12,
    potential: 6,
    reason: 'Offshore Leaks (2013): Portcullis TrustNet and Commonwealth Trust clients, older structures',
  },
  {
    investigation: 'Bahamas Leaks',
    aliases: ['bahamas'],
    confirmed: 10,
    potential: 5,
    reason: 'Bahamas Leaks (2016): corporate-registry extract, directorships only, weakest indication',
  },
  {
    investigation: 'Other or unknown investigation',
    aliases: [],
    confirmed: 8,
    potential: 4,
    reason: 'offshore-leak record of an unnamed or other investigation: minimum contribution',
  },
];

/** Categories with one row and a category cap (the same person on several lists must not stack without limit). */
export const CATEGORY_POINTS: Record<'pep' | 'adverse_media', PointsRow & { cap: number }> = {
  pep: {
    confirmed: 20,
    potential: 10,
    cap: 30,
    reason: 'politically exposed person: FATF R.12 requires enhanced due diligence',
  },
  adverse_media: {
    confirmed: 5,
    potential: 2,
    cap: 20,
    reason: 'adverse-media article naming the subject',
  },
};

/** Debarment and enforcement lists: per hit, no category cap. */
export const DEBARMENT_POINTS: Record<'us_dpl' | 'other', PointsRow> = {
  us_dpl: {
    confirmed: 15,
    potential: 7,
    reason: 'BIS Denied Persons List: US export privileges denied, dealing is prohibited',
  },
  other: {
    confirmed: 10,
    potential: 5,
    reason: 'debarment or enforcement list (development-bank debarment, disqualified directors…)',
  },
};

/** FATF country risk, applied once, for the worst status among the assessed countries. */
export const FATF_POINTS = {
  countermeasures: { points: 25, reason: 'FATF black list (call for action) with countermeasures' },
  call_for_action: { points: 20, reason: 'FATF black list (call for action) with enhanced due diligence' },
  increased_monitoring: { points: 10, reason: 'FATF grey list (jurisdiction under increased monitoring)' },
} as const;

/** UK Companies House rules (spec part 1), each applied once. */
export const UK_REGISTRY_POINTS = {
  dissolved: { points: 3, reason: 'UK registry: company dissolved or struck off' },
  pscNotRegistered: { points: 5, reason: 'UK registry: persons with significant control not registered or exempt' },
  controllerHighRisk: { points: 3, reason: 'UK registry: a controller is in a high-risk jurisdiction' },
} as const;

/** The fields of a hit the scorer reads (ReportHit satisfies it). */
export type ScorableHit = Pick<ReportHit, 'hitId' | 'category' | 'source' | 'score'> &
  Partial<
    Pick<
      ReportHit,
      'listAuthority' | 'investigation' | 'entityName' | 'sourceLabel' | 'sourceList' | 'sources' | 'disposition' | 'internalList' | 'assessment' | 'confirmation' | 'identityNote'
    >
  > & { explanation?: { qualifiers?: readonly { kind: string }[] } };

/**
 * A source a verdict cannot do without that was not searched (the own sanctions lists: agent error,
 * timeout, phase expired): the screening then fails closed, at least high (docs/risk-scoring.md).
 */
export interface UnsearchedSource {
  source: string;
  reason: string;
}

export interface ScoringInput {
  hits: Partial<Record<HitCategory, ScorableHit[]>>;
  countryRisk?: CountryRiskFinding[];
  ukRegistry?: UkRegistryFacts;
  /** ISO alpha-2 codes treated as high-risk for the UK controller rule (default: FATF black + grey list countries in countryRisk). */
  highRiskJurisdictions?: Iterable<string>;
  /**
   * Contributions a surface adds for findings the hit categories do not cover (a person check's
   * court records, sex-offender registries…). Summed with the rest, before the floors, so the
   * sanctions and PEP floors apply to them identically.
   */
  additional?: ScoreContribution[];
  /** Sanctions sources that were not searched: never a low verdict (floor.sanctions_not_searched). */
  unsearched?: UnsearchedSource[];
}

/** The facts other than hits a screening is scored on (recorded with its assessment, reused by re-scores). */
export type RiskFacts = Pick<ScoringInput, 'countryRisk' | 'ukRegistry' | 'unsearched'> & { highRiskJurisdictions?: string[] };

export interface RiskAssessment {
  riskScore: number;
  riskLevel: RiskLevel;
  /** The additive sum with the floors' points, before the cap of 100. */
  uncappedScore: number;
  /** The spec's additive sum alone (no floors, no cap): what the contribution tables give. */
  additiveScore: number;
  breakdown: ScoreContribution[];
  /** Hits dropped because their score is below the minimum match score. */
  belowThreshold: string[];
  /** Facts a reviewer must see whatever the score, e.g. `confirmed_sanctions_hit`, `sanctions_not_searched`. */
  flags: string[];
  /** The highest floor that applies (it decides the level whenever the additive sum is below it). */
  floor?: { rule: string; level: RiskLevel; minimum: number; reason: string };
  /** One sentence: why the level is what it is (the governing floor, else the largest contributions). */
  reason: string;
}

/** The S1 scale (reports model): kept under this name for the scorer's callers. */
export const riskLevelFor = riskLevelForScore;

/**
 * What a list means for the floors, apart from who issued it:
 * - `blocking_sanctions`: an asset freeze / prohibition on all dealing (OFAC SDN, UN, EU, UK
 *   consolidated lists, and CSL / Enhanced XML rows that come from the SDN list);
 * - `sanctions`: other sanctions programmes (OFAC non-SDN lists: SSI, FSE, NS-MBS, CMIC, CAPTA…; and
 *   sanctions hits of outside sources that do not say which list);
 * - `export_control`: export-control and debarment lists (BIS Entity List, Denied Persons, Unverified
 *   List, Military End-User; State ISN nonproliferation and DDTC debarment; other debarment lists).
 */
export type ListRegime = 'blocking_sanctions' | 'sanctions' | 'export_control';

const BLOCKING_SOURCES = new Set(['ofac_sdn', 'un_sc', 'eu_fsf', 'uk_sanctions']);
const EXPORT_CONTROL_LIST =
  /\((EL|DPL|UVL|MEU|ISN|DTC)\)|entity list|denied persons|unverified list|military end[- ]user|nonproliferation|debarred|bureau of industry|defense trade controls/i;
const SDN_LIST = /specially designated nationals|(?<!non[- ])\bSDN\b/i;
/** OpenSanctions dataset ids of blocking lists, as commercial / aggregated services name them. */
const BLOCKING_DATASETS = /(^|[\s,;])(us_ofac_sdn|un_sc_sanctions|eu_fsf|gb_hmt_sanctions|gb_fcdo_sanctions)($|[\s,;])/i;

export function listRegimeOf(category: HitCategory, source: Pick<HitSource, 'source' | 'sourceList'>): ListRegime {
  if (category === 'debarment') return 'export_control';
  const list = source.sourceList ?? '';
  if (list && EXPORT_CONTROL_LIST.test(list)) return 'export_control';
  if (source.source === 'us_dpl') return 'export_control';
  if (BLOCKING_SOURCES.has(source.source)) return 'blocking_sanctions';
  if (list && (SDN_LIST.test(list) || BLOCKING_DATASETS.test(list))) return 'blocking_sanctions';
  return 'sanctions';
}

const REGIME_RANK: Record<ListRegime, number> = { blocking_sanctions: 2, sanctions: 1, export_control: 0 };

/** The lists a hit stands for: its merged `sources`, else its own source. */
export function sourcesOf(hit: ScorableHit): HitSource[] {
  if (hit.sources && hit.sources.length > 0) return hit.sources;
  return [
    {
      source: hit.source,
      ...(hit.sourceLabel ? { sourceLabel: hit.sourceLabel } : {}),
      ...(hit.sourceList ? { sourceList: hit.sourceList } : {}),
      ...(hit.listAuthority ? { listAuthority: hit.listAuthority } : {}),
    },
  ];
}

/** The strongest regime among a hit's lists (a hit on the SDN and the Entity List is a blocking hit). */
export function regimeOfHit(hit: ScorableHit): ListRegime {
  return sourcesOf(hit)
    .map((s) => listRegimeOf(hit.category, s))
    .reduce((best, r) => (REGIME_RANK[r] > REGIME_RANK[best] ? r : best), 'export_control' as ListRegime);
}

export interface FloorRule {
  level: RiskLevel;
  /** Why, in plain words (the hit or fact is appended). */
  reason: string;
}

/**
 * Floors: the least level a finding implies on the scale, whatever the additive sum. Applied
 * after the sum; the score is raised to the level's minimum (docs/risk-scoring.md, "Floors").
 */
export const FLOORS = {
  blocking_sanctions_confirmed: {
    level: 'critical',
    reason: 'confirmed match on a blocking sanctions list: dealing with the subject is prohibited, do not proceed',
  },
  sanctions_true_match: {
    level: 'critical',
    reason: 'an analyst confirmed the sanctions hit as a true match: do not proceed',
  },
  sanctions_confirmed: {
    level: 'high',
    reason: 'confirmed match on a sanctions programme that is not a full asset freeze: restrictions apply, enhanced due diligence required',
  },
  sanctions_potential: {
    level: 'high',
    reason: 'potential sanctions match, identity not corroborated: enhanced due diligence required until an analyst decides it (true match or false positive)',
  },
  sanctions_not_searched: {
    level: 'high',
    reason: 'sanctions lists not searched: the screening cannot clear the subject, enhanced due diligence required until it is screened again',
  },
  sanctions_identity_contradicted: {
    level: 'medium',
    reason: 'sanctions name match whose date of birth contradicts every listed date: most likely a namesake, monitor closely until an analyst dismisses it',
  },
  export_control_confirmed: {
    level: 'high',
    reason: 'confirmed match on an export-control or debarment list: licence or prohibition applies, enhanced due diligence required',
  },
  export_control_potential: {
    level: 'medium',
    reason: 'potential match on an export-control or debarment list, identity not corroborated: monitor closely until reviewed',
  },
  pep_confirmed: {
    level: 'medium',
    reason: 'confirmed politically exposed person: at least monitor closely (FATF R.12)',
  },
  internal_block_confirmed: {
    level: 'critical',
    reason: "confirmed match on one of the firm's own lists with severity block: do not proceed",
  },
  internal_block_potential: {
    level: 'high',
    reason: "potential match on one of the firm's own lists with severity block: enhanced due diligence until an analyst confirms or dismisses it",
  },
  internal_review_confirmed: {
    level: 'high',
    reason: "confirmed match on one of the firm's own lists with severity review: enhanced due diligence required",
  },
  internal_review_potential: {
    level: 'medium',
    reason: "potential match on one of the firm's own lists with severity review: monitor closely until reviewed",
  },
  internal_note_confirmed: {
    level: 'medium',
    reason: "confirmed match on one of the firm's own lists with severity note: at least monitor closely",
  },
  fatf_black_list: {
    level: 'high',
    reason: 'subject jurisdiction on the FATF black list (call for action): enhanced due diligence required',
  },
  comprehensive_sanctions_jurisdiction: {
    level: 'high',
    reason: 'subject jurisdiction under a comprehensive sanctions embargo: most dealings with it are prohibited without a licence, enhanced due diligence required',
  },
  sectoral_sanctions_jurisdiction: {
    level: 'medium',
    reason: 'subject jurisdiction under sectoral sanctions: whole sectors are restricted, monitor closely',
  },
} as const satisfies Record<string, FloorRule>;
export type FloorId = keyof typeof FLOORS;

/** Hits on the firm's own lists, per hit, by the list's severity (docs/risk-scoring.md, "Internal lists"). */
export const INTERNAL_LIST_POINTS: Record<'block' | 'review' | 'note', PointsRow> = {
  block: { confirmed: 15, potential: 8, reason: "the firm's own list, severity block" },
  review: { confirmed: 10, potential: 5, reason: "the firm's own list, severity review" },
  note: { confirmed: 5, potential: 2, reason: "the firm's own list, severity note" },
};
/** The floor an internal-list hit sets, by severity and status (a potential "note" hit sets none). */
export const INTERNAL_LIST_FLOORS: Record<'block' | 'review' | 'note', Record<'confirmed' | 'potential', FloorId | undefined>> = {
  block: { confirmed: 'internal_block_confirmed', potential: 'internal_block_potential' },
  review: { confirmed: 'internal_review_confirmed', potential: 'internal_review_potential' },
  note: { confirmed: 'internal_note_confirmed', potential: undefined },
};

/**
 * Who decided and when. The comment is not quoted: cut to fit a reason it read as another comment
 * ("Escalated to M"), and it is kept whole with the decision itself (the case, the report's sign-off).
 */
function dispositionText(d: HitDisposition): string {
  return `by ${d.by}${d.at ? ` on ${d.at.slice(0, 10)}` : ''}`;
}

/** The list authority of a sanctions hit, from its explicit field or its source id. */
export function listAuthorityOf(hit: Pick<ScorableHit, 'source' | 'listAuthority'>): ListAuthority {
  return hit.listAuthority ?? authorityOfSource(hit.source);
}

export function offshoreRowFor(investigation: string | undefined): OffshoreRow {
  const text = (investigation ?? '').toLowerCase();
  const found = OFFSHORE_LEAK_POINTS.find((row) => row.aliases.some((a) => text.includes(a)));
  return found ?? OFFSHORE_LEAK_POINTS[OFFSHORE_LEAK_POINTS.length - 1]!;
}

function pointsFor(row: PointsRow, status: HitStatus): number {
  return status === 'confirmed' ? row.confirmed : row.potential;
}

/** The hit in words for the breakdown: its status, name, score and what confirmed it (or that nothing did). */
function describe(hit: ScorableHit, status: string): string {
  const confirmation = status === 'dismissed' ? undefined : confirmationOf(hit);
  const identity = confirmation ? `confirmed by ${confirmation.detail}` : status === 'potential' ? hit.identityNote : undefined;
  return `${status} hit ${hit.entityName ? `"${hit.entityName}" ` : ''}(score ${toScore100(hit.score)}${identity ? `; ${identity}` : ''})`;
}

export function computeRiskScore(input: ScoringInput): RiskAssessment {
  const breakdown: ScoreContribution[] = [];
  const belowThreshold: string[] = [];
  const flags: string[] = [];
  const floors: { id: FloorId; detail: string; hitIds?: string[] }[] = [];

  /** A counted hit: its status, whether an analyst made it a true match, whether its date of birth contradicts the identity. */
  type Counted = { hit: ScorableHit; status: HitStatus; trueMatch: boolean; contradicted: boolean };
  const counted = (category: HitCategory): Counted[] => {
    const out: Counted[] = [];
    for (const hit of input.hits[category] ?? []) {
      const d = hit.disposition;
      const standing = standingOf(hit);
      if (standing === 'dismissed') {
        breakdown.push({
          rule: `disposition.false_positive`,
          points: 0,
          reason: `${describe(hit, 'dismissed')} marked a false positive ${dispositionText(d!)}: not counted`,
          hitIds: [hit.hitId],
        });
        continue;
      }
      if (standing === 'analyst_confirmed') {
        breakdown.push({
          rule: `disposition.true_match`,
          points: 0,
          reason: `${describe(hit, 'confirmed')} marked a true match ${dispositionText(d!)}: counted as confirmed`,
          hitIds: [hit.hitId],
        });
        out.push({ hit, status: 'confirmed', trueMatch: true, contradicted: false });
        continue;
      }
      const status = statusOfStanding(standing);
      if (d?.decision === 'needs_more_information') {
        // Not a decision: the hit counts exactly as an undecided one (a potential match stays potential).
        breakdown.push({
          rule: `disposition.needs_more_information`,
          points: 0,
          reason: `${describe(hit, status ?? 'potential')} awaiting more information ${dispositionText(d)}: still undecided, counted as it stands`,
          hitIds: [hit.hitId],
        });
      }
      if (status === undefined) belowThreshold.push(hit.hitId);
      else out.push({ hit, status, trueMatch: false, contradicted: standing === 'identity_contradicted' });
    }
    return out;
  };
  /** A hit whose date of birth contradicts the identity: +0, shown with why (it sets at most a medium floor). */
  const contradictedRow = (hit: ScorableHit, rule: string) =>
    breakdown.push({ rule: `${rule}.contradicted`, points: 0, reason: `${describe(hit, 'potential')}: not counted, ${BADGES.identity_contradicted.label}`, hitIds: [hit.hitId] });
  const listsOf = (hit: ScorableHit, pick: (s: HitSource) => boolean = () => true) =>
    [...new Set(sourcesOf(hit).filter(pick).map((s) => s.sourceList ?? s.sourceLabel ?? s.source))].join(', ');

  let confirmedHits = 0;
  for (const { hit, status, trueMatch, contradicted } of counted('sanctions')) {
    if (status === 'confirmed') confirmedHits++;
    if (contradicted && !hit.internalList) {
      const regime = regimeOfHit(hit);
      contradictedRow(hit, `sanctions.${listAuthorityOf(hit)}`);
      floors.push({ id: regime === 'export_control' ? 'export_control_potential' : 'sanctions_identity_contradicted', detail: `${describe(hit, 'potential')} on ${listsOf(hit)}`, hitIds: [hit.hitId] });
      continue;
    }
    if (hit.internalList) {
      // The firm's own list (issue 21): counted by the list's severity, not as an official designation.
      const severity = hit.internalList.severity;
      const row = INTERNAL_LIST_POINTS[severity];
      const on = `${describe(hit, status)} on internal list "${hit.internalList.name}" (v${hit.internalList.version})`;
      breakdown.push({ rule: `internal_list.${severity}.${status}`, points: pointsFor(row, status), reason: `${row.reason}: ${on}`, hitIds: [hit.hitId] });
      flags.push('internal_list_hit');
      const floor = INTERNAL_LIST_FLOORS[severity][status];
      if (floor) floors.push({ id: floor, detail: trueMatch ? `${on}, true match ${dispositionText(hit.disposition!)}` : on, hitIds: [hit.hitId] });
      continue;
    }
    // Once per issuing authority among the hit's lists: a US entity on three US files is one US hit.
    const authorities = [...new Set(sourcesOf(hit).map((s) => listAuthorityOf(s)))];
    for (const authority of authorities) {
      const row = SANCTIONS_POINTS[authority];
      breakdown.push({
        rule: `sanctions.${authority}.${status}`,
        points: pointsFor(row, status),
        reason: `${row.reason}: ${describe(hit, status)} on ${listsOf(hit, (s) => listAuthorityOf(s) === authority)}`,
        hitIds: [hit.hitId],
      });
    }
    if (status === 'confirmed') flags.push('confirmed_sanctions_hit');
    const regime = regimeOfHit(hit);
    const on = `${describe(hit, status)} on ${listsOf(hit)}`;
    if (trueMatch && regime !== 'export_control') {
      floors.push({ id: 'sanctions_true_match', detail: `${on}, true match ${dispositionText(hit.disposition!)}`, hitIds: [hit.hitId] });
    } else if (regime === 'export_control') {
      floors.push({ id: status === 'confirmed' ? 'export_control_confirmed' : 'export_control_potential', detail: on, hitIds: [hit.hitId] });
    } else if (status === 'confirmed') {
      floors.push({ id: regime === 'blocking_sanctions' ? 'blocking_sanctions_confirmed' : 'sanctions_confirmed', detail: on, hitIds: [hit.hitId] });
    } else {
      floors.push({ id: 'sanctions_potential', detail: on, hitIds: [hit.hitId] });
    }
  }

  for (const { hit, status, contradicted } of counted('offshore_leaks')) {
    if (status === 'confirmed') confirmedHits++;
    if (contradicted) {
      contradictedRow(hit, 'offshore_leaks');
      continue;
    }
    const row = offshoreRowFor(hit.investigation ?? hit.source);
    breakdown.push({
      rule: `offshore_leaks.${row.aliases[0]?.replace(/\s+/g, '_') ?? 'other'}.${status}`,
      points: pointsFor(row, status),
      reason: `${row.reason}: ${describe(hit, status)}`,
      hitIds: [hit.hitId],
    });
  }

  for (const { hit, status, contradicted } of counted('debarment')) {
    if (status === 'confirmed') confirmedHits++;
    if (contradicted) {
      contradictedRow(hit, 'debarment');
      floors.push({ id: 'export_control_potential', detail: `${describe(hit, 'potential')} on ${listsOf(hit)}`, hitIds: [hit.hitId] });
      continue;
    }
    const dpl = sourcesOf(hit).some((s) => s.source.toLowerCase() === 'us_dpl' || /denied persons|\(DPL\)/i.test(s.sourceList ?? ''));
    const key = dpl ? 'us_dpl' : 'other';
    const row = DEBARMENT_POINTS[key];
    breakdown.push({
      rule: `debarment.${key}.${status}`,
      points: pointsFor(row, status),
      reason: `${row.reason}: ${describe(hit, status)} on ${listsOf(hit)}`,
      hitIds: [hit.hitId],
    });
    floors.push({ id: status === 'confirmed' ? 'export_control_confirmed' : 'export_control_potential', detail: `${describe(hit, status)} on ${listsOf(hit)}`, hitIds: [hit.hitId] });
  }

  for (const category of ['pep', 'adverse_media'] as const) {
    const row = CATEGORY_POINTS[category];
    let total = 0;
    for (const { hit, status, contradicted } of counted(category)) {
      if (status === 'confirmed') confirmedHits++;
      if (contradicted) {
        contradictedRow(hit, category);
        continue;
      }
      if (category === 'pep' && status === 'confirmed') floors.push({ id: 'pep_confirmed', detail: describe(hit, status), hitIds: [hit.hitId] });
      const wanted = pointsFor(row, status);
      const points = Math.min(wanted, row.cap - total);
      total += points;
      breakdown.push({
        rule: `${category}.${status}`,
        points,
        reason: `${row.reason}: ${describe(hit, status)}${points < wanted ? ` (category cap ${row.cap} reached)` : ''}`,
        hitIds: [hit.hitId],
      });
    }
    if (category === 'pep' && total > 0) flags.push('pep');
  }

  // FATF: once, the worst status among the assessed countries.
  const countryRisk = input.countryRisk ?? [];
  const black = countryRisk.filter((c) => c.fatfStatus === 'high_risk_call_for_action');
  const grey = countryRisk.filter((c) => c.fatfStatus === 'increased_monitoring');
  if (black.length > 0) {
    const counter = black.find((c) => (c.measure ?? '').toLowerCase().includes('countermeasure'));
    const chosen = counter ?? black[0]!;
    const row = counter ? FATF_POINTS.countermeasures : FATF_POINTS.call_for_action;
    breakdown.push({
      rule: counter ? 'fatf.call_for_action.countermeasures' : 'fatf.call_for_action',
      points: row.points,
      reason: `${row.reason}: ${chosen.jurisdiction} (${chosen.iso2}), FATF statement of ${chosen.asOf}`,
    });
    flags.push('fatf_black_list');
    floors.push({ id: 'fatf_black_list', detail: `${chosen.jurisdiction} (${chosen.iso2}), FATF statement of ${chosen.asOf}` });
  } else if (grey.length > 0) {
    const chosen = grey[0]!;
    breakdown.push({
      rule: 'fatf.increased_monitoring',
      points: FATF_POINTS.increased_monitoring.points,
      reason: `${FATF_POINTS.increased_monitoring.reason}: ${chosen.jurisdiction} (${chosen.iso2}), FATF statement of ${chosen.asOf}`,
    });
  }

  // Sanctions programmes targeting the subject's jurisdiction: floors only (the spec's points table
  // has no row for them), so a comprehensively sanctioned jurisdiction never reads "no significant flags".
  const programmesOf = (c: CountryRiskFinding) =>
    (c.sanctions ?? [])
      .filter((p) => p.scope === c.sanctionsScope || (c.sanctionsScope === 'sectoral' && p.scope === 'comprehensive'))
      .map((p) => `${p.programme}${p.region ? ` (${p.region})` : ''}`)
      .join('; ');
  const embargoed = countryRisk.find((c) => c.sanctionsScope === 'comprehensive');
  const sectoral = countryRisk.find((c) => c.sanctionsScope === 'sectoral');
  if (embargoed) {
    flags.push('comprehensive_sanctions_jurisdiction');
    floors.push({ id: 'comprehensive_sanctions_jurisdiction', detail: `${embargoed.jurisdiction} (${embargoed.iso2}): ${programmesOf(embargoed)}` });
  } else if (sectoral) {
    floors.push({ id: 'sectoral_sanctions_jurisdiction', detail: `${sectoral.jurisdiction} (${sectoral.iso2}): ${programmesOf(sectoral)}` });
  }

  const uk = input.ukRegistry;
  if (uk) {
    const status = (uk.status ?? '').toLowerCase();
    if (uk.struckOff || status.includes('dissolved') || status.includes('struck')) {
      breakdown.push({
        rule: 'uk_registry.dissolved',
        points: UK_REGISTRY_POINTS.dissolved.points,
        reason: `${UK_REGISTRY_POINTS.dissolved.reason}: ${uk.companyNumber} status "${uk.status ?? 'struck off'}"`,
      });
    }
    if (uk.pscNotRegisteredOrExempt) {
      breakdown.push({
        rule: 'uk_registry.psc_not_registered',
        points: UK_REGISTRY_POINTS.pscNotRegistered.points,
        reason: `${UK_REGISTRY_POINTS.pscNotRegistered.reason}: ${uk.companyNumber}`,
      });
    }
    const highRisk = new Set(
      [...(input.highRiskJurisdictions ?? countryRisk.filter((c) => c.fatfStatus !== 'none').map((c) => c.iso2))].map((c) =>
        c.toUpperCase(),
      ),
    );
    const risky = (uk.controllerCountries ?? []).filter((c) => highRisk.has(c.toUpperCase()));
    if (risky.length > 0) {
      breakdown.push({
        rule: 'uk_registry.controller_high_risk_jurisdiction',
        points: UK_REGISTRY_POINTS.controllerHighRisk.points,
        reason: `${UK_REGISTRY_POINTS.controllerHighRisk.reason}: ${[...new Set(risky)].join(', ')}`,
      });
    }
  }

  for (const extra of input.additional ?? []) breakdown.push(extra);

  // Fail closed: a sanctions source that was not searched can never leave the subject "low".
  const unsearched = input.unsearched ?? [];
  if (unsearched.length > 0) {
    flags.push('sanctions_not_searched');
    floors.push({ id: 'sanctions_not_searched', detail: unsearched.map((u) => `${u.source}: ${u.reason}`).join('; ') });
  }

  const additiveScore = breakdown.reduce((sum, c) => sum + c.points, 0);
  // Floors, highest level first: the first one raises the sum to its level's minimum when it is
  // below; the others are shown as already met. One row per floor kind, listing its hits.
  const byKind = new Map<FloorId, { details: string[]; hitIds: string[] }>();
  for (const f of floors) {
    const entry = byKind.get(f.id) ?? { details: [], hitIds: [] };
    if (!entry.details.includes(f.detail)) entry.details.push(f.detail);
    entry.hitIds.push(...(f.hitIds ?? []));
    byKind.set(f.id, entry);
  }
  const ordered = [...byKind.entries()].sort(
    ([a], [b]) => minimumScoreOf(FLOORS[b].level) - minimumScoreOf(FLOORS[a].level) || floorOrder.indexOf(a) - floorOrder.indexOf(b),
  );
  let running = additiveScore;
  let governing: RiskAssessment['floor'];
  for (const [id, { details, hitIds }] of ordered) {
    const rule = FLOORS[id];
    const minimum = minimumScoreOf(rule.level);
    const points = Math.max(0, minimum - running);
    running += points;
    const reason = `${rule.reason} (${details.slice(0, 3).join('; ')}${details.length > 3 ? `; and ${details.length - 3} more` : ''})`;
    governing ??= { rule: `floor.${id}`, level: rule.level, minimum, reason };
    breakdown.push({
      rule: `floor.${id}`,
      points,
      reason: `Floor, at least ${rule.level} (${minimum}): ${reason}${points === 0 ? '; already reached by the contributions' : `; raises the score from ${running - points} to ${running}`}`,
      ...(hitIds.length ? { hitIds: [...new Set(hitIds)] } : {}),
    });
  }

  // Critical ("do not proceed") needs a confirmed hit: potential matches and other findings stop at high.
  const highest = minimumScoreOf('critical') - 1;
  if (running > highest && confirmedHits === 0) {
    breakdown.push({
      rule: 'limit.critical_needs_confirmed_hit',
      points: highest - running,
      reason: `Limit, at most high (${highest}): critical needs a confirmed hit, and no hit's identity is confirmed; lowers the score from ${running} to ${highest}`,
    });
    running = highest;
  }

  const uncappedScore = running;
  const riskScore = Math.min(MAX_RISK_SCORE, uncappedScore);
  const riskLevel = riskLevelForScore(riskScore);
  return {
    riskScore,
    riskLevel,
    uncappedScore,
    additiveScore,
    breakdown,
    belowThreshold,
    flags: [...new Set(flags)],
    ...(governing ? { floor: governing } : {}),
    reason: verdictReason(riskScore, riskLevel, breakdown, governing),
  };
}

const floorOrder = Object.keys(FLOORS) as FloorId[];

/**
 * The verdict of a screening whose risk was not scored (the scorer threw, or the finalisation phase
 * expired before it ran): fail closed. At least high, "EDD required" (RISK_NOT_SCORED_FLOOR), and
 * critical when a confirmed sanctions hit is on record. Deliberately simple: it must not fail too.
 */
export const RISK_NOT_SCORED_FLOOR = minimumScoreOf('high');
export function failClosedVerdict(report: { hits: Partial<Record<HitCategory, readonly ScorableHit[]>> }): { riskScore: number; riskLevel: RiskLevel } {
  const confirmedSanctions = (report.hits.sanctions ?? []).some((h) => statusOfStanding(standingOf(h)) === 'confirmed');
  const riskScore = confirmedSanctions ? minimumScoreOf('critical') : RISK_NOT_SCORED_FLOOR;
  return { riskScore, riskLevel: riskLevelForScore(riskScore) };
}

function verdictReason(score: number, level: RiskLevel, breakdown: ScoreContribution[], floor: RiskAssessment['floor']): string {
  const meaning = RISK_SCALE.find((b) => b.level === level)!.meaning;
  // The floor decides whenever the level is the floor's own: it is the reason an auditor needs.
  if (floor && floor.level === level) return `${capitalise(level)} (${score}), ${meaning.toLowerCase()}: ${floor.reason}.`;
  const counting = breakdown.filter((c) => c.points > 0).sort((a, b) => b.points - a.points);
  if (counting.length === 0) return `${capitalise(level)} (${score}), ${meaning.toLowerCase()}: no sanctions, PEP, debarment, offshore-leak or country-risk finding counts.`;
  const top = counting.slice(0, 2).map((c) => `${c.reason} (+${c.points})`).join('; ');
  return `${capitalise(level)} (${score}), ${meaning.toLowerCase()}: ${counting.length} contribution(s), the largest ${top}.`;
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
