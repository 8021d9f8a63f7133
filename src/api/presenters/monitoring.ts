/**
 * Monitoring enrolment and hit dispositions as S1 and S3 present them. The facts are the same; the
 * screening is named the surface's way (S1 `screening_id`: its number; S3 `id`: its uuid, with the
 * number as `screening_number`), and each surface wraps the body in its own envelope.
 */
import type { DispositionResult } from '../../app/monitoring/monitoring-service';

/** The screening an answer is about, as the surface names it. */
export type ScreeningRef = { surface: 's1'; number: number } | { surface: 's3'; uuid: string; number: number };

function named(ref: ScreeningRef) {
  return ref.surface === 's1' ? { screening_id: ref.number } : { id: ref.uuid, screening_number: ref.number };
}

export function presentMonitoring(ref: ScreeningRef, monitoring: boolean) {
  return { ...named(ref), monitoring };
}

export function presentDisposition(ref: ScreeningRef, result: DispositionResult, analyst: string) {
  return {
    ...named(ref),
    hit_id: result.hitId,
    disposition: result.disposition,
    analyst,
    risk_score: result.riskScore,
    risk_level: result.riskLevel,
    changed: result.changed,
  };
}
