/**
 * Worker thread of the batch pool: builds its own read-only ScreeningEngine (the index has
 * per-query scratch arrays, so each thread keeps one), then screens the chunks it is sent with
 * screenChunk, exactly as the single-thread path does.
 *
 * The engine's entities come either from the main thread (`entities`, cloned into this thread) or
 * from the list files (`lists`), loaded by the pool together: the main thread hands the lists out
 * one at a time (largest first) to whichever worker asks, each worker parses the ones it gets and
 * shares them (serialised once into shared memory, read by each other worker), then every worker
 * builds its engine from all of them in the configured order (the order loadAllLists gives).
 * Loading is split across the cores instead of paid by the main thread alone and copied.
 *
 * Or, fastest, from a snapshot of the lists and the built index (src/screening/index-snapshot.ts)
 * that the main thread read once into shared memory: each worker only deserialises it. A pool that
 * built from the lists can have its first worker encode that snapshot (`makeSnapshot`) for the
 * main thread to write, so the next batch starts from it.
 */
import { deserialize, serialize } from 'node:v8';
import { parentPort, workerData } from 'node:worker_threads';
import { ScreeningEngine } from '../../screening/engine';
import { decodeSnapshot, encodeSnapshot } from '../../screening/index-snapshot';
import type { LoadedList } from '../../screening/lists/load';
import type { ListsConfig } from '../../screening/lists/config';
import type { ListEntity, ListVersion } from '../../screening/model';
import { screenChunk, type BatchRow, type BatchScreenOptions } from './rows';
import type { VerdictContext } from '../../agents/lists/direct-verdict';
import { bundledProgrammes } from '../../screening/lists/country-sanctions';
import type { CountryRisk } from '../../screening/model';

export type WorkerInit = { options: BatchScreenOptions } & (
  | { entities: ListEntity[]; versions: ListVersion[]; lists?: undefined; snapshot?: undefined }
  /** makeSnapshot: the key to encode this worker's lists and index under (sent back with 'ready'). */
  | { lists: ListsConfig; makeSnapshot?: string; entities?: undefined; versions?: undefined; snapshot?: undefined }
  /** A snapshot's bytes (shared memory) and the key they must carry. */
  | { snapshot: { bytes: Uint8Array; key: string }; lists?: undefined; entities?: undefined; versions?: undefined }
);
/** A list loaded by one worker: its entities and version, serialised (v8) in shared memory. */
export type SharedList = { index: number; data?: SharedArrayBuffer; failure?: { source: string; message: string } };
export type WorkerRequest =
  | { type: 'screen'; seq: number; rows: BatchRow[] }
  | { type: 'load'; index: number }
  | { type: 'list'; list: SharedList }
  | { type: 'build' };
export type WorkerReply =
  | { type: 'next' }
  | { type: 'loaded'; list: SharedList }
  | { type: 'ready'; buildMs: number; snapshot?: Uint8Array }
  | { type: 'unusable-snapshot' }
  | { type: 'done'; seq: number; csv: string; jsonl: string; screened: number; flagged: number }
  | { type: 'failed'; seq: number; message: string };

const init = workerData as WorkerInit;
const port = parentPort!;
const t0 = performance.now();
let engine: ScreeningEngine | undefined;
/** A row's country risk, as the service scores it: the FATF table given (else the one this worker loaded) and the sanctions programmes. */
let context: VerdictContext | undefined;
const lists = new Map<number, LoadedList | SharedArrayBuffer | undefined>();

function useContext(built: ScreeningEngine, countryRisk: readonly CountryRisk[]): void {
  context = { countryRisk: init.options.countryRisk ?? countryRisk, countrySanctions: bundledProgrammes(built) };
}

function build(entities: ListEntity[], versions: ListVersion[], loaded?: LoadedList[], countryRisk: readonly CountryRisk[] = []): void {
  engine = ScreeningEngine.build(entities, versions);
  useContext(engine, countryRisk);
  let snapshot: Uint8Array | undefined;
  if (init.lists && init.makeSnapshot && loaded) {
    // encoded before the first query, into shared memory so the main thread gets it without a copy
    const bytes = encodeSnapshot(init.makeSnapshot, loaded, engine);
    snapshot = new Uint8Array(new SharedArrayBuffer(bytes.length));
    snapshot.set(bytes);
  }
  port.postMessage({ type: 'ready', buildMs: Math.round(performance.now() - t0), ...(snapshot ? { snapshot } : {}) } satisfies WorkerReply);
}

async function loadOne(index: number): Promise<void> {
  const { loadList, toFailure } = await import('../../screening/lists/index');
  const cfg = init.lists!.lists[index];
  let list: SharedList;
  try {
    const loaded = await loadList(cfg, {});
    lists.set(index, loaded);
    const bytes = serialize(loaded);
    const data = new SharedArrayBuffer(bytes.length);
    new Uint8Array(data).set(bytes);
    list = { index, data };
  } catch (error) {
    const f = toFailure(cfg.source, error);
    lists.set(index, undefined);
    list = { index, failure: { source: f.source, message: f.message } };
  }
  port.postMessage({ type: 'loaded', list } satisfies WorkerReply);
  port.postMessage({ type: 'next' } satisfies WorkerReply);
}

function buildFromLists(): void {
  const entities: ListEntity[] = [];
  const versions: ListVersion[] = [];
  const loaded: LoadedList[] = [];
  const countryRisk: CountryRisk[] = [];
  let complete = true;
  for (let i = 0; i < init.lists!.lists.length; i++) {
    let l = lists.get(i);
    if (l instanceof SharedArrayBuffer) l = deserialize(new Uint8Array(l)) as LoadedList;
    if (!l) {
      complete = false;
      continue;
    }
    for (const e of l.entities) entities.push(e);
    countryRisk.push(...(l.countryRisk ?? []));
    versions.push(l.version);
    loaded.push(l);
  }
  lists.clear();
  // a list set with a failed list is not snapshotted
  build(entities, versions, complete ? loaded : undefined, countryRisk);
}

function restore(snapshot: { bytes: Uint8Array; key: string }): void {
  const restored = decodeSnapshot(snapshot.bytes, snapshot.key);
  if (!restored) {
    port.postMessage({ type: 'unusable-snapshot' } satisfies WorkerReply);
    return;
  }
  engine = restored.engine;
  useContext(restored.engine, restored.load.countryRisk);
  port.postMessage({ type: 'ready', buildMs: Math.round(performance.now() - t0) } satisfies WorkerReply);
}

port.on('message', (req: WorkerRequest) => {
  switch (req.type) {
    case 'screen':
      try {
        port.postMessage({ type: 'done', seq: req.seq, ...screenChunk(engine!, req.rows, init.options, context) } satisfies WorkerReply);
      } catch (error) {
        port.postMessage({ type: 'failed', seq: req.seq, message: error instanceof Error ? error.message : String(error) } satisfies WorkerReply);
      }
      return;
    case 'load':
      void loadOne(req.index);
      return;
    case 'list':
      lists.set(req.list.index, req.list.data);
      return;
    case 'build':
      buildFromLists();
      return;
    default: {
      const never: never = req;
      throw new Error(`unknown request ${JSON.stringify(never)}`);
    }
  }
});

if (init.snapshot) {
  restore(init.snapshot);
  // the engine holds what it needs; the shared bytes can go once every worker let them go
  (init as { snapshot?: unknown }).snapshot = undefined;
} else if (init.lists) port.postMessage({ type: 'next' } satisfies WorkerReply);
else {
  build(init.entities, init.versions);
  // The entities now live in the engine; drop the init copy's references.
  (init as { entities?: ListEntity[] }).entities = undefined;
}
