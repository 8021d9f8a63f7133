/**
 * SOW verification, steps 1-4 and the corroboration gauge (pure; run in phase 5 once the
 * corroboration agents (steps 5-9) and the list checks have recorded their results).
 *
 *  (1) risk tier LOW / MEDIUM / HIGH / CRITICAL      riskTier()
 *  (2) red flags                                      redFlags()
 *  (3) jurisdictional requirements (FATF groups)      jurisdictionalRequirements()
 *  (4) attestation validation                         validateAttestation()
 *  gauge 0-100 with its derivation                    corroborationGauge()
 * docs/api-s3.md states every rule and threshold used here.
 */
import type { CountryRiskFinding, ReportHit } from '../../reports/model';
import type { CounterpartyCheck, SowAgentResult } from './agents';
import { corroborateSource, EVIDENCE_RULES, SOW_AGENT_SOURCES, type SourceCorroboration } from './corroboration';
import type { StoredSowDeclaration } from './declaration';

export type RiskTier = 'LOW' | 'MEDIUM' | 'HIGH' | 'CRITICAL';

export interface SowInputs {
  subjectName: string;
  declaration: StoredSowDeclaration;
  requestedAt: string;
  /** Phase-2 results by agent name; a missing or not-queried agent leaves its sources uncorroborated. */
  agentResults: Record<string, { queried: boolean; error?: string; sow?: SowAgentResult }>;
  hits: { sanctions: ReportHit[]; pep: ReportHit[]; offshore_leaks: ReportHit[]; debarment: ReportHit[]; adverse_media: ReportHit[] };
  /** FATF finding for the subject's jurisdiction (country_risk step), if any. */
  subjectCountry?: CountryRiskFinding;
  jurisdictionGiven: boolean;
}

// ---------------------------------------------------------------- gauge

export interface GaugeRow {
  /** Index in wealth_sources, or null for the unexplained remainder of the declared net worth. */
  sourceIndex: number | null;
  type: string;
  label: string;
  weight: number;
  weightShare: number;
  score: number;
  contribution: number;
  status: string;
  note?: string;
}

export interface Gauge {
  value: number;
  method: 'amount_weighted' | 'equal_weights';
  rows: GaugeRow[];
  explanation: string;
}

/** Per-source corroborations: from the agents' records, or scored 0 when the agent did not answer. */
export function collectCorroborations(inputs: SowInputs): SourceCorroboration[] {
  const byIndex = new Map<number, SourceCorroboration>();
  for (const [agent, result] of Object.entries(inputs.agentResults)) {
    if (!SOW_AGENT_SOURCES[agent] || !result.queried || !result.sow) continue;
    for (const c of result.sow.corroborations) byIndex.set(c.index, c);
  }
  return inputs.declaration.sources.map((source, index) => {
    const recorded = byIndex.get(index);
    if (recorded) return recorded;
    if (source.type === 'other') return corroborateSource(source, index, inputs.requestedAt);
    const agent = EVIDENCE_RULES[source.type].agent;
    const result = inputs.agentResults[agent];
    const reason = result ? (result.queried ? 'no result for this source' : `agent not queried: ${result.error ?? 'unknown'}`) : 'agent result missing';
    return { ...corroborateSource({ ...source, evidence: [] }, index, inputs.requestedAt), evidence: [], score: 0, status: 'not_corroborated', description: `${source.description} (${reason})` };
  });
}

/**
 * The gauge is the weighted mean of the source scores. Weights are the declared amounts when every
 * source has one in the net worth's currency (else equal weights); when the amounts explain less than
 * the declared net worth, the unexplained remainder enters as a row with score 0.
 */
export function corroborationGauge(inputs: SowInputs, corroborations: SourceCorroboration[]): Gauge {
  const netWorth = inputs.declaration.netWorth;
  const currency = netWorth?.currency ?? corroborations.find((c) => c.currency)?.currency;
  const amountWeighted = corroborations.length > 0 && corroborations.every((c) => c.amount !== undefined && c.amount > 0 && (!c.currency || !currency || c.currency === currency));
  const rows: GaugeRow[] = corroborations.map((c) => ({
    sourceIndex: c.index,
    type: c.type,
    label: c.label,
    weight: amountWeighted ? c.amount! : 1,
    weightShare: 0,
    score: c.score,
    contribution: 0,
    status: c.status,
  }));
  if (amountWeighted && netWorth) {
    const explained = rows.reduce((s, r) => s + r.weight, 0);
    if (explained < netWorth.amount) {
      rows.push({ sourceIndex: null, type: 'unexplained', label: 'Declared net worth not attributed to any source', weight: netWorth.amount - explained, weightShare: 0, score: 0, contribution: 0, status: 'not_corroborated', note: `${netWorth.currency} ${netWorth.amount - explained} of ${netWorth.amount}` });
    }
  }
  const total = rows.reduce((s, r) => s + r.weight, 0);
  for (const row of rows) {
    row.weightShare = total > 0 ? Math.round((row.weight / total) * 10_000) / 100 : 0;
    row.contribution = total > 0 ? Math.round(((row.weight / total) * row.score) * 100) / 100 : 0;
  }
  const value = total > 0 ? Math.max(0, Math.min(100, Math.round(rows.reduce((s, r) => s + (r.weight / total) * r.score, 0)))) : 0;
  const method = amountWeighted ? 'amount_weighted' : 'equal_weights';
  const explanation =
    rows.length === 0
      ? 'No wealth source was declared: nothing can be corroborated (gauge 0).'
      : `Gauge = Σ(weight share × source score), rounded: ${rows.map((r) => `${r.weightShare}% × ${r.score}`).join(' + ')} = ${value}. ` +
        (method === 'amount_weighted' ? 'Weights are the declared amounts' : 'Sources weigh equally (not every source states an amount in one currency)') +
        '; a source scores 50 per primary document from a named issuer (35 without), 25 per supporting document (15 without), halved when stale, capped at 100.';
  return { value, method, rows, explanation };
}

// ---------------------------------------------------------------- step 4: attestation

export interface AttestationCheck {
  check: string;
  passed: boolean;
  detail: string;
}

export interface AttestationResult {
  provided: boolean;
  valid: boolean;
  checks: AttestationCheck[];
}

/** Case, accents and punctuation do not matter; the signatory must name the subject (same name tokens). */
export function sameName(a: string, b: string): boolean {
  const tokens = (s: string) =>
    s
      .normalize('NFKD')
      .replace(/\p{M}/gu, '')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s]/gu, ' ')
      .split(/\s+/)
      .filter(Boolean)
      .sort()
      .join(' ');
  return tokens(a) !== '' && tokens(a) === tokens(b);
}

export function validateAttestation(inputs: Pick<SowInputs, 'declaration' | 'subjectName' | 'requestedAt'>): AttestationResult {
  const a = inputs.declaration.attestationDetails;
  if (!a) return { provided: false, valid: false, checks: [{ check: 'provided', passed: false, detail: 'No attestation was submitted.' }] };
  const requestedDay = inputs.requestedAt.slice(0, 10);
  const oldest = new Date(Date.parse(inputs.requestedAt) - 365 * 86_400_000).toISOString().slice(0, 10);
  const checks: AttestationCheck[] = [
    { check: 'signed', passed: a.signed === true, detail: a.signed ? 'The attestation is signed.' : 'The attestation is not signed.' },
    {
      check: 'signatory_is_subject',
      passed: sameName(a.signatoryName, inputs.subjectName),
      detail: sameName(a.signatoryName, inputs.subjectName) ? 'Signed by the subject.' : 'The signatory is not the screened subject.',
    },
    { check: 'not_future_dated', passed: a.signedOn <= requestedDay, detail: a.signedOn <= requestedDay ? `Signed on ${a.signedOn}.` : `Dated ${a.signedOn}, after the request.` },
    { check: 'recent', passed: a.signedOn >= oldest, detail: a.signedOn >= oldest ? 'Signed within the last 12 months.' : `Signed on ${a.signedOn}, more than 12 months before the request.` },
    {
      check: 'affirms_truth',
      passed: /\b(true|accurate|complete|correct)\b/i.test(a.statement),
      detail: /\b(true|accurate|complete|correct)\b/i.test(a.statement) ? 'The statement affirms the declaration is true/complete.' : 'The statement does not affirm that the declaration is true, accurate or complete.',
    },
  ];
  return { provided: true, valid: checks.every((c) => c.passed), checks };
}

// ---------------------------------------------------------------- step 3: jurisdictions

export type JurisdictionGroup = 'fatf_call_for_action' | 'fatf_increased_monitoring' | 'standard' | 'unknown';

export interface JurisdictionRequirements {
  group: JurisdictionGroup;
  jurisdiction: string | null;
  fatfStatus: string | null;
  asOf: string | null;
  evidenceMaxAgeMonths: number;
  requirements: string[];
}

/** The documented table (docs/api-s3.md): one row per jurisdiction group. */
export const JURISDICTION_TABLE: Record<JurisdictionGroup, { evidenceMaxAgeMonths: number; requirements: string[] }> = {
  fatf_call_for_action: {
    evidenceMaxAgeMonths: 3,
    requirements: [
      'Enhanced due diligence is mandatory (FATF call for action): apply counter-measures.',
      'Independent verification of every declared wealth source; self-declaration alone is not accepted.',
      'Senior-management approval before the relationship starts; consider declining it.',
      'Evidence no older than 3 months; review the relationship at least every 6 months.',
    ],
  },
  fatf_increased_monitoring: {
    evidenceMaxAgeMonths: 6,
    requirements: [
      'Enhanced due diligence (FATF increased monitoring, "grey list").',
      'Independent verification of the principal wealth source (largest declared amount).',
      'Senior-management approval before the relationship starts.',
      'Evidence no older than 6 months; review the relationship every 12 months.',
    ],
  },
  standard: {
    evidenceMaxAgeMonths: 12,
    requirements: [
      'Standard customer due diligence; source-of-wealth evidence for the principal source.',
      'Evidence no older than 12 months; review on trigger events or every 36 months.',
    ],
  },
  unknown: {
    evidenceMaxAgeMonths: 6,
    requirements: [
      'Jurisdiction not given or not recognised: the increased-monitoring requirements apply until it is established.',
      'Independent verification of the principal wealth source; evidence no older than 6 months.',
    ],
  },
};

export function jurisdictionalRequirements(inputs: Pick<SowInputs, 'subjectCountry' | 'jurisdictionGiven'>): JurisdictionRequirements {
  const c = inputs.subjectCountry;
  const group: JurisdictionGroup = !c
    ? 'unknown'
    : c.fatfStatus === 'high_risk_call_for_action'
      ? 'fatf_call_for_action'
      : c.fatfStatus === 'increased_monitoring'
        ? 'fatf_increased_monitoring'
        : 'standard';
  return {
    group,
    jurisdiction: c ? c.iso2 : null,
    fatfStatus: c ? c.fatfStatus : null,
    asOf: c ? c.asOf : null,
    ...JURISDICTION_TABLE[group],
  };
}

// ---------------------------------------------------------------- step 2: red flags

export interface RedFlag {
  code: string;
  severity: 'warning' | 'red_flag';
  detail: string;
}

const HIGH_RISK_WORDS = /\b(cash|gift(?:ed|s)?|crypto(?:currenc(?:y|ies))?|bitcoin|gambling|casino|lottery|betting|loan from (?:a )?(?:friend|relative))\b/i;

export function redFlags(inputs: SowInputs, corroborations: SourceCorroboration[], attestation: AttestationResult, requirements: JurisdictionRequirements, gauge: Gauge): RedFlag[] {
  const flags: RedFlag[] = [];
  const d = inputs.declaration;
  for (const c of corroborations) {
    const source = d.sources[c.index];
    if (source && source.evidence.length === 0) flags.push({ code: 'source_without_evidence', severity: 'red_flag', detail: `Source ${c.index + 1} (${c.label}) has no supporting document.` });
    for (const e of c.evidence) {
      if (!e.accepted && e.reason.startsWith('a ')) flags.push({ code: 'evidence_type_mismatch', severity: 'warning', detail: `Source ${c.index + 1}: ${e.reason}.` });
      if (!e.accepted && e.reason === 'dated after the request') flags.push({ code: 'future_dated_evidence', severity: 'red_flag', detail: `Source ${c.index + 1}: a ${e.type.replace(/_/g, ' ')} is dated ${e.issuedOn}, after the request.` });
    }
  }
  const texts = [d.declaredSourceOfWealth, ...d.sources.map((s) => s.description)];
  const word = texts.map((t) => HIGH_RISK_WORDS.exec(t)?.[1]).find(Boolean);
  if (word) flags.push({ code: 'high_risk_source_description', severity: 'warning', detail: `The declaration mentions "${word.toLowerCase()}", a wealth origin that is hard to verify.` });
  const unexplained = gauge.rows.find((r) => r.sourceIndex === null);
  if (unexplained && unexplained.weightShare >= 25) {
    flags.push({ code: 'unexplained_wealth', severity: 'red_flag', detail: `${unexplained.weightShare}% of the declared net worth is not attributed to any declared source.` });
  }
  const currencies = new Set(d.sources.map((s) => s.currency).filter(Boolean));
  if (d.netWorth) currencies.add(d.netWorth.currency);
  if (currencies.size > 1) flags.push({ code: 'mixed_currencies', severity: 'warning', detail: `Amounts are declared in ${[...currencies].join(', ')}: they were not compared.` });
  for (const check of Object.values(inputs.agentResults).flatMap((r) => r.sow?.counterpartyChecks ?? []) as CounterpartyCheck[]) {
    if (check.listed) {
      const m = check.matches[0]!;
      flags.push({ code: 'counterparty_listed', severity: 'red_flag', detail: `Counterparty "${check.name}" of source ${check.sourceIndex + 1} matches ${m.entityName} on ${m.list} (${Math.round(m.score * 100)}).` });
    }
  }
  if (inputs.hits.sanctions.length > 0) flags.push({ code: 'subject_sanctions_match', severity: 'red_flag', detail: `${inputs.hits.sanctions.length} sanctions match(es) on the subject.` });
  if (inputs.hits.pep.length > 0) flags.push({ code: 'subject_pep', severity: 'red_flag', detail: `${inputs.hits.pep.length} PEP match(es): wealth may derive from public office.` });
  if (inputs.hits.offshore_leaks.length > 0) flags.push({ code: 'subject_offshore_leaks', severity: 'warning', detail: `${inputs.hits.offshore_leaks.length} offshore-leak record(s) on the subject.` });
  if (requirements.group === 'fatf_call_for_action' || requirements.group === 'fatf_increased_monitoring') {
    flags.push({ code: 'high_risk_jurisdiction', severity: 'red_flag', detail: `${requirements.jurisdiction} is on the FATF ${requirements.group === 'fatf_call_for_action' ? 'call-for-action' : 'increased-monitoring'} list (${requirements.asOf}).` });
  }
  for (const check of attestation.checks) {
    if (!check.passed) flags.push({ code: `attestation_${check.check}`, severity: check.check === 'affirms_truth' || check.check === 'recent' ? 'warning' : 'red_flag', detail: check.detail });
  }
  return flags;
}

// ---------------------------------------------------------------- step 1: risk tier

export interface TierResult {
  tier: RiskTier;
  reasons: string[];
}

const LARGE_NET_WORTH = 5_000_000;

/**
 * CRITICAL: a confirmed sanctions match on the subject, a listed counterparty, or an FATF call-for-action jurisdiction.
 * HIGH: a PEP or offshore-leak match, an FATF grey-list or unknown jurisdiction, an invalid or missing attestation,
 *       a gauge below 40, or 3+ red flags.
 * MEDIUM: a potential sanctions match, a gauge below 70, a declared net worth of 5,000,000 or more, or any red flag.
 * LOW: none of these.
 */
export function riskTier(inputs: SowInputs, flags: RedFlag[], attestation: AttestationResult, requirements: JurisdictionRequirements, gauge: Gauge): TierResult {
  const critical: string[] = [];
  const high: string[] = [];
  const medium: string[] = [];
  if (inputs.hits.sanctions.some((h) => h.status === 'confirmed')) critical.push('confirmed sanctions match on the subject');
  if (flags.some((f) => f.code === 'counterparty_listed')) critical.push('a declared counterparty is on a sanctions, debarment or offshore-leak list');
  if (requirements.group === 'fatf_call_for_action') critical.push('FATF call-for-action jurisdiction');
  if (inputs.hits.pep.length > 0) high.push('PEP match');
  if (inputs.hits.offshore_leaks.length > 0) high.push('offshore-leak match');
  if (requirements.group === 'fatf_increased_monitoring') high.push('FATF increased-monitoring jurisdiction');
  if (requirements.group === 'unknown') high.push('jurisdiction unknown');
  if (!attestation.valid) high.push(attestation.provided ? 'attestation failed validation' : 'no attestation');
  if (gauge.value < 40) high.push(`corroboration gauge ${gauge.value} < 40`);
  if (flags.filter((f) => f.severity === 'red_flag').length >= 3) high.push('3 or more red flags');
  if (inputs.hits.sanctions.some((h) => h.status !== 'confirmed')) medium.push('potential sanctions match');
  if (gauge.value < 70) medium.push(`corroboration gauge ${gauge.value} < 70`);
  if (inputs.declaration.netWorth && inputs.declaration.netWorth.amount >= LARGE_NET_WORTH) medium.push(`declared net worth ≥ ${LARGE_NET_WORTH.toLocaleString('en-US')}`);
  if (flags.length > 0) medium.push(`${flags.length} red flag(s) or warning(s)`);
  if (critical.length) return { tier: 'CRITICAL', reasons: critical };
  if (high.length) return { tier: 'HIGH', reasons: high };
  if (medium.length) return { tier: 'MEDIUM', reasons: medium };
  return { tier: 'LOW', reasons: ['every declared source corroborated, valid attestation, standard jurisdiction, no list match'] };
}

// ---------------------------------------------------------------- all steps

export interface SowAssessment {
  riskTier: TierResult;
  redFlags: RedFlag[];
  jurisdiction: JurisdictionRequirements;
  attestation: AttestationResult;
  corroboration: SourceCorroboration[];
  gauge: Gauge;
  registries: { source: string; name: string; queried: false; reason: string }[];
}

export function assessSow(inputs: SowInputs): SowAssessment {
  const corroboration = collectCorroborations(inputs);
  const gauge = corroborationGauge(inputs, corroboration);
  const attestation = validateAttestation(inputs);
  const jurisdiction = jurisdictionalRequirements(inputs);
  const flags = redFlags(inputs, corroboration, attestation, jurisdiction, gauge);
  const tier = riskTier(inputs, flags, attestation, jurisdiction, gauge);
  const registries = Object.values(inputs.agentResults)
    .map((r) => r.sow)
    .filter((s): s is SowAgentResult => Boolean(s))
    .map((s) => ({ source: s.source, ...s.registry }));
  return { riskTier: tier, redFlags: flags, jurisdiction, attestation, corroboration, gauge, registries };
}
