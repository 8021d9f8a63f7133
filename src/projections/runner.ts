/**
 * Runs projections: one shared subscription to all events, each projection from its own checkpoint.
 * The events of a read batch that a projection handles are applied in one transaction with its
 * checkpoint row, which is locked
 * (FOR UPDATE) and compared first, so a crash, a redelivery or a concurrent rebuild never applies an
 * event twice. Unhandled events only move the checkpoint, in batches. A read model that may lag
 * (Projection.mayLag) has its events held until the idle flush (every second), caughtUp() or a
 * full batch; a statement a read model leaves for the commit goes with it. A projection whose stored
 * version differs from its code is rebuilt (see rebuild.ts) before it starts.
 */
import type pg from 'pg';
import type { RecordedEvent } from '../shared/events';
import { subscribeInBatches, type EventStore, type Subscription } from '../infrastructure/eventstore/port';
import { silentLogger, type InfraLogger } from '../infrastructure/postgres/log';
import { applyEvents, projectionSchema, quoteIdent, type CommitRoundTrip, type HeadPositionSource, type Projection } from './projection';
import { rebuildProjection } from './rebuild';
import type { HopSpan, Telemetry } from '../infrastructure/telemetry/telemetry';

export interface ProjectionRunnerOptions {
  pool: pg.Pool;
  store: EventStore & Partial<HeadPositionSource>;
  projections: Projection[];
  logger?: InfraLogger;
  /** Subscription poll interval (ms) for stores without push. */
  pollIntervalMs?: number;
  /** Transient database errors are retried this many times before the projection stops (default 5). */
  maxRetries?: number;
  /** Unhandled events move the checkpoint every this many events, or when idle (default 500). */
  skipFlushEvery?: number;
  /** The idle flush (positions reached through unhandled events, events held by read models that may lag) runs this often (ms, default 1000). */
  flushIntervalMs?: number;
  /** The projection_batch hop: a span per trace among a batch's events, and the duration histogram. */
  telemetry?: Telemetry;
}

export type ProjectionStatus = 'stopped' | 'starting' | 'running' | 'failed';

export interface ProjectionLag {
  name: string;
  /** Last position the projection has processed (applied or skipped). */
  checkpoint: bigint;
  /** Last committed position in the store. */
  head: bigint;
  /** head − checkpoint: the metric to export (0 when caught up). */
  lag: bigint;
  status: ProjectionStatus;
  error?: string;
}

interface Running {
  projection: Projection;
  handles: Set<string>;
  schema: string;
  status: ProjectionStatus;
  processed: bigint;
  persisted: bigint;
  unflushed: number;
  /** A read model that may lag (Projection.mayLag): its events held for a later transaction, past `processed`. */
  held: RecordedEvent[];
  subscription?: Subscription;
  error?: Error;
}

const TRANSIENT = /^(08|40001|40P01|53|57P0[123])/;

export class ProjectionRunner {
  private readonly logger: InfraLogger;
  private readonly running = new Map<string, Running>();
  private shared: Subscription | undefined;
  private flushTimer: NodeJS.Timeout | undefined;
  private readonly batchListeners: ((batch: readonly RecordedEvent[]) => void)[] = [];
  /** Read batches and flushes of held events run one after the other. */
  private chain: Promise<void> = Promise.resolve();

  constructor(private readonly options: ProjectionRunnerOptions) {
    this.logger = options.logger ?? silentLogger;
    for (const projection of options.projections) {
      if (this.running.has(projection.name)) throw new Error(`Two projections are named ${projection.name}`);
      this.running.set(projection.name, {
        projection,
        handles: new Set(projection.handles),
        schema: projectionSchema(projection.name),
        status: 'stopped',
        processed: 0n,
        persisted: 0n,
        unflushed: 0,
        held: [],
      });
    }
  }

  /**
   * Prepares (or rebuilds) every projection's schema, then follows the store with ONE subscription
   * from the lowest checkpoint: each event is read once and offered to every projection past it
   * (one subscription per projection read every event once per read model). A projection whose
   * apply fails is marked failed and skipped from then on, as its own subscription used to stop;
   * the others carry on, and its checkpoint stays where it was, so a restart resumes it.
   */
  async start(): Promise<void> {
    let from: bigint | undefined;
    for (const state of this.running.values()) {
      state.status = 'starting';
      state.error = undefined;
      const checkpoint = await this.prepare(state.projection);
      state.processed = checkpoint;
      state.persisted = checkpoint;
      state.held = [];
      if (from === undefined || checkpoint < from) from = checkpoint;
    }
    const shared = subscribeInBatches(
      this.options.store,
      (batch) => this.handleBatch(batch),
      {
        after: from ?? 0n,
        ...(this.options.pollIntervalMs ? { pollIntervalMs: this.options.pollIntervalMs } : {}),
        onError: (err) => {
          for (const state of this.running.values()) {
            if (state.status !== 'running') continue;
            state.status = 'failed';
            state.error = err;
          }
          this.logger.error({ err: { message: err.message } }, 'projection subscription stopped on error');
        },
      },
    );
    this.shared = shared;
    // When idle: the positions reached through unhandled events, all read models in one statement,
    // and the events a lagging read model still holds.
    this.flushTimer = setInterval(() => {
      void this.flushSkipped().catch(() => undefined);
      if ([...this.running.values()].some((state) => state.held.length > 0)) void this.flushHeld().catch(() => undefined);
    }, this.options.flushIntervalMs ?? 1000);
    this.flushTimer.unref();
    for (const state of this.running.values()) {
      state.subscription = shared;
      state.status = 'running';
      this.logger.info({ projection: state.projection.name, checkpoint: String(state.processed) }, 'projection started');
    }
  }

  /**
   * Resolves once every running projection has processed everything committed before the call, and
   * its checkpoint row says so (tools and tests compare checkpoints).
   */
  async caughtUp(): Promise<void> {
    await this.applied();
    await this.flushHeld();
    this.throwIfFailed();
    await this.flushSkipped();
  }

  /**
   * Read-your-writes for request handlers: every read model shows everything committed before the
   * call (or, with `through`, everything up to that global position: no query for the head), but
   * those that may lag (Projection.mayLag), whose readers fold what they have not applied from the stream.
   * Positions reached through events a read model ignores are persisted later (timer, batches).
   */
  async applied(through?: bigint): Promise<void> {
    if (!this.shared) throw new Error('projections are not running');
    await this.shared.caughtUp(through);
    this.throwIfFailed();
  }

  /** A failed projection can never catch up: say so instead of pretending. */
  private throwIfFailed(): void {
    const failed = [...this.running.values()].find((state) => state.status === 'failed');
    if (failed) throw failed.error ?? new Error(`projection ${failed.projection.name} failed`);
  }

  async stop(): Promise<void> {
    clearInterval(this.flushTimer);
    await this.shared?.stop();
    this.shared = undefined;
    await this.flushHeld().catch(() => undefined);
    await this.flushSkipped().catch(() => undefined);
    for (const state of this.running.values()) {
      state.subscription = undefined;
      if (state.status !== 'failed') state.status = 'stopped';
    }
  }

  /** Lag per projection (head − checkpoint), for the metrics endpoint. */
  async lag(): Promise<ProjectionLag[]> {
    const head = await this.headPosition();
    const { rows } = await this.options.pool.query<{ name: string; position: string }>(
      'SELECT name, position FROM projection_checkpoints WHERE name = ANY($1::text[])',
      [[...this.running.keys()]],
    );
    const stored = new Map(rows.map((r) => [r.name, BigInt(r.position)]));
    return [...this.running.values()].map((state) => {
      const fromDb = stored.get(state.projection.name) ?? 0n;
      const checkpoint = state.processed > fromDb ? state.processed : fromDb;
      const lag = head > checkpoint ? head - checkpoint : 0n;
      return {
        name: state.projection.name,
        checkpoint,
        head,
        lag,
        status: state.status,
        ...(state.error ? { error: state.error.message } : {}),
      };
    });
  }

  private async headPosition(): Promise<bigint> {
    if (typeof this.options.store.headPosition === 'function') return this.options.store.headPosition();
    const { rows } = await this.options.pool.query<{ head: string | null }>('SELECT max(global_position) AS head FROM events');
    return rows[0]?.head ? BigInt(rows[0].head) : 0n;
  }

  /** Creates schema + checkpoint on first run, rebuilds on a version change; returns the checkpoint. */
  private async prepare(projection: Projection): Promise<bigint> {
    const { pool } = this.options;
    const schema = projectionSchema(projection.name);
    const existing = await pool.query<{ position: string; version: number }>(
      'SELECT position, version FROM projection_checkpoints WHERE name = $1',
      [projection.name],
    );
    const row = existing.rows[0];
    if (row && row.version === projection.version) return BigInt(row.position);
    if (row) {
      this.logger.info({ projection: projection.name, from: row.version, to: projection.version }, 'projection version changed: rebuilding');
      const result = await rebuildProjection({ pool, store: this.options.store, projection, logger: this.logger });
      return result.position;
    }
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      // Serialise first-time setup between runner instances starting together.
      await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`projection:${projection.name}`]);
      const again = await client.query<{ position: string }>('SELECT position FROM projection_checkpoints WHERE name = $1', [projection.name]);
      if (again.rows[0]) {
        await client.query('COMMIT');
        return BigInt(again.rows[0].position);
      }
      await client.query(`CREATE SCHEMA IF NOT EXISTS ${quoteIdent(schema)}`);
      await projection.setup(client, schema);
      await client.query('INSERT INTO projection_checkpoints (name, position, version) VALUES ($1, 0, $2)', [
        projection.name,
        projection.version,
      ]);
      await client.query('COMMIT');
      return 0n;
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
  }

  /**
   * Called with every read batch once the read models have handled it (committed, or failed), before
   * applied()/caughtUp() count it as processed: a cache kept beside a read model (see
   * src/app/watchlists/active-versions.ts) drops what the batch changed, so a caller who waited for
   * the read models never meets a stale entry.
   */
  onBatchHandled(listener: (batch: readonly RecordedEvent[]) => void): void {
    this.batchListeners.push(listener);
  }

  private serially(work: () => Promise<void>): Promise<void> {
    const run = this.chain.then(work);
    this.chain = run.catch(() => undefined);
    return run;
  }

  private async handleBatch(batch: RecordedEvent[]): Promise<void> {
    try {
      await this.serially(() => this.applyBatch(batch));
    } finally {
      for (const listener of this.batchListeners) {
        try {
          listener(batch);
        } catch (err) {
          this.logger.error({ err: { message: (err as Error).message } }, 'a read batch listener failed');
        }
      }
    }
  }

  /**
   * One read batch: every read model with events to apply takes them in ONE shared transaction
   * (a transaction per read model per batch cost four round trips each). If that fails for a reason
   * other than a transient one, each read model retries alone, so only the one at fault stops.
   */
  private async applyBatch(batch: RecordedEvent[]): Promise<void> {
    const together: { state: Running; events: RecordedEvent[] }[] = [];
    for (const state of this.running.values()) {
      if (state.status !== 'running') continue;
      const after = state.held.length > 0 ? state.held[state.held.length - 1]!.globalPosition : state.processed;
      const fresh = [...state.held, ...batch.filter((event) => event.globalPosition > after)];
      if (fresh.length === 0) continue;
      if (!fresh.some((event) => state.handles.has(event.type))) await this.guarded(state, () => this.handle(state, fresh));
      // A read model that may lag: held (a bounded number of events) for the idle flush or caughtUp().
      else if (state.projection.mayLag && fresh.length < (this.options.skipFlushEvery ?? 500)) state.held = fresh;
      else together.push({ state, events: fresh });
    }
    if (together.length > 0) await this.applyWork(together);
  }

  /** Applies the events held by read models that may lag (see Projection.mayLag). */
  private flushHeld(): Promise<void> {
    return this.serially(async () => {
      const work = [...this.running.values()].filter((state) => state.status === 'running' && state.held.length > 0).map((state) => ({ state, events: state.held }));
      if (work.length > 0) await this.applyWork(work);
    });
  }

  /** The read models' events in one shared transaction, or, if that fails for a reason other than a transient one, each alone. */
  private async applyWork(together: { state: Running; events: RecordedEvent[] }[]): Promise<void> {
    const telemetry = this.options.telemetry;
    if (!telemetry) return this.applyWorkUntraced(together);
    const timed = telemetry.stopwatch('projection_batch');
    const spans = telemetry.enabled ? this.batchSpans(telemetry, together) : [];
    try {
      await this.applyWorkUntraced(together);
    } catch (error) {
      for (const span of spans) span.end(error);
      throw error;
    }
    for (const span of spans) span.end();
    timed();
  }

  /** One span per trace the batch's events belong to (each screening's trace shows when its events reached the read models). */
  private batchSpans(telemetry: Telemetry, together: { state: Running; events: RecordedEvent[] }[]): HopSpan[] {
    const traces = new Map<string, number>();
    for (const { events } of together) for (const event of events) if (event.metadata.traceparent) traces.set(event.metadata.traceparent, (traces.get(event.metadata.traceparent) ?? 0) + 1);
    const readModels = together.map((w) => w.state.projection.name).join(',');
    return [...traces].map(([parent, events]) =>
      telemetry.start('projection_batch', 'projection batch', { parent, observe: false, attributes: { 'svc.read_models': readModels, 'svc.events': events } }),
    );
  }

  private async applyWorkUntraced(together: { state: Running; events: RecordedEvent[] }[]): Promise<void> {
    if (together.length > 1) {
      try {
        await this.withRetries('read models', () => this.applyTogether(together));
        return;
      } catch (err) {
        this.logger.warn({ err: { message: (err as Error).message } }, 'shared read-model transaction failed; applying each read model alone');
      }
    }
    for (const { state, events } of together) await this.guarded(state, () => this.handle(state, events));
  }

  private async guarded(state: Running, work: () => Promise<void>): Promise<void> {
    try {
      await work();
    } catch (err) {
      state.status = 'failed';
      state.error = err as Error;
      this.logger.error({ projection: state.projection.name, err: { message: (err as Error).message } }, 'projection stopped on error');
    }
  }

  private async withRetries(what: string, work: () => Promise<void>): Promise<void> {
    const maxRetries = this.options.maxRetries ?? 5;
    for (let attempt = 0; ; attempt++) {
      try {
        return await work();
      } catch (err) {
        const code = (err as { code?: string }).code ?? '';
        if (attempt >= maxRetries || !TRANSIENT.test(code)) throw err;
        this.logger.warn({ projection: what, code, attempt }, 'transient error applying events; retrying');
        await new Promise((r) => setTimeout(r, 50 * 2 ** attempt));
      }
    }
  }

  /**
   * The checkpoint rows are locked and compared first: events at or below a read model's checkpoint
   * were applied already (redelivery, or a rebuild swapped in past them) and are skipped; the rest
   * and the new checkpoints (each batch's last position, covering its unhandled events) commit together.
   */
  private async applyTogether(work: { state: Running; events: RecordedEvent[] }[]): Promise<void> {
    const names = work.map((w) => w.state.projection.name);
    const atCommit: string[] = [];
    const onCommit: (() => void)[] = [];
    const commit: CommitRoundTrip = {
      atCommit(sql, committed) {
        atCommit.push(sql);
        if (committed) onCommit.push(committed);
      },
    };
    const client = await this.options.pool.connect();
    try {
      // BEGIN and the lock in one round trip (a simple query of two statements; the names are ours,
      // quoted as literals). Locked in name order, as any other locker of several rows would, against deadlocks.
      const begun = (await client.query(
        `BEGIN; SELECT name, position FROM projection_checkpoints WHERE name = ANY(ARRAY[${names.map((n) => client.escapeLiteral(n)).join(',')}]::text[]) ORDER BY name FOR UPDATE`,
      )) as unknown as pg.QueryResult<{ name: string; position: string }>[];
      const { rows } = begun[1]!;
      const checkpoints = new Map(rows.map((r) => [r.name, BigInt(r.position)]));
      const moved: { name: string; position: bigint }[] = [];
      for (const { state, events } of work) {
        const checkpoint = checkpoints.get(state.projection.name);
        if (checkpoint === undefined) throw new Error(`projection ${state.projection.name} has no checkpoint row`);
        const through = events[events.length - 1]!.globalPosition;
        if (checkpoint >= through) continue; // applied already (redelivery, or a rebuild swapped in past it)
        const toApply = events.filter((event) => event.globalPosition > checkpoint && state.handles.has(event.type));
        await applyEvents(state.projection, client, toApply, state.schema, commit);
        moved.push({ name: state.projection.name, position: through });
      }
      // What the read models left for the commit, the new checkpoints and COMMIT in one round trip,
      // likewise (positions are bigints we hold).
      const values = moved.map((m) => `(${client.escapeLiteral(m.name)}, ${BigInt(m.position).toString()}::bigint)`).join(', ');
      await client.query(
        [
          ...atCommit,
          ...(moved.length > 0
            ? [`UPDATE projection_checkpoints c SET position = m.position, updated_at = now() FROM (VALUES ${values}) AS m(name, position) WHERE c.name = m.name`]
            : []),
          'COMMIT',
        ].join(';\n'),
      );
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
    for (const { state, events } of work) {
      const through = events[events.length - 1]!.globalPosition;
      state.processed = through;
      state.persisted = through;
      state.unflushed = 0;
      state.held = [];
    }
    for (const committed of onCommit) committed();
  }

  /** One read model alone: its events of one read batch in one transaction (applyTogether with one entry). */
  private async handle(state: Running, events: RecordedEvent[]): Promise<void> {
    if (!events.some((event) => state.handles.has(event.type))) {
      state.processed = events[events.length - 1]!.globalPosition;
      state.unflushed += events.length;
      if (state.unflushed >= (this.options.skipFlushEvery ?? 500)) await this.flushSkipped();
      return;
    }
    await this.withRetries(state.projection.name, () => this.applyTogether([{ state, events }]));
  }

  /**
   * Persists the positions read models reached through unhandled events, all in one statement (one
   * per read model cost a round trip each, every second); never moves a checkpoint backwards.
   */
  private async flushSkipped(): Promise<void> {
    const due = [...this.running.values()].filter((state) => state.processed > state.persisted).map((state) => ({ state, target: state.processed }));
    if (due.length === 0) return;
    await this.options.pool.query(
      `UPDATE projection_checkpoints c SET position = m.position, updated_at = now()
         FROM unnest($1::text[], $2::bigint[]) AS m(name, position) WHERE c.name = m.name AND c.position < m.position`,
      [due.map((d) => d.state.projection.name), due.map((d) => String(d.target))],
    );
    for (const { state, target } of due) {
      if (target > state.persisted) state.persisted = target;
      state.unflushed = 0;
    }
  }
}
