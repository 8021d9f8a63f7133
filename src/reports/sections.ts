/**
 * The 13 sections of a screening report as structured data. The JSON report (S3
 * GET /screening/:id/report) serialises exactly this; the PDF renders exactly this. Building it
 * once guarantees both carry the same content.
 */

import { toScore100 } from './risk-score';
import { assessmentOf, BADGES, confirmationOf, hitStatusOf, machineStandingOf, standingOf, statusOfStanding, type HitConfirmation, type HitStanding } from './confirmation';
import { currentSummary, standingCounts, standingCountsText } from './match-summary';
import {
  HIT_CATEGORIES,
  RISK_SCALE,
  type HitCategory,
  type ReportHit,
  type RiskLevel,
  type ScreeningKind,
  type ScreeningReport,
} from './model';
import type { SanctionsProgrammeFinding } from '../screening/lists/country-sanctions';

export const SECTION_TITLES = [
  'Cover and verdict',
  'Subject',
  'Risk score and level',
  'Sanctions',
  'Politically exposed persons (PEP)',
  'Adverse media',
  'Offshore leaks',
  'Debarment and enforcement',
  'Country risk',
  'Registry and enrichment data',
  'EDD / M&A analysis',
  'Data gaps and sources not searched',
  'Audit trail',
] as const;

export const KIND_LABELS: Record<ScreeningKind, string> = {
  cdd: 'Customer due diligence (CDD)',
  edd: 'Enhanced due diligence (EDD)',
  ma: 'M&A due diligence',
  sow: 'Source-of-wealth verification (SOW)',
};

export const FLAG_NOTES: Record<string, string> = {
  confirmed_sanctions_hit: 'Confirmed sanctions match (the identity agrees): do not proceed without compliance review, whatever the score.',
  sanctions_not_searched: 'The sanctions lists were not searched (a source failed or timed out): the subject is not cleared; screen again before relying on this result.',
  risk_not_scored: 'The risk score could not be computed (an internal failure): the level is the fail-closed one, at least high; screen again before relying on this result.',
  pep: 'Politically exposed person: senior-management approval and source of wealth required.',
  fatf_black_list: 'FATF black-list jurisdiction involved: countermeasures or enhanced measures apply.',
};

export interface HitView {
  hit_id: string;
  list: string;
  list_label?: string;
  entity_id: string;
  entity_name: string;
  matched_name: string;
  matched_name_kind?: string;
  /** 0–100 (matcher score × 100). */
  score: number;
  /** confirmed only when the identity agrees (src/reports/confirmation.ts); potential otherwise. */
  status: 'confirmed' | 'potential';
  /** The hit's standing (machine assessment, the analyst's decision applied) and its badge wording. */
  assessment: HitStanding;
  badge: string;
  /** The machine's assessment alone, worded (shown apart from the analyst's decision). */
  machine_label: string;
  /** What confirmed the hit, or null: then `identity_note` says what would. */
  confirmation: HitConfirmation | null;
  identity_note?: string;
  explanation: { summary: string; qualifiers: { kind: string; effect: number; detail: string }[] };
  programs: string[];
  source_url?: string;
  investigation?: string;
  title?: string;
  published_at?: string;
  position?: string;
  countries?: string[];
  /** Every list row of this entity (one hit per real-world entity), the primary list first. */
  sources?: { list: string; list_label?: string; authority?: string; entity_id?: string; list_version?: string; list_published_at?: string }[];
  date_of_birth?: string[];
  place_of_birth?: string[];
  nationality?: string[];
  identifiers?: { type: string; value: string; country?: string; note?: string }[];
  aliases?: string[];
  addresses?: string[];
  /** The listed entity is of another kind than the one screened (see the type_mismatch qualifier). */
  type_mismatch?: { expected: string; listed: string; type_given: boolean };
  disposition?: { decision: string; by: string; at: string; note?: string };
}

export interface HitsSection {
  category: HitCategory;
  count: number;
  /** Confirmed now: identity corroborated and not dismissed, or analyst-confirmed. */
  confirmed: number;
  /** Potential now: a name match nobody has decided (or "needs more information"). */
  potential: number;
  /** Dismissed by an analyst (false positive). */
  dismissed: number;
  /** Each standing's label with its count ("analyst-confirmed 1, strong name match 2"), strongest first; empty without hits at the minimum match score. */
  by_standing: string;
  hits: HitView[];
  /** Agents of this category that were not queried, with why: "no hits" is only meaningful with this. */
  not_searched: { source: string; reason: string }[];
}

export interface ReportSections {
  cover: {
    subject_name: string;
    screening_type: string;
    risk_score: number;
    risk_level: RiskLevel;
    risk_meaning: string;
    /** One sentence of why, from the scorer (the governing floor's reason, else the largest contributions). */
    risk_reason: string;
    flags: { flag: string; note: string }[];
    summary?: string;
    hit_counts: Record<HitCategory, number>;
    /** One per stale list the screening used ("OFAC SDN list is 937 days old: …"). */
    list_warnings: string[];
  };
  subject: {
    query: string;
    entity_type: string;
    jurisdiction?: string;
    jurisdiction_iso2?: string;
    /** The identity facts the caller gave (issue 27): what confirms or clears a hit. */
    date_of_birth?: string;
    nationality?: string;
    identifiers?: { type: string; value: string }[];
    address?: string;
    phone?: string;
    email?: string;
    declared: { label: string; value: string }[];
  };
  risk: {
    risk_score: number;
    risk_level: RiskLevel;
    uncapped_score: number;
    capped: boolean;
    scale: { level: RiskLevel; min: number; max: number; meaning: string }[];
    breakdown: { rule: string; points: number; reason: string }[];
  };
  sanctions: HitsSection;
  pep: HitsSection;
  adverse_media: HitsSection;
  offshore_leaks: HitsSection;
  debarment: HitsSection;
  country_risk: {
    countries: {
      iso2: string;
      jurisdiction: string;
      fatf_status: string;
      measure?: string;
      as_of: string;
      basis: string;
      /** The broadest sanctions scope over the whole country (absent on older screenings). */
      sanctions_scope?: 'comprehensive' | 'sectoral' | 'targeted' | 'none';
      sanctions_programmes?: ReturnType<typeof programmeView>[];
    }[];
  };
  registry: {
    canonical_name?: string;
    ticker?: string;
    registry_number?: string;
    jurisdiction?: string;
    records: {
      source: string;
      legal_name?: string;
      registration_number?: string;
      jurisdiction?: string;
      status?: string;
      incorporation_date?: string;
      lei?: string;
      ticker?: string;
      address?: string;
      officers?: { name: string; role?: string }[];
      source_url?: string;
      extra?: Record<string, string>;
    }[];
    uk_registry?: {
      company_number: string;
      company_name?: string;
      status?: string;
      struck_off?: boolean;
      psc_not_registered_or_exempt?: boolean;
      controller_countries?: string[];
    };
  };
  analysis: { kind: string; generated_by: string; markdown: string } | { kind: null; note: string };
  data_gaps: {
    gaps: { code: string; description: string }[];
    sources_not_searched: { source: string; reason: string }[];
  };
  audit: {
    screening_id: number;
    screening_uuid: string;
    list_versions: {
      source: string;
      label?: string;
      version_id: string;
      content_hash: string;
      published_at?: string;
      published_at_source?: string;
      loaded_at: string;
      entity_count?: number;
      age_days?: number;
      max_age_days?: number;
      stale?: boolean;
    }[];
    matcher_version: string;
    events: { type: string; occurred_at: string; event_id?: string; position?: string }[];
    stream_head_hash?: string;
    agents: { agent: string; phase: string; queried: boolean; error?: string; duration_ms: number; match_count: number }[];
  };
}

export const SECTION_KEYS = [
  'cover',
  'subject',
  'risk',
  'sanctions',
  'pep',
  'adverse_media',
  'offshore_leaks',
  'debarment',
  'country_risk',
  'registry',
  'analysis',
  'data_gaps',
  'audit',
] as const satisfies readonly (keyof ReportSections)[];

/** Agent names per category, to attribute "not searched" sources to hit sections. */
const CATEGORY_AGENT_HINTS: Record<HitCategory, RegExp> = {
  sanctions: /sanction|screening|ofac|un_|eu_|uk_/i,
  pep: /pep|screening/i,
  adverse_media: /media|news|osint/i,
  offshore_leaks: /offshore|icij|leak/i,
  debarment: /debar|dpl|enforcement/i,
};

function hitView(h: ReportHit): HitView {
  return {
    hit_id: h.hitId,
    list: h.source,
    ...(h.sourceLabel ? { list_label: h.sourceLabel } : {}),
    entity_id: h.entityId,
    entity_name: h.entityName,
    matched_name: h.matchedName,
    ...(h.matchedNameKind ? { matched_name_kind: h.matchedNameKind } : {}),
    score: toScore100(h.score),
    status: hitStatusOf(h),
    assessment: standingOf(h) ?? assessmentOf(h),
    badge: BADGES[standingOf(h) ?? assessmentOf(h)].badge,
    machine_label: BADGES[machineStandingOf(h)].label,
    confirmation: confirmationOf(h) ?? null,
    ...(h.identityNote ? { identity_note: h.identityNote } : {}),
    explanation: { summary: h.explanation.summary, qualifiers: h.explanation.qualifiers.map((q) => ({ kind: q.kind, effect: q.effect, detail: q.detail })) },
    programs: h.programs,
    ...(h.sourceUrl ? { source_url: h.sourceUrl } : {}),
    ...(h.investigation ? { investigation: h.investigation } : {}),
    ...(h.title ? { title: h.title } : {}),
    ...(h.publishedAt ? { published_at: h.publishedAt } : {}),
    ...(h.position ? { position: h.position } : {}),
    ...(h.countries && h.countries.length > 0 ? { countries: h.countries } : {}),
    ...(h.sources?.length
      ? {
          sources: h.sources.map((s) => ({
            list: s.source,
            ...(s.sourceLabel ? { list_label: s.sourceLabel } : {}),
            ...(s.listAuthority ? { authority: s.listAuthority } : {}),
            ...(s.entityId ? { entity_id: s.entityId } : {}),
            ...(s.listVersion ? { list_version: s.listVersion } : {}),
            ...(s.publishedAt ? { list_published_at: s.publishedAt } : {}),
          })),
        }
      : {}),
    ...(h.birthDates?.length ? { date_of_birth: [...h.birthDates] } : {}),
    ...(h.birthPlaces?.length ? { place_of_birth: [...h.birthPlaces] } : {}),
    ...(h.nationalities?.length ? { nationality: [...h.nationalities] } : {}),
    ...(h.identifiers?.length ? { identifiers: h.identifiers.map((i) => ({ ...i })) } : {}),
    ...(h.aliases?.length ? { aliases: [...h.aliases] } : {}),
    ...(h.addresses?.length ? { addresses: [...h.addresses] } : {}),
    ...(h.typeMismatch ? { type_mismatch: { expected: h.typeMismatch.expected, listed: h.typeMismatch.listed, type_given: h.typeMismatch.typeGiven } } : {}),
    ...(h.disposition ? { disposition: { ...h.disposition } } : {}),
  };
}

/** A postal address on one line: street, postal code and city, country. */
function addressText(a: NonNullable<ScreeningReport['subject']['address']>): string {
  return [a.line, [a.postalCode, a.city].filter(Boolean).join(' '), a.region, a.country].filter(Boolean).join(', ');
}

export function derivedFlags(report: ScreeningReport): string[] {
  if (report.verdict.flags) return report.verdict.flags;
  const flags: string[] = [];
  if (report.hits.sanctions.some((h) => statusOfStanding(standingOf(h)) === 'confirmed')) flags.push('confirmed_sanctions_hit');
  if (report.hits.pep.length > 0) flags.push('pep');
  if (report.countryRisk.some((c) => c.fatfStatus === 'high_risk_call_for_action')) flags.push('fatf_black_list');
  return flags;
}

function declaredFields(report: ScreeningReport): { label: string; value: string }[] {
  const out: { label: string; value: string }[] = [];
  const add = (label: string, value: string | string[] | undefined) => {
    if (value === undefined) return;
    const text = Array.isArray(value) ? value.join('; ') : value;
    if (text.trim() !== '') out.push({ label, value: text });
  };
  const { edd, ma, sow } = report.subject;
  if (edd) {
    add('Source of wealth', edd.sourceOfWealth);
    add('Source of funds', edd.sourceOfFunds);
    add('Purpose of relationship', edd.purposeOfRelationship);
    add('Beneficial ownership', edd.beneficialOwnership);
    add('PEP relationships', edd.pepRelationships);
  }
  if (ma) {
    add('Target industry', ma.targetIndustry);
    add('Acquirer', ma.acquirerName);
    add('Deal type', ma.dealType);
    add('Deal value', ma.dealValue);
    add('Additional context', ma.additionalContext);
  }
  if (sow) {
    add('Declared source of wealth', sow.declaredSourceOfWealth);
    add('Declared net worth', sow.declaredNetWorth);
    add('Occupation', sow.occupation);
    add('Employer', sow.employer);
    add('Attestation', sow.attestation);
    add('Evidence', sow.evidence);
  }
  return out;
}

export function buildReportSections(report: ScreeningReport): ReportSections {
  const band = RISK_SCALE.find((b) => b.level === report.verdict.riskLevel) ?? RISK_SCALE[0]!;
  const hitCounts = Object.fromEntries(HIT_CATEGORIES.map((c) => [c, report.hits[c].length])) as Record<HitCategory, number>;
  const hitsSection = (category: HitCategory): HitsSection => {
    const hits = report.hits[category];
    return {
      category,
      count: hits.length,
      // As the hits stand now: a dismissed hit is neither confirmed nor potential (issue 31).
      confirmed: hits.filter((h) => statusOfStanding(standingOf(h)) === 'confirmed').length,
      potential: hits.filter((h) => statusOfStanding(standingOf(h)) === 'potential').length,
      dismissed: hits.filter((h) => standingOf(h) === 'dismissed').length,
      by_standing: standingCountsText(standingCounts(hits)),
      hits: hits.map(hitView),
      not_searched: report.sourcesNotSearched.filter((s) => CATEGORY_AGENT_HINTS[category].test(s.source)).map((s) => ({ ...s })),
    };
  };
  const e = report.enrichment;
  return {
    cover: {
      subject_name: report.subject.query,
      screening_type: KIND_LABELS[report.kind],
      risk_score: report.verdict.riskScore,
      risk_level: report.verdict.riskLevel,
      risk_meaning: band.meaning,
      risk_reason:
        report.verdict.reason ??
        `${report.verdict.riskLevel.charAt(0).toUpperCase()}${report.verdict.riskLevel.slice(1)} (${report.verdict.riskScore}), ${band.meaning.toLowerCase()}.`,
      flags: derivedFlags(report).map((flag) => ({ flag, note: FLAG_NOTES[flag] ?? flag })),
      // Counted as the hits stand now (a report built from an older fold still reads the current counts).
      ...(report.verdict.summary ? { summary: currentSummary(report.verdict.summary, HIT_CATEGORIES.flatMap((c) => report.hits[c]), report.agents) } : {}),
      hit_counts: hitCounts,
      list_warnings: report.audit.listVersions.flatMap((v) => (v.warning ? [v.warning] : [])),
    },
    subject: {
      query: report.subject.query,
      entity_type: report.subject.entityType,
      ...(report.subject.jurisdiction ? { jurisdiction: report.subject.jurisdiction } : {}),
      ...(report.subject.jurisdictionIso2 ? { jurisdiction_iso2: report.subject.jurisdictionIso2 } : {}),
      ...(report.subject.dateOfBirth ? { date_of_birth: report.subject.dateOfBirth } : {}),
      ...(report.subject.nationality ? { nationality: report.subject.nationality } : {}),
      ...(report.subject.identifiers?.length ? { identifiers: report.subject.identifiers.map((i) => ({ type: i.type, value: i.value })) } : {}),
      ...(report.subject.address ? { address: addressText(report.subject.address) } : {}),
      ...(report.subject.phone ? { phone: report.subject.phone } : {}),
      ...(report.subject.email ? { email: report.subject.email } : {}),
      declared: declaredFields(report),
    },
    risk: {
      risk_score: report.verdict.riskScore,
      risk_level: report.verdict.riskLevel,
      uncapped_score: report.verdict.uncappedScore,
      capped: report.verdict.uncappedScore > report.verdict.riskScore,
      scale: RISK_SCALE.map((b) => ({ ...b })),
      breakdown: report.verdict.breakdown.map(({ rule, points, reason }) => ({ rule, points, reason })),
    },
    sanctions: hitsSection('sanctions'),
    pep: hitsSection('pep'),
    adverse_media: hitsSection('adverse_media'),
    offshore_leaks: hitsSection('offshore_leaks'),
    debarment: hitsSection('debarment'),
    country_risk: {
      countries: report.countryRisk.map((c) => ({
        iso2: c.iso2,
        jurisdiction: c.jurisdiction,
        fatf_status: c.fatfStatus,
        ...(c.measure ? { measure: c.measure } : {}),
        as_of: c.asOf,
        basis: c.basis,
        ...(c.sanctionsScope ? { sanctions_scope: c.sanctionsScope } : {}),
        ...(c.sanctions ? { sanctions_programmes: c.sanctions.map(programmeView) } : {}),
      })),
    },
    registry: {
      ...(e.canonicalName ? { canonical_name: e.canonicalName } : {}),
      ...(e.ticker ? { ticker: e.ticker } : {}),
      ...(e.registryNumber ? { registry_number: e.registryNumber } : {}),
      ...(e.jurisdiction ? { jurisdiction: e.jurisdiction } : {}),
      records: e.registries.map((r) => ({
        source: r.source,
        ...(r.legalName ? { legal_name: r.legalName } : {}),
        ...(r.registrationNumber ? { registration_number: r.registrationNumber } : {}),
        ...(r.jurisdiction ? { jurisdiction: r.jurisdiction } : {}),
        ...(r.status ? { status: r.status } : {}),
        ...(r.incorporationDate ? { incorporation_date: r.incorporationDate } : {}),
        ...(r.lei ? { lei: r.lei } : {}),
        ...(r.ticker ? { ticker: r.ticker } : {}),
        ...(r.address ? { address: r.address } : {}),
        ...(r.officers && r.officers.length > 0 ? { officers: r.officers.map((o) => ({ ...o })) } : {}),
        ...(r.sourceUrl ? { source_url: r.sourceUrl } : {}),
        ...(r.extra ? { extra: { ...r.extra } } : {}),
      })),
      ...(e.ukRegistry
        ? {
            uk_registry: {
              company_number: e.ukRegistry.companyNumber,
              ...(e.ukRegistry.companyName ? { company_name: e.ukRegistry.companyName } : {}),
              ...(e.ukRegistry.status ? { status: e.ukRegistry.status } : {}),
              ...(e.ukRegistry.struckOff !== undefined ? { struck_off: e.ukRegistry.struckOff } : {}),
              ...(e.ukRegistry.pscNotRegisteredOrExempt !== undefined ? { psc_not_registered_or_exempt: e.ukRegistry.pscNotRegisteredOrExempt } : {}),
              ...(e.ukRegistry.controllerCountries ? { controller_countries: [...e.ukRegistry.controllerCountries] } : {}),
            },
          }
        : {}),
    },
    analysis: report.analysis
      ? { kind: report.analysis.kind, generated_by: report.analysis.generatedBy, markdown: report.analysis.markdown }
      : { kind: null, note: report.kind === 'cdd' ? 'Not part of a CDD screening (EDD, M&A and SOW screenings carry an analysis).' : 'No analysis was recorded for this screening.' },
    data_gaps: {
      gaps: report.dataGaps.map((g) => ({ ...g })),
      sources_not_searched: report.sourcesNotSearched.map((s) => ({ ...s })),
    },
    audit: {
      screening_id: report.id,
      screening_uuid: report.uuid,
      list_versions: report.audit.listVersions.map((v) => ({
        source: v.source,
        ...(v.label ? { label: v.label } : {}),
        version_id: v.versionId,
        content_hash: v.contentHash,
        ...(v.publishedAt ? { published_at: v.publishedAt } : {}),
        ...(v.publishedAtSource ? { published_at_source: v.publishedAtSource } : {}),
        loaded_at: v.loadedAt,
        ...(v.entityCount !== undefined ? { entity_count: v.entityCount } : {}),
        ...(v.ageDays !== undefined ? { age_days: v.ageDays } : {}),
        ...(v.maxAgeDays !== undefined ? { max_age_days: v.maxAgeDays } : {}),
        ...(v.stale !== undefined ? { stale: v.stale } : {}),
      })),
      matcher_version: report.audit.matcherVersion,
      events: report.audit.events.map((ev) => ({
        type: ev.type,
        occurred_at: ev.occurredAt,
        ...(ev.eventId ? { event_id: ev.eventId } : {}),
        ...(ev.position ? { position: ev.position } : {}),
      })),
      ...(report.audit.streamHeadHash ? { stream_head_hash: report.audit.streamHeadHash } : {}),
      agents: report.agents.map((a) => ({
        agent: a.agent,
        phase: a.phase,
        queried: a.queried,
        ...(a.error ? { error: a.error } : {}),
        duration_ms: a.durationMs,
        match_count: a.matchCount,
      })),
    },
  };
}

/** A sanctions programme as the APIs show it (snake case). */
export function programmeView(p: SanctionsProgrammeFinding) {
  return {
    authority: p.authority,
    programme: p.programme,
    scope: p.scope,
    ...(p.region ? { region: p.region } : {}),
    basis: p.basis,
    in_force_since: p.inForceSince,
    reviewed_as_of: p.reviewedAsOf,
    source_url: p.sourceUrl,
    ...(p.list ? { list: p.list } : {}),
    ...(p.listPublishedAt ? { list_published_at: p.listPublishedAt } : {}),
    ...(p.designations !== undefined ? { designations: p.designations } : {}),
  };
}
