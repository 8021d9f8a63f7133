/**
 * The reverse index of ongoing monitoring: enrolled subjects indexed by the same name keys the
 * screening engine's NameIndex uses for listed names (folded token, double metaphone, consonant
 * skeleton, prefix/suffix, adjacent tokens joined). After a list update, the keys of each added or
 * changed listed name are looked up here, and a subject becomes a candidate only when those keys
 * cover the share of ITS OWN token weight the engine requires before it compares names at all
 * (NameIndex.candidates, minShare 0.5 at the 0.8 threshold). Candidate generation is therefore the
 * engine's own, run backwards: a subject that is not a candidate here could not have been a
 * candidate for that entity in a full re-screen. Everyone else is not touched.
 */
import { createHash } from 'node:crypto';
import type { EntitySchema, ListEntity } from '../../screening/model';
import { tokenKeys } from '../../screening/matching/name-index';
import { prepareName, type NameToken, type PreparedName } from '../../screening/matching/prepare';
import { foldToken } from '../../screening/matching/text';
import { QUALIFIER_EFFECTS } from '../../screening/matching/qualifiers';
import type { ScreeningSubject } from '../../commands/screening';

/**
 * The identity facts a subject was screened with (issue 27): a re-screen after a list update passes
 * them to the list agents, so a new or changed hit is assessed exactly as the screening's own were
 * (a date of birth that agrees confirms, one that conflicts brings the hit down to at most medium).
 */
export type MonitoredSubjectFacts = Pick<ScreeningSubject, 'entityTypeDefaulted' | 'dateOfBirth' | 'nationality' | 'identifiers' | 'address' | 'phone' | 'email'>;

export interface MonitoredSubject {
  screeningId: string;
  accountId: string;
  query: string;
  entityType: 'individual' | 'company' | 'organization';
  jurisdiction?: string;
  facts?: MonitoredSubjectFacts;
}

/**
 * Most the engine's qualifiers can add to a subject's name-only score (final = 0.95 · name + Σ effects):
 * a country that agrees (jurisdiction or nationality), a date of birth that agrees, an identifier
 * that agrees. A subject gets only the ones it has facts for.
 */
export function qualifierHeadroom(subject: Pick<MonitoredSubject, 'jurisdiction' | 'facts'>): number {
  const f = subject.facts;
  return (
    (subject.jurisdiction || f?.nationality ? QUALIFIER_EFFECTS.countryMatch : 0) +
    (f?.dateOfBirth ? QUALIFIER_EFFECTS.dobExact : 0) +
    (f?.identifiers?.length ? QUALIFIER_EFFECTS.identifierMatch : 0)
  );
}

export interface SubjectIndexOptions {
  /** Share of a subject's token weight the keys must cover (the engine uses 0.5 at threshold 0.8). */
  minShare?: number;
}

const KEY_QUALITY: Record<string, number> = { t: 1, p: 0.7, s: 0.7, a: 0.6, z: 0.6 };

function keyable(t: NameToken): boolean {
  return t.kind === 'name' || t.kind === 'stop';
}

/** The weight NameIndex.candidates gives a query token. */
function queryWeight(t: NameToken): number {
  return t.common ? 0.4 : t.kind === 'stop' ? 0.35 : t.initial ? 0.3 : 1;
}

function joinedKeys(tokens: NameToken[]): string[] {
  const keys: string[] = [];
  const names = tokens.filter(keyable);
  if (names.length > 8) return keys;
  for (let i = 0; i + 1 < names.length; i++) {
    keys.push(`t:${foldToken(names[i]!.norm + names[i + 1]!.norm)}`);
    if (i + 2 < names.length && (names[i]!.origin === 'han' || names[i]!.origin === 'hangul')) {
      keys.push(`t:${foldToken(names[i]!.norm + names[i + 1]!.norm + names[i + 2]!.norm)}`);
    }
  }
  return keys;
}

/** All keys a listed name is indexed under in the engine. */
function listedNameKeys(prepared: PreparedName): Set<string> {
  const keys = new Set<string>();
  for (const t of prepared.tokens) if (keyable(t)) for (const k of tokenKeys(t)) keys.add(k);
  for (const k of joinedKeys(prepared.tokens)) keys.add(k);
  return keys;
}

export function subjectSchema(entityType: MonitoredSubject['entityType']): EntitySchema {
  return entityType === 'individual' ? 'person' : 'organization';
}

export class SubjectIndex {
  /** key → slot ids (a slot is one keyable token, or one joined pair, of one subject). */
  private readonly postings = new Map<string, Int32Array>();
  /** slot → distinct name, slot → credit weight; name → total token weight. */
  private readonly slotSubject: Int32Array;
  private readonly slotWeight: Float32Array;
  private readonly subjectWeight: Float32Array;
  /** distinct name id → the subjects (indexes into `subjects`) with that name; the most their facts' qualifiers can add. */
  private readonly members: number[][] = [];
  private readonly headroom: number[] = [];
  private readonly credit: Float32Array;
  private readonly stamp: Int32Array;
  private readonly subjectStamp: Int32Array;
  private gen = 0;
  private readonly prepared = new Map<number, PreparedName>();
  private readonly minShare: number;

  private constructor(
    readonly subjects: readonly MonitoredSubject[],
    options: SubjectIndexOptions,
  ) {
    this.minShare = options.minShare ?? 0.5;
    const lists = new Map<string, number[]>();
    const slotSubject: number[] = [];
    const slotWeight: number[] = [];
    const nameWeight: number[] = [];
    const add = (key: string, slot: number, quality: number) => {
      // One posting per key and slot; the key's quality is applied when credited.
      let l = lists.get(key);
      if (!l) lists.set(key, (l = []));
      l.push(slot * 16 + Math.round(quality * 10)); // packed: slot, quality 0.6/0.7/1 → 6/7/10
    };
    // Customers share names: each distinct (name, type) is indexed once and expands to its subjects.
    const byName = new Map<string, number>();
    subjects.forEach((subject, i) => {
      const nameKey = `${subjectSchema(subject.entityType)}|${subject.query.normalize('NFC').trim().toLowerCase().replace(/\s+/g, ' ')}`;
      const known = byName.get(nameKey);
      if (known !== undefined) {
        this.members[known]!.push(i);
        this.headroom[known] = Math.max(this.headroom[known]!, qualifierHeadroom(subject));
        return;
      }
      const nameId = this.members.length;
      byName.set(nameKey, nameId);
      this.members.push([i]);
      this.headroom.push(qualifierHeadroom(subject));
      const prepared = prepareName(subject.query, subjectSchema(subject.entityType));
      let total = 0;
      for (const t of prepared.tokens) {
        if (!keyable(t)) continue;
        const w = queryWeight(t);
        total += w;
        const slot = slotSubject.length;
        slotSubject.push(nameId);
        slotWeight.push(w);
        const seen = new Set<string>();
        for (const k of tokenKeys(t)) {
          if (seen.has(k)) continue;
          seen.add(k);
          add(k, slot, KEY_QUALITY[k[0]!] ?? 0.5);
        }
      }
      for (const k of joinedKeys(prepared.tokens)) {
        const slot = slotSubject.length;
        slotSubject.push(nameId);
        slotWeight.push(1);
        add(k, slot, 1);
      }
      nameWeight.push(total);
    });
    this.subjectWeight = Float32Array.from(nameWeight);
    for (const [k, l] of lists) this.postings.set(k, Int32Array.from(l));
    this.slotSubject = Int32Array.from(slotSubject);
    this.slotWeight = Float32Array.from(slotWeight);
    this.credit = new Float32Array(slotSubject.length);
    this.stamp = new Int32Array(slotSubject.length).fill(-1);
    this.subjectStamp = new Int32Array(this.members.length).fill(-1);
  }

  static build(subjects: readonly MonitoredSubject[], options: SubjectIndexOptions = {}): SubjectIndex {
    return new SubjectIndex(subjects, options);
  }

  get size(): number {
    return this.subjects.length;
  }

  get keyCount(): number {
    return this.postings.size;
  }

  /** Distinct subject names indexed (subjects sharing a name and type are indexed once). */
  get distinctNames(): number {
    return this.members.length;
  }

  /** Subjects (indexes into `subjects`) that one of the entity's names reaches as the engine would. */
  candidatesFor(entity: Pick<ListEntity, 'names' | 'primaryName' | 'schema'>): Set<number> {
    const out = new Set<number>();
    for (const { nameIds } of this.candidatesByName(entity)) for (const n of nameIds) for (const i of this.members[n]!) out.add(i);
    return out;
  }

  /** The distinct subject names each listed name of the entity reaches (to compare before screening). */
  candidatesByName(entity: Pick<ListEntity, 'names' | 'primaryName' | 'schema'>): { name: string; prepared: PreparedName; nameIds: number[] }[] {
    const records = entity.names?.length ? entity.names : [{ value: entity.primaryName, kind: 'primary' as const }];
    const seen = new Set<string>();
    const out: { name: string; prepared: PreparedName; nameIds: number[] }[] = [];
    for (const record of records) {
      if (!record.value?.trim() || seen.has(record.value)) continue;
      seen.add(record.value);
      const prepared = prepareName(record.value, entity.schema);
      const nameIds = this.candidatesForName(prepared);
      if (nameIds.length) out.push({ name: record.value, prepared, nameIds });
    }
    return out;
  }

  /** Subjects with this distinct name. */
  subjectsOf(nameId: number): readonly number[] {
    return this.members[nameId]!;
  }

  /** The most qualifiers can add to this name's score for any subject carrying it (their facts: country, date of birth, identifiers). */
  qualifierHeadroom(nameId: number): number {
    return this.headroom[nameId]!;
  }

  /** The name prepared as the engine prepares a typed query (cached for candidates only). */
  preparedName(nameId: number): PreparedName {
    let p = this.prepared.get(nameId);
    if (!p) {
      const subject = this.subjects[this.members[nameId]![0]!]!;
      p = prepareName(subject.query, subjectSchema(subject.entityType));
      this.prepared.set(nameId, p);
    }
    return p;
  }

  private candidatesForName(prepared: PreparedName): number[] {
    const gen = ++this.gen;
    const touchedSubjects: number[] = [];
    const keys = listedNameKeys(prepared);
    for (const key of keys) {
      const list = this.postings.get(key);
      if (!list) continue;
      for (let j = 0; j < list.length; j++) {
        const packed = list[j]!;
        const slot = packed >> 4;
        const credit = this.slotWeight[slot]! * ((packed & 15) / 10);
        if (this.stamp[slot] !== gen) {
          this.stamp[slot] = gen;
          this.credit[slot] = credit;
        } else if (credit > this.credit[slot]!) {
          this.credit[slot] = credit;
        }
        const subject = this.slotSubject[slot]!;
        if (this.subjectStamp[subject] !== gen) {
          this.subjectStamp[subject] = gen;
          touchedSubjects.push(subject);
        }
      }
    }
    if (touchedSubjects.length === 0) return [];
    // Sum the credited slots per subject (slots of one subject are contiguous).
    const out: number[] = [];
    const sums = new Map<number, number>();
    for (const subject of touchedSubjects) sums.set(subject, 0);
    for (const key of keys) {
      const list = this.postings.get(key);
      if (!list) continue;
      for (let j = 0; j < list.length; j++) {
        const slot = list[j]! >> 4;
        if (this.stamp[slot] !== gen) continue;
        const subject = this.slotSubject[slot]!;
        sums.set(subject, sums.get(subject)! + this.credit[slot]!);
        this.stamp[slot] = -1; // count each slot once
      }
    }
    for (const [subject, sum] of sums) {
      const total = this.subjectWeight[subject]!;
      if (total > 0 && sum >= total * this.minShare - 1e-6) out.push(subject);
    }
    return out;
  }
}

/**
 * The SubjectIndex of the enrolled subjects, rebuilt only when they changed (compared by a digest
 * of every subject's id, account, name, entity type and jurisdiction).
 */
export class CachedSubjectIndex {
  private cached: { signature: string; index: SubjectIndex } | undefined;

  for(subjects: MonitoredSubject[]): SubjectIndex {
    const hash = createHash('sha256');
    for (const s of subjects) hash.update(`${s.screeningId}\u0000${s.accountId}\u0000${s.query}\u0000${s.entityType}\u0000${s.jurisdiction ?? ''}\u0000${s.facts ? JSON.stringify(s.facts) : ''}\n`);
    const signature = hash.digest('hex');
    if (this.cached?.signature !== signature) this.cached = { signature, index: SubjectIndex.build(subjects) };
    return this.cached.index;
  }
}
