/**
 * Idempotency-Key records in PostgreSQL (table `idempotency_keys`, migration 120): a reserve → complete
 * protocol shared by every surface (src/api/http/idempotency.ts is its one HTTP front).
 *
 * - `begin` reserves (scope, key) for one request in one statement: a fresh key, an expired record (older
 *   than its 24 h) or a reservation whose lease passed without an answer (its process crashed) is taken;
 *   otherwise the existing record says what the new request gets (replay, mismatch, still in progress).
 * - `complete` stores the first request's answer; `release` forgets a reservation whose request was refused
 *   before it did anything (validation, limits), so the client may correct the request and reuse the key.
 * Every write names the reservation's owner token, so a request whose lease was taken over never
 * overwrites the new owner's record.
 *
 * - `bind` records the ids the request draws for what it creates, before its command appends (binding.ts).
 *
 * The commands append to the event store, not to this table, so the two are not one transaction. What
 * closes the gap is the binding: a crash after the command's append and before `complete` leaves a
 * reservation with its bound ids; after the lease the retry takes it over (`binding_id` and `bound` are
 * kept), draws the same ids and finds the resource already created, so it answers that resource.
 * A record whose request failed after binding is not forgotten on `release` either (its command may have
 * appended): the lease ends at once, so the retry with the same body takes it over with the same ids.
 */
import { randomUUID } from 'node:crypto';
import type pg from 'pg';

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

export interface StoredResponse {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

export type BeginResult =
  | { kind: 'started'; ownerToken: string; bindingId: string }
  | { kind: 'replay'; response: StoredResponse; contentHash?: string }
  | { kind: 'mismatch' }
  | { kind: 'in_progress'; lockedUntil: Date };

export interface IdempotencyStore {
  begin(input: { scope: string; key: string; requestHash: string; now: Date; leaseMs: number }): Promise<BeginResult>;
  /** `contentHash`: SHA-256 of a streamed body, read while the route streamed it (see migration 210). */
  complete(input: { scope: string; key: string; ownerToken: string; response: StoredResponse; contentHash?: string }): Promise<void>;
  /** Forgets the reservation, or (ids bound: its command may have run) ends its lease at `now`. */
  release(input: { scope: string; key: string; ownerToken: string; now: Date }): Promise<void>;
  /** The values bound to `names` for this key (drawing and binding the missing ones); see binding.ts. */
  bind(input: { scope: string; key: string; names: readonly string[]; draw: (count: number) => Promise<string[]> }): Promise<string[]>;
  /** Deletes records past their 24 h; returns how many. */
  sweep(now: Date): Promise<number>;
}

interface Row {
  request_hash: string;
  owner_token: string;
  locked_until: Date | null;
  response_status: number | null;
  response_headers: Record<string, string> | null;
  response_body: unknown;
  content_hash: string | null;
  expires_at: Date;
}

// Taken when: no row; the row expired; or the row is a reservation for the same request whose lease passed.
// An expired row starts afresh (new binding, nothing bound); a lease taken over keeps its binding and ids.
const RESERVE_SQL = `
INSERT INTO idempotency_keys AS k (scope, idempotency_key, request_hash, created_at, expires_at, locked_until, owner_token, binding_id)
VALUES ($1, $2, $3, $4, $5, $6, $7, $7)
ON CONFLICT (scope, idempotency_key) DO UPDATE
   SET request_hash = EXCLUDED.request_hash, created_at = EXCLUDED.created_at, expires_at = EXCLUDED.expires_at,
       locked_until = EXCLUDED.locked_until, owner_token = EXCLUDED.owner_token,
       response_status = NULL, response_headers = NULL, response_body = NULL,
       binding_id = CASE WHEN k.expires_at <= EXCLUDED.created_at THEN EXCLUDED.binding_id ELSE COALESCE(k.binding_id, EXCLUDED.binding_id) END,
       bound = CASE WHEN k.expires_at <= EXCLUDED.created_at THEN '{}'::jsonb ELSE k.bound END
 WHERE k.expires_at <= EXCLUDED.created_at
    OR (k.response_status IS NULL AND k.locked_until <= EXCLUDED.created_at AND k.request_hash = EXCLUDED.request_hash)
RETURNING owner_token, binding_id`;

export class PgIdempotencyStore implements IdempotencyStore {
  constructor(
    private readonly pool: Pick<pg.Pool, 'query'>,
    private readonly ttlMs: number = IDEMPOTENCY_TTL_MS,
  ) {}

  async begin(input: { scope: string; key: string; requestHash: string; now: Date; leaseMs: number }): Promise<BeginResult> {
    const { scope, key, requestHash, now, leaseMs } = input;
    // Two attempts: the row seen by the reservation may be released before it is read back.
    for (let attempt = 0; attempt < 2; attempt++) {
      const ownerToken = randomUUID();
      const reserved = await this.pool.query<{ owner_token: string; binding_id: string }>(RESERVE_SQL, [
        scope,
        key,
        requestHash,
        now,
        new Date(now.getTime() + this.ttlMs),
        new Date(now.getTime() + leaseMs),
        ownerToken,
      ]);
      const mine = reserved.rows[0];
      if (mine?.owner_token === ownerToken) return { kind: 'started', ownerToken, bindingId: mine.binding_id };
      const { rows } = await this.pool.query<Row>(
        `SELECT request_hash, owner_token, locked_until, response_status, response_headers, response_body, content_hash, expires_at
           FROM idempotency_keys WHERE scope = $1 AND idempotency_key = $2`,
        [scope, key],
      );
      const row = rows[0];
      if (!row) continue;
      if (row.request_hash !== requestHash) return { kind: 'mismatch' };
      if (row.response_status !== null) {
        return { kind: 'replay', response: { status: row.response_status, headers: row.response_headers ?? {}, body: row.response_body }, ...(row.content_hash ? { contentHash: row.content_hash } : {}) };
      }
      return { kind: 'in_progress', lockedUntil: row.locked_until ?? now };
    }
    return { kind: 'in_progress', lockedUntil: now };
  }

  async complete(input: { scope: string; key: string; ownerToken: string; response: StoredResponse; contentHash?: string }): Promise<void> {
    await this.pool.query(
      `UPDATE idempotency_keys SET response_status = $4, response_headers = $5, response_body = $6, content_hash = $7, locked_until = NULL
        WHERE scope = $1 AND idempotency_key = $2 AND owner_token = $3`,
      [input.scope, input.key, input.ownerToken, input.response.status, JSON.stringify(input.response.headers), JSON.stringify(input.response.body ?? null), input.contentHash ?? null],
    );
  }

  async release(input: { scope: string; key: string; ownerToken: string; now: Date }): Promise<void> {
    const mine = 'scope = $1 AND idempotency_key = $2 AND owner_token = $3 AND response_status IS NULL';
    const params = [input.scope, input.key, input.ownerToken];
    const deleted = await this.pool.query(`DELETE FROM idempotency_keys WHERE ${mine} AND bound = '{}'::jsonb`, params);
    if ((deleted.rowCount ?? 0) === 0) await this.pool.query(`UPDATE idempotency_keys SET locked_until = $4 WHERE ${mine}`, [...params, input.now]);
  }

  async bind(input: { scope: string; key: string; names: readonly string[]; draw: (count: number) => Promise<string[]> }): Promise<string[]> {
    const where = 'scope = $1 AND idempotency_key = $2';
    const { rows } = await this.pool.query<{ bound: Record<string, string> }>(`SELECT bound FROM idempotency_keys WHERE ${where}`, [input.scope, input.key]);
    let bound = rows[0]?.bound ?? {};
    const missing = input.names.filter((name) => bound[name] === undefined);
    if (missing.length > 0) {
      const drawn = await input.draw(missing.length);
      const fresh = Object.fromEntries(missing.map((name, i) => [name, drawn[i]!]));
      // `fresh || bound`: a value another attempt bound meanwhile wins over ours.
      const updated = await this.pool.query<{ bound: Record<string, string> }>(
        `UPDATE idempotency_keys SET bound = $3::jsonb || bound WHERE ${where} RETURNING bound`,
        [input.scope, input.key, JSON.stringify(fresh)],
      );
      bound = updated.rows[0]?.bound ?? { ...fresh, ...bound };
    }
    return input.names.map((name) => bound[name]!);
  }

  async sweep(now: Date): Promise<number> {
    const result = await this.pool.query('DELETE FROM idempotency_keys WHERE expires_at <= $1', [now]);
    return result.rowCount ?? 0;
  }
}
