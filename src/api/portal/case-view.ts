/**
 * The case view the portal's page shows (GET /api/portal/screenings/:id and the answers of the
 * routes that change a case): each hit with its match explained in words (no raw scores or
 * qualifier codes), its adjustments in points, and only the identifiers that are documents or
 * registration numbers (list remarks parsed as "other" are not). The API surfaces keep the raw
 * explanation, the codes and every identifier.
 */
import type { HitView, ListVersionView } from '../../app/services';
import { BADGES } from '../../reports/confirmation';
import { identifierWords, plainExplanation, qualifierWords, realIdentifiers } from '../../reports/plain-words';
import { listLabel } from '../../screening/lists/freshness';

export function portalHit<H extends HitView>(hit: H) {
  const identifiers = realIdentifiers(hit.identifiers);
  const { identifiers: _all, ...rest } = hit;
  return {
    ...rest,
    // The badges' words, from the one definition: the machine's assessment and, apart, the standing once decided.
    assessment_label: BADGES[hit.machine_standing].label,
    standing_label: BADGES[hit.standing].label,
    why: plainExplanation(hit.explanation),
    qualifiers: hit.qualifiers.map((q) => ({ ...q, words: qualifierWords(q) })),
    ...(identifiers.length ? { identifiers: identifiers.map((i) => ({ ...i, words: identifierWords(i) })) } : {}),
  };
}

/** The subject as requested, its identifiers in words ("Registration number 1027700132195", "LEI 2534…") beside the codes. */
export function portalSubject<S extends { identifiers: readonly { type: string; value: string }[] }>(subject: S) {
  return { ...subject, identifiers: subject.identifiers.map((i) => ({ ...i, words: identifierWords(i) })) };
}

/** Each list version with the list's name (the stale-list banner and the audit card name lists, not codes). */
export function portalListVersions(versions: readonly ListVersionView[]) {
  return versions.map((v) => ({ ...v, label: v.list === 'internal_list' ? 'Internal list' : listLabel(v.list) }));
}
