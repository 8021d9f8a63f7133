/**
 * OpenAPI of the S3 asynchronous batch screening jobs (./batch-routes.ts), from the schemas the routes
 * validate with. Called by registerS3.
 */
import type { OpenAPIRegistry, ResponseConfig } from '@asteasolutions/zod-to-openapi';
import { retryAfterHeader, S3ErrorSchema, S3RateLimitErrorSchema, S3ValidationErrorSchema, securitySchemes } from '../openapi/common';
import { z } from '../openapi/zod';
import { BATCH_PATH, BatchCreateQuerySchema, BatchIdParamsSchema, BatchListQuerySchema } from './batch-routes';

const json = (schema: z.ZodType) => ({ 'application/json': { schema } });
const Meta = z.object({ request_id: z.string().uuid(), timestamp: z.string() });
const envelope = (data: z.ZodType) => z.object({ data, meta: Meta });

const BatchJobSchema = z
  .object({
    id: z.string().uuid(),
    status: z.enum(['queued', 'running', 'completed', 'failed']).openapi({ description: 'queued → running → completed, or failed (with `error`); a job its instance stopped running is failed as interrupted.' }),
    threshold: z.number(),
    input_bytes: z.number().int(),
    rows_estimated: z.number().int().openapi({ description: 'Data rows in the upload, counted from its line breaks (an estimate when a quoted field holds one).' }),
    progress: z.object({
      rows_read: z.number().int(),
      screened: z.number().int(),
      flagged: z.number().int(),
      rejected: z.number().int(),
      names_per_second: z.number().nullable(),
    }),
    error: z.string().nullable(),
    created_at: z.string(),
    started_at: z.string().nullable(),
    finished_at: z.string().nullable(),
    url: z.string(),
    files: z
      .object({ results_csv: z.string(), results_jsonl: z.string(), errors_csv: z.string() })
      .nullable()
      .openapi({ description: 'Download URLs, once the job is completed.' }),
  })
  .openapi('S3BatchJob');

const errors = (extra: Record<number, string> = {}): Record<number, ResponseConfig> => ({
  400: { description: 'Invalid input: `{error, details}`.', content: json(S3ValidationErrorSchema) },
  401: { description: 'Missing or invalid key.', content: json(S3ErrorSchema) },
  403: { description: 'Starter: no API access.', content: json(S3ErrorSchema) },
  429: { description: 'Monthly request quota or the failed-authentication window exceeded: `{message}`.', headers: retryAfterHeader as ResponseConfig['headers'], content: json(S3RateLimitErrorSchema) },
  500: { description: 'Unhandled exception.', content: json(S3ErrorSchema) },
  ...Object.fromEntries(Object.entries(extra).map(([status, description]) => [status, { description, content: json(S3ErrorSchema) }])),
});

export function registerS3Batches(registry: OpenAPIRegistry): void {
  const security = [{ [securitySchemes.s3ApiKey]: [] }];
  registry.registerPath({
    method: 'post',
    path: BATCH_PATH,
    tags: ['S3 batch screening'],
    summary: 'S3: screen a CSV of names asynchronously (the `svc screen --file` engine)',
    description:
      'Body: the CSV itself (Content-Type `text/csv`, UTF-8), streamed: a header line with a `name` column and optionally `entity_type` (or `type`), `dob`, `country`, one row per name (docs/batch-screening.md). ' +
      'The file is stored as it arrives (never held in memory whole) and refused past `BATCH_MAX_BYTES` (default 100 MiB; 413, checked from Content-Length before reading and while streaming), when it is not valid UTF-8, empty, or its header has no `name` column (400); nothing is recorded then. ' +
      'Answers 202 with the queued job and its URL (Location) once the upload is stored; jobs of an instance run one at a time. Rows that cannot be read are reported in errors.csv with their line and the batch carries on. ' +
      'The upload counts as one request against the monthly request quota. Idempotency-Key: "same request" is the same path, Content-Type and Content-Length, and the upload\'s SHA-256 is bound to the key.',
    security,
    request: { query: BatchCreateQuerySchema, body: { required: true, content: { 'text/csv': { schema: z.string().openapi({ format: 'binary' }) } } } },
    responses: {
      202: { description: 'The job, queued: `{data, meta}`.', headers: { Location: { description: '/api/v1/batches/{id}', schema: { type: 'string' } } }, content: json(envelope(BatchJobSchema)) },
      ...errors({ 413: 'The file is larger than BATCH_MAX_BYTES: `{error}`.', 415: 'The body is not `text/csv`: `{error}`.' }),
      503: {
        description: 'BATCH_MAX_QUEUED jobs are already queued or running in this instance (or it is stopping); nothing was recorded: `{error}`. Retry after the Retry-After delay.',
        headers: retryAfterHeader as ResponseConfig['headers'],
        content: json(S3ErrorSchema),
      },
    },
  });
  registry.registerPath({
    method: 'get',
    path: BATCH_PATH,
    tags: ['S3 batch screening'],
    summary: 'S3: own batch jobs, newest first',
    security,
    request: { query: BatchListQuerySchema },
    responses: { 200: { description: 'The jobs.', content: json(envelope(z.array(BatchJobSchema))) }, ...errors() },
  });
  registry.registerPath({
    method: 'get',
    path: `${BATCH_PATH}/{id}`,
    tags: ['S3 batch screening'],
    summary: 'S3: a batch job with its progress (rows read, screened, flagged, rejected, names/s)',
    security,
    request: { params: BatchIdParamsSchema },
    responses: { 200: { description: 'The job.', content: json(envelope(BatchJobSchema)) }, ...errors({ 404: "No such job, or another account's." }) },
  });
  const files: [string, string, string][] = [
    ['results.csv', 'text/csv', 'One line per readable row, in input order: line, name, entity_type, dob, country, flagged, hit_count, best_score, best_entity_id, best_entity_name, matched_name, matched_lists, risk_score, risk_level, explanation.'],
    ['results.jsonl', 'application/x-ndjson', 'One JSON line per flagged row with every hit and its full explanation.'],
    ['errors.csv', 'text/csv', 'line, field, value, message: one line per problem of a row that could not be screened.'],
  ];
  for (const [name, type, description] of files) {
    registry.registerPath({
      method: 'get',
      path: `${BATCH_PATH}/{id}/${name}`,
      tags: ['S3 batch screening'],
      summary: `S3: a completed batch job's ${name}`,
      description: `${description} Sent as an attachment.`,
      security,
      request: { params: BatchIdParamsSchema },
      responses: {
        200: { description: name, content: { [type]: { schema: z.string() } } },
        ...errors({ 404: "No such job, or another account's.", 409: 'The job is not completed (queued, running or failed).' }),
      },
    });
  }
}
