/** What a merged hit adds to its S1 and S3 body (one real-world entity: every list row and the record's facts). */
import type { HitView } from '../../app/services';

export function mergedHitFacts(hit: HitView) {
  return {
    ...(hit.sources ? { sources: hit.sources } : {}),
    ...(hit.date_of_birth ? { date_of_birth: hit.date_of_birth } : {}),
    ...(hit.nationality ? { nationality: hit.nationality } : {}),
    ...(hit.identifiers ? { identifiers: hit.identifiers } : {}),
    ...(hit.aliases ? { aliases: hit.aliases } : {}),
    ...(hit.type_mismatch ? { type_mismatch: hit.type_mismatch } : {}),
  };
}
