/**
 * Person agents backed by our own lists (real work in every deployment):
 * - phase 3 `sanctions_list`: sanctions, debarment and export-control lists, for every search name;
 * - phase 6 `pep_sanctions`: PEP lists (when loaded) and the ICIJ offshore leaks.
 *
 * Names are matched on the name alone (no date of birth or country in the query), so a same-name
 * record with another date of birth is still seen and reported honestly as name-only, instead of
 * silently disappearing under the threshold. Date of birth and location are then related to the
 * record with the matcher's own qualifier rules, and the matcher's explanation is kept.
 */
import type { NameScreener } from '../lists/list-agents';
import { assessGroup, HIT_THRESHOLD, identityContext, listSourceLabels, sourceListOf } from '../lists/list-agents';
import { groupMatches, type MatchGroup } from '../../screening/grouping';
import { countryQualifier, dobQualifier, QUALIFIER_EFFECTS } from '../../screening/matching/qualifiers';
import type { ListEntity, ListTopic, MatchResult } from '../../screening/model';
import type { IdentityAssessment } from '../../reports/confirmation';
import type { DobRelation, LocationRelation, PersonAgent, PersonSubject, RecordCategory, SourceRecord } from './types';

/** The screening agents' list names; person-check records name the FollowTheMoney data plainly. */
const LIST_LABELS: Record<string, string> = { ...listSourceLabels, opensanctions_ftm: 'OpenSanctions' };

/** Person-check reports show the subject's date of birth as its year only: so does every sentence about it. */
export function withDobYearOnly(text: string, dateOfBirth: string | undefined): string {
  return dateOfBirth ? text.split(dateOfBirth).join(`${dateOfBirth.slice(0, 4)}-**-**`) : text;
}

/** The identity assessment of a record, its sentences with the subject's date of birth as its year only. */
export function identityYearOnly(identity: IdentityAssessment, dateOfBirth: string | undefined): IdentityAssessment {
  return {
    ...identity,
    note: withDobYearOnly(identity.note, dateOfBirth),
    ...(identity.confirmation ? { confirmation: { ...identity.confirmation, detail: withDobYearOnly(identity.confirmation.detail, dateOfBirth) } } : {}),
  };
}

export function dobRelation(subject: PersonSubject, entity: ListEntity): { dob: DobRelation; dobDetail?: string } {
  if (!subject.dateOfBirth) return { dob: 'unknown' };
  const q = dobQualifier({ name: subject.fullName, birthDate: subject.dateOfBirth }, entity);
  if (!q) return { dob: 'unknown', dobDetail: 'the record gives no date of birth' };
  const detail = withDobYearOnly(q.detail, subject.dateOfBirth);
  if (q.kind === 'dob_match') return { dob: q.effect === QUALIFIER_EFFECTS.dobExact ? 'match' : 'year_match', dobDetail: detail };
  return { dob: 'conflict', dobDetail: detail };
}

export function locationRelation(subject: PersonSubject, entity: ListEntity): { location: LocationRelation; locationDetail?: string } {
  if (subject.locations.length === 0) return { location: 'unknown' };
  let conflict: string | undefined;
  for (const loc of subject.locations) {
    if (loc.kind === 'state') {
      const inState = entity.addresses.find(
        (a) =>
          (a.country === undefined || a.country === 'US') &&
          ((a.region && (a.region.toLowerCase() === loc.name.toLowerCase() || a.region.toUpperCase() === loc.code)) ||
            (a.full && new RegExp(`\\b(${loc.name}|${loc.code})\\b`).test(a.full))),
      );
      if (inState) return { location: 'match', locationDetail: `listed address in ${loc.name} (${inState.full ?? inState.region})` };
      continue;
    }
    const q = countryQualifier({ name: subject.fullName, country: loc.code }, entity);
    if (q?.kind === 'country_match') return { location: 'match', locationDetail: `${loc.name}: ${q.detail}` };
    if (q?.kind === 'country_conflict') conflict ??= q.detail;
  }
  return conflict ? { location: 'conflict', locationDetail: conflict } : { location: 'unknown' };
}

function categoryOf(entity: ListEntity, fallback: RecordCategory): RecordCategory {
  if (fallback !== 'sanctions') return fallback;
  return entity.topics.includes('sanctions') ? 'sanctions' : 'debarment';
}

function titleOf(entity: ListEntity, category: RecordCategory): string {
  const list = LIST_LABELS[entity.source] ?? entity.source;
  switch (category) {
    case 'pep':
      return `Politically exposed person: ${entity.primaryName}${entity.titles?.length ? ` (${entity.titles.slice(0, 2).join('; ')})` : ''} on ${list}`;
    case 'offshore_leaks':
      return `Named in the ${entity.extra?.investigation ?? 'Offshore Leaks'} data: ${entity.primaryName}`;
    case 'debarment':
      return `Listed on ${list}: ${entity.primaryName}`;
    default:
      return `Listed on ${list}: ${entity.primaryName}${entity.programs.length ? ` (programmes ${entity.programs.slice(0, 4).join(', ')})` : ''}`;
  }
}

export function recordFromMatch(subject: PersonSubject, searchedName: string, result: MatchResult, category: RecordCategory, retrievedAt: string): SourceRecord {
  const entity = result.entity;
  const cat = categoryOf(entity, category);
  return {
    category: cat,
    sourceName: LIST_LABELS[entity.source] ?? entity.source,
    ...(entity.sourceUrl ? { url: entity.sourceUrl } : {}),
    entityId: entity.id,
    ...(sourceListOf(entity) ? { sourceList: sourceListOf(entity)! } : {}),
    retrievedAt,
    searchedName,
    matchedName: result.explanation.matchedName,
    nameScore: Math.round(result.score * 1000) / 1000,
    nameWhy: result.explanation.summary,
    ...dobRelation(subject, entity),
    ...locationRelation(subject, entity),
    title: titleOf(entity, cat),
    ...(entity.remarks ? { detail: entity.remarks.slice(0, 300) } : {}),
  };
}

export function createPersonListAgent(
  spec: {
    name: string;
    phase: number;
    label: string;
    groups: { topics: ListTopic[]; category: RecordCategory; notLoaded?: () => string | undefined }[];
    available?: () => string | undefined;
  },
  screener: () => NameScreener,
): PersonAgent {
  return {
    name: spec.name,
    phase: spec.phase,
    label: spec.label,
    async run(subject, context) {
      const unavailable = spec.available?.();
      if (unavailable) return { queried: false, error: unavailable };
      const engine = screener();
      const retrievedAt = context.now().toISOString();
      const records: SourceRecord[] = [];
      const notes: string[] = [];
      for (const group of spec.groups) {
        // A part of the source that is not loaded is said so, never passed off as "nothing found".
        const missing = group.notLoaded?.();
        if (missing) {
          notes.push(missing);
          continue;
        }
        for (const name of subject.searchNames) {
          const rows = engine
            .screen({ name, schema: 'person' }, { topics: group.topics, threshold: HIT_THRESHOLD, limit: 80 })
            .filter((r) => r.entity.schema === 'person' || r.entity.schema === 'unknown');
          // one record per real-world person, however many files list them, with the identity assessed as a screening's hit is
          const groups = groupMatches(rows).slice(0, 25);
          const identity = identityContext({ name, ...(subject.dateOfBirth ? { birthDate: subject.dateOfBirth } : {}) }, engine, groups);
          for (const g of groups) records.push({ ...recordFromGroup(subject, name, g, group.category, retrievedAt), identity: identityYearOnly(assessGroup(g, identity), subject.dateOfBirth) });
        }
      }
      // the list versions searched, as a screening records them: `svc audit reproduce` re-runs the search against them
      const listVersions = (engine.versions ?? []).map((v) => ({ id: v.id, source: v.source, contentHash: v.contentHash, ...(v.publishedAt ? { publishedAt: v.publishedAt } : {}) }));
      return { queried: true, records, data: { namesSearched: subject.searchNames.length, ...(notes.length ? { notes } : {}), ...(listVersions.length ? { listVersions } : {}) } };
    },
  };
}

/**
 * The record of one real-world person found on several list rows (src/screening/grouping.ts): the
 * best row's name and score, every list named, and the date of birth and location related to what
 * all the rows say together.
 */
export function recordFromGroup(subject: PersonSubject, searchedName: string, group: MatchGroup, category: RecordCategory, retrievedAt: string): SourceRecord {
  if (group.members.length === 1) return recordFromMatch(subject, searchedName, group.best, category, retrievedAt);
  const best = group.best.entity;
  const rows = group.members.map((m) => m.entity);
  const together: ListEntity = {
    ...best,
    birthDates: rows.flatMap((e) => e.birthDates),
    nationalities: [...new Set(rows.flatMap((e) => e.nationalities))],
    countries: [...new Set(rows.flatMap((e) => e.countries))],
    addresses: rows.flatMap((e) => e.addresses),
  };
  const record = recordFromMatch(subject, searchedName, { ...group.best, entity: together }, category, retrievedAt);
  const lists = [...new Set(rows.map((e) => LIST_LABELS[e.source] ?? e.source))];
  return {
    ...record,
    sourceName: lists.join('; '),
    title: `${record.title}${lists.length > 1 ? ` (also on ${lists.filter((l) => l !== (LIST_LABELS[best.source] ?? best.source)).join(', ')})` : ''}`,
    nameWhy: `${record.nameWhy} Same person on ${rows.length} list rows (${group.links.map((l) => l.detail).join('; ')}).`,
  };
}
