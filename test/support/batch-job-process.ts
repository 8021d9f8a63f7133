/**
 * A BatchJobService in its own OS process, for the kill test of test/integration/api/batch-jobs-resume.test.ts:
 * on BATCH_DATABASE_URL and BATCH_DATA_DIR, with the matcher fixtures' engine in this thread, it accepts
 * the CSV at BATCH_INPUT as a job, prints `JOB <id>` and screens it until it is killed.
 */
import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { BatchJobService } from '../../src/app/batch-jobs/batch-job-service';
import type { CommandContext, Principal } from '../../src/app/services';
import { createPool } from '../../src/infrastructure/postgres/pool';
import { DEFAULT_THRESHOLD, ScreeningEngine } from '../../src/screening/engine';
import { systemClock } from '../../src/shared/clock';
import { createLogger } from '../../src/shared/logger';
import * as F from '../unit/screening/matching/fixtures';

const env = (name: string) => process.env[name] ?? (() => { throw new Error(`${name} is not set`); })();
const engine = ScreeningEngine.build(F.ALL, []);
const service = new BatchJobService({
  pool: createPool({ connectionString: env('BATCH_DATABASE_URL'), max: 4, applicationName: 'batch-job-process' }),
  clock: systemClock,
  logger: createLogger({ level: 'silent' }),
  dataDir: env('BATCH_DATA_DIR'),
  maxBytes: 50 * 1024 * 1024,
  maxQueued: 4,
  workers: 0,
  engine: () => engine,
  lists: () => ({ entities: F.ALL, versions: [] }),
  checkpointEveryMs: 0,
  instanceId: 'killed-instance',
});
const principal: Principal = { accountId: env('BATCH_ACCOUNT'), plan: 'enterprise', roles: [], surface: 's3' };
const ctx = { actor: { accountId: principal.accountId }, correlationId: randomUUID(), commandId: randomUUID() } as unknown as CommandContext;
const job = await service.create(principal, createReadStream(env('BATCH_INPUT')), { threshold: DEFAULT_THRESHOLD, format: 'csv' }, ctx);
process.stdout.write(`JOB ${job.id}\n`);
