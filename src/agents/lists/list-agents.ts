import { createHash } from 'node:crypto';
import type { HitCategory, HitSource, ListAuthority, ReportHit } from '../../reports/model';
import { compareMatches, filingMember, groupMatches, mergeFacts, type MatchGroup } from '../../screening/grouping';
import type { EntitySchema, ListEntity, ListTopic, ListVersion, MatchOptions, MatchResult, ScreeningQuery } from '../../screening/model';
import { inferSchemaFromName } from '../../screening/subject';
import { authorityOfSource } from '../../screening/lists/authority';
import { toIso2 } from '../../screening/lists/countries';
import { listNameFrequency, nameRarity, NO_LIST_FREQUENCY, type ListNameFrequency } from '../../screening/identity/name-frequency';
import {
  assessIdentity,
  dobEvidence,
  EXACT_NAME_SIMILARITY,
  hitStatusOf,
  identifierEvidence,
  MIN_MATCH_SCORE,
  STRONG_NAME_SCORE,
  type IdentityAssessment,
} from '../../reports/confirmation';
import type { Agent, AgentOutcome, AgentSubject } from '../runtime/agent';

/** The part of the screening engine the list agents need (src/screening/engine.ts). */
export interface NameScreener {
  screen(query: ScreeningQuery, options?: MatchOptions): MatchResult[];
  /** The loaded list versions (the engine has them): each hit source then carries its list's date. */
  readonly versions?: readonly ListVersion[];
  /** Every listed entity (the engine has them): their word frequencies tell a common name from a distinctive one. */
  listedEntities?(): readonly ListEntity[];
}

/** Minimum matcher score for a hit (spec part 1: minimum match score 80; src/reports/confirmation.ts). */
export const HIT_THRESHOLD = MIN_MATCH_SCORE;
/** A match on another kind of entity than the caller named is still reported from this score (the confirmed name band). */
export const TYPE_MISMATCH_THRESHOLD = STRONG_NAME_SCORE;
/** List rows asked of the engine per query: several rows can be one entity, grouped afterwards. */
export const ROWS_PER_QUERY = 80;
/** Entities (merged hits) kept per agent. */
const HITS_PER_AGENT = 25;

/** The lists' display names, by source id. */
export const listSourceLabels: Readonly<Record<string, string>> = {
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
  return authorityOfSource(source);
}

export function schemaFor(entityType: AgentSubject['entityType']): EntitySchema {
  return entityType === 'individual' ? 'person' : 'organization';
}

/**
 * The kind of entity the subject is expected to be, and whether the caller said so. With no type
 * given, a name with a legal form or an institution word ("Banco", "LLC", "Shipping") reads as an
 * organisation, anything else as the surface's default kind (a person on S1 CDD, a company for S3 M&A).
 */
export function expectedSchema(subject: Pick<AgentSubject, 'name' | 'entityType' | 'entityTypeDefaulted'>): { schema: EntitySchema; given: boolean } {
  // no type given: a name with a legal form or institution word is an organisation, else the surface's default kind
  if (subject.entityTypeDefaulted) return { schema: inferSchemaFromName(subject.name) ?? schemaFor(subject.entityType), given: false };
  return { schema: schemaFor(subject.entityType), given: true };
}

/**
 * Turns a subject into the queries to run: its name and every alias or name variant. The query
 * carries the caller's type only when the caller gave one; with no type, every kind is searched
 * (the type is then used to rank, never to filter).
 */
export function queriesFor(subject: AgentSubject): ScreeningQuery[] {
  const names = [subject.name, ...(subject.aliases ?? [])].filter((n, i, all) => n.trim().length > 0 && all.indexOf(n) === i);
  const { schema, given } = expectedSchema(subject);
  return names.map((name) => ({
    name,
    ...(given ? { schema } : {}),
    ...(subject.birthDate ? { birthDate: subject.birthDate } : {}),
    ...(subject.nationality || subject.jurisdiction ? { country: subject.nationality ?? subject.jurisdiction } : {}),
    ...(subject.identifiers?.length ? { identifiers: subject.identifiers.map((id) => ({ type: id.type, value: id.value })) } : {}),
  }));
}

function listLabel(entity: ListEntity): string {
  const label = listSourceLabels[entity.source] ?? entity.source;
  // the CSL aggregates many lists: name the one the row comes from
  return entity.source === 'us_csl' && entity.extra?.list ? `${label}: ${entity.extra.list}` : label;
}

function hitSource(entity: ListEntity, versions: ReadonlyMap<string, ListVersion>): HitSource {
  const version = versions.get(entity.listVersion);
  return {
    source: entity.source,
    sourceLabel: listLabel(entity),
    listAuthority: listAuthority(entity.source),
    entityId: entity.id,
    // The scorer's floors tell a blocking list from an export-control one by the list inside the file.
    ...(sourceListOf(entity) ? { sourceList: sourceListOf(entity)! } : {}),
    ...(entity.listVersion ? { listVersion: entity.listVersion } : {}),
    ...(version?.publishedAt ? { publishedAt: version.publishedAt } : {}),
  };
}

/**
 * The report hit of one real-world entity: the best-matching row gives the matched name and score;
 * the hit is filed (its list, entity id and hit id) under the issuing authority's own list
 * (filingMember), so one entity is filed alike whichever of its names matched; every row of the
 * group is a source, the filing row first; aliases, dates of birth, nationalities, identifiers,
 * programs and addresses are the union over the rows.
 */
export function toReportHit(
  category: HitCategory,
  matched: MatchResult | MatchGroup,
  options: { versions?: readonly ListVersion[]; typeMismatch?: ReportHit['typeMismatch']; identity?: IdentityAssessment } = {},
): ReportHit {
  const group: MatchGroup = 'members' in matched ? matched : { best: matched, members: [matched], links: [] };
  const result = group.best;
  const entity: ListEntity = filingMember(group).entity;
  const versions = versionsById(options.versions ?? []);
  const facts = mergeFacts(group.members.map((m) => m.entity));
  const qualifiers = [...result.explanation.qualifiers];
  let summary = result.explanation.summary;
  if (group.members.length > 1) {
    const links = group.links.map((l) => l.detail).join('; ');
    qualifiers.push({ kind: 'merged_rows', effect: 0, detail: `same entity on ${group.members.length} list rows (${links})` });
    summary = `${summary} Same entity on ${group.members.length} list rows, linked by ${links}.`;
  }
  if (options.typeMismatch) {
    const m = options.typeMismatch;
    const detail = m.typeGiven
      ? `type mismatch: screened as ${m.expected}, listed as ${m.listed}; reported because the name matches at confirmed strength`
      : `type mismatch: the name reads as ${m.expected}, listed as ${m.listed}; ranked below matches of the expected kind`;
    qualifiers.push({ kind: 'type_mismatch', effect: 0, detail });
    summary = `${summary} Type mismatch: ${detail.slice('type mismatch: '.length)}.`;
  }
  const identity = options.identity;
  if (identity) summary = `${summary} ${identity.note.charAt(0).toUpperCase()}${identity.note.slice(1)}.`;
  const hit: ReportHit = {
    hitId: `${category}:${entity.id}`,
    category,
    source: entity.source,
    sourceLabel: listSourceLabels[entity.source] ?? entity.source,
    listAuthority: listAuthority(entity.source),
    entityId: entity.id,
    entityName: entity.primaryName,
    matchedName: result.explanation.matchedName,
    matchedNameKind: result.explanation.matchedNameKind,
    score: result.score,
    status: hitStatusOf({ score: result.score, ...(identity ? { assessment: identity.assessment, confirmation: identity.confirmation } : {}), explanation: { qualifiers } }),
    ...(identity ? { assessment: identity.assessment, identityNote: identity.note, ...(identity.confirmation ? { confirmation: identity.confirmation } : {}) } : {}),
    explanation: { summary, qualifiers },
    programs: facts.programs,
    countries: [...new Set([...facts.nationalities, ...facts.countries])],
  };
  const list = sourceListOf(entity);
  if (list) hit.sourceList = list;
  hit.entityRecordHash = recordHashOf(entity);
  hit.entitySchema = entity.schema;
  hit.sources = [entity, ...group.members.map((m) => m.entity).filter((e) => e !== entity)].map((e) => hitSource(e, versions));
  if (facts.aliases.length) hit.aliases = facts.aliases.filter((a) => a !== hit.matchedName).slice(0, 50);
  if (facts.birthDates.length) hit.birthDates = facts.birthDates;
  if (facts.birthPlaces.length) hit.birthPlaces = facts.birthPlaces;
  if (facts.nationalities.length) hit.nationalities = facts.nationalities;
  if (facts.identifiers.length) hit.identifiers = facts.identifiers;
  if (facts.addresses.length) hit.addresses = facts.addresses.slice(0, 20);
  if (options.typeMismatch) hit.typeMismatch = options.typeMismatch;
  const url = entity.sourceUrl ?? group.members.find((m) => m.entity.sourceUrl)?.entity.sourceUrl;
  if (url) hit.sourceUrl = url;
  if (category === 'offshore_leaks') hit.investigation = entity.extra?.investigation ?? entity.extra?.sourceID ?? 'Offshore Leaks';
  if (category === 'pep' && entity.titles?.length) hit.position = entity.titles.join('; ');
  if (category === 'debarment' && entity.remarks) hit.title = entity.remarks.slice(0, 300);
  return hit;
}

/** The facts the identity assessment of a screening's hits reads, beyond each group. */
export interface IdentityContext {
  subject: Pick<AgentSubject, 'name' | 'birthDate' | 'identifiers' | 'nationality' | 'jurisdiction' | 'phone' | 'email'>;
  /** The loaded lists' word frequencies (a recurring name element is not distinctive). */
  lists: ListNameFrequency;
  /** Groups of this screening whose name matches exactly, persons and things apart: more than one of a kind are namesakes on the lists. */
  exactGroups: { person: number; thing: number };
  /** The subject name's rarity by the kind it is read as, worked out once per screening. */
  rarity: Map<EntitySchema, ReturnType<typeof nameRarity>>;
}

const kindOf = (schema: EntitySchema): 'person' | 'thing' => (schema === 'person' ? 'person' : 'thing');
const bestSimilarity = (group: MatchGroup) => Math.max(...group.members.map((m) => m.explanation.nameScore));

/** The identity context of one screening's groups (their exact matches counted by kind). */
export function identityContext(subject: IdentityContext['subject'], engine: Pick<NameScreener, 'listedEntities'>, groups: readonly MatchGroup[]): IdentityContext {
  const exactGroups = { person: 0, thing: 0 };
  for (const g of groups) if (bestSimilarity(g) >= EXACT_NAME_SIMILARITY) exactGroups[kindOf(g.best.entity.schema)]++;
  const entities = engine.listedEntities?.();
  return { subject, lists: entities ? listNameFrequency(entities) : NO_LIST_FREQUENCY, exactGroups, rarity: new Map() };
}

/** The subject's identifiers, its phone and e-mail included, as the identity assessment compares them. */
export function subjectIdentifiers(subject: Pick<AgentSubject, 'identifiers' | 'phone' | 'email'>): { type: string; value: string }[] {
  return [...(subject.identifiers ?? []), ...(subject.phone ? [{ type: 'phone', value: subject.phone }] : []), ...(subject.email ? [{ type: 'email', value: subject.email }] : [])];
}

function rarityOf(context: IdentityContext, schema: EntitySchema): ReturnType<typeof nameRarity> {
  let rarity = context.rarity.get(schema);
  if (!rarity) context.rarity.set(schema, (rarity = nameRarity(context.subject.name, schema, context.lists)));
  return rarity;
}

/**
 * The machine's assessment of one real-world entity found for the subject (src/reports/confirmation.ts):
 * its dates of birth and identifiers over every row, the best name similarity among the rows, and the
 * subject's name rarity read as the entity's kind.
 */
export function assessGroup(group: MatchGroup, context: IdentityContext): IdentityAssessment {
  const entities = group.members.map((m) => m.entity);
  const similarity = bestSimilarity(group);
  const schema = group.best.entity.schema;
  const country = context.subject.nationality ?? toIso2(context.subject.jurisdiction);
  const listedCountries = new Set(entities.flatMap((e) => [...e.nationalities, ...e.countries]));
  const exact = similarity >= EXACT_NAME_SIMILARITY;
  const countryAgrees = country && listedCountries.has(country) ? country : undefined;
  return assessIdentity({
    nameSimilarity: similarity,
    score: group.best.score,
    dob: dobEvidence(context.subject.birthDate, entities.flatMap((e) => e.birthDates)),
    identifier: identifierEvidence(subjectIdentifiers(context.subject), entities.flatMap((e) => e.identifiers)),
    // The name's rarity decides only for an exact name, and qualifies a country that agrees: worked out only then.
    ...(exact || countryAgrees ? { rarity: rarityOf(context, schema) } : {}),
    namesakesOnLists: exact ? Math.max(0, context.exactGroups[kindOf(schema)] - 1) : 0,
    ...(countryAgrees ? { countryAgrees } : {}),
  });
}

/** Kinds that count as the same for the type check (a CSL "unknown" row is not a mismatch). */
function sameKind(expected: EntitySchema, listed: EntitySchema): boolean {
  if (listed === 'unknown' || expected === 'unknown') return true;
  return expected === 'person' ? listed === 'person' : listed !== 'person';
}

/**
 * The rows of one screening against a set of topics, each row once at its best score:
 * - caller gave a type: the typed query (other kinds are scored down by the matcher), plus rows of
 *   another kind that match at confirmed strength when the type is left out (marked type mismatch);
 * - no type given: every kind, unscored by type; rows of another kind than the name suggests are
 *   marked and ranked after the others.
 */
export function screenRows(
  engine: NameScreener,
  subject: AgentSubject,
  options: MatchOptions & { excludeSources?: readonly string[]; /** rows asked of the engine per query (default ROWS_PER_QUERY) */ rowsPerQuery?: number },
): { rows: MatchResult[]; mismatched: Set<string>; expected: { schema: EntitySchema; given: boolean } } {
  const { excludeSources, rowsPerQuery = ROWS_PER_QUERY, ...matchOptions } = options;
  const expected = expectedSchema(subject);
  const best = new Map<string, MatchResult>();
  const mismatched = new Set<string>();
  const keep = (result: MatchResult, mismatch: boolean) => {
    if (excludeSources?.includes(result.entity.source)) return;
    const previous = best.get(result.entity.id);
    if (previous && previous.score >= result.score) return;
    best.set(result.entity.id, result);
    if (mismatch) mismatched.add(result.entity.id);
    else mismatched.delete(result.entity.id);
  };
  for (const query of queriesFor(subject)) {
    for (const result of engine.screen(query, { ...matchOptions, limit: rowsPerQuery })) {
      keep(result, !sameKind(expected.schema, result.entity.schema));
    }
    if (expected.given) {
      for (const result of mismatchedRows(engine, query, expected.schema, matchOptions, rowsPerQuery)) {
        const previous = best.get(result.entity.id);
        if (!previous || previous.score < result.score) keep(result, true);
      }
    }
  }
  return { rows: [...best.values()], mismatched, expected };
}

const ALL_SCHEMAS: readonly EntitySchema[] = ['person', 'organization', 'vessel', 'aircraft', 'unknown'];

/**
 * The rows of another kind than the caller gave that match at confirmed strength with the type left
 * out, in the order of the untyped query (best first, its first ROWS_PER_QUERY rows), other kinds
 * dropped. Most names have none: the engine is first asked only about entities of the other kinds,
 * which skips comparing the (many) candidates of the expected kind; only when that finds some is
 * the untyped query run as such, so rows of the expected kind that rank before them still count
 * against the row limit exactly as they always did. Same answer as the untyped query, filtered.
 */
function mismatchedRows(engine: NameScreener, query: ScreeningQuery, expected: EntitySchema, matchOptions: MatchOptions, rowsPerQuery: number): MatchResult[] {
  const { schema: _typed, ...untyped } = query;
  const options: MatchOptions = { ...matchOptions, threshold: Math.max(TYPE_MISMATCH_THRESHOLD, matchOptions.threshold ?? 0), limit: rowsPerQuery };
  const otherKinds = ALL_SCHEMAS.filter((schema) => !sameKind(expected, schema) && (!matchOptions.schemas || matchOptions.schemas.includes(schema)));
  if (otherKinds.length === 0) return [];
  // An entity's score does not depend on the other candidates: filtered, the rows of the other
  // kinds are exactly the untyped query's rows of those kinds (before its row limit).
  if (engine.screen(untyped, { ...options, schemas: otherKinds, limit: 1 }).length === 0) return [];
  return engine.screen(untyped, options).filter((result) => !sameKind(expected, result.entity.schema));
}

/** The list inside a multi-list file (CSL source column, Enhanced XML sanctions lists): the scorer's floors read it. */
export function sourceListOf(entity: Pick<ListEntity, 'extra'>): string | undefined {
  return entity.extra?.list ?? entity.extra?.lists;
}

export interface ListAgentSpec {
  name: string;
  label: string;
  category: HitCategory;
  topics: ListTopic[];
  /** Sources to exclude (e.g. the DPL is debarment, not sanctions, although CSL carries it). */
  excludeSources?: string[];
}

/** The agents backed by our own lists, one per hit category: what they search and how they file a hit. */
export const LIST_AGENT_SPECS: readonly ListAgentSpec[] = [
  { name: 'sanctions', label: 'Sanctions lists (OFAC SDN and non-SDN, UN, US CSL, EU and UK when loaded)', category: 'sanctions', topics: ['sanctions'] },
  { name: 'pep', label: 'PEP lists (OpenSanctions PEPs when configured)', category: 'pep', topics: ['pep'] },
  { name: 'offshore_leaks', label: 'ICIJ Offshore Leaks (local data)', category: 'offshore_leaks', topics: ['offshore_leaks'] },
  { name: 'debarment', label: 'Debarment and export-control lists (BIS Denied Persons, Entity List)', category: 'debarment', topics: ['debarment', 'export_control'] },
];

/** A row belongs to a list agent when it carries one of the agent's topics and is not from an excluded source. */
export function rowOfSpec(spec: Pick<ListAgentSpec, 'topics' | 'excludeSources'>, row: MatchResult): boolean {
  return row.entity.topics.some((t) => spec.topics.includes(t)) && !spec.excludeSources?.includes(row.entity.source);
}

/**
 * One list agent's hits from the rows screened for the subject: one hit per real-world entity (rows
 * grouped), type mismatches ranked last, each with the identity assessed (src/reports/confirmation.ts).
 */
export function hitsOfRows(
  spec: Pick<ListAgentSpec, 'category'>,
  engine: NameScreener,
  subject: AgentSubject,
  screened: { rows: MatchResult[]; mismatched: ReadonlySet<string>; expected: { schema: EntitySchema; given: boolean } },
  hitsPerAgent = HITS_PER_AGENT,
): ReportHit[] {
  const { rows, mismatched, expected } = screened;
  // one hit per real-world entity; a group is a mismatch only when its best row is
  const groups = groupMatches(rows);
  const isMismatch = (g: MatchGroup) => mismatched.has(g.best.entity.id);
  groups.sort((a, b) => Number(isMismatch(a)) - Number(isMismatch(b)) || compareMatches(a.best, b.best));
  const identity = identityContext(subject, engine, groups);
  return groups.slice(0, hitsPerAgent).map((g) =>
    toReportHit(spec.category, g, {
      versions: engine.versions,
      identity: assessGroup(g, identity),
      ...(isMismatch(g) ? { typeMismatch: { expected: expected.schema, listed: g.best.entity.schema, typeGiven: expected.given } } : {}),
    }),
  );
}

/** Screens the subject (all names) against the lists of the given topics; reports one hit per real-world entity (rows grouped). */
export function createListAgent(spec: ListAgentSpec, screener: () => NameScreener): Agent {
  return {
    name: spec.name,
    label: spec.label,
    async run(subject): Promise<AgentOutcome> {
      const engine = screener();
      const screened = screenRows(engine, subject, { topics: spec.topics, threshold: HIT_THRESHOLD, excludeSources: spec.excludeSources });
      return { queried: true, hits: hitsOfRows(spec, engine, subject, screened) };
    },
  };
}

/** The agents backed by our own lists: they do real work in every deployment. */
export function createListAgents(screener: () => NameScreener): Agent[] {
  return LIST_AGENT_SPECS.map((spec) => createListAgent(spec, screener));
}

/** The engine's list versions by id, built once per engine (its versions never change). */
const versionMaps = new WeakMap<readonly ListVersion[], ReadonlyMap<string, ListVersion>>();
function versionsById(versions: readonly ListVersion[]): ReadonlyMap<string, ListVersion> {
  let byId = versionMaps.get(versions);
  if (!byId) {
    byId = new Map(versions.map((v) => [v.id, v]));
    versionMaps.set(versions, byId);
  }
  return byId;
}

/**
 * entityRecordHash of a row the engine returned, hashed once per row: the same rows are reported
 * screening after screening, and a loaded list row is never changed (a list update loads new rows).
 */
const recordHashes = new WeakMap<ListEntity, string>();
function recordHashOf(entity: ListEntity): string {
  let hash = recordHashes.get(entity);
  if (hash === undefined) {
    hash = entityRecordHash(entity);
    recordHashes.set(entity, hash);
  }
  return hash;
}

/** Hash of an entity's listed content (not of the list version it came from): changes only when the record does. */
export function entityRecordHash(entity: ListEntity): string {
  const { listVersion: _version, ...content } = entity;
  return createHash('sha256').update(JSON.stringify(content)).digest('hex');
}
