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
 * The commands themselves append to the event store, not to this table, so the two are not one transaction:
 * a crash after the command's append and before `complete` leaves a reservation that expires after its
 * lease, and a retry after that runs the command again. The lease is longer than any create answer takes.
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
  | { kind: 'started'; ownerToken: string }
  | { kind: 'replay'; response: StoredResponse }
  | { kind: 'mismatch' }
  | { kind: 'in_progress'; lockedUntil: Date };

export interface IdempotencyStore {
  begin(input: { scope: string; key: string; requestHash: string; now: Date; leaseMs: number }): Promise<BeginResult>;
  complete(input: { scope: string; key: string; ownerToken: string; response: StoredResponse }): Promise<void>;
  release(input: { scope: string; key: string; ownerToken: string }): Promise<void>;
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
  expires_at: Date;
}

// Taken when: no row; the row expired; or the row is a reservation for the same request whose lease passed.
const RESERVE_SQL = `
INSERT INTO idempotency_keys AS k (scope, idempotency_key, request_hash, created_at, expires_at, locked_until, owner_token)
VALUES ($1, $2, $3, $4, $5, $6, $7)
ON CONFLICT (scope, idempotency_key) DO UPDATE
   SET request_hash = EXCLUDED.request_hash, created_at = EXCLUDED.created_at, expires_at = EXCLUDED.expires_at,
       locked_until = EXCLUDED.locked_until, owner_token = EXCLUDED.owner_token,
       response_status = NULL, response_headers = NULL, response_body = NULL
 WHERE k.expires_at <= EXCLUDED.created_at
    OR (k.response_status IS NULL AND k.locked_until <= EXCLUDED.created_at AND k.request_hash = EXCLUDED.request_hash)
RETURNING owner_token`;

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
      const reserved = await this.pool.query<{ owner_token: string }>(RESERVE_SQL, [
        scope,
        key,
        requestHash,
        now,
        new Date(now.getTime() + this.ttlMs),
        new Date(now.getTime() + leaseMs),
        ownerToken,
      ]);
      if (reserved.rows[0]?.owner_token === ownerToken) return { kind: 'started', ownerToken };
      const { rows } = await this.pool.query<Row>(
        `SELECT request_hash, owner_token, locked_until, response_status, response_headers, response_body, expires_at
           FROM idempotency_keys WHERE scope = $1 AND idempotency_key = $2`,
        [scope, key],
      );
      const row = rows[0];
      if (!row) continue;
      if (row.request_hash !== requestHash) return { kind: 'mismatch' };
      if (row.response_status !== null) {
        return { kind: 'replay', response: { status: row.response_status, headers: row.response_headers ?? {}, body: row.response_body } };
      }
      return { kind: 'in_progress', lockedUntil: row.locked_until ?? now };
    }
    return { kind: 'in_progress', lockedUntil: now };
  }

  async complete(input: { scope: string; key: string; ownerToken: string; response: StoredResponse }): Promise<void> {
    await this.pool.query(
      `UPDATE idempotency_keys SET response_status = $4, response_headers = $5, response_body = $6, locked_until = NULL
        WHERE scope = $1 AND idempotency_key = $2 AND owner_token = $3`,
      [input.scope, input.key, input.ownerToken, input.response.status, JSON.stringify(input.response.headers), JSON.stringify(input.response.body ?? null)],
    );
  }

  async release(input: { scope: string; key: string; ownerToken: string }): Promise<void> {
    await this.pool.query('DELETE FROM idempotency_keys WHERE scope = $1 AND idempotency_key = $2 AND owner_token = $3 AND response_status IS NULL', [
      input.scope,
      input.key,
      input.ownerToken,
    ]);
  }

  async sweep(now: Date): Promise<number> {
    const result = await this.pool.query('DELETE FROM idempotency_keys WHERE expires_at <= $1', [now]);
    return result.rowCount ?? 0;
  }
}
