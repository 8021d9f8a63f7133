/**
 * SOW steps 5-9: corroboration of each declared wealth source from the evidence the subject
 * submitted. Pure: the same declaration and reference date always give the same result.
 *
 * Per source, each evidence document is accepted or rejected:
 *   - a document type that is not evidence for this kind of source is rejected (red flag later);
 *   - a document dated after the request is rejected;
 *   - a primary document (the one that proves the source) weighs 50, or 35 without an issuer;
 *     a supporting document (tax return, bank statement…) weighs 25, or 15 without an issuer;
 *   - a document older than the source's recency limit counts half;
 *   - each document type counts once (its best copy).
 * The source's score is the sum, capped at 100: ≥ 70 corroborated, 30-69 partially, < 30 not.
 */
import type { SowEvidence, SowWealthSource, WealthSourceType } from './declaration';

export type CorroborationSource = Exclude<WealthSourceType, 'other'>;
export type CorroborationStatus = 'corroborated' | 'partially_corroborated' | 'not_corroborated';

export interface EvidenceRule {
  label: string;
  agent: string;
  primary: readonly string[];
  supporting: readonly string[];
  /** Documents older than this many months count half. */
  recencyMonths: number;
  /** The outside registry that would confirm the source independently. */
  registry: string;
}

export const EVIDENCE_RULES: Record<WealthSourceType, EvidenceRule> = {
  employment: {
    label: 'Employment and salary',
    agent: 'sow_employment',
    primary: ['employment_contract', 'payslip', 'employer_letter'],
    supporting: ['tax_return', 'bank_statement'],
    recencyMonths: 24,
    registry: 'payroll / tax-authority income verification',
  },
  business_ownership: {
    label: 'Business ownership',
    agent: 'sow_business_ownership',
    primary: ['company_registry_extract', 'shareholder_register', 'audited_accounts'],
    supporting: ['tax_return', 'sale_agreement', 'bank_statement'],
    recencyMonths: 36,
    registry: 'company registry shareholder confirmation',
  },
  inheritance: {
    label: 'Inheritance documentation',
    agent: 'sow_inheritance',
    primary: ['grant_of_probate', 'will'],
    supporting: ['estate_accounts', 'solicitor_letter', 'bank_statement'],
    recencyMonths: 1200,
    registry: 'probate registry',
  },
  investment_portfolio: {
    label: 'Investment portfolio',
    agent: 'sow_investment_portfolio',
    primary: ['brokerage_statement', 'custody_statement'],
    supporting: ['tax_return', 'bank_statement'],
    recencyMonths: 12,
    registry: 'custodian / broker confirmation',
  },
  property: {
    label: 'Property and asset registries',
    agent: 'sow_property_registries',
    primary: ['title_deed', 'land_registry_extract'],
    supporting: ['valuation_report', 'sale_agreement', 'mortgage_statement'],
    recencyMonths: 60,
    registry: 'land / asset registry',
  },
  other: {
    label: 'Other declared source',
    agent: 'sow_other',
    primary: [],
    supporting: ['bank_statement', 'tax_return', 'other'],
    recencyMonths: 24,
    registry: 'none',
  },
};

export const SOW_AGENT_SOURCES: Record<string, CorroborationSource> = {
  sow_employment: 'employment',
  sow_business_ownership: 'business_ownership',
  sow_inheritance: 'inheritance',
  sow_investment_portfolio: 'investment_portfolio',
  sow_property_registries: 'property',
};

export interface EvidenceVerdict {
  type: string;
  accepted: boolean;
  weight: number;
  reason: string;
  issuer?: string;
  issuedOn?: string;
}

export interface SourceCorroboration {
  /** Index of the source in the declaration's wealth_sources. */
  index: number;
  type: WealthSourceType;
  label: string;
  description: string;
  amount?: number;
  currency?: string;
  counterparty?: string;
  score: number;
  status: CorroborationStatus;
  evidence: EvidenceVerdict[];
}

function monthsBetween(earlier: string, later: string): number {
  const a = new Date(`${earlier}T00:00:00Z`);
  const b = new Date(later);
  return (b.getUTCFullYear() - a.getUTCFullYear()) * 12 + (b.getUTCMonth() - a.getUTCMonth()) - (b.getUTCDate() < a.getUTCDate() ? 1 : 0);
}

export function statusForScore(score: number): CorroborationStatus {
  if (score >= 70) return 'corroborated';
  if (score >= 30) return 'partially_corroborated';
  return 'not_corroborated';
}

function judge(rule: EvidenceRule, doc: SowEvidence, requestedAt: string): EvidenceVerdict {
  const base = { type: doc.type, ...(doc.issuer ? { issuer: doc.issuer } : {}), ...(doc.issuedOn ? { issuedOn: doc.issuedOn } : {}) };
  const primary = rule.primary.includes(doc.type);
  const supporting = rule.supporting.includes(doc.type);
  if (!primary && !supporting) return { ...base, accepted: false, weight: 0, reason: `a ${doc.type.replace(/_/g, ' ')} is not evidence of ${rule.label.toLowerCase()}` };
  if (doc.issuedOn && doc.issuedOn > requestedAt.slice(0, 10)) return { ...base, accepted: false, weight: 0, reason: 'dated after the request' };
  let weight = primary ? (doc.issuer ? 50 : 35) : doc.issuer ? 25 : 15;
  let reason = `${primary ? 'primary' : 'supporting'} evidence${doc.issuer ? ' from a named issuer' : ' without an issuer'}`;
  if (doc.issuedOn && monthsBetween(doc.issuedOn, requestedAt) > rule.recencyMonths) {
    weight = Math.floor(weight / 2);
    reason += `, older than ${rule.recencyMonths} months (counts half)`;
  }
  return { ...base, accepted: true, weight, reason };
}

/** Corroborates one declared source from its evidence. */
export function corroborateSource(source: SowWealthSource, index: number, requestedAt: string): SourceCorroboration {
  const rule = EVIDENCE_RULES[source.type] ?? EVIDENCE_RULES.other;
  const verdicts = source.evidence.map((doc) => judge(rule, doc, requestedAt));
  // Each document type counts once: keep the best accepted copy, mark the others as duplicates.
  const best = new Map<string, EvidenceVerdict>();
  for (const v of verdicts) if (v.accepted && (best.get(v.type)?.weight ?? -1) < v.weight) best.set(v.type, v);
  const evidence = verdicts.map((v) => (v.accepted && best.get(v.type) !== v ? { ...v, accepted: false, weight: 0, reason: 'duplicate document type (counted once)' } : v));
  const score = Math.min(100, evidence.reduce((sum, v) => sum + v.weight, 0));
  return {
    index,
    type: source.type,
    label: rule.label,
    description: source.description,
    ...(source.amount !== undefined ? { amount: source.amount } : {}),
    ...(source.currency ? { currency: source.currency } : {}),
    ...(source.counterparty ? { counterparty: source.counterparty } : {}),
    score,
    status: statusForScore(score),
    evidence,
  };
}
