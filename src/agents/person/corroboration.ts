/**
 * Phase 7, first half: from source records to findings. Each record is tagged with how it is
 * tied to the subject and given a severity by one table (docs/person-checks.md, "Findings"):
 *
 * Corroboration
 * - name_dob: the record's date of birth agrees with the subject's (the full date, or the year
 *   when the record gives only a year);
 * - name_location: no date-of-birth agreement, but the record's country, or its address in a US
 *   state, is in the subject's location history;
 * - name_only: nothing but the name. A record whose date of birth contradicts the subject's is
 *   always name_only, whatever its location: it most likely concerns another person.
 *
 * Severity by category (corroborated = name_dob or name_location)
 * - sanctions, debarment: name_dob → red_flag; name_location → warning; name_only → warning when the
 *   name reaches the confirmed name band (a strong name match, src/reports/confirmation.ts) and no
 *   date of birth contradicts, else info (the risk score, not the severity, counts an exact match on
 *   a distinctive name as confirmed);
 * - criminal, sex_offender: name_dob → red_flag; name_location → warning; name_only → info;
 * - pep, offshore_leaks, civil, bankruptcy: corroborated → warning; name_only → info;
 * - adverse_media: adverse text and corroborated → warning; otherwise info;
 * - licence, corporate_role, web_presence, domain: info.
 * - a record on one of the account's internal lists (issue 21) goes by the list's severity: block →
 *   red_flag, review → warning, note → info (its match policy already needs more than the name).
 */
import type { Corroboration, FindingSeverity, PersonFinding } from '../../commands/person-check';
import { STRONG_NAME_SCORE, type HitConfirmation, type MatchAssessment } from '../../reports/confirmation';
import type { SourceRecord } from './types';

const INTERNAL_LIST_SEVERITY: Record<NonNullable<SourceRecord['internalList']>['severity'], FindingSeverity> = { block: 'red_flag', review: 'warning', note: 'info' };

export function corroborationOf(record: Pick<SourceRecord, 'dob' | 'location'>): Corroboration {
  if (record.dob === 'match' || record.dob === 'year_match') return 'name_dob';
  if (record.dob === 'conflict') return 'name_only';
  return record.location === 'match' ? 'name_location' : 'name_only';
}

export function severityOf(record: SourceRecord, corroboration: Corroboration): FindingSeverity {
  const corroborated = corroboration !== 'name_only';
  if (record.internalList) return INTERNAL_LIST_SEVERITY[record.internalList.severity];
  switch (record.category) {
    case 'sanctions':
    case 'debarment':
      if (corroboration === 'name_dob') return 'red_flag';
      if (corroboration === 'name_location') return 'warning';
      return record.dob !== 'conflict' && record.nameScore >= STRONG_NAME_SCORE ? 'warning' : 'info';
    case 'criminal':
    case 'sex_offender':
      if (corroboration === 'name_dob') return 'red_flag';
      return corroborated ? 'warning' : 'info';
    case 'pep':
    case 'offshore_leaks':
    case 'civil':
    case 'bankruptcy':
      return corroborated ? 'warning' : 'info';
    case 'adverse_media':
      return record.adverse && corroborated ? 'warning' : 'info';
    case 'licence':
    case 'corporate_role':
    case 'web_presence':
    case 'domain':
      return 'info';
  }
}

const CORROBORATION_TEXT: Record<Corroboration, string> = {
  name_dob: 'name and date of birth agree',
  name_location: 'name and location agree',
  name_only: 'only the name agrees',
};

/** The human "why" of a finding: what matched, how it ties to the subject, what would contradict it. */
export function explain(record: SourceRecord, corroboration: Corroboration, nameOrigin?: string): string {
  const parts = [`"${record.searchedName}"${nameOrigin ? ` (${nameOrigin})` : ''} matched "${record.matchedName}": ${record.nameWhy}`];
  parts.push(CORROBORATION_TEXT[corroboration]);
  if (record.dobDetail) parts.push(record.dobDetail);
  if (record.locationDetail) parts.push(record.locationDetail);
  if (record.dob === 'conflict') parts.push('the dates of birth differ, so this is most likely a different person');
  return parts.join('; ');
}

export interface FindingWithId extends PersonFinding {
  id: string;
  detail?: string;
  /** List records: the matcher's name score and the list inside a multi-list file, for the shared scorer. */
  nameScore?: number;
  sourceList?: string;
  /** The record's date of birth contradicts the subject's (not counted toward risk). */
  dobConflict?: boolean;
  /** A record on one of the account's internal lists: the scorer counts it by the list's severity. */
  internalList?: SourceRecord['internalList'];
  /** List records: the machine's identity assessment, what confirmed it, and why (the scorer reads them). */
  assessment?: MatchAssessment;
  confirmation?: HitConfirmation;
  identityNote?: string;
}

/**
 * Findings from every record, one per (category, source record): when several search names found
 * the same record, the best-corroborated, then best-scoring one is kept. Ordered by severity.
 */
export function buildFindings(records: SourceRecord[], nameOrigins: Record<string, string> = {}): FindingWithId[] {
  const rank: Record<Corroboration, number> = { name_dob: 2, name_location: 1, name_only: 0 };
  const best = new Map<string, { record: SourceRecord; corroboration: Corroboration }>();
  for (const record of records) {
    const key = `${record.category}|${record.entityId ?? record.url ?? `${record.sourceName}|${record.title}`}`;
    const corroboration = corroborationOf(record);
    const previous = best.get(key);
    if (
      !previous ||
      rank[corroboration] > rank[previous.corroboration] ||
      (rank[corroboration] === rank[previous.corroboration] && record.nameScore > previous.record.nameScore)
    ) {
      best.set(key, { record, corroboration });
    }
  }
  const order: Record<FindingSeverity, number> = { red_flag: 0, warning: 1, info: 2 };
  const findings = [...best.values()].map(({ record, corroboration }) => {
    const finding: FindingWithId = {
      id: '',
      severity: severityOf(record, corroboration),
      category: record.category,
      corroboration,
      source: {
        name: record.sourceName,
        ...(record.url ? { url: record.url } : {}),
        ...(record.entityId ? { entityId: record.entityId } : {}),
        retrievedAt: record.retrievedAt,
      },
      matchedName: record.matchedName,
      why: explain(record, corroboration, nameOrigins[record.searchedName]),
      title: record.title,
      ...(record.detail ? { detail: record.detail } : {}),
      nameScore: record.nameScore,
      ...(record.sourceList ? { sourceList: record.sourceList } : {}),
      ...(record.dob === 'conflict' ? { dobConflict: true } : {}),
      ...(record.internalList ? { internalList: record.internalList } : {}),
      ...(record.identity
        ? { assessment: record.identity.assessment, identityNote: record.identity.note, ...(record.identity.confirmation ? { confirmation: record.identity.confirmation } : {}) }
        : {}),
    };
    return finding;
  });
  findings.sort((a, b) => order[a.severity] - order[b.severity] || a.category.localeCompare(b.category) || (a.title ?? "").localeCompare(b.title ?? ""));
  findings.forEach((f, i) => (f.id = `F${i + 1}`));
  return findings;
}
