/**
 * The SOW declaration as stored in ScreeningRequested.sow.declaration. It keeps the flat
 * SowDeclaration fields the report sections print (declaredSourceOfWealth, declaredNetWorth,
 * occupation, employer, attestation, evidence) and adds the structured parts the framework scores:
 * the wealth sources with their evidence, the net worth as a number, the attestation details.
 */

export type WealthSourceType = 'employment' | 'business_ownership' | 'inheritance' | 'investment_portfolio' | 'property' | 'other';

export interface SowEvidence {
  type: string;
  issuer?: string;
  reference?: string;
  issuedOn?: string;
}

export interface SowWealthSource {
  type: WealthSourceType;
  description: string;
  amount?: number;
  currency?: string;
  counterparty?: string;
  evidence: SowEvidence[];
}

export interface SowAttestation {
  signed: boolean;
  signatoryName: string;
  signedOn: string;
  statement: string;
}

export interface StoredSowDeclaration {
  declaredSourceOfWealth: string;
  declaredNetWorth?: string;
  occupation?: string;
  employer?: string;
  /** The attestation statement (printed by the report). */
  attestation?: string;
  /** One line per evidence document (printed by the report). */
  evidence: string[];
  netWorth?: { amount: number; currency: string };
  sources: SowWealthSource[];
  attestationDetails?: SowAttestation;
}

/** The S3 request body, as validated by S3SowRequestSchema. */
export interface SowRequestBody {
  declared_source_of_wealth: string;
  declared_net_worth?: { amount: number; currency: string } | undefined;
  occupation?: string | undefined;
  employer?: string | undefined;
  wealth_sources: {
    type: WealthSourceType;
    description: string;
    amount?: number | undefined;
    currency?: string | undefined;
    counterparty?: string | undefined;
    evidence: { type: string; issuer?: string | undefined; reference?: string | undefined; issued_on?: string | undefined }[];
  }[];
  attestation?: { signed: boolean; signatory_name: string; signed_on: string; statement: string } | undefined;
}

function defined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

export function toStoredDeclaration(body: SowRequestBody): StoredSowDeclaration {
  const sources: SowWealthSource[] = body.wealth_sources.map((s) =>
    defined({
      type: s.type,
      description: s.description,
      amount: s.amount,
      currency: s.currency,
      counterparty: s.counterparty,
      evidence: s.evidence.map((e) => defined({ type: e.type, issuer: e.issuer, reference: e.reference, issuedOn: e.issued_on })),
    }),
  );
  return defined({
    declaredSourceOfWealth: body.declared_source_of_wealth,
    declaredNetWorth: body.declared_net_worth ? `${body.declared_net_worth.currency} ${body.declared_net_worth.amount}` : undefined,
    occupation: body.occupation,
    employer: body.employer,
    attestation: body.attestation?.statement,
    evidence: sources.flatMap((s) => s.evidence.map((e) => `${s.type}: ${e.type}${e.issuer ? ` (${e.issuer})` : ''}${e.issuedOn ? `, ${e.issuedOn}` : ''}`)),
    netWorth: body.declared_net_worth,
    sources,
    attestationDetails: body.attestation
      ? { signed: body.attestation.signed, signatoryName: body.attestation.signatory_name, signedOn: body.attestation.signed_on, statement: body.attestation.statement }
      : undefined,
  });
}

/** Reads a stored declaration defensively (old or foreign events may lack parts). */
export function readStoredDeclaration(raw: unknown): StoredSowDeclaration | undefined {
  if (!raw || typeof raw !== 'object') return undefined;
  const r = raw as Partial<StoredSowDeclaration>;
  return {
    declaredSourceOfWealth: typeof r.declaredSourceOfWealth === 'string' ? r.declaredSourceOfWealth : '',
    ...(typeof r.declaredNetWorth === 'string' ? { declaredNetWorth: r.declaredNetWorth } : {}),
    ...(typeof r.occupation === 'string' ? { occupation: r.occupation } : {}),
    ...(typeof r.employer === 'string' ? { employer: r.employer } : {}),
    ...(typeof r.attestation === 'string' ? { attestation: r.attestation } : {}),
    evidence: Array.isArray(r.evidence) ? r.evidence.filter((e): e is string => typeof e === 'string') : [],
    ...(r.netWorth && typeof r.netWorth.amount === 'number' ? { netWorth: r.netWorth } : {}),
    sources: Array.isArray(r.sources) ? r.sources.filter((s) => s && typeof s === 'object' && typeof s.type === 'string').map((s) => ({ ...s, evidence: Array.isArray(s.evidence) ? s.evidence : [] })) : [],
    ...(r.attestationDetails && typeof r.attestationDetails.signed === 'boolean' ? { attestationDetails: r.attestationDetails } : {}),
  };
}
