/**
 * `svc audit verify`: walks the whole event store in global order and reports every event that was
 * altered, removed or reordered after it was written.
 *
 * Per stream, from what the store returns:
 * - altered: an event's stored hash is not the hash of its content (type, data, metadata) chained on its
 *   previousHash; or its hash was recomputed after an edit, which the NEXT event still exposes (it
 *   chains to the original hash) — the edited event is reported, not the honest one after it;
 * - removed: a stream position is missing (positions are 0..n without gaps), or the stream's head
 *   row (PostgreSQL `streams`: last position and last hash) says there were more events, or another last one;
 * - reordered: in global order, a stream's positions do not increase (an event was moved).
 * Each problem names the stream and the 0-based stream position, and the global position when known.
 */
import { stopwatch, type Timer } from '../../shared/clock';
import type pg from 'pg';
import { computeEventHash, GENESIS_HASH } from '../../infrastructure/eventstore/hashChain';
import type { EventStore } from '../../infrastructure/eventstore/port';

export type IntegrityProblemKind = 'altered' | 'removed' | 'reordered';

export interface IntegrityProblem {
  kind: IntegrityProblemKind;
  stream: string;
  /** 0-based stream position of the event concerned (for a removal: the first missing position). */
  position: number;
  globalPosition?: string;
  detail: string;
}

export interface VerifyReport {
  ok: boolean;
  events: number;
  streams: number;
  problems: IntegrityProblem[];
  ms: number;
}

interface Seen {
  position: number;
  global: bigint;
  previousHash: string | undefined;
  hash: string | undefined;
  contentOk: boolean;
}

export async function verifyStore(deps: { store: Pick<EventStore, 'readAll'>; pool?: pg.Pool; batchSize?: number; timer?: Timer }): Promise<VerifyReport> {
  const elapsed = stopwatch(deps.timer);
  const batchSize = deps.batchSize ?? 2000;
  const streams = new Map<string, Seen[]>();
  const problems: IntegrityProblem[] = [];
  let events = 0;
  let after: bigint | undefined;
  for (;;) {
    const batch = await deps.store.readAll({ ...(after !== undefined ? { after } : {}), maxCount: batchSize });
    if (batch.length === 0) break;
    for (const e of batch) {
      events++;
      const list = streams.get(e.streamName) ?? [];
      if (!streams.has(e.streamName)) streams.set(e.streamName, list);
      const previousHash = e.metadata.previousHash;
      let contentOk = false;
      try {
        contentOk = previousHash !== undefined && e.metadata.hash === computeEventHash(e, previousHash);
      } catch {
        contentOk = false;
      }
      list.push({ position: Number(e.streamPosition), global: e.globalPosition, previousHash, hash: e.metadata.hash, contentOk });
    }
    after = batch[batch.length - 1]!.globalPosition;
    if (batch.length < batchSize) break;
  }

  for (const [stream, seen] of streams) {
    // Reordered: in global order, each event's stream position must exceed every earlier one.
    let max = -1;
    const moved = new Set<number>();
    for (const s of seen) {
      if (s.position <= max) {
        moved.add(s.position);
        moved.add(max);
        problems.push({ kind: 'reordered', stream, position: s.position, globalPosition: s.global.toString(), detail: `stream position ${s.position} comes after position ${max} in the global order` });
      }
      max = Math.max(max, s.position);
    }
    const byPosition = [...seen].sort((a, b) => a.position - b.position);
    let expected = 0;
    let previous: Seen | undefined;
    for (const s of byPosition) {
      if (s.position > expected) {
        problems.push({ kind: 'removed', stream, position: expected, detail: `stream positions ${expected}..${s.position - 1} are missing` });
        previous = undefined; // the chain cannot be followed across the gap
      }
      expected = s.position + 1;
      if (!s.contentOk) {
        problems.push({ kind: 'altered', stream, position: s.position, globalPosition: s.global.toString(), detail: 'the stored hash is not the hash of the event content' });
      } else if (previous && s.previousHash !== previous.hash && !moved.has(s.position) && !moved.has(previous.position)) {
        // This event is intact and chains to something else: the event before it was rewritten (hash recomputed).
        problems.push({
          kind: 'altered',
          stream,
          position: previous.position,
          globalPosition: previous.global.toString(),
          detail: `rewritten with a recomputed hash: the next event (position ${s.position}) chains to the original`,
        });
      } else if (!previous && s.position === 0 && s.previousHash !== GENESIS_HASH) {
        problems.push({ kind: 'altered', stream, position: 0, globalPosition: s.global.toString(), detail: 'the first event does not chain to the genesis hash' });
      }
      previous = s;
    }
  }

  // The stream heads PostgreSQL keeps: a removed last event, a rewritten last event, a removed stream.
  if (deps.pool) {
    const { rows } = await deps.pool.query<{ stream_name: string; stream_position: string; last_hash: string }>(
      'SELECT stream_name, stream_position::text, last_hash FROM streams',
    );
    for (const head of rows) {
      const seen = streams.get(head.stream_name);
      const headPosition = Number(head.stream_position);
      const last = seen ? seen.reduce((a, b) => (b.position > a.position ? b : a)) : undefined;
      if (!last || last.position < headPosition) {
        problems.push({ kind: 'removed', stream: head.stream_name, position: last ? last.position + 1 : 0, detail: `the stream head says position ${headPosition} exists` });
      } else if (last.position === headPosition && last.hash !== head.last_hash && last.contentOk) {
        problems.push({ kind: 'altered', stream: head.stream_name, position: last.position, globalPosition: last.global.toString(), detail: 'rewritten with a recomputed hash: the stream head keeps the original hash' });
      }
    }
  }

  problems.sort((a, b) => a.stream.localeCompare(b.stream) || a.position - b.position);
  return { ok: problems.length === 0, events, streams: streams.size, problems, ms: elapsed() };
}
