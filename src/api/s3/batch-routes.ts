/**
 * S3 asynchronous batch screening (docs/batch-screening.md, "Over HTTP"): upload a CSV or JSON lines, get
 * a job id at once (202), poll its progress, cancel it, download its results. Mounted by the S3 router after its gate (the key,
 * the plan and the monthly request quota are checked before the body is read). Every read names the
 * caller's account: another account's job is a 404, like a missing one.
 */
import type { Response, Router } from 'express';
import { z } from '../openapi/zod';
import { BATCH_FILES, BATCH_FILES_READY, BatchUploadRefused, type BatchFile, type BatchJobService } from '../../app/batch-jobs/batch-job-service';
import type { BatchInputFormat } from '../../app/batch-screening/input';
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

/** Body media types accepted, and the input format each means. */
export const BATCH_CONTENT_TYPES: Record<string, BatchInputFormat> = {
  'text/csv': 'csv',
  'application/x-ndjson': 'jsonl',
  'application/jsonl': 'jsonl',
  'application/json-lines': 'jsonl',
};

/**
 * The upload's format: from its Content-Type, or, for `application/octet-stream`, from the file name in
 * Content-Disposition (`.csv`; `.jsonl`, `.ndjson`). Undefined: not a batch upload.
 */
export function uploadFormat(contentType: string | undefined, disposition: string | undefined): BatchInputFormat | undefined {
  const type = String(contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (type in BATCH_CONTENT_TYPES) return BATCH_CONTENT_TYPES[type];
  if (type !== 'application/octet-stream') return undefined;
  const name = /filename\s*=\s*"?([^";]+)"?/i.exec(disposition ?? '')?.[1]?.trim().toLowerCase() ?? '';
  if (name.endsWith('.csv')) return 'csv';
  if (name.endsWith('.jsonl') || name.endsWith('.ndjson')) return 'jsonl';
  return undefined;
}

function refusal(error: BatchUploadRefused): ApiError {
  switch (error.reason) {
    case 'too_large':
      return new ApiError('payload_too_large', error.message);
    case 'not_utf8':
    case 'empty':
    case 'no_name_column':
    case 'not_json_lines':
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
    files: (BATCH_FILES_READY as readonly string[]).includes(job.status) ? Object.fromEntries(BATCH_FILES.map((f) => [f.replace('.', '_'), `${jobUrl(job.id)}/${f}`])) : null,
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
      if (!uploadFormat(req.headers['content-type'], req.headers['content-disposition'])) {
        res.setHeader('Connection', 'close');
        next(
          new ApiError(
            'unsupported_media_type',
            'Send the batch as Content-Type: text/csv (UTF-8, a header line with a "name" column, one row per name) or application/x-ndjson (one JSON object {"name": …} per line)',
          ),
        );
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
        const format = uploadFormat(req.headers['content-type'], req.headers['content-disposition'])!;
        const job = await deps.batches.create(principal, req, { threshold: query.threshold ?? DEFAULT_THRESHOLD, format }, deps.commandContext(res, principal));
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

  // Cancel: a POST on the job's cancel action (the job and its partial files stay; DELETE would say they go).
  router.post(
    `${BATCH_PATH}/:id/cancel`,
    handle(async (req, res) => {
      const principal = s3PrincipalOf(res);
      const answer = await deps.batches.cancel(principal.accountId, jobId(req.params));
      if (!answer) throw new ApiError('not_found', 'Batch job not found');
      if ('finished' in answer) throw new ApiError('conflict', `The batch job is already ${answer.finished.status}; only a queued or running job can be cancelled`);
      deps.send(res, 200, withLinks(answer.job));
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
        if (!found.open) throw new ApiError('conflict', `The batch job is ${found.job.status}; its files are ready once it is completed (or cancelled)`);
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
