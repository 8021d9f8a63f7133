/**
 * Risk score: a pure function from a screening's findings to `risk_score` (0–100 integer),
 * `risk_level` (S1 scale) and the breakdown of every contribution with its reason.
 *
 * The spec's contributions (part 1) are implemented exactly; where the spec is silent
 * (potential hits, PEP, adverse media, debarment, FATF) the values are ours and are
 * documented, row by row, in docs/risk-scoring.md. Tables are exported so the tests and
 * the report can show them.
 */

import type {
  CountryRiskFinding,
  HitCategory,
  ListAuthority,
  ReportHit,
  RiskLevel,
  ScoreContribution,
  UkRegistryFacts,
} from '../../reports/model';
import { RISK_SCALE } from '../../reports/model';

/** Minimum matcher score (0–100) for a hit to count at all: below it is "not a match". */
export const MIN_MATCH_SCORE = 80;
/** Matcher score (0–100) from which a hit is confirmed; 80–94 is potential. */
export const CONFIRMED_SCORE = 95;
export const MAX_RISK_SCORE = 100;

export type HitStatus = 'confirmed' | 'potential' | 'no_match';

/** Matcher scores are in [0,1]; the rules work on the 0–100 integer `round(score × 100)`. */
export function toScore100(score: number): number {
  if (!Number.isFinite(score)) return 0;
  return Math.max(0, Math.min(100, Math.round(score * 100)));
}

export function hitStatus(score: number): HitStatus {
  const s = toScore100(score);
  if (s >= CONFIRMED_SCORE) return 'confirmed';
  if (s >= MIN_MATCH_SCORE) return 'potential';
  return 'no_match';
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
  Partial<Pick<ReportHit, 'listAuthority' | 'investigation' | 'entityName'>>;

export interface ScoringInput {
  hits: Partial<Record<HitCategory, ScorableHit[]>>;
  countryRisk?: CountryRiskFinding[];
  ukRegistry?: UkRegistryFacts;
  /** ISO alpha-2 codes treated as high-risk for the UK controller rule (default: FATF black + grey list countries in countryRisk). */
  highRiskJurisdictions?: Iterable<string>;
}

export interface RiskAssessment {
  riskScore: number;
  riskLevel: RiskLevel;
  uncappedScore: number;
  breakdown: ScoreContribution[];
  /** Hits dropped because their score is below the minimum match score. */
  belowThreshold: string[];
  /** Facts a reviewer must see whatever the score, e.g. `confirmed_sanctions_hit`. */
  flags: string[];
}

export function riskLevelFor(score: number): RiskLevel {
  for (const band of RISK_SCALE) if (score >= band.min && score <= band.max) return band.level;
  return score > 100 ? 'critical' : 'low';
}

/** The list authority of a sanctions hit, from its explicit field or its source id. */
export function listAuthorityOf(hit: Pick<ScorableHit, 'source' | 'listAuthority'>): ListAuthority {
  if (hit.listAuthority) return hit.listAuthority;
  const s = hit.source.toLowerCase();
  if (s.startsWith('ofac') || s.startsWith('us_') || s === 'us') return 'us';
  if (s.startsWith('un_') || s === 'un') return 'un';
  if (s.startsWith('eu_') || s === 'eu') return 'eu';
  if (s.startsWith('uk_') || s.startsWith('gb_') || s === 'uk') return 'uk';
  return 'other';
}

export function offshoreRowFor(investigation: string | undefined): OffshoreRow {
  const text = (investigation ?? '').toLowerCase();
  const found = OFFSHORE_LEAK_POINTS.find((row) => row.aliases.some((a) => text.includes(a)));
  return found ?? OFFSHORE_LEAK_POINTS[OFFSHORE_LEAK_POINTS.length - 1]!;
}

function pointsFor(row: PointsRow, status: Exclude<HitStatus, 'no_match'>): number {
  return status === 'confirmed' ? row.confirmed : row.potential;
}

export function computeRiskScore(input: ScoringInput): RiskAssessment {
  const breakdown: ScoreContribution[] = [];
  const belowThreshold: string[] = [];
  const flags: string[] = [];

  const counted = (category: HitCategory): { hit: ScorableHit; status: 'confirmed' | 'potential' }[] => {
    const out: { hit: ScorableHit; status: 'confirmed' | 'potential' }[] = [];
    for (const hit of input.hits[category] ?? []) {
      const status = hitStatus(hit.score);
      if (status === 'no_match') belowThreshold.push(hit.hitId);
      else out.push({ hit, status });
    }
    return out;
  };
  const describe = (hit: ScorableHit, status: string) =>
    `${status} hit ${hit.entityName ? `"${hit.entityName}" ` : ''}(score ${toScore100(hit.score)})`;

  for (const { hit, status } of counted('sanctions')) {
    const authority = listAuthorityOf(hit);
    const row = SANCTIONS_POINTS[authority];
    if (status === 'confirmed') flags.push('confirmed_sanctions_hit');
    breakdown.push({
      rule: `sanctions.${authority}.${status}`,
      points: pointsFor(row, status),
      reason: `${row.reason}: ${describe(hit, status)}`,
      hitIds: [hit.hitId],
    });
  }

  for (const { hit, status } of counted('offshore_leaks')) {
    const row = offshoreRowFor(hit.investigation ?? hit.source);
    breakdown.push({
      rule: `offshore_leaks.${row.aliases[0]?.replace(/\s+/g, '_') ?? 'other'}.${status}`,
      points: pointsFor(row, status),
      reason: `${row.reason}: ${describe(hit, status)}`,
      hitIds: [hit.hitId],
    });
  }

  for (const { hit, status } of counted('debarment')) {
    const key = hit.source.toLowerCase() === 'us_dpl' ? 'us_dpl' : 'other';
    const row = DEBARMENT_POINTS[key];
    breakdown.push({
      rule: `debarment.${key}.${status}`,
      points: pointsFor(row, status),
      reason: `${row.reason}: ${describe(hit, status)}`,
      hitIds: [hit.hitId],
    });
  }

  for (const category of ['pep', 'adverse_media'] as const) {
    const row = CATEGORY_POINTS[category];
    let total = 0;
    for (const { hit, status } of counted(category)) {
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
  } else if (grey.length > 0) {
    const chosen = grey[0]!;
    breakdown.push({
      rule: 'fatf.increased_monitoring',
      points: FATF_POINTS.increased_monitoring.points,
      reason: `${FATF_POINTS.increased_monitoring.reason}: ${chosen.jurisdiction} (${chosen.iso2}), FATF statement of ${chosen.asOf}`,
    });
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

  const uncappedScore = breakdown.reduce((sum, c) => sum + c.points, 0);
  const riskScore = Math.min(MAX_RISK_SCORE, uncappedScore);
  return {
    riskScore,
    riskLevel: riskLevelFor(riskScore),
    uncappedScore,
    breakdown,
    belowThreshold,
    flags: [...new Set(flags)],
  };
}
