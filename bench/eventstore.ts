/**
 * Event store benchmark (a script, not a test): npx tsx bench/eventstore.ts
 *
 * Measures, in one run on one fresh database:
 * - append throughput with 1 writer and with 8 concurrent writers (one event per append, durable
 *   commits: fsync and synchronous_commit at their defaults), the 8/1 ratio, and 8 writers while a
 *   live subscription follows (its reads take the append fence);
 * - batched append throughput (100 events per append), used to seed the catch-up run;
 * - subscription catch-up rate: a new subscription from position 0 until caughtUp().
 * Uses DATABASE_URL's server when set (a fresh database on it), else an embedded cluster in a temp dir.
 * Sizes: BENCH_APPENDS (default 2000 single-event appends per scenario), BENCH_SEED (default 50000).
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { PostgresEventStore } from '../src/infrastructure/eventstore/postgres/store';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../src/infrastructure/postgres/embedded';
import { migrate } from '../src/infrastructure/postgres/migrate';
import { createPool } from '../src/infrastructure/postgres/pool';
import type { Event } from '../src/shared/events';

const APPENDS = Number(process.env.BENCH_APPENDS ?? 2000);
const SEED = Number(process.env.BENCH_SEED ?? 50_000);

function event(i: number): Event {
  return {
    type: 'BenchEventRecorded',
    data: { i, name: 'Acme Trading Ltd', country: 'GB', amount: 1234.5 },
    metadata: { eventId: randomUUID(), occurredAt: '2026-01-01T00:00:00.000Z', correlationId: 'bench', actor: { surface: 'system' } },
  };
}

async function appendScenario(store: PostgresEventStore, writers: number, total: number, tag: string): Promise<number> {
  const perWriter = Math.ceil(total / writers);
  const started = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: writers }, async (_, w) => {
      for (let i = 0; i < perWriter; i++) {
        // Each writer owns a few streams, appending with the exact expected revision like a command handler.
        await store.appendToStream(`${tag}-w${w}-s${i % 10}`, [event(i)]);
      }
    }),
  );
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return (perWriter * writers) / seconds;
}

async function main(): Promise<void> {
  let cluster: EmbeddedPostgres | undefined;
  let root: string | undefined;
  let adminUrl: string;
  if (process.env.DATABASE_URL) {
    adminUrl = process.env.DATABASE_URL;
  } else {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-bench-pg-'));
    fs.chmodSync(root, 0o755);
    cluster = await startEmbeddedPostgres({ dataDir: path.join(root, 'data') });
    adminUrl = cluster.url();
  }
  const dbName = `bench_${process.pid}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${dbName}`);
  const url = new URL(adminUrl);
  url.pathname = `/${dbName}`;
  const pool = createPool({ connectionString: url.toString(), max: 12 });
  await migrate(pool);
  const store = new PostgresEventStore({ pool, batchSize: 1000 });

  try {
    await appendScenario(store, 1, 200, 'warmup');
    const oneWriter = await appendScenario(store, 1, APPENDS, 'one');
    const eightWriters = await appendScenario(store, 8, APPENDS, 'eight');
    // The same with a live subscription following along: its reads pass the append fence.
    const following = store.subscribeToAll(async () => undefined, { after: await store.headPosition() });
    const eightWithSubscriber = await appendScenario(store, 8, APPENDS, 'eightsub');
    await following.caughtUp();
    await following.stop();

    const batchStarted = process.hrtime.bigint();
    for (let done = 0; done < SEED; done += 100) {
      await store.appendToStream(`seed-${done % 500}`, Array.from({ length: 100 }, (_, i) => event(done + i)));
    }
    const batched = SEED / (Number(process.hrtime.bigint() - batchStarted) / 1e9);

    const totalEvents = Number(await store.headPosition());
    let delivered = 0;
    const catchUpStarted = process.hrtime.bigint();
    const subscription = store.subscribeToAll(async () => {
      delivered++;
    });
    await subscription.caughtUp();
    const catchUpSeconds = Number(process.hrtime.bigint() - catchUpStarted) / 1e9;
    await subscription.stop();

    const settings = await pool.query<{ name: string; setting: string }>(
      "SELECT name, setting FROM pg_settings WHERE name IN ('fsync', 'synchronous_commit', 'server_version')",
    );
    const cpus = os.cpus();
    const result = {
      machine: {
        cpu: cpus[0]?.model ?? 'unknown',
        cores: cpus.length,
        memoryGiB: Math.round((os.totalmem() / 1024 ** 3) * 10) / 10,
        node: process.version,
        postgres: Object.fromEntries(settings.rows.map((r) => [r.name, r.setting])),
        server: cluster ? 'embedded' : 'DATABASE_URL',
      },
      appendsPerScenario: APPENDS,
      appendEventsPerSecond: {
        oneWriter: Math.round(oneWriter),
        eightWriters: Math.round(eightWriters),
        eightWritersWithLiveSubscriber: Math.round(eightWithSubscriber),
      },
      eightToOneRatio: Math.round((eightWriters / oneWriter) * 100) / 100,
      batchedAppendEventsPerSecond: Math.round(batched),
      catchUp: { events: delivered, totalInStore: totalEvents, eventsPerSecond: Math.round(delivered / catchUpSeconds) },
    };
    console.log(JSON.stringify(result, null, 2));
    console.table({
      'append, 1 writer (events/s)': result.appendEventsPerSecond.oneWriter,
      'append, 8 writers (events/s)': result.appendEventsPerSecond.eightWriters,
      'append, 8 writers + live subscriber (events/s)': result.appendEventsPerSecond.eightWritersWithLiveSubscriber,
      '8 writers / 1 writer': result.eightToOneRatio,
      'append, 100-event batches (events/s)': result.batchedAppendEventsPerSecond,
      'subscription catch-up (events/s)': result.catchUp.eventsPerSecond,
    });
  } finally {
    await store.close();
    await pool.end();
    await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    await admin.end();
    await cluster?.stop();
    if (root) fs.rmSync(root, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
