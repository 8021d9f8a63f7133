/**
 * Worker thread of the batch pool: builds its own read-only ScreeningEngine from the entities the
 * main thread loaded once (the index has per-query scratch arrays, so each thread keeps one), then
 * screens the chunks it is sent with screenChunk, exactly as the single-thread path does.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { ScreeningEngine } from '../../screening/engine';
import type { ListEntity, ListVersion } from '../../screening/model';
import { screenChunk, type BatchRow, type BatchScreenOptions } from './rows';

export interface WorkerInit {
  entities: ListEntity[];
  versions: ListVersion[];
  options: BatchScreenOptions;
}
export type WorkerRequest = { seq: number; rows: BatchRow[] };
export type WorkerReply =
  | { type: 'ready'; buildMs: number }
  | { type: 'done'; seq: number; csv: string; jsonl: string; screened: number; flagged: number }
  | { type: 'failed'; seq: number; message: string };

const init = workerData as WorkerInit;
const t0 = performance.now();
const engine = ScreeningEngine.build(init.entities, init.versions);
// The entities now live in the engine; drop the init copy's references.
(init as Partial<WorkerInit>).entities = undefined;
const port = parentPort!;
port.postMessage({ type: 'ready', buildMs: Math.round(performance.now() - t0) } satisfies WorkerReply);
port.on('message', (req: WorkerRequest) => {
  try {
    port.postMessage({ type: 'done', seq: req.seq, ...screenChunk(engine, req.rows, init.options) } satisfies WorkerReply);
  } catch (error) {
    port.postMessage({ type: 'failed', seq: req.seq, message: error instanceof Error ? error.message : String(error) } satisfies WorkerReply);
  }
});
