/**
 * The cached lists + index snapshot (src/screening/index-snapshot.ts): an engine restored from it
 * screens exactly what the engine it was taken of screens; a snapshot of other list content (or
 * another key, or damaged bytes) is never used; the batch pool starts from it and writes it.
 */
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { startWorkerPool } from '../../../src/app/batch-screening/batch';
import { loadLists } from '../../../src/bootstrap/lists';
import { indexCacheDir } from '../../../src/bootstrap/lists-config';
import { loadConfig } from '../../../src/config/config';
import { systemClock } from '../../../src/shared/clock';
import { createLogger } from '../../../src/shared/logger';
import { screenChunk, type BatchRow } from '../../../src/app/batch-screening/rows';
import { ScreeningEngine } from '../../../src/screening/engine';
import { decodeSnapshot, encodeSnapshot, loadEngineCached, readSnapshotBytes, snapshotKey, writeSnapshot } from '../../../src/screening/index-snapshot';
import { loadAllLists } from '../../../src/screening/lists/index';
import { listsConfig, type ListsConfig } from '../../../src/screening/lists/config';

const bundled = listsConfig();
const pick = (source: string) => bundled.lists.find((l) => l.source === source)!;
const tmp = mkdtempSync(path.join(os.tmpdir(), 'index-snapshot-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

// a private copy of a small list, so the test can change its content
const consDir = path.join(tmp, 'ofac_cons');
cpSync(pick('ofac_cons').dir, consDir, { recursive: true });
const lists = (cacheDir: string): ListsConfig => ({ lists: [{ source: 'ofac_cons', dir: consDir }, pick('un_sc'), pick('icij_offshore')], cacheDir });

const rowsOf = (names: string[]): BatchRow[] => names.map((name, i) => ({ line: i + 2, input: { name, entity_type: '', dob: '', country: '' }, query: { name } }));
const options = { threshold: 0.7, jsonl: true };

describe('index snapshot', () => {
  it('restores an engine that screens exactly like the one it was taken of', async () => {
    const config = lists(path.join(tmp, 'cache-roundtrip'));
    const load = await loadAllLists(config, { progressBar: false });
    assert.equal(load.failures.length, 0);
    const built = ScreeningEngine.build(load.entities, load.versions);
    const key = (await snapshotKey(config))!;
    const bytes = encodeSnapshot(key, load.lists, built);
    const restored = decodeSnapshot(bytes, key);
    assert.ok(restored);
    const { names, indexKeys, postings, entities } = built.stats();
    const r = restored.engine.stats();
    assert.deepEqual({ names: r.names, indexKeys: r.indexKeys, postings: r.postings, entities: r.entities }, { names, indexKeys, postings, entities });
    assert.deepEqual(
      restored.load.versions.map((v) => v.id),
      load.versions.map((v) => v.id),
    );
    // every listed name, a misspelt form of it and its words reversed: identical hits and explanations
    const queries = load.entities.slice(0, 400).flatMap((e) => {
      const words = e.primaryName.split(/\s+/);
      return [e.primaryName, e.primaryName.replace(/[aeiou](?=[^aeiou]*$)/i, 'e'), words.reverse().join(' ')];
    });
    const rows = rowsOf([...queries, 'Banco Nacional de Cuba', 'Rosneft', 'Ali Hassan', 'Mohammed Omar']);
    const expected = screenChunk(built, rows, options);
    assert.ok(expected.flagged > 300, `the sample has hits (${expected.flagged})`);
    const got = screenChunk(restored.engine, rows, options);
    assert.equal(got.csv, expected.csv);
    assert.equal(got.jsonl, expected.jsonl);
  });

  it('is refused under another key or when damaged', async () => {
    const config = lists(path.join(tmp, 'cache-key'));
    const load = await loadAllLists(config, { progressBar: false });
    const key = (await snapshotKey(config))!;
    const bytes = encodeSnapshot(key, load.lists, ScreeningEngine.build(load.entities, load.versions));
    assert.equal(decodeSnapshot(bytes, key.replace(/^./, (c) => (c === '0' ? '1' : '0'))), undefined);
    assert.equal(decodeSnapshot(bytes.subarray(0, bytes.length >> 1), key), undefined);
    assert.equal(decodeSnapshot(new Uint8Array([1, 2, 3, 4]), key), undefined);
  });

  it('is used for the same list content only: a changed list file is loaded and indexed again', async () => {
    const cacheDir = path.join(tmp, 'cache-stale');
    const config = lists(cacheDir);
    const first = await loadEngineCached(config, { progressBar: false });
    assert.equal(first.fromCache, false);
    assert.equal(readdirSync(cacheDir).filter((f) => f.endsWith('.v8')).length, 1);
    const second = await loadEngineCached(config, { progressBar: false });
    assert.equal(second.fromCache, true);
    const probe = rowsOf(['Ismail Abdul Salah Haniya', 'Zorblax Quintavelle']);
    // the row of "Zorblax Quintavelle" (line 3): flagged or not
    const zorblaxFlagged = (engine: ScreeningEngine) => screenChunk(engine, probe, options).csv.split('\n').some((l) => l.startsWith('3,') && l.includes(',true,'));
    assert.equal(screenChunk(second.engine, probe, options).csv, screenChunk(first.engine, probe, options).csv);
    assert.equal(zorblaxFlagged(second.engine), false);

    // rename a listed person: same files, other content
    const prim = path.join(consDir, 'cons_prim.csv');
    writeFileSync(prim, readFileSync(prim, 'utf8').replace('"HANIYA, Ismail Abdul Salah"', '"QUINTAVELLE, Zorblax"'));
    const keyOfChanged = await snapshotKey(lists(path.join(tmp, 'unused')));
    const third = await loadEngineCached(config, { progressBar: false });
    assert.equal(third.fromCache, false, 'the snapshot of the old content is not used');
    assert.equal(zorblaxFlagged(third.engine), true, 'the renamed entry is found');
    const fourth = await loadEngineCached(config, { progressBar: false });
    assert.equal(fourth.fromCache, true);
    assert.equal(screenChunk(fourth.engine, probe, options).csv, screenChunk(third.engine, probe, options).csv);
    assert.equal(await snapshotKey(lists(path.join(tmp, 'unused'))), keyOfChanged);
  });
});

describe('index snapshots kept in the cache directory', () => {
  it('drops the least recently used list set: one that starts read is kept past newer one-off sets', async () => {
    const cacheDir = path.join(tmp, 'cache-lru');
    const keys = ['1', '2', '3', '4', '5'].map((d) => d.repeat(64));
    const fileOf = (key: string) => path.join(cacheDir, `engine-${key.slice(0, 32)}.v8`);
    for (const key of keys.slice(0, 4)) await writeSnapshot(cacheDir, key, new Uint8Array([Number(key[0])]));
    // written an hour, 50, 40 and 30 minutes ago: the first is the oldest written
    [60, 50, 40, 30].forEach((minutes, i) => {
      const at = new Date(Date.now() - minutes * 60_000);
      utimesSync(fileOf(keys[i]!), at, at);
    });
    assert.deepEqual([...((await readSnapshotBytes(cacheDir, keys[0]!)) ?? [])], [1], 'a start reads the oldest written');
    await writeSnapshot(cacheDir, keys[4]!, new Uint8Array([5]));
    const kept = keys.filter((key) => existsSync(fileOf(key))).map((key) => key[0]);
    assert.deepEqual(kept, ['1', '3', '4', '5'], 'the set read a moment ago stays; the least recently used one (2) is dropped');
  });
});

describe('batch pool with an index cache', () => {
  it('builds from the lists and writes the snapshot, then starts from it, screening the same', async () => {
    const cacheDir = path.join(tmp, 'cache-pool');
    const config = lists(cacheDir);
    const load = await loadAllLists(config, { progressBar: false });
    const engine = ScreeningEngine.build(load.entities, load.versions);
    const rows = rowsOf(['Banco Nacional de Cuba', 'Rosneft', 'Ali Hassan', 'John Smith', 'Kim Jong Un', 'Mohammed Omar', ...load.entities.slice(0, 40).map((e) => e.primaryName)]);
    const expected = screenChunk(engine, rows, options);
    const screenAll = async (pool: Awaited<ReturnType<typeof startWorkerPool>>) => {
      const got = await Promise.all([pool.screen(rows.slice(0, 20)), pool.screen(rows.slice(20))]);
      return { csv: got[0].csv + got[1].csv, jsonl: got[0].jsonl + got[1].jsonl };
    };

    const cold = await startWorkerPool({ lists: config, workers: 2, options });
    try {
      assert.equal(cold.startup, 'lists');
      assert.deepEqual(await screenAll(cold), { csv: expected.csv, jsonl: expected.jsonl });
    } finally {
      await cold.close();
    }
    const files = readdirSync(cacheDir).filter((f) => f.endsWith('.v8'));
    assert.equal(files.length, 1, 'the pool wrote the snapshot');

    const warm = await startWorkerPool({ lists: config, workers: 2, options });
    try {
      assert.equal(warm.startup, 'snapshot');
      assert.deepEqual(await screenAll(warm), { csv: expected.csv, jsonl: expected.jsonl });
    } finally {
      await warm.close();
    }

    // a damaged snapshot: built from the lists again, and rewritten
    const file = path.join(cacheDir, files[0]);
    writeFileSync(file, readFileSync(file).subarray(0, 1000));
    const repaired = await startWorkerPool({ lists: config, workers: 2, options });
    try {
      assert.equal(repaired.startup, 'lists');
      assert.deepEqual(await screenAll(repaired), { csv: expected.csv, jsonl: expected.jsonl });
    } finally {
      await repaired.close();
    }
    assert.ok(existsSync(file) && readFileSync(file).length > 1000, 'the snapshot was written again');
  });
});

describe('service start-up with an index cache', () => {
  it('restores the lists and the engine in service from the cache written by the first start', async () => {
    const dataDir = path.join(tmp, 'service-data');
    const env = { NODE_ENV: 'test', DATA_DIR: dataDir, INDEX_CACHE_DIR: path.join(tmp, 'service-cache'), LISTS_ONLY: 'ofac_cons,icij_offshore' };
    const config = loadConfig(env);
    assert.equal(indexCacheDir(config), path.join(tmp, 'service-cache'));
    assert.equal(indexCacheDir(loadConfig({ ...env, INDEX_CACHE: 'false' })), undefined);
    assert.equal(indexCacheDir(loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir })), undefined, 'no cache for a test service unless asked');
    const logged: Record<string, unknown>[] = [];
    const destination = { write: (line: string) => void logged.push(JSON.parse(line) as Record<string, unknown>) };
    const logger = createLogger({ level: 'info', destination });
    const first = await loadLists(config, logger, systemClock);
    const second = await loadLists(config, logger, systemClock);
    assert.deepEqual(
      logged.filter((l) => l.msg === 'lists loaded').map((l) => l.fromCache),
      [false, true],
    );
    assert.deepEqual(
      second.registry.currentVersions().map((v) => v.id),
      first.registry.currentVersions().map((v) => v.id),
    );
    assert.equal(second.entities().entities.length, first.entities().entities.length);
    const rows = rowsOf(first.entities().entities.slice(0, 60).map((e) => e.primaryName));
    const expected = screenChunk(first.engine(), rows, options);
    assert.ok(expected.flagged >= 50);
    assert.equal(screenChunk(second.engine(), rows, options).csv, expected.csv);

    // a batch job's pool over the lists in service starts from their snapshot
    assert.ok(second.entities().snapshot);
    const pool = await startWorkerPool({ ...second.entities(), workers: 2, options });
    try {
      assert.equal(pool.startup, 'snapshot');
      const got = await Promise.all([pool.screen(rows.slice(0, 30)), pool.screen(rows.slice(30))]);
      assert.equal(got[0].csv + got[1].csv, expected.csv);
    } finally {
      await pool.close();
    }
    // without a readable snapshot, from the entities
    const fallback = await startWorkerPool({ ...second.entities(), snapshot: { cacheDir: path.join(tmp, 'nowhere'), key: 'x' }, workers: 1, options });
    try {
      assert.equal(fallback.startup, 'entities');
      assert.equal((await fallback.screen(rows)).csv, expected.csv);
    } finally {
      await fallback.close();
    }
  });
});
