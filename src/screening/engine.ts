/**
 * ScreeningEngine: the facade the agents, the API and the CLI call.
 * Built once per loaded list set (index + rarity statistics), then screens names in-process.
 *
 * Scoring: final = 0.95 · nameScore · aliasFactor + Σ qualifier effects, clamped to [0,1].
 * A name-only exact match therefore scores 0.95; 1.0 needs an exact name plus a corroborating
 * attribute (DOB, country or identifier agreement). Weak aliases count 0.95 of a strong one.
 */
import type {
  EntitySchema,
  ListEntity,
  ListVersion,
  MatchExplanation,
  MatchOptions,
  MatchResult,
  NameRecord,
  QualifierApplied,
  ScreeningQuery,
} from './model';
import { compareNames, PARTIAL_NAME_CAP, round, SimilarityMemo, type NameComparison, type SpellingMemo } from './matching/compare';
import { NameIndex, type Candidate, type NameIndexSnapshot } from './matching/name-index';
import { prepareName, type PreparedName } from './matching/prepare';
import { prepareQueryName, withoutInitials } from './matching/foreign/query';
import { qualifiersFor, type Qualified } from './matching/qualifiers';
import { listNameFrequency } from './identity/name-frequency';
import { CommonNames, PARTIAL_COMMON_NAME_CAP, partialMatchOnCommonName } from './partial-matches';

export const MATCHER_VERSION = 'name-matcher/1.0.0';
/** Default alert threshold: chosen on the development sets in bench/screening (see RESULTS.md). */
export const DEFAULT_THRESHOLD = 0.8;
const NAME_ONLY_CAP = 0.95;
export { PARTIAL_COMMON_NAME_CAP } from './partial-matches';
const ALIAS_FACTOR: Record<NameRecord['kind'], number> = {
  primary: 1,
  strong_alias: 1,
  original_script: 1,
  former: 0.97,
  weak_alias: 0.95,
};

/** Map the benchmark/FtM schema names (Person, Company, Organization, LegalEntity, Vessel) to ours. */
export function toEntitySchema(schema: string | undefined): EntitySchema | undefined {
  if (!schema) return undefined;
  const s = schema.trim().toLowerCase();
  if (s === 'person' || s === 'individual') return 'person';
  if (s === 'company' || s === 'organization' || s === 'organisation' || s === 'entity' || s === 'publicbody') return 'organization';
  if (s === 'vessel') return 'vessel';
  if (s === 'aircraft' || s === 'airplane') return 'aircraft';
  return 'unknown';
}

export interface EngineOptions {
  /** How many recent queries keep their prepared name and candidates (see prepareQuery; default none). */
  recentQueries?: number;
  /** Read queries written in other scripts as foreign names (issue 32, matching/foreign; default on). */
  foreignReadings?: boolean;
}

interface PreparedQuery {
  q: PreparedName;
  qPerson: PreparedName;
  candidates: readonly Candidate[];
  /** The query's foreign-name readings (issue 32) with their own candidates. */
  readings?: { q: PreparedName; candidates: readonly Candidate[] }[];
}

export interface EngineStats {
  entities: number;
  names: number;
  indexKeys: number;
  postings: number;
  memoryBytes?: number;
  buildMs: number;
}

export class ScreeningEngine {
  readonly matcherVersion = MATCHER_VERSION;
  readonly defaultThreshold = DEFAULT_THRESHOLD;
  readonly versions: ListVersion[];
  private readonly entities: ListEntity[];
  private readonly index: NameIndex;
  private readonly buildMs: number;
  private byId?: Map<string, ListEntity>;
  private readonly recentQueries = new Map<string, PreparedQuery>();
  /**
   * Similarities of query words against listed words, kept across queries: a customer book repeats
   * its surnames and given names, and a word pair's similarity never changes. Made at the first
   * screening (a fixed 10 MiB table that bounds itself: similarity-memo.ts).
   */
  private memo?: SpellingMemo;
  /** Which names are common (partial-matches.ts), made at the first partial match that needs it. */
  private commonNames?: CommonNames;
  /** Comparisons of this query with each distinct prepared name (slot preparedId·2 + read as a person), by generation. */
  private compared: (NameComparison | undefined)[] = [];
  private comparedGen = new Int32Array(0);
  private comparisonGen = 0;
  /** Slots of `compared` the last query filled: emptied at the next, so no comparison outlives its query. */
  private comparedSlots: number[] = [];
  /** Per entity, the best name of the current query (valid where bestGen is the query's generation). */
  private bestGen = new Int32Array(0);
  private bestScore = new Float64Array(0);
  private bestName = new Int32Array(0);
  private bestCmp: (NameComparison | undefined)[] = [];
  /** Per entity, the foreign-name reading its best name was found through (issue 32), or undefined: the query itself. */
  private bestVia: (PreparedName | undefined)[] = [];
  /** The entities the current query met, in the order it met them. */
  private metEntities: number[] = [];

  private constructor(
    entities: ListEntity[],
    versions: ListVersion[],
    index: NameIndex,
    buildMs: number,
    private readonly keepRecent: number,
    /** Foreign-name readings of queries (issue 32); off only to measure them (bench/screening/foreign). */
    private readonly foreignReadings: boolean,
  ) {
    this.entities = entities;
    this.versions = versions;
    this.index = index;
    this.buildMs = buildMs;
  }

  /**
   * options.recentQueries: how many recent queries keep their candidates (see prepareQuery; default none);
   * options.foreignReadings: read queries as foreign names written in other scripts (issue 32; default on).
   */
  static build(entities: ListEntity[], versions: ListVersion[], options: EngineOptions = {}): ScreeningEngine {
    const t0 = performance.now();
    const index = NameIndex.build(entities);
    return new ScreeningEngine(entities, versions, index, performance.now() - t0, options.recentQueries ?? 0, options.foreignReadings ?? true);
  }

  /**
   * The engine over `entities` that build(entities, versions) would give, preparing only the names of
   * entities this engine does not hold: previous[i] is the position in listedEntities() of an entity
   * with the same schema and names as entities[i] (other fields may differ), or -1; the kept positions
   * ascend (NameIndex.rebased). An internal list's change costs its changed entries (issue 21).
   */
  rebased(entities: ListEntity[], versions: ListVersion[], previous: Int32Array): ScreeningEngine {
    const t0 = performance.now();
    const index = this.index.rebased(this.entities, entities, previous);
    return new ScreeningEngine(entities, versions, index, performance.now() - t0, this.keepRecent, this.foreignReadings);
  }

  /**
   * The engine over entities whose index was built before (indexSnapshot() of an engine built from
   * the same entities, in the same order): nothing is prepared again.
   */
  static restore(entities: ListEntity[], versions: ListVersion[], index: NameIndexSnapshot, options: EngineOptions = {}): ScreeningEngine {
    const t0 = performance.now();
    const restored = NameIndex.fromSnapshot(index, entities);
    return new ScreeningEngine(entities, versions, restored, performance.now() - t0, options.recentQueries ?? 0, options.foreignReadings ?? true);
  }

  /** The index as plain data, for ScreeningEngine.restore (see src/screening/index-snapshot.ts). */
  indexSnapshot(): NameIndexSnapshot {
    return this.index.snapshot(this.entities);
  }

  /** Every entity in service (read-only: counting programme designations, src/screening/lists/country-sanctions.ts). */
  listedEntities(): readonly ListEntity[] {
    return this.entities;
  }

  stats(): EngineStats {
    return {
      entities: this.entities.length,
      names: this.index.names.length,
      indexKeys: this.index.keyCount,
      postings: this.index.postingCount,
      memoryBytes: process.memoryUsage().heapUsed,
      buildMs: Math.round(this.buildMs),
    };
  }

  /** Ranked matches for one query, best first, each with its full explanation. */
  screen(query: ScreeningQuery, options: MatchOptions = {}): MatchResult[] {
    const threshold = options.threshold ?? this.defaultThreshold;
    const limit = options.limit ?? 10;
    if (!query.name?.trim()) return [];
    const { q, qPerson, candidates, readings } = this.prepareQuery(query.name, query.schema, threshold >= 0.6 ? 0.5 : 0.25);
    const memo = this.spellingMemo();
    // Each entity's best name for this query (in the order entities were first met), by generation.
    const gen = this.nextComparisonGeneration();
    if (this.bestGen.length !== this.entities.length) {
      this.bestGen = new Int32Array(this.entities.length);
      this.bestScore = new Float64Array(this.entities.length);
      this.bestName = new Int32Array(this.entities.length);
      this.bestCmp = new Array(this.entities.length);
      this.bestVia = new Array(this.entities.length);
    }
    const met = this.metEntities;
    met.length = 0;
    const filtered = !!(options.schemas?.length || options.sources?.length || options.topics?.length);
    // A name listed by several lists (or entities) is prepared once and compared once per query.
    for (const c of candidates) {
      const named = this.index.names[c.nameIndex];
      const entityIndex = named.entityIndex;
      const entity = this.entities[entityIndex];
      if (filtered && !this.passesFilters(entity, options)) continue;
      const asPerson = entity.schema === 'person' && qPerson !== q;
      const slot = named.preparedId * 2 + (asPerson ? 1 : 0);
      let cmp: NameComparison;
      if (this.comparedGen[slot] === gen) cmp = this.compared[slot]!;
      else {
        cmp = compareNames(asPerson ? qPerson : q, named.prepared, this.index.rarity, false, memo);
        this.comparedGen[slot] = gen;
        this.compared[slot] = cmp;
        this.comparedSlots.push(slot);
      }
      const nameScore = aliasScore(cmp, named.record.kind);
      if (this.bestGen[entityIndex] !== gen) {
        this.bestGen[entityIndex] = gen;
        met.push(entityIndex);
      } else if (!(nameScore > this.bestScore[entityIndex])) continue;
      this.bestScore[entityIndex] = nameScore;
      this.bestName[entityIndex] = c.nameIndex;
      this.bestCmp[entityIndex] = cmp;
      this.bestVia[entityIndex] = undefined;
    }
    // issue 32: names found through a foreign-name reading of the query are compared through that reading only
    if (readings) this.compareReadings(readings, gen, filtered ? options : undefined, memo);
    const scored: { entityIndex: number; nameIndex: number; nameScore: number; quals: Qualified[]; score: number }[] = [];
    for (const entityIndex of met) {
      const nameScore = this.bestScore[entityIndex];
      const cmp = this.bestCmp[entityIndex]!;
      this.bestCmp[entityIndex] = undefined;
      // Cheap upper bound before qualifiers: corroboration adds at most 0.05 + 0.1.
      if (NAME_ONLY_CAP * nameScore + 0.2 < threshold) continue;
      const entity = this.entities[entityIndex];
      const nameIndex = this.bestName[entityIndex];
      const named = this.index.names[nameIndex];
      const quals = qualifiersFor(query, entity);
      let score = Math.min(finalScore(nameScore, cmp.exact && ALIAS_FACTOR[named.record.kind] === 1, quals), cmp.maxScore ?? 1);
      let common: string | undefined;
      if (score > PARTIAL_COMMON_NAME_CAP && (common = this.partialOnCommonName(entity, named.prepared, cmp, quals, this.bestVia[entityIndex] ?? qPerson, memo))) {
        score = PARTIAL_COMMON_NAME_CAP;
        quals.push({ kind: 'name_note', effect: 0, detail: common, corroborates: false });
      }
      if (score >= threshold) scored.push({ entityIndex, nameIndex, nameScore, quals, score });
    }
    scored.sort((a, b) => b.score - a.score || this.entities[a.entityIndex].id.localeCompare(this.entities[b.entityIndex].id));
    // the token alignment is worked out only for the hits that are returned
    return scored.slice(0, limit).map((s) => {
      const entity = this.entities[s.entityIndex];
      const named = this.index.names[s.nameIndex];
      const full = compareNames(this.bestVia[s.entityIndex] ?? (entity.schema === 'person' ? qPerson : q), named.prepared, this.index.rarity, true, memo);
      return { entity, score: s.score, explanation: explain(named.record, full, s.nameScore, s.quals, s.score) };
    });
  }

  /**
   * Why a hit is a partial match on a common name that no identity fact supports, or undefined
   * (partial-matches.ts): such a hit raises no alert on the name alone. Persons only (an
   * organisation's extra word is compare.ts's business); a date of birth or an identifier that agrees
   * keeps the alert. The name score is not touched.
   */
  private partialOnCommonName(entity: ListEntity, listed: PreparedName, cmp: NameComparison, quals: readonly Qualified[], q: PreparedName, memo: SpellingMemo): string | undefined {
    // (a row of unknown kind whose name reads as a person's counts: the CSL gives many persons no type)
    const person = entity.schema === 'person' || (entity.schema === 'unknown' && !listed.org && !listed.vessel);
    if (!person || cmp.exact || q.org || q.vessel) return undefined;
    if (quals.some((x) => x.corroborates && (x.kind === 'dob_match' || x.kind === 'identifier_match'))) return undefined;
    const full = compareNames(q, listed, this.index.rarity, true, memo);
    return partialMatchOnCommonName(full.alignment, q, listed, (this.commonNames ??= new CommonNames(listNameFrequency(this.entities))));
  }

  /**
   * The candidates of each foreign-name reading (issue 32), compared through the reading alone (a match
   * through it is capped at potential strength: compareNames): the query's own reading is not compared
   * with names only a reading found, which would let its transliteration meet names its own lookup
   * never brings. Updates each entity's best name of the current query like the main loop of screen().
   */
  private compareReadings(readings: NonNullable<PreparedQuery['readings']>, gen: number, filters: MatchOptions | undefined, memo: SpellingMemo): void {
    for (const r of readings) {
      for (const c of r.candidates) {
        const named = this.index.names[c.nameIndex];
        const entityIndex = named.entityIndex;
        if (filters && !this.passesFilters(this.entities[entityIndex], filters)) continue;
        const cmp = compareNames(r.q, named.prepared, this.index.rarity, false, memo);
        const nameScore = aliasScore(cmp, named.record.kind);
        if (this.bestGen[entityIndex] !== gen) {
          this.bestGen[entityIndex] = gen;
          this.metEntities.push(entityIndex);
        } else if (!(nameScore > this.bestScore[entityIndex])) continue;
        this.bestScore[entityIndex] = nameScore;
        this.bestName[entityIndex] = c.nameIndex;
        this.bestCmp[entityIndex] = cmp;
        this.bestVia[entityIndex] = r.q;
      }
    }
  }

  private spellingMemo(): SpellingMemo {
    return (this.memo ??= new SimilarityMemo());
  }

  private nextComparisonGeneration(): number {
    for (const slot of this.comparedSlots) this.compared[slot] = undefined;
    this.comparedSlots.length = 0;
    if (this.comparedGen.length !== this.index.preparedCount * 2) {
      this.comparedGen = new Int32Array(this.index.preparedCount * 2);
      this.compared = new Array(this.index.preparedCount * 2);
      this.bestGen.fill(0);
      this.comparisonGen = 0;
    }
    if (this.comparisonGen >= 0x7fffffff) {
      this.comparedGen.fill(0);
      this.bestGen.fill(0);
      this.comparisonGen = 0;
    }
    return ++this.comparisonGen;
  }

  /**
   * The prepared name and its candidates, kept for the last few queries: the list agents of one
   * screening (sanctions, PEP, leaks, debarment) screen the same name one after another, each
   * against its own lists, and need not look the candidates up four times. The engine never changes
   * (a list update builds a new one), so a kept answer stays right. Off unless built with
   * recentQueries (the service turns it on; matcher benchmarks measure the full work).
   */
  private prepareQuery(name: string, schema: ScreeningQuery['schema'], minShare: number): PreparedQuery {
    const key = `${schema ?? ''}\u0000${minShare}\u0000${name}`;
    const kept = this.recentQueries.get(key);
    if (kept) return kept;
    // With no entity type, listed persons are compared with the query read as a person name
    // (no legal forms), everything else with the query read as it comes (the same object when the
    // person reading changes nothing: prepareAsPerson). Titles dropped, foreign-name readings attached (issue 32).
    const { q, qPerson, readings } = prepareQueryName(name, schema, this.foreignReadings);
    const prepared: PreparedQuery = { q, qPerson, candidates: this.index.candidates(q, 150, minShare) };
    // issue 32: a query with initials also finds the names its full words alone find (withoutInitials)
    const bare = this.foreignReadings ? withoutInitials(q) : undefined;
    if (bare) prepared.candidates = withCandidates(prepared.candidates, this.index.candidates(bare, 150, minShare));
    if (readings.length) prepared.readings = readings.map((r) => ({ q: r, candidates: this.index.candidates(r, 150, minShare) }));
    if (this.keepRecent === 0) return prepared;
    this.recentQueries.set(key, prepared);
    if (this.recentQueries.size > this.keepRecent) this.recentQueries.delete(this.recentQueries.keys().next().value!);
    return prepared;
  }

  /** Score a pair of bare names with the same algorithm (no qualifiers except a schema hint). */
  compare(name1: string, name2: string, schema?: string, listed?: { countries?: string[]; country?: string }): { score: number; explanation: MatchExplanation } {
    const s = toEntitySchema(schema);
    const { q: a, readings } = prepareQueryName(name1, s, this.foreignReadings);
    // (a pair has no candidates to keep apart: the best of the name and its readings)
    if (readings.length) a.alternatives = [...(a.alternatives ?? []), ...readings];
    const b = prepareName(name2, s);
    const cmp = compareNames(a, b, this.index.rarity);
    // the query's country against the listed entity's countries (the only qualifier a pair of bare names can carry)
    const quals =
      listed?.country && listed.countries?.length
        ? qualifiersFor({ name: name1, schema: s, country: listed.country }, { schema: s ?? 'unknown', countries: listed.countries } as ListEntity)
        : [];
    const score = Math.min(finalScore(cmp.score, false, quals), cmp.maxScore ?? 1);
    return { score, explanation: explain({ value: name2, kind: 'primary' }, cmp, cmp.score, quals, score) };
  }

  /** Entity by engine id, for callers that keep only ids. */
  entity(id: string): ListEntity | undefined {
    if (!this.byId) this.byId = new Map(this.entities.map((e) => [e.id, e]));
    return this.byId.get(id);
  }

  private passesFilters(entity: ListEntity, o: MatchOptions): boolean {
    if (o.schemas?.length && !o.schemas.includes(entity.schema)) return false;
    if (o.sources?.length && !o.sources.includes(entity.source)) return false;
    if (o.topics?.length && !entity.topics.some((t) => o.topics!.includes(t))) return false;
    return true;
  }
}

/** `a` and the candidates of `b` that `a` lacks (issue 32: the candidates of a query's initials-free form). */
function withCandidates(a: readonly Candidate[], b: readonly Candidate[]): readonly Candidate[] {
  const seen = new Set(a.map((c) => c.nameIndex));
  const extra = b.filter((c) => !seen.has(c.nameIndex));
  return extra.length ? [...a, ...extra] : a;
}

/**
 * A comparison's name score through the kind of listed name it matched. A weak alias ("PAT", "EL SENOR",
 * a one-word nickname) is 0.95 of a strong name, and alerts only when it is the whole query: with any
 * name word of either side unaccounted for it stays below the threshold (issue 27 §1).
 */
function aliasScore(cmp: NameComparison, kind: NameRecord['kind']): number {
  const score = cmp.score * ALIAS_FACTOR[kind];
  return kind === 'weak_alias' && !cmp.whole ? Math.min(score, PARTIAL_NAME_CAP) : score;
}

function finalScore(nameScore: number, exactStrongName: boolean, quals: Qualified[]): number {
  let score = NAME_ONLY_CAP * nameScore;
  for (const q of quals) score += q.effect;
  const corroborated = quals.some((q) => q.corroborates);
  const conflicted = quals.some((q) => q.effect < 0);
  if (exactStrongName && corroborated && !conflicted) return 1;
  return round(Math.max(0, Math.min(0.99, score)));
}

function explain(record: NameRecord, cmp: NameComparison, nameScore: number, quals: Qualified[], score: number): MatchExplanation {
  const qualifiers: QualifierApplied[] = quals.map(({ kind, effect, detail }) => ({ kind, effect, detail }));
  for (const note of cmp.notes) qualifiers.push({ kind: 'name_note', effect: 0, detail: note });
  if (record.provenance) qualifiers.push({ kind: 'name_provenance', effect: 0, detail: record.provenance });
  if (ALIAS_FACTOR[record.kind] < 1) {
    qualifiers.push({ kind: 'weak_alias', effect: round(ALIAS_FACTOR[record.kind] - 1), detail: `matched a ${record.kind.replace('_', ' ')}` });
  }
  if (record.kind === 'weak_alias' && !cmp.whole) {
    qualifiers.push({ kind: 'name_note', effect: 0, detail: 'a weak alias matches only a query that is that alias as a whole: here name words are unmatched' });
  }
  const hows = [...new Set(cmp.alignment.filter((a) => a.how !== 'missing').map((a) => a.how))];
  const missing = cmp.alignment.filter((a) => a.how === 'missing').length;
  const qualText = quals.length ? `; ${quals.map((q) => q.detail).join('; ')}` : '';
  const provenanceText = record.provenance ? ` [${record.provenance}]` : '';
  const summary =
    `${cmp.exact ? 'Exact' : 'Partial'} match on ${record.kind.replace('_', ' ')} "${record.value}"${provenanceText} ` +
    `(name ${round(nameScore)}, tokens ${hows.join('/') || 'none'}${missing ? `, ${missing} unmatched` : ''})${qualText}; score ${score}.`;
  return {
    matchedName: record.value,
    matchedNameKind: record.kind,
    nameScore: round(nameScore),
    alignment: cmp.alignment,
    qualifiers,
    summary,
  };
}


/**
 * Load every configured list and build the engine over all of them (what `svc screen` and the
 * agents use). Lists that fail to load are reported in `load.failures`; the others are indexed.
 */
export async function loadScreeningEngine(
  config: import('./lists/index').ListsConfig,
  opts: import('./lists/index').LoadOptions = {},
): Promise<{ engine: ScreeningEngine; load: import('./lists/index').LoadResult }> {
  const { loadAllLists } = await import('./lists/index');
  const load = await loadAllLists(config, opts);
  return { engine: ScreeningEngine.build(load.entities, load.versions), load };
}
