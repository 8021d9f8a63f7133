/**
 * The machine's assessment of a hit monitoring found or re-scored, as the list agent made it on the
 * subject's facts: what a screening's alert (MonitoringAlertRaised) and a subject check's
 * (SubjectCheckMonitoringAlertRaised) record, so the report, the S2 alert and a fresh run agree.
 */
import type { AlertIdentity } from '../../commands/screening';
import { assessmentOf } from '../../reports/confirmation';
import type { ReportHit } from '../../reports/model';

/** The hit's assessment (undefined for a hit found without one: an outside source). */
export function alertIdentity(hit: ReportHit): AlertIdentity | undefined {
  if (!hit.assessment) return undefined;
  const confirmation = hit.assessment === 'identity_corroborated' ? hit.confirmation : undefined;
  // "corroborated" without its confirmation is not one: recorded as the name band it reached
  const assessment = hit.assessment === 'identity_corroborated' && !confirmation ? assessmentOf({ score: hit.score }) : hit.assessment;
  return { assessment, ...(confirmation ? { confirmation } : {}), note: hit.identityNote ?? 'assessed on the subject\'s facts' };
}
