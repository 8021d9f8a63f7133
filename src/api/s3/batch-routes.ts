/**
 * S3 asynchronous batch screening (docs/batch-screening.md, "Over HTTP"): upload a CSV, get a job id at
 * once (202), poll its progress, download its results. Mounted by the S3 router after its gate (the key,
 * the plan and the monthly request quota are checked before the body is read). Every read names the
 * caller's account: another account's job is a 404, like a missing one.
 */
import type { Response, Router } from 'express';
import { z } from '../openapi/zod';
import { BATCH_FILES, BatchUploadRefused, type BatchFile, type BatchJobService } from '../../app/batch-jobs/batch-job-service';
import type { CommandContext, Principal } from '../../app/services';
import { DEFAULT_THRESHOLD } from '../../screening/engine';
import { handle } from '../http/app';
import { ApiError } from '../http/errors';
import { parseInput } from '../http/validation';
import { s3PrincipalOf } from './gate';

export const BATCH_PATH = '/api/v1/batches';

export const BatchCreateQuerySchema = z
  .object({
    threshold: z.coerce.number().min(0.5).max(1).optional().describe(`Score a listed entity must reach to count as a hit (0.5-1, default ${DEFAULT_THRESHOLD}).`),
  })
  .strict();
export const BatchIdParamsSchema = z.object({ id: z.string().uuid().describe('The job id (uuid).') });
export const BatchListQuerySchema = z.object({ limit: z.coerce.number().int().min(1).max(100).default(20) }).strict();

const CONTENT_TYPES: Record<BatchFile, string> = {
  'results.csv': 'text/csv; charset=utf-8',
  'results.jsonl': 'application/x-ndjson; charset=utf-8',
  'errors.csv': 'text/csv; charset=utf-8',
};

function refusal(error: BatchUploadRefused): ApiError {
  switch (error.reason) {
    case 'too_large':
      return new ApiError('payload_too_large', error.message);
    case 'not_utf8':
    case 'empty':
    case 'no_name_column':
      return new ApiError('bad_request', error.message, { fields: { body: [error.message] } });
    case 'key_reused':
      return new ApiError('idempotency_key_reused', error.message);
    case 'queue_full':
      return new ApiError('overloaded', error.message, { retryAfterSeconds: 30 });
    default: {
      const never: never = error.reason;
      throw new Error(`unexpected refusal ${String(never)}`);
    }
  }
}

export function mountBatchRoutes(
  router: Router,
  deps: {
    batches: BatchJobService;
    maxBytes: number;
    idempotent: import('express').RequestHandler;
    send: (res: Response, status: number, data: unknown) => void;
    commandContext: (res: Response, principal: Principal) => CommandContext;
  },
): void {
  const jobUrl = (id: string) => `${BATCH_PATH}/${id}`;
  const withLinks = <T extends { id: string; status: string }>(job: T) => ({
    ...job,
    url: jobUrl(job.id),
    files: job.status === 'completed' ? Object.fromEntries(BATCH_FILES.map((f) => [f.replace('.', '_'), `${jobUrl(job.id)}/${f}`])) : null,
  });
  const jobId = (params: unknown) => {
    const parsed = BatchIdParamsSchema.safeParse(params);
    if (!parsed.success) throw new ApiError('bad_request', 'id: must be a batch job uuid', { fields: { id: ['must be a batch job uuid'] } });
    return parsed.data.id.toLowerCase();
  };

  router.post(
    BATCH_PATH,
    // Refusals that need no body come first (and close the connection: the upload is not read).
    (req, res, next) => {
      const type = String(req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
      if (type !== 'text/csv') {
        res.setHeader('Connection', 'close');
        next(new ApiError('unsupported_media_type', 'Send the batch as Content-Type: text/csv (UTF-8), a header line with a "name" column and one row per name'));
        return;
      }
      const length = Number(req.headers['content-length'] ?? NaN);
      if (Number.isFinite(length) && length > deps.maxBytes) {
        res.setHeader('Connection', 'close');
        next(new ApiError('payload_too_large', `The file is larger than the limit of ${deps.maxBytes} bytes; split it into several batches`));
        return;
      }
      next();
    },
    deps.idempotent,
    handle(async (req, res) => {
      const principal = s3PrincipalOf(res);
      const query = parseInput(BatchCreateQuerySchema, { ...(req.query as object) });
      try {
        const job = await deps.batches.create(principal, req, { threshold: query.threshold ?? DEFAULT_THRESHOLD }, deps.commandContext(res, principal));
        res.setHeader('Location', jobUrl(job.id));
        deps.send(res, 202, withLinks(job));
      } catch (error) {
        if (error instanceof BatchUploadRefused) {
          res.setHeader('Connection', 'close');
          throw refusal(error);
        }
        throw error;
      }
    }),
  );

  router.get(
    BATCH_PATH,
    handle(async (req, res) => {
      const principal = s3PrincipalOf(res);
      const query = parseInput(BatchListQuerySchema, { ...(req.query as object) });
      deps.send(res, 200, (await deps.batches.list(principal.accountId, query.limit)).map(withLinks));
    }),
  );

  router.get(
    `${BATCH_PATH}/:id`,
    handle(async (req, res) => {
      const principal = s3PrincipalOf(res);
      const job = await deps.batches.get(principal.accountId, jobId(req.params));
      if (!job) throw new ApiError('not_found', 'Batch job not found');
      deps.send(res, 200, withLinks(job));
    }),
  );

  for (const name of BATCH_FILES) {
    router.get(
      `${BATCH_PATH}/:id/${name}`,
      handle(async (req, res) => {
        const principal = s3PrincipalOf(res);
        const id = jobId(req.params);
        const found = await deps.batches.file(principal.accountId, id, name);
        if (!found) throw new ApiError('not_found', 'Batch job not found');
        if (!found.open) throw new ApiError('conflict', `The batch job is ${found.job.status}; its files are ready once it is completed`);
        res.status(200);
        res.setHeader('Content-Type', CONTENT_TYPES[name]);
        res.setHeader('Content-Disposition', `attachment; filename="batch-${id}-${name}"`);
        const stream = found.open();
        await new Promise<void>((resolve, reject) => {
          stream.once('error', reject);
          res.once('finish', () => resolve());
          res.once('close', () => resolve());
          stream.pipe(res);
        });
      }),
    );
  }
}
