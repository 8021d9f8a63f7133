/**
 * Per-stream hash chain, filled by every adapter on append so auditors can verify a stream:
 * hash = SHA-256( canonicalJson({ type, data, metadata-without-hash, previousHash }) ), hex.
 * metadata.previousHash is the hash of the previous event of the same stream, GENESIS_HASH for the first.
 * Canonical JSON: keys sorted (code-unit order) at every level, no whitespace, undefined members
 * dropped, as JSON.stringify would write values otherwise; so it survives a jsonb round trip.
 */
import { createHash } from 'node:crypto';
import type { Event, EventMetadata } from '../../shared/events';

export const GENESIS_HASH = '0'.repeat(64);

export function canonicalJson(value: unknown): string {
  // Plain loops and string appends: every appended event is hashed, so this is on the hot path.
  switch (typeof value) {
    case 'string':
    case 'number':
    case 'boolean':
      return JSON.stringify(value);
    case 'bigint':
      throw new TypeError('canonicalJson: bigint is not JSON; store it as a string');
    case 'object':
      if (value === null) return 'null';
      break;
    default:
      return 'null'; // undefined, a function or a symbol, as an array item would be written
  }
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out += ',';
      const item: unknown = value[i];
      out += item === undefined ? 'null' : canonicalJson(item);
    }
    return out + ']';
  }
  if (value instanceof Date) return JSON.stringify(value.toISOString());
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  // Most objects are built with their keys in order already: sorting is then skipped.
  if (!inOrder(keys)) keys.sort();
  let out = '{';
  let first = true;
  for (const key of keys) {
    const member = record[key];
    if (member === undefined) continue;
    if (!first) out += ',';
    first = false;
    out += quotedKey(key) + ':' + canonicalJson(member);
  }
  return out + '}';
}

/** Keys in code-unit order (Array#sort's default order for strings). */
function inOrder(keys: string[]): boolean {
  for (let i = 1; i < keys.length; i++) if (keys[i - 1]! > keys[i]!) return false;
  return true;
}

/**
 * A key as JSON. The events' keys are few (their field names), so each is quoted once; the map is
 * bounded for data whose keys are values (ids), which are quoted each time once it is full.
 */
const quotedKeys = new Map<string, string>();
const QUOTED_KEYS_MAX = 4_096;
function quotedKey(key: string): string {
  let quoted = quotedKeys.get(key);
  if (quoted === undefined) {
    quoted = JSON.stringify(key);
    if (quotedKeys.size < QUOTED_KEYS_MAX) quotedKeys.set(key, quoted);
  }
  return quoted;
}

export function computeEventHash(event: Pick<Event, 'type' | 'data' | 'metadata'>, previousHash: string): string {
  return hashWithDataJson(event, event.data === undefined ? undefined : canonicalJson(event.data), previousHash);
}

/**
 * The hash, given the canonical JSON of the data (the store writes that same text, so the data is
 * serialised once). Spelled out, the payload is canonicalJson({ type, data, metadata, previousHash }):
 * its keys in sorted order are data, metadata, previousHash, type.
 */
function hashWithDataJson(event: Pick<Event, 'type' | 'metadata'>, dataJson: string | undefined, previousHash: string): string {
  const { hash: _ignored, ...metadataWithoutHash } = event.metadata;
  const payload =
    '{' +
    (dataJson === undefined ? '' : `"data":${dataJson},`) +
    `"metadata":${canonicalJson({ ...metadataWithoutHash, previousHash })},"previousHash":${JSON.stringify(previousHash)},"type":${JSON.stringify(event.type)}}`;
  return createHash('sha256').update(payload, 'utf8').digest('hex');
}

/** Returns the events with metadata.previousHash/hash filled, chaining from previousHash. */
export function chainEvents<E extends Pick<Event, 'type' | 'data' | 'metadata'>>(
  events: E[],
  previousHash: string,
  /** canonicalJson of each event's data (undefined for none), when the caller has it already. */
  dataJson?: (string | undefined)[],
): E[] {
  let previous = previousHash;
  return events.map((event, index) => {
    const metadata: EventMetadata = { ...event.metadata, previousHash: previous };
    delete metadata.hash;
    const json = dataJson ? dataJson[index] : event.data === undefined ? undefined : canonicalJson(event.data);
    const hash = hashWithDataJson({ type: event.type, metadata }, json, previous);
    previous = hash;
    return { ...event, metadata: { ...metadata, hash } };
  });
}

export type ChainVerification = { ok: true; lastHash: string } | { ok: false; index: number; reason: string };

/** Verifies a whole stream read from the start, in stream order. */
export function verifyHashChain(events: Pick<Event, 'type' | 'data' | 'metadata'>[]): ChainVerification {
  let previous = GENESIS_HASH;
  for (const [index, event] of events.entries()) {
    if (event.metadata.previousHash !== previous) return { ok: false, index, reason: 'previousHash does not match the previous event' };
    const expected = computeEventHash(event, previous);
    if (event.metadata.hash !== expected) return { ok: false, index, reason: 'hash does not match the event content' };
    previous = expected;
  }
  return { ok: true, lastHash: previous };
}
