import { createHash } from 'node:crypto';
import type { HitCategory, ListAuthority, ReportHit } from '../../reports/model';
import type { EntitySchema, ListEntity, ListTopic, MatchOptions, MatchResult, ScreeningQuery } from '../../screening/model';
import { hitStatus } from '../scoring/risk-score';
import type { Agent, AgentOutcome, AgentSubject } from '../runtime/agent';

/** The part of the screening engine the list agents need (src/screening/engine.ts). */
export interface NameScreener {
  screen(query: ScreeningQuery, options?: MatchOptions): MatchResult[];
}

/** Minimum matcher score for a hit (spec part 1: minimum match score 80). */
export const HIT_THRESHOLD = 0.8;

const sourceLabels: Record<string, string> = {
  ofac_sdn: 'OFAC SDN List',
  ofac_cons: 'OFAC Consolidated (non-SDN) List',
  ofac_enhanced: 'OFAC Consolidated (Enhanced XML)',
  un_sc: 'UN Security Council Consolidated List',
  us_csl: 'US Consolidated Screening List',
  us_dpl: 'BIS Denied Persons List',
  eu_fsf: 'EU Financial Sanctions Files',
  uk_sanctions: 'UK Sanctions List',
  opensanctions_peps: 'OpenSanctions PEPs',
  opensanctions_ftm: 'OpenSanctions (FollowTheMoney)',
  icij_offshore: 'ICIJ Offshore Leaks Database',
};

export function listAuthority(source: string): ListAuthority {
  if (source.startsWith('ofac') || source.startsWith('us_')) return 'us';
  if (source.startsWith('un')) return 'un';
  if (source.startsWith('eu')) return 'eu';
  if (source.startsWith('uk')) return 'uk';
  return 'other';
}

export function schemaFor(entityType: AgentSubject['entityType']): EntitySchema {
  return entityType === 'individual' ? 'person' : 'organization';
}

/** Turns a subject into the queries to run: its name and every alias or name variant. */
export function queriesFor(subject: AgentSubject): ScreeningQuery[] {
  const names = [subject.name, ...(subject.aliases ?? [])].filter((n, i, all) => n.trim().length > 0 && all.indexOf(n) === i);
  return names.map((name) => ({
    name,
    schema: schemaFor(subject.entityType),
    ...(subject.birthDate ? { birthDate: subject.birthDate } : {}),
    ...(subject.jurisdiction ? { country: subject.jurisdiction } : {}),
  }));
}

export function toReportHit(category: HitCategory, result: MatchResult): ReportHit {
  const entity: ListEntity = result.entity;
  const hit: ReportHit = {
    hitId: `${category}:${entity.id}`,
    category,
    source: entity.source,
    sourceLabel: sourceLabels[entity.source] ?? entity.source,
    listAuthority: listAuthority(entity.source),
    entityId: entity.id,
    entityName: entity.primaryName,
    matchedName: result.explanation.matchedName,
    matchedNameKind: result.explanation.matchedNameKind,
    score: result.score,
    status: hitStatus(result.score) === 'confirmed' ? 'confirmed' : 'potential',
    explanation: { summary: result.explanation.summary, qualifiers: result.explanation.qualifiers },
    programs: entity.programs,
    countries: [...new Set([...entity.nationalities, ...entity.countries])],
  };
  const list = sourceListOf(entity);
  if (list) hit.sourceList = list;
  hit.entityRecordHash = entityRecordHash(entity);
  hit.entitySchema = entity.schema;
  if (entity.sourceUrl) hit.sourceUrl = entity.sourceUrl;
  if (category === 'offshore_leaks') hit.investigation = entity.extra?.investigation ?? entity.extra?.sourceID ?? 'Offshore Leaks';
  if (category === 'pep' && entity.titles?.length) hit.position = entity.titles.join('; ');
  if (category === 'debarment' && entity.remarks) hit.title = entity.remarks.slice(0, 300);
  return hit;
}

/** The list inside a multi-list file (CSL source column, Enhanced XML sanctions lists): the scorer's floors read it. */
export function sourceListOf(entity: Pick<ListEntity, 'extra'>): string | undefined {
  return entity.extra?.list ?? entity.extra?.lists;
}

interface ListAgentSpec {
  name: string;
  label: string;
  category: HitCategory;
  topics: ListTopic[];
  /** Sources to exclude (e.g. the DPL is debarment, not sanctions, although CSL carries it). */
  excludeSources?: string[];
}

/** Screens the subject (all names) against the lists of the given topics; keeps the best hit per entity. */
export function createListAgent(spec: ListAgentSpec, screener: () => NameScreener): Agent {
  return {
    name: spec.name,
    label: spec.label,
    async run(subject): Promise<AgentOutcome> {
      const engine = screener();
      const best = new Map<string, MatchResult>();
      for (const query of queriesFor(subject)) {
        for (const result of engine.screen(query, { topics: spec.topics, threshold: HIT_THRESHOLD, limit: 25 })) {
          if (spec.excludeSources?.includes(result.entity.source)) continue;
          const previous = best.get(result.entity.id);
          if (!previous || previous.score < result.score) best.set(result.entity.id, result);
        }
      }
      const hits = [...best.values()].sort((a, b) => b.score - a.score).map((r) => toReportHit(spec.category, r));
      return { queried: true, hits };
    },
  };
}

/** The agents backed by our own lists: they do real work in every deployment. */
export function createListAgents(screener: () => NameScreener): Agent[] {
  return [
    createListAgent(
      { name: 'sanctions', label: 'Sanctions lists (OFAC SDN and non-SDN, UN, US CSL, EU and UK when loaded)', category: 'sanctions', topics: ['sanctions'] },
      screener,
    ),
    createListAgent({ name: 'pep', label: 'PEP lists (OpenSanctions PEPs when configured)', category: 'pep', topics: ['pep'] }, screener),
    createListAgent(
      { name: 'offshore_leaks', label: 'ICIJ Offshore Leaks (local data)', category: 'offshore_leaks', topics: ['offshore_leaks'] },
      screener,
    ),
    createListAgent(
      { name: 'debarment', label: 'Debarment and export-control lists (BIS Denied Persons, Entity List)', category: 'debarment', topics: ['debarment', 'export_control'] },
      screener,
    ),
  ];
}

/** Hash of an entity's listed content (not of the list version it came from): changes only when the record does. */
export function entityRecordHash(entity: ListEntity): string {
  const { listVersion: _version, ...content } = entity;
  return createHash('sha256').update(JSON.stringify(content)).digest('hex');
}
