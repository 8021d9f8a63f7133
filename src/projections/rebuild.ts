/**
 * Rebuild a read model from the whole history (`svc projections rebuild <name>`):
 * 1. create a fresh schema beside the live one and run setup() in it;
 * 2. replay every event into it in batches (one transaction per batch), without blocking the runner;
 * 3. swap in one transaction: lock the projection's checkpoint row (the live runner waits on it),
 *    apply whatever was appended meanwhile, rename live → old, fresh → live, drop old, and set the
 *    checkpoint (and version) to the rebuilt position. The runner then skips what the rebuild applied.
 */
import { stopwatch, type Timer } from '../shared/clock';
import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import type { EventStore } from '../infrastructure/eventstore/port';
import { silentLogger, type InfraLogger } from '../infrastructure/postgres/log';
import { withTransaction as inTransaction } from '../infrastructure/postgres/pool';
import { applyEvents, projectionSchema, quoteIdent, type Projection } from './projection';

export interface RebuildOptions {
  pool: pg.Pool;
  store: Pick<EventStore, 'readAll'> & { headPosition?: () => Promise<bigint> };
  projection: Projection;
  /** Events read per batch/transaction (default 1000). */
  batchSize?: number;
  logger?: InfraLogger;
  /** Measures how long the rebuild took (default: the system's monotonic time). */
  timer?: Timer;
}

export interface RebuildResult {
  schema: string;
  /** Checkpoint the rebuilt read model was swapped in at. */
  position: bigint;
  /** Events applied (handled ones only). */
  applied: number;
  ms: number;
}

export async function rebuildProjection(options: RebuildOptions): Promise<RebuildResult> {
  const { pool, store, projection } = options;
  const logger = options.logger ?? silentLogger;
  const batchSize = options.batchSize ?? 1000;
  const live = projectionSchema(projection.name);
  // unique per rebuild; random rather than time-based so no clock is read here
  const suffix = randomBytes(5).toString('hex');
  const fresh = `${live}__rebuild_${suffix}`;
  const retired = `${live}__old_${suffix}`;
  const handles = new Set(projection.handles);
  const elapsed = stopwatch(options.timer);
  let position = 0n;
  let applied = 0;

  await inTransaction(pool, async (client) => {
    await client.query(`CREATE SCHEMA ${quoteIdent(fresh)}`);
    await projection.setup(client, fresh);
  });
  try {
    // Replay outside the swap lock, up to the head as it was when the replay began: the live runner
    // keeps going meanwhile, and chasing a head that writers keep moving might never end.
    const replayHead = store.headPosition ? await store.headPosition() : undefined;
    for (;;) {
      const events = (await store.readAll({ after: position, maxCount: batchSize })).filter(
        (event) => replayHead === undefined || event.globalPosition <= replayHead,
      );
      if (events.length === 0) break;
      await inTransaction(pool, async (client) => {
        const handled = events.filter((event) => handles.has(event.type));
        await applyEvents(projection, client, handled, fresh);
        applied += handled.length;
      });
      position = events[events.length - 1]!.globalPosition;
      if (events.length < batchSize) break;
      if (replayHead !== undefined && position >= replayHead) break;
    }

    await inTransaction(pool, async (client) => {
      await client.query(
        `INSERT INTO projection_checkpoints (name, position, version) VALUES ($1, 0, $2) ON CONFLICT (name) DO NOTHING`,
        [projection.name, projection.version],
      );
      await client.query('SELECT position FROM projection_checkpoints WHERE name = $1 FOR UPDATE', [projection.name]);
      // Catch up with what was appended during the replay while the runner is held off, up to the
      // head as it is now: events appended from here on are the live runner's (it resumes past our
      // checkpoint). Chasing a moving head could go on for as long as writers keep writing.
      const head = store.headPosition ? await store.headPosition() : undefined;
      for (;;) {
        const events = await store.readAll({ after: position, maxCount: batchSize });
        const upToHead = events.filter((event) => head === undefined || event.globalPosition <= head);
        const handled = upToHead.filter((event) => handles.has(event.type));
        await applyEvents(projection, client, handled, fresh);
        applied += handled.length;
        if (upToHead.length > 0) position = upToHead[upToHead.length - 1]!.globalPosition;
        if (events.length < batchSize) break;
        if (head !== undefined && position >= head) break;
        if (head !== undefined && events[events.length - 1]!.globalPosition > head) break;
      }
      const exists = await client.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [live]);
      if (exists.rowCount) await client.query(`ALTER SCHEMA ${quoteIdent(live)} RENAME TO ${quoteIdent(retired)}`);
      await client.query(`ALTER SCHEMA ${quoteIdent(fresh)} RENAME TO ${quoteIdent(live)}`);
      if (exists.rowCount) await client.query(`DROP SCHEMA ${quoteIdent(retired)} CASCADE`);
      // The rebuilt model reflects everything up to `position`, at least as far as the live one did.
      await client.query(
        `UPDATE projection_checkpoints SET position = GREATEST(position, $2), version = $3, updated_at = now() WHERE name = $1`,
        [projection.name, String(position), projection.version],
      );
      const { rows } = await client.query<{ position: string }>('SELECT position FROM projection_checkpoints WHERE name = $1', [
        projection.name,
      ]);
      position = BigInt(rows[0]!.position);
    });
  } catch (err) {
    await pool.query(`DROP SCHEMA IF EXISTS ${quoteIdent(fresh)} CASCADE`).catch(() => undefined);
    throw err;
  }
  const result = { schema: live, position, applied, ms: elapsed() };
  logger.info({ projection: projection.name, ...result, position: String(position) }, 'projection rebuilt and swapped in');
  return result;
}

/** `svc projections rebuild <name>`: looks the projection up by name among the registered ones. */
export async function rebuildProjectionByName(
  name: string,
  options: Omit<RebuildOptions, 'projection'> & { projections: Projection[] },
): Promise<RebuildResult> {
  const projection = options.projections.find((p) => p.name === name);
  if (!projection) {
    const known = options.projections.map((p) => p.name).join(', ') || '(none registered)';
    throw new Error(`Unknown projection ${JSON.stringify(name)}; known projections: ${known}`);
  }
  return rebuildProjection({ ...options, projection });
}
