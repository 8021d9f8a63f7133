/**
 * The SOW side of a screening stream: the declaration the agents read and the assessment the S3 API shows (snake_case, from the recorded
 * sow_* step results; nothing is recomputed on read, so the API shows what the pipeline decided).
 */
import { answersRecordedBy, streamName as screeningStream, type ScreeningEvent } from '../../commands/screening';
import type { EventStore } from '../../infrastructure/eventstore/port';
import type { RecordedEvent } from '../../shared/events';
import { readStoredDeclaration, type StoredSowDeclaration } from '../../agents/sow/declaration';
import type { AttestationResult, Gauge, JurisdictionRequirements, RedFlag, TierResult } from '../../agents/sow/framework';
import type { SourceCorroboration } from '../../agents/sow/corroboration';

type Recorded = RecordedEvent & ScreeningEvent;

/** For the SOW agents: the declaration of the screening whose stream is `workflow`. */
export function sowDeclarationLoader(store: EventStore) {
  return async (workflow: string): Promise<{ declaration: StoredSowDeclaration; requestedAt: string } | undefined> => {
    if (!/^screening-[1-9][0-9]*$/.test(workflow)) return undefined;
    const events = (await store.readStream(workflow)) as Recorded[];
    const requested = events.find((e) => e.type === 'ScreeningRequested');
    if (!requested || requested.type !== 'ScreeningRequested' || !requested.data.sow) return undefined;
    const declaration = readStoredDeclaration(requested.data.sow.declaration);
    return declaration ? { declaration, requestedAt: requested.data.requestedAt } : undefined;
  };
}

function agentResults(events: Recorded[], prefix: string) {
  const out: Record<string, { queried: boolean; error?: string; result: Record<string, unknown> }> = {};
  // The sow_* answers: phase 2's AgentResultRecorded, and the finalisation's (a PhaseCompleted's results since v2).
  for (const answer of events.flatMap((e) => answersRecordedBy(e))) {
    if (!answer.agent.startsWith(prefix)) continue;
    out[answer.agent] = { queried: answer.queried, ...(answer.error ? { error: answer.error } : {}), result: answer.result ?? {} };
  }
  return out;
}

export interface SowAssessmentView {
  sow_screening_id: string | null;
  /** False while the SOW steps have not run (screening still running) or could not run. */
  assessed: boolean;
  risk_tier: TierResult['tier'] | null;
  risk_tier_reasons: string[];
  corroboration_gauge: number | null;
  gauge_derivation: {
    method: Gauge['method'];
    explanation: string;
    rows: { source_index: number | null; type: string; label: string; weight_share: number; score: number; contribution: number; status: string; note?: string }[];
  } | null;
  corroboration: {
    source_index: number;
    type: string;
    label: string;
    status: string;
    score: number;
    evidence: { type: string; accepted: boolean; weight: number; reason: string }[];
  }[];
  outside_registries: { source: string; name: string; queried: false; reason: string }[];
  red_flags: RedFlag[];
  jurisdictional_requirements: {
    group: JurisdictionRequirements['group'];
    jurisdiction: string | null;
    fatf_status: string | null;
    as_of: string | null;
    evidence_max_age_months: number;
    requirements: string[];
  } | null;
  attestation: AttestationResult | null;
  not_assessed: { step: string; reason: string }[];
}

export function sowAssessmentFromEvents(events: readonly RecordedEvent[]): SowAssessmentView {
  const recorded = events as Recorded[];
  const requested = recorded.find((e) => e.type === 'ScreeningRequested');
  const sowId = requested?.type === 'ScreeningRequested' ? (requested.data.sow?.sowScreeningId ?? null) : null;
  const steps = agentResults(recorded, 'sow_');
  const part = (step: string) => (steps[step]?.queried ? steps[step]!.result : undefined);
  const tier = part('sow_risk_tier') as { riskTier: TierResult; gauge: Gauge; corroboration: SourceCorroboration[]; registries: SowAssessmentView['outside_registries'] } | undefined;
  const flags = part('sow_red_flags') as { redFlags: RedFlag[] } | undefined;
  const juris = part('sow_jurisdiction_requirements') as { jurisdiction: JurisdictionRequirements } | undefined;
  const attest = part('sow_attestation') as { attestation: AttestationResult } | undefined;
  const notAssessed = Object.entries(steps)
    .filter(([, r]) => !r.queried)
    .map(([step, r]) => ({ step, reason: r.error ?? 'not queried' }));
  return {
    sow_screening_id: sowId,
    assessed: Boolean(tier),
    risk_tier: tier?.riskTier.tier ?? null,
    risk_tier_reasons: tier?.riskTier.reasons ?? [],
    corroboration_gauge: tier?.gauge.value ?? null,
    gauge_derivation: tier
      ? {
          method: tier.gauge.method,
          explanation: tier.gauge.explanation,
          rows: tier.gauge.rows.map((r) => ({
            source_index: r.sourceIndex,
            type: r.type,
            label: r.label,
            weight_share: r.weightShare,
            score: r.score,
            contribution: r.contribution,
            status: r.status,
            ...(r.note ? { note: r.note } : {}),
          })),
        }
      : null,
    corroboration: (tier?.corroboration ?? []).map((c) => ({
      source_index: c.index,
      type: c.type,
      label: c.label,
      status: c.status,
      score: c.score,
      evidence: c.evidence.map((e) => ({ type: e.type, accepted: e.accepted, weight: e.weight, reason: e.reason })),
    })),
    outside_registries: tier?.registries ?? [],
    red_flags: flags?.redFlags ?? [],
    jurisdictional_requirements: juris
      ? {
          group: juris.jurisdiction.group,
          jurisdiction: juris.jurisdiction.jurisdiction,
          fatf_status: juris.jurisdiction.fatfStatus,
          as_of: juris.jurisdiction.asOf,
          evidence_max_age_months: juris.jurisdiction.evidenceMaxAgeMonths,
          requirements: juris.jurisdiction.requirements,
        }
      : null,
    attestation: attest?.attestation ?? null,
    not_assessed: notAssessed,
  };
}

/** Reads a SOW screening's assessment; call only after the caller's ownership check. */
export async function loadSowAssessment(store: EventStore, screeningId: number): Promise<SowAssessmentView> {
  return sowAssessmentFromEvents(await store.readStream(screeningStream(String(screeningId))));
}
