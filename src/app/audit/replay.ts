/**
 * `svc replay --to <timestamp>`: rebuilds read models as they were at a past moment, into separate
 * schemas beside the live ones (`replay_<yyyymmddThhmmss>_<projection>`), so an auditor can query what
 * the service showed then. Events committed (recorded) after the moment are left out; the live read
 * models and checkpoints are not touched. Projections with side effects (the webhook outbox) must not
 * be passed in.
 */
import { stopwatch, type Timer } from '../../shared/clock';
import type pg from 'pg';
import type { EventStore } from '../../infrastructure/eventstore/port';
import { withTransaction } from '../../infrastructure/postgres/pool';
import { quoteIdent, type Projection } from '../../projections/projection';

export interface ReplayResult {
  to: string;
  /** projection name → schema holding its tables as of `to`. */
  schemas: Record<string, string>;
  /** Events at or before `to` (read), and those applied to a projection that handles them. */
  events: number;
  applied: number;
  /** Global position of the last event included. */
  position: string;
  ms: number;
}

export function replaySchemaName(to: Date, projection: string): string {
  const stamp = to.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, '').toLowerCase();
  return `replay_${stamp}_${projection}`;
}

export async function replayReadModels(deps: {
  pool: pg.Pool;
  store: Pick<EventStore, 'readAll'>;
  projections: Projection[];
  to: Date;
  /** Replace schemas of an earlier replay to the same moment (default: refuse). */
  replace?: boolean;
  batchSize?: number;
  timer?: Timer;
}): Promise<ReplayResult> {
  const elapsed = stopwatch(deps.timer);
  if (Number.isNaN(deps.to.getTime())) throw new RangeError('replay: --to must be a valid ISO 8601 timestamp');
  const batchSize = deps.batchSize ?? 1000;
  const schemas: Record<string, string> = {};
  for (const p of deps.projections) schemas[p.name] = replaySchemaName(deps.to, p.name);
  await withTransaction(deps.pool, async (client) => {
    for (const p of deps.projections) {
      const schema = schemas[p.name]!;
      if (deps.replace) await client.query(`DROP SCHEMA IF EXISTS ${quoteIdent(schema)} CASCADE`);
      await client.query(`CREATE SCHEMA ${quoteIdent(schema)}`);
      await p.setup(client, schema);
    }
  });
  const cutoff = deps.to.getTime();
  let after: bigint | undefined;
  let events = 0;
  let applied = 0;
  let position = 0n;
  for (;;) {
    const batch = await deps.store.readAll({ ...(after !== undefined ? { after } : {}), maxCount: batchSize });
    if (batch.length === 0) break;
    // Positions are drawn before commit, so a later position may have committed earlier: filter each event.
    const included = batch.filter((e) => Date.parse(e.recordedAt) <= cutoff);
    await withTransaction(deps.pool, async (client) => {
      for (const e of included) {
        for (const p of deps.projections) {
          if (!p.handles.includes(e.type)) continue;
          await p.apply(client, e, schemas[p.name]!);
          applied++;
        }
      }
    });
    events += included.length;
    if (included.length) position = included[included.length - 1]!.globalPosition;
    after = batch[batch.length - 1]!.globalPosition;
    if (batch.length < batchSize) break;
  }
  return { to: deps.to.toISOString(), schemas, events, applied, position: position.toString(), ms: elapsed() };
}
