/**
 * OpenAPI of the S3 asynchronous batch screening jobs (./batch-routes.ts), from the schemas the routes
 * validate with. Called by registerS3.
 */
import type { OpenAPIRegistry, ResponseConfig } from '@asteasolutions/zod-to-openapi';
import { retryAfterHeader, S3ErrorSchema, S3RateLimitErrorSchema, S3ValidationErrorSchema, securitySchemes } from '../openapi/common';
import { z } from '../openapi/zod';
import { BATCH_CONTENT_TYPES, BATCH_PATH, BatchCreateQuerySchema, BatchIdParamsSchema, BatchListQuerySchema } from './batch-routes';

const json = (schema: z.ZodType) => ({ 'application/json': { schema } });
const Meta = z.object({ request_id: z.string().uuid(), timestamp: z.string() });
const envelope = (data: z.ZodType) => z.object({ data, meta: Meta });

const BatchJobSchema = z
  .object({
    id: z.string().uuid(),
    status: z.enum(['queued', 'running', 'completed', 'failed', 'cancelled']).openapi({
      description:
        'queued → running → completed, or failed (with `error`), or cancelled (POST …/cancel). A job whose instance stopped or died goes back to queued and resumes from its last checkpoint (`resumes` counts it); one that cannot resume (its files are not on any live instance for an hour) is failed as interrupted.',
    }),
    input_format: z.enum(['csv', 'jsonl']).openapi({ description: 'The upload format, from its Content-Type.' }),
    threshold: z.number(),
    input_bytes: z.number().int(),
    rows_estimated: z.number().int().openapi({ description: 'Data rows in the upload, counted from its line breaks (an estimate when a quoted field holds one).' }),
    progress: z.object({
      rows_read: z.number().int(),
      screened: z.number().int(),
      flagged: z.number().int(),
      rejected: z.number().int(),
      names_per_second: z.number().nullable(),
    }).openapi({ description: 'Counters so far; after a resume or a cancel, those of the last checkpoint (the rows in the files).' }),
    resumes: z.number().int().openapi({ description: 'Times the job was taken up again after its instance stopped or died.' }),
    error: z.string().nullable(),
    created_at: z.string(),
    started_at: z.string().nullable(),
    finished_at: z.string().nullable(),
    url: z.string(),
    files: z
      .object({ results_csv: z.string(), results_jsonl: z.string(), errors_csv: z.string() })
      .nullable()
      .openapi({ description: 'Download URLs, once the job is completed or cancelled (a cancelled job: the rows up to its last checkpoint).' }),
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
    summary: 'S3: screen a CSV or JSON lines of names asynchronously (the `svc screen --file` engine)',
    description:
      'Body: the file itself, UTF-8, streamed. CSV (Content-Type `text/csv`): a header line with a `name` column and optionally `entity_type` (or `type`), `dob`, `country`, one row per name. ' +
      'JSON lines (`application/x-ndjson`, `application/jsonl` or `application/json-lines`): one object per line with the same fields (strings; a number is read as its digits). ' +
      '`application/octet-stream` is accepted with a Content-Disposition filename ending `.csv`, `.jsonl` or `.ndjson` (docs/batch-screening.md). ' +
      'The file is stored as it arrives (never held in memory whole) and refused past `BATCH_MAX_BYTES` (default 100 MiB; 413, checked from Content-Length before reading and while streaming), when it is not valid UTF-8, empty, its CSV header has no `name` column, or its first JSON line is not an object (400); nothing is recorded then. ' +
      'Answers 202 with the queued job and its URL (Location) once the upload is stored; jobs of an instance run one at a time, and resume from their last checkpoint after a restart. Rows that cannot be read (bad CSV quoting, a line that is not a JSON object, a field of the wrong type, a bad name, DOB, country or type) are reported in errors.csv with their line and the batch carries on. ' +
      'The upload counts as one request against the monthly request quota. Idempotency-Key: "same request" is the same path, Content-Type and Content-Length, and the upload\'s SHA-256 is bound to the key.',
    security,
    request: {
      query: BatchCreateQuerySchema,
      body: {
        required: true,
        content: Object.fromEntries([...Object.keys(BATCH_CONTENT_TYPES), 'application/octet-stream'].map((type) => [type, { schema: z.string().openapi({ format: 'binary' }) }])),
      },
    },
    responses: {
      202: { description: 'The job, queued: `{data, meta}`.', headers: { Location: { description: '/api/v1/batches/{id}', schema: { type: 'string' } } }, content: json(envelope(BatchJobSchema)) },
      ...errors({ 413: 'The file is larger than BATCH_MAX_BYTES: `{error}`.', 415: 'The body is neither CSV nor JSON lines (Content-Type, or the file name of an octet-stream): `{error}`.' }),
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
  registry.registerPath({
    method: 'post',
    path: `${BATCH_PATH}/{id}/cancel`,
    tags: ['S3 batch screening'],
    summary: 'S3: cancel a queued or running batch job',
    description:
      'The job reads `cancelled` at once, with the counters of its last checkpoint; its instance stops screening within about a second. Its files stay downloadable and hold exactly the rows up to that checkpoint (one results line per readable row, in order). Cancelling a cancelled job answers it again.',
    security,
    request: { params: BatchIdParamsSchema },
    responses: {
      200: { description: 'The job, cancelled.', content: json(envelope(BatchJobSchema)) },
      ...errors({ 404: "No such job, or another account's.", 409: 'The job is already completed or failed: `{error}`.' }),
    },
  });
  const files: [string, string, string][] = [
    [
      'results.csv',
      'text/csv',
      'One line per row with a name, in input order: line, name, entity_type, dob, country, flagged, hit_count, best_score, best_entity_id, best_entity_name, matched_name, matched_lists, risk_score, risk_level, explanation, match_strength, confirmation, risk_reason, warnings. Each row gets the verdict a CDD screening of the same name and facts gives: one hit per real-world entity, the row country as the jurisdiction, the same scorer (docs/batch-screening.md). A bad optional field (an impossible dob such as 1968-13-30, an unknown country) is left out and named in `warnings`; the name is still screened. Dates may omit leading zeros (1969-7-16).',
    ],
    ['results.jsonl', 'application/x-ndjson', 'One JSON line per flagged row with the verdict (risk_score, risk_level, risk_reason, risk_flags, country_risk) and every merged hit with its lists, what confirmed it or that nothing did, and its full explanation.'],
    ['errors.csv', 'text/csv', 'line, field, value, message: one line per problem of a row that could not be screened (no name; field `row`: a line that could not be read at all), and one per optional field a screened row was screened without.'],
  ];
  for (const [name, type, description] of files) {
    registry.registerPath({
      method: 'get',
      path: `${BATCH_PATH}/{id}/${name}`,
      tags: ['S3 batch screening'],
      summary: `S3: a completed (or cancelled) batch job's ${name}`,
      description: `${description} Sent as an attachment.`,
      security,
      request: { params: BatchIdParamsSchema },
      responses: {
        200: { description: name, content: { [type]: { schema: z.string() } } },
        ...errors({ 404: "No such job, or another account's.", 409: 'The job is queued, running or failed.' }),
      },
    });
  }
}
