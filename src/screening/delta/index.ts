import { createHash } from 'node:crypto';
import type { ListEntity, ListVersion } from '../model';

/** The entity fields a delta compares (everything but id/source/sourceId/listVersion). */
export const COMPARED_FIELDS = [
  'schema',
  'topics',
  'primaryName',
  'names',
  'birthDates',
  'birthPlaces',
  'nationalities',
  'countries',
  'addresses',
  'identifiers',
  'programs',
  'listedOn',
  'remarks',
  'sourceUrl',
  'gender',
  'titles',
  'links',
  'extra',
] as const satisfies readonly (keyof ListEntity)[];

export type ComparedField = (typeof COMPARED_FIELDS)[number];

export interface EntityChange {
  id: string;
  before: ListEntity;
  after: ListEntity;
  /** Which fields differ, in COMPARED_FIELDS order. */
  fields: ComparedField[];
}

export interface ListDelta {
  source?: string;
  fromVersion?: string;
  toVersion?: string;
  added: ListEntity[];
  removed: ListEntity[];
  changed: EntityChange[];
  unchanged: number;
}

/** JSON with object keys sorted and undefined dropped, so equal content gives equal text. */
function canonical(v: unknown): string {
  if (v === undefined || v === null) return 'null';
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o)
      .filter((k) => o[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`)
      .join(',')}}`;
  }
  if (typeof v === 'string') return JSON.stringify(v.normalize('NFC').replace(/\s+/g, ' ').trim());
  return JSON.stringify(v);
}

/**
 * Normalised form of one field: arrays are order-insensitive (a publisher reordering aliases is not a
 * change), strings are whitespace-normalised, empty arrays equal absent ones.
 */
function fieldKey(e: ListEntity, f: ComparedField): string {
  const v = e[f] as unknown;
  if (Array.isArray(v)) {
    if (!v.length) return 'null';
    return `[${v.map(canonical).sort().join(',')}]`;
  }
  if (v && typeof v === 'object' && !Object.keys(v).length) return 'null';
  return canonical(v);
}

/** SHA-256 over the normalised content of an entity, ignoring its list version. */
export function entityFingerprint(e: ListEntity): string {
  const h = createHash('sha256');
  for (const f of COMPARED_FIELDS) h.update(`${f}=${fieldKey(e, f)}\n`);
  return h.digest('hex');
}

/** Added / removed / changed entities between two versions of one list, matched by entity id. */
export function computeDelta(
  before: ListEntity[],
  after: ListEntity[],
  versions: { from?: ListVersion; to?: ListVersion } = {},
): ListDelta {
  const old = new Map(before.map((e) => [e.id, e]));
  const added: ListEntity[] = [];
  const changed: EntityChange[] = [];
  let unchanged = 0;
  const seen = new Set<string>();
  for (const a of after) {
    seen.add(a.id);
    const b = old.get(a.id);
    if (!b) {
      added.push(a);
      continue;
    }
    if (entityFingerprint(a) === entityFingerprint(b)) {
      unchanged++;
      continue;
    }
    const fields = COMPARED_FIELDS.filter((f) => fieldKey(a, f) !== fieldKey(b, f));
    changed.push({ id: a.id, before: b, after: a, fields });
  }
  const removed = before.filter((b) => !seen.has(b.id));
  return {
    source: versions.to?.source ?? versions.from?.source ?? after[0]?.source ?? before[0]?.source,
    ...(versions.from ? { fromVersion: versions.from.id } : {}),
    ...(versions.to ? { toVersion: versions.to.id } : {}),
    added,
    removed,
    changed,
    unchanged,
  };
}

/** Counts of a delta, and how often each field changed: what `svc lists update` prints. */
export function summariseDelta(d: ListDelta): {
  added: number;
  removed: number;
  changed: number;
  unchanged: number;
  fieldsChanged: Record<string, number>;
} {
  const fieldsChanged: Record<string, number> = {};
  for (const c of d.changed) for (const f of c.fields) fieldsChanged[f] = (fieldsChanged[f] ?? 0) + 1;
  return { added: d.added.length, removed: d.removed.length, changed: d.changed.length, unchanged: d.unchanged, fieldsChanged };
}
