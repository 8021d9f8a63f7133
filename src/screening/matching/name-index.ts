/**
 * Inverted index over every listed name for candidate generation: a query looks up a handful of
 * keys per token and scores only the names those keys point to, never the whole list set.
 *
 * Keys per token: t:<fold> (exact up to transliteration variants), p:<double metaphone>,
 * s:<consonant skeleton> (Arabic/Hebrew spellings), a:<prefix>, z:<suffix> (typos), plus t:<fold>
 * of adjacent tokens joined (Abdul Rahman/Abdulrahman, Jin Ping/Jinping).
 *
 * Over 500 lines because the index's three ways of coming to be (build, fromSnapshot, rebased for an
 * internal list's delta) must stay beside the postings and token counts they all produce exactly.
 */
import type { ListEntity, NameRecord } from '../model';
import { foldToken, skeleton } from './text';
import type { RarityFn } from './compare';
import { prepareName, type NameToken, type PreparedName } from './prepare';
import { decodePreparedNames, encodePreparedNames, type PreparedColumns } from './prepared-codec';
import { transcribedKeys } from './foreign/readings';

export interface IndexedName {
  entityIndex: number;
  record: NameRecord;
  /** Shared by every listed name with the same spelling and schema (the lists repeat one another). */
  prepared: PreparedName;
  /** Number of `prepared` among the index's distinct prepared names: a comparison with it holds for all of them. */
  preparedId: number;
}

const KEY_QUALITY: Record<string, number> = { t: 1, k: 0.9, p: 0.7, s: 0.7, a: 0.6, z: 0.6 };
const keyQuality = (key: string): number => KEY_QUALITY[key[0]] ?? 0.5;
const BIG_POSTING = 600;

function keyable(t: NameToken): boolean {
  return t.kind === 'name' || t.kind === 'stop';
}

/** Keys of one token, best first. */
export function tokenKeys(t: NameToken): string[] {
  // issue 32: a query word read as a foreign name's transcription is looked up by the spellings it allows
  if (t.origin === 'transcribed') return transcribedKeys(t);
  const keys = [`t:${t.fold}`];
  if (t.initial) return keys;
  if (t.meta[0].length >= 2) keys.push(`p:${t.meta[0]}`);
  if (t.meta[1].length >= 2) keys.push(`p:${t.meta[1]}`);
  if (t.skel.length >= 2) keys.push(`s:${t.skel}`);
  if (t.korean) keys.push(`k:${t.korean}`);
  const f = t.fold;
  if (f.length >= 5) {
    const k = f.length >= 8 ? 4 : 3;
    keys.push(`a:${f.slice(0, k)}`, `z:${f.slice(-k)}`);
  }
  return keys;
}

/**
 * A listed word's c before e or i keyed as the k it is when read as a Latin letter (issue 32): the
 * skeleton (s:) keys read it as s, but a writer of another script spells Belavencev 벨라벤케프 and
 * Riccio 리키오, whose skeletons have a k there (the fold, which reads c as k, gives it). Listed names
 * only: a query word is looked up by its own spellings.
 */
function listedHardCKey(t: NameToken): string | undefined {
  if (t.kind !== 'name' || t.initial || !/c[eiy]/.test(t.norm)) return undefined;
  const hard = skeleton(t.fold);
  return hard.length >= 2 && hard !== t.skel ? `s:${hard}` : undefined;
}

function joinedKeys(tokens: NameToken[]): string[] {
  const keys: string[] = [];
  const names = tokens.filter(keyable);
  if (names.length > 8) return keys;
  for (let i = 0; i + 1 < names.length; i++) {
    keys.push(`t:${foldToken(names[i].norm + names[i + 1].norm)}`);
    if (i + 2 < names.length && (names[i].origin === 'han' || names[i].origin === 'hangul')) {
      keys.push(`t:${foldToken(names[i].norm + names[i + 1].norm + names[i + 2].norm)}`);
    }
  }
  return keys;
}

/**
 * The lookup keys of one prepared name (every part of "X (ex-Y)"); its keyable tokens' folds are
 * added to `seenTokens` (the entity's token counts).
 */
function nameKeys(prepared: PreparedName, seenTokens: Set<string>): Set<string> {
  const keys = new Set<string>();
  // a name string with former names inside ("X (ex-Y)") is found through every part
  for (const part of [prepared, ...(prepared.alternatives ?? [])]) {
    for (const t of part.tokens) {
      if (!keyable(t)) continue;
      for (const k of tokenKeys(t)) keys.add(k);
      const hard = listedHardCKey(t);
      if (hard) keys.add(hard);
      seenTokens.add(t.fold);
    }
    for (const k of joinedKeys(part.tokens)) keys.add(k);
    for (const a of part.acronyms) keys.add(`x:${a}`);
    if (part.skipAcronyms) for (const a of part.skipAcronyms) keys.add(`x:${a}`);
  }
  return keys;
}

/** One lookup of candidatesOf: its keys' postings (list()), the credit each gives, the most it gives (w), their total length. */
interface Visit {
  lists: Int32Array[];
  adds: number[];
  w: number;
  size: number;
}

export interface Candidate {
  nameIndex: number;
  /** Rough pre-score used only to rank candidates before full comparison. */
  weight: number;
}

/**
 * What NameIndex.build works out, in a form v8 serialises compactly (typed arrays, one string table
 * per map): restored by NameIndex.fromSnapshot over the same entities without preparing a name again.
 * The listed names are referred to by position (entity, record), so the snapshot holds no entity.
 */
export interface NameIndexSnapshot {
  entityCount: number;
  /** Per indexed name: its entity, its record's position in entity.names (-1: the primary name of an entity with no names), its prepared name. */
  nameEntity: Int32Array;
  nameRecord: Int32Array;
  namePrepared: Int32Array;
  /** Distinct prepared names by id (by column: prepared-codec.ts). */
  prepared: PreparedColumns;
  /** Posting lists: keys[k]'s names are postings[offsets[k] .. offsets[k+1]). */
  keys: string[];
  offsets: Int32Array;
  postings: Int32Array;
  dfKeys: string[];
  dfCounts: Int32Array;
}

export class NameIndex {
  readonly names: IndexedName[] = [];
  /** How many distinct prepared names `names` share (preparedId < preparedCount). */
  preparedCount = 0;
  private readonly postings = new Map<string, Int32Array>();
  /** Number of entities whose names contain each folded token. */
  private readonly df = new Map<string, number>();
  private entityCount = 0;
  private acc = new Float64Array(0);
  private stamp = new Int32Array(0);
  private stampGen = 0;
  private passing = new Int32Array(0);
  private credit = new Int32Array(0);
  private touched = new Int32Array(0);
  private kept = new Int32Array(0);
  private nameTokens = new Int32Array(0);
  /** Skip the names that cannot reach the candidate share (lookupPruned); off only to check it is exact. */
  pruneLookup = true;
  /** Lookups that skipped names (for tests and benches). */
  prunedLookups = 0;

  /** Distinct prepared names by id (kept only until snapshot() or for an index restored from one). */
  private preparedById: PreparedName[] = [];

  /** One name string of one schema is prepared once (SDN names recur in the consolidated lists); kept for rebased(). */
  private preparedOnce = new Map<string, { prepared: PreparedName; id: number }>();

  static build(entities: ListEntity[]): NameIndex {
    const idx = new NameIndex();
    const lists = new Map<string, number[]>();
    idx.entityCount = entities.length;
    entities.forEach((entity, entityIndex) => idx.indexEntity(entity, entityIndex, lists));
    idx.preparedCount = idx.preparedById.length;
    for (const [k, l] of lists) idx.postings.set(k, Int32Array.from(l));
    idx.acc = new Float64Array(idx.names.length);
    idx.stamp = new Int32Array(idx.names.length).fill(-1);
    return idx;
  }

  /** Prepares one entity's names, appends them to `names` and their keys to `lists`, and counts its tokens in df. */
  private indexEntity(entity: ListEntity, entityIndex: number, lists: Map<string, number[]>): void {
    const seenNames = new Set<string>();
    const seenTokens = new Set<string>();
    const records = entity.names?.length ? entity.names : [{ value: entity.primaryName, kind: 'primary' as const }];
    for (const record of records) {
      if (!record.value?.trim()) continue;
      const onceKey = `${entity.schema}\u0000${record.value}`;
      let once = this.preparedOnce.get(onceKey);
      if (!once) {
        once = { prepared: prepareName(record.value, entity.schema), id: this.preparedById.length };
        this.preparedOnce.set(onceKey, once);
        this.preparedById.push(once.prepared);
      }
      const prepared = once.prepared;
      if (!prepared.tokens.length || seenNames.has(prepared.key + '|' + prepared.numbers.join(','))) continue;
      seenNames.add(prepared.key + '|' + prepared.numbers.join(','));
      const nameIndex = this.names.length;
      this.names.push({ entityIndex, record, prepared, preparedId: once.id });
      for (const k of nameKeys(prepared, seenTokens)) {
        let l = lists.get(k);
        if (!l) lists.set(k, (l = []));
        l.push(nameIndex);
      }
    }
    for (const f of seenTokens) this.df.set(f, (this.df.get(f) ?? 0) + 1);
  }

  /**
   * The index over `entities` as build(entities) would make it, reusing this index's work for the
   * entities it already holds (issue 21: an account's internal lists change an entry or an import at
   * a time). `previous[i]` is the position in this index's entities of an entity whose schema and
   * names equal those of entities[i] (its prepared names and keys are taken as they are), or -1 (it is
   * prepared). The kept positions must ascend, so the names keep build()'s order: the same names, in
   * the same order, with the same postings and token counts, hence the same candidates. Only the new
   * entities' names are prepared; the rest is integer work over the postings. This index is not changed.
   */
  rebased(oldEntities: readonly ListEntity[], entities: readonly ListEntity[], previous: Int32Array): NameIndex {
    if (previous.length !== entities.length || oldEntities.length !== this.entityCount) throw new Error('rebased: one previous position per entity, over the entities this index was built from');
    const next = new NameIndex();
    next.entityCount = entities.length;
    next.preparedOnce = this.preparedOnce;
    next.preparedById = this.preparedById;
    next.pruneLookup = this.pruneLookup;
    for (const [k, v] of this.df) next.df.set(k, v);
    // each old entity's names are names[start[e] .. start[e+1])
    const start = new Int32Array(this.entityCount + 1).fill(-1);
    start[this.entityCount] = this.names.length;
    for (let n = this.names.length - 1; n >= 0; n--) start[this.names[n].entityIndex] = n;
    for (let e = this.entityCount - 1; e >= 0; e--) if (start[e] < 0) start[e] = start[e + 1];
    const oldToNew = new Int32Array(this.names.length).fill(-1);
    const kept = new Uint8Array(this.entityCount);
    const added = new Map<string, number[]>();
    let last = -1;
    for (let i = 0; i < entities.length; i++) {
      const p = previous[i];
      if (p < 0) {
        next.indexEntity(entities[i], i, added);
        continue;
      }
      if (p <= last || p >= this.entityCount) throw new Error('rebased: previous positions must ascend within the old index');
      last = p;
      kept[p] = 1;
      const entity = entities[i];
      const oldNames = oldEntities[p].names;
      for (let n = start[p]; n < start[p + 1]; n++) {
        const named = this.names[n];
        const r = oldNames?.length ? oldNames.indexOf(named.record) : -1;
        const record = r >= 0 && entity.names?.[r] ? entity.names[r] : named.record;
        oldToNew[n] = next.names.length;
        next.names.push({ entityIndex: i, record, prepared: named.prepared, preparedId: named.preparedId });
      }
    }
    // the entities that left take their tokens out of the counts
    for (let e = 0; e < this.entityCount; e++) {
      if (kept[e]) continue;
      const seenTokens = new Set<string>();
      for (let n = start[e]; n < start[e + 1]; n++) nameKeys(this.names[n].prepared, seenTokens);
      for (const f of seenTokens) {
        const c = (next.df.get(f) ?? 0) - 1;
        if (c > 0) next.df.set(f, c);
        else next.df.delete(f);
      }
    }
    // postings: the kept names renumbered (order kept), merged with the new names' (both ascend)
    let firstMoved = this.names.length;
    for (let n = 0; n < this.names.length; n++) {
      if (oldToNew[n] !== n) {
        firstMoved = n;
        break;
      }
    }
    for (const [k, list] of this.postings) {
      const extra = added.get(k);
      if (!extra && (list.length === 0 || list[list.length - 1] < firstMoved)) {
        next.postings.set(k, list);
        continue;
      }
      const out = new Int32Array(list.length + (extra?.length ?? 0));
      let o = 0;
      let x = 0;
      for (let i = 0; i < list.length; i++) {
        const m = oldToNew[list[i]];
        if (m < 0) continue;
        if (extra) while (x < extra.length && extra[x] < m) out[o++] = extra[x++];
        out[o++] = m;
      }
      if (extra) while (x < extra.length) out[o++] = extra[x++];
      if (o > 0) next.postings.set(k, o === out.length ? out : out.slice(0, o));
      added.delete(k);
    }
    for (const [k, l] of added) next.postings.set(k, Int32Array.from(l));
    next.preparedCount = next.preparedById.length;
    next.acc = new Float64Array(next.names.length);
    next.stamp = new Int32Array(next.names.length).fill(-1);
    return next;
  }

  /**
   * The built index as plain data (see NameIndexSnapshot); `entities` are the ones it was built from.
   * Taken before any query: comparing caches things on the prepared names' tokens (symbol keys,
   * which v8 does not serialise anyway).
   */
  snapshot(entities: readonly ListEntity[]): NameIndexSnapshot {
    const n = this.names.length;
    const nameEntity = new Int32Array(n);
    const nameRecord = new Int32Array(n);
    const namePrepared = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      const named = this.names[i];
      nameEntity[i] = named.entityIndex;
      nameRecord[i] = entities[named.entityIndex].names?.indexOf(named.record) ?? -1;
      namePrepared[i] = named.preparedId;
    }
    const keys = [...this.postings.keys()];
    const offsets = new Int32Array(keys.length + 1);
    let total = 0;
    keys.forEach((k, i) => {
      offsets[i] = total;
      total += this.postings.get(k)!.length;
    });
    offsets[keys.length] = total;
    const postings = new Int32Array(total);
    keys.forEach((k, i) => postings.set(this.postings.get(k)!, offsets[i]));
    return {
      entityCount: this.entityCount,
      nameEntity,
      nameRecord,
      namePrepared,
      prepared: encodePreparedNames(this.preparedById),
      keys,
      offsets,
      postings,
      dfKeys: [...this.df.keys()],
      dfCounts: Int32Array.from(this.df.values()),
    };
  }

  /** The index a snapshot was taken of, over the same entities (in the same order). */
  static fromSnapshot(s: NameIndexSnapshot, entities: readonly ListEntity[]): NameIndex {
    const idx = new NameIndex();
    if (s.entityCount !== entities.length) throw new Error(`index snapshot of ${s.entityCount} entities, given ${entities.length}`);
    idx.entityCount = s.entityCount;
    const prepared = decodePreparedNames(s.prepared);
    idx.preparedById = prepared;
    idx.preparedCount = prepared.length;
    for (let i = 0; i < s.nameEntity.length; i++) {
      const entityIndex = s.nameEntity[i];
      const entity = entities[entityIndex];
      const r = s.nameRecord[i];
      const record = r >= 0 ? entity.names[r] : { value: entity.primaryName, kind: 'primary' as const };
      if (!record) throw new Error(`index snapshot names record ${r} of entity ${entity.id}, which has ${entity.names?.length ?? 0}`);
      idx.names.push({ entityIndex, record, prepared: prepared[s.namePrepared[i]], preparedId: s.namePrepared[i] });
    }
    for (let k = 0; k < s.keys.length; k++) idx.postings.set(s.keys[k], s.postings.subarray(s.offsets[k], s.offsets[k + 1]));
    for (let k = 0; k < s.dfKeys.length; k++) idx.df.set(s.dfKeys[k], s.dfCounts[k]);
    idx.acc = new Float64Array(idx.names.length);
    idx.stamp = new Int32Array(idx.names.length).fill(-1);
    return idx;
  }

  get keyCount(): number {
    return this.postings.size;
  }

  get postingCount(): number {
    let n = 0;
    for (const l of this.postings.values()) n += l.length;
    return n;
  }

  /** Rarity weight of a folded token in [0.25, 1]: 1 for tokens in at most a couple of entities. */
  rarity: RarityFn = Object.assign(
    (fold: string): number => {
      const df = this.df.get(fold) ?? 0;
      const n = this.entityCount;
      if (df <= 2 || n < 50) return 1;
      return Math.max(0.25, Math.min(1, Math.log(n / df) / this.logHalfN));
    },
    { known: (fold: string): boolean => this.df.has(fold) },
  );
  private get logHalfN(): number {
    return Math.log(this.entityCount / 2);
  }

  /**
   * Candidate names for a prepared query, best first, at most `limit`.
   * A name must gather at least `minShare` of the query's token weight through its keys.
   */
  candidates(q: PreparedName, limit = 200, minShare = 0.35): Candidate[] {
    if (!q.alternatives?.length) return this.candidatesOf(q, limit, minShare);
    // each part of "X (ex-Y)" brings its own candidates
    const best = new Map<number, Candidate>();
    for (const part of [q, ...q.alternatives]) {
      for (const c of this.candidatesOf(part, limit, minShare)) if ((best.get(c.nameIndex)?.weight ?? -1) < c.weight) best.set(c.nameIndex, c);
    }
    return [...best.values()].sort((a, b) => b.weight - a.weight).slice(0, limit * (1 + q.alternatives.length));
  }

  private candidatesOf(q: PreparedName, limit: number, minShare: number): Candidate[] {
    const toks = q.tokens.filter(keyable);
    if (!toks.length) return [];
    // The lookups ("visits") in the order the weights are summed: each token's keys (best first),
    // then the acronym, spelt-out acronym and joined-token keys. A visit credits a name at most once.
    // Each key is resolved to its posting once here (list(): a Map lookup of a string made for this query).
    const visits: Visit[] = [];
    let total = 0;
    // (a patronymic, often left out of a listed name or a query, weighs as a common given name; only as a
    // middle word of three or more: in a two-word name a word ending -evich is the surname, Сянкевіч)
    let words = 0;
    for (const t of toks) if (t.kind === 'name' && !t.initial) words++;
    for (const t of toks) {
      const w = t.common || (t.patronymic && words >= 3) ? 0.4 : t.kind === 'stop' ? 0.35 : t.initial ? 0.3 : 1;
      total += w;
      // other languages' renderings of a Russian name (Poetin, Jewgeni) are looked up as spellings
      visits.push(this.visit(t.renderings?.length ? [...tokenKeys(t), ...t.renderings.map((r) => `t:${r}`)] : tokenKeys(t), w));
    }
    // a lone word may be an acronym of a listed name; a long name may be listed under its acronym
    if (toks.length === 1 && toks[0].norm.length >= 3 && toks[0].norm.length <= 7) visits.push(this.visit([`x:${toks[0].norm}`], 1));
    for (const a of q.acronyms) visits.push(this.visit([`t:${foldToken(a)}`], total));
    // a spelt-out query may name a listed acronym that leaves words out: only a rare listed word (a few names)
    if (q.skipAcronyms) {
      for (const a of q.skipAcronyms) {
        const key = `t:${foldToken(a)}`;
        if ((this.postings.get(key)?.length ?? 0) <= 5) visits.push(this.visit([key], total));
      }
    }
    // joined query tokens may equal one listed token
    for (const k of joinedKeys(q.tokens)) visits.push(this.visit([k], 1));
    const min = total * minShare;
    const touched = this.pruneLookup ? this.lookupPruned(visits, min) : this.lookupAll(visits);
    const found = this.touched;
    const acc = this.acc;
    let count = 0;
    if (this.passing.length < touched) this.passing = new Int32Array(Math.max(touched, this.passing.length * 2));
    const passing = this.passing;
    for (let k = 0; k < touched; k++) {
      const n = found[k];
      if (acc[n] >= min) passing[count++] = n;
    }
    if (count <= limit) {
      const out: Candidate[] = new Array(count);
      for (let k = 0; k < count; k++) out[k] = { nameIndex: passing[k], weight: acc[passing[k]] };
      return out;
    }
    return this.best(passing, count, limit, q.tokens.length);
  }

  /** A visit's keys resolved to the postings list() keeps, each with the credit it gives (w × key quality). */
  private visit(keys: string[], w: number): Visit {
    const lists: Int32Array[] = [];
    const adds: number[] = [];
    let size = 0;
    for (const key of keys) {
      const list = this.list(key);
      if (!list) continue;
      lists.push(list);
      adds.push(w * keyQuality(key));
      size += list.length;
    }
    return { lists, adds, w, size };
  }

  /** Weak keys (phonetic, skeleton, prefix/suffix) shared by very many names add cost, not recall (bench). */
  private list(key: string): Int32Array | undefined {
    const list = this.postings.get(key);
    if (!list) return undefined;
    if (keyQuality(key) < 1 && list.length > BIG_POSTING) return undefined;
    return list;
  }

  /** Room for every name a lookup can reach (this.touched holds them, in the order first reached). */
  private touchedRoom(): Int32Array {
    if (this.touched.length < this.names.length) this.touched = new Int32Array(this.names.length);
    return this.touched;
  }

  /** Every name any visit reaches, with its summed weight in acc, in the order first reached (in this.touched; their count returned). */
  private lookupAll(visits: Visit[]): number {
    const gen = ++this.stampGen;
    const touched = this.touchedRoom();
    const stamp = this.stamp;
    const acc = this.acc;
    let count = 0;
    for (const { lists, adds } of visits) {
      const tokenGen = ++this.stampGen;
      for (let l = 0; l < lists.length; l++) {
        const list = lists[l];
        const add = adds[l];
        for (let i = 0; i < list.length; i++) {
          const n = list[i];
          const s = stamp[n];
          if (s === tokenGen) continue; // this token already credited (better key first)
          if (s < gen) {
            acc[n] = 0;
            touched[count++] = n;
          }
          stamp[n] = tokenGen;
          acc[n] += add;
        }
      }
    }
    return count;
  }

  /**
   * What lookupAll gives for every name that can reach `min` (the others never pass), without walking
   * the long postings of common words. A name's weight is a sum of at most one credit per visit, each
   * at most the visit's w; so a name none of the heaviest visits reach, whose w sum to R, weighs at most
   * the rest (total − R). Step 1 takes the names of the heaviest visits until the rest falls below
   * `min` (those are all the names that can pass). Step 2 sums their weights visit by visit in the
   * original order (same credits, same floating-point sums, same first-reached order as lookupAll),
   * walking a short posting and looking the few names up by binary search in a long one (postings
   * are sorted by name number). Exact: test/unit/screening/matching/speed-invariants.test.ts.
   */
  private lookupPruned(visits: Visit[], min: number): number {
    const order = visits.map((_, v) => v).sort((a, b) => visits[b].w - visits[a].w);
    let rest = 0;
    for (const v of visits) rest += v.w;
    // how many of the heaviest visits can bring a name that passes
    // (a margin for the rounding of the sums: pruning a little less is still exact)
    let keep = 0;
    for (; keep < order.length && rest >= min - 1e-9; keep++) rest -= visits[order[keep]].w;
    // worth it only when the skipped visits walk more names than the kept ones
    let kept = 0;
    let skipped = 0;
    for (let k = 0; k < order.length; k++) {
      if (k < keep) kept += visits[order[k]].size;
      else skipped += visits[order[k]].size;
    }
    if (keep === order.length || skipped <= kept) return this.lookupAll(visits);
    const stamp = this.stamp;
    const acc = this.acc;
    const gen = ++this.stampGen;
    // the names of the kept visits, ascending (a typed array sorts numerically without a JS comparator)
    let size = 0;
    if (this.kept.length < this.names.length) this.kept = new Int32Array(this.names.length);
    const room = this.kept;
    for (let k = 0; k < keep; k++) {
      for (const list of visits[order[k]].lists) {
        for (let i = 0; i < list.length; i++) {
          const n = list[i];
          if (stamp[n] !== gen) {
            stamp[n] = gen;
            room[size++] = n;
          }
        }
      }
    }
    this.prunedLookups++;
    const set = room.subarray(0, size).sort();
    // step 2: stamp[n] is gen (in the set, not reached yet) or a later generation (reached);
    // credit[n] is the visit that last credited n
    const reached = ++this.stampGen;
    if (this.credit.length < stamp.length) this.credit = new Int32Array(stamp.length);
    const credit = this.credit;
    const touched = this.touchedRoom();
    let count = 0;
    for (const { lists, adds } of visits) {
      const visitGen = ++this.stampGen;
      for (let l = 0; l < lists.length; l++) {
        const list = lists[l];
        const add = adds[l];
        if (list.length <= set.length * 8) {
          for (let i = 0; i < list.length; i++) {
            const n = list[i];
            const s = stamp[n];
            if ((s !== gen && s !== reached) || credit[n] === visitGen) continue;
            credit[n] = visitGen;
            if (s === gen) {
              stamp[n] = reached;
              acc[n] = 0;
              touched[count++] = n;
            }
            acc[n] += add;
          }
        } else {
          let lo = 0;
          for (const n of set) {
            // names ascend, so each search starts where the last ended
            let hi = list.length;
            while (lo < hi) {
              const mid = (lo + hi) >> 1;
              if (list[mid] < n) lo = mid + 1;
              else hi = mid;
            }
            if (lo === list.length) break;
            if (list[lo] !== n || credit[n] === visitGen) continue;
            credit[n] = visitGen;
            if (stamp[n] === gen) {
              stamp[n] = reached;
              acc[n] = 0;
              touched[count++] = n;
            }
            acc[n] += add;
          }
        }
      }
    }
    return count;
  }

  /**
   * `limit` of the `count` names in `passing` (in the order they were found), as a stable sort would
   * put them first: by weight, best first, then among equal weights (a common token shared by many
   * names) names as long as the query first. A common word can bring thousands of names: only those
   * above the limit-th weight are sorted; those at it are taken by length gap in one pass.
   */
  private best(passing: Int32Array, count: number, limit: number, queryLength: number): Candidate[] {
    const acc = this.acc;
    const weights = new Float64Array(count);
    for (let k = 0; k < count; k++) weights[k] = acc[passing[k]];
    weights.sort();
    const cut = weights[count - limit];
    const tokens = this.tokenCounts();
    const lenGap = (n: number) => Math.abs(tokens[n] - queryLength);
    const above: Candidate[] = [];
    const atCut: number[] = [];
    let maxGap = 0;
    for (let k = 0; k < count; k++) {
      const n = passing[k];
      const w = acc[n];
      if (w > cut) above.push({ nameIndex: n, weight: w });
      else if (w === cut) {
        atCut.push(n);
        maxGap = Math.max(maxGap, lenGap(n));
      }
    }
    above.sort((a, b) => b.weight - a.weight || lenGap(a.nameIndex) - lenGap(b.nameIndex));
    for (let gap = 0; gap <= maxGap && above.length < limit; gap++) {
      for (let k = 0; k < atCut.length && above.length < limit; k++) {
        if (lenGap(atCut[k]) === gap) above.push({ nameIndex: atCut[k], weight: cut });
      }
    }
    return above;
  }

  /** Each name's token count (its prepared name's), read by best() without reaching each name. */
  private tokenCounts(): Int32Array {
    if (this.nameTokens.length !== this.names.length) this.nameTokens = Int32Array.from(this.names, (n) => n.prepared.tokens.length);
    return this.nameTokens;
  }

}
