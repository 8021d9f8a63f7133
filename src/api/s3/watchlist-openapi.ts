/**
 * OpenAPI description of the internal-watchlist routes (./watchlist-routes.ts), registered twice:
 * by registerS3 for /api/v1/watchlists (X-API-Key) and by registerPortal for /api/portal/watchlists
 * (portal JWT). Same requests and answers on both.
 */
import type { OpenAPIRegistry, ResponseConfig } from '@asteasolutions/zod-to-openapi';
import { retryAfterHeader, S3ErrorSchema, S3RateLimitErrorSchema, S3ValidationErrorSchema } from '../openapi/common';
import { z } from '../openapi/zod';
import {
  ArchiveWatchlistSchema,
  ChangeWatchlistSchema,
  CreateEntrySchema,
  CreateWatchlistSchema,
  EntryListQuerySchema,
  EntryParamsSchema,
  ImportPreviewSchema,
  ImportQuerySchema,
  ImportRejectedSchema,
  ImportResultSchema,
  RemoveEntryQuerySchema,
  WatchlistEntryBodySchema,
  WatchlistEntrySchema,
  WatchlistListQuerySchema,
  WatchlistParamsSchema,
  WatchlistSchema,
} from './watchlist-schemas';
import { EXPORT_COLUMNS } from './watchlist-routes';

const json = (schema: z.ZodType) => ({ 'application/json': { schema } });
const Meta = z.object({ request_id: z.string(), timestamp: z.string() });
const envelope = (data: z.ZodType) => z.object({ data, meta: Meta });
const Pagination = z.object({ page: z.number().int(), limit: z.number().int(), total: z.number().int(), pages: z.number().int() });

const ImportHeaders = z.object({
  'x-import-mapping': z
    .string()
    .max(8192)
    .optional()
    .openapi({ description: 'Optional column mapping as JSON (`WatchlistImportMapping`), e.g. `{"columns":{"Client Ref":"entry_id","Surname":"last_name"},"dob_order":"mdy"}`. Or send it in the `mapping` query parameter (not both).' }),
  'x-file-name': z.string().max(255).optional().openapi({ description: 'The uploaded file\'s name, recorded with the import (or the file_name query parameter).' }),
});

export function registerWatchlistPaths(registry: OpenAPIRegistry, options: { base: string; tag: string; security: Record<string, string[]>[]; surface: 'S3' | 'Portal' }): void {
  const { base, tag, security, surface } = options;
  const errors = (extra: Record<number, string> = {}): Record<number, ResponseConfig> => ({
    400: { description: 'Missing or invalid input: `{error, details}` naming each field.', content: json(S3ValidationErrorSchema) },
    401:
      surface === 'S3'
        ? { description: 'Missing or invalid key.', content: json(S3ErrorSchema) }
        : {
            description: 'Not signed in, or the session expired.',
            headers: { 'WWW-Authenticate': { description: '`Bearer realm="portal"`.', schema: { type: 'string' } } },
            content: json(S3ErrorSchema),
          },
    ...((surface === 'S3'
      ? {
          403: { description: 'The plan has no API access (Starter).', content: json(S3ErrorSchema) },
          429: { description: 'Monthly request quota or failed-authentication window exceeded: `{message}`.', headers: retryAfterHeader as ResponseConfig['headers'], content: json(S3RateLimitErrorSchema) },
        }
      : {}) as Record<number, ResponseConfig>),
    500: { description: 'Unhandled exception.', content: json(S3ErrorSchema) },
    ...Object.fromEntries(Object.entries(extra).map(([status, description]) => [status, { description, content: json(S3ErrorSchema) }])),
  });
  const notFound = 'No such watchlist (or entry) in this account: another account\'s list answers exactly like a missing one.';
  const archived = 'The list is archived: it takes no changes.';
  const label = `${surface}: `;

  registry.registerPath({
    method: 'post',
    path: base,
    tags: [tag],
    summary: `${label}create an internal watchlist`,
    description:
      'One of the account\'s own lists (former customers exited for fraud, names from a regulator\'s letter…). Its active entries are screened in phase 1 of every CDD/EDD/M&A screening, person check and subject check as source "internal list: <name>"; a confirmed hit counts in the risk score by the list\'s severity. Version 1 after creation; every change bumps it.',
    security,
    request: { body: { required: true, content: json(CreateWatchlistSchema) } },
    responses: { 201: { description: 'The list (Location: its URL).', content: json(envelope(WatchlistSchema)) }, ...errors() },
  });
  registry.registerPath({
    method: 'get',
    path: base,
    tags: [tag],
    summary: `${label}the account's watchlists`,
    security,
    request: { query: WatchlistListQuerySchema },
    responses: { 200: { description: 'Lists, oldest first.', content: json(envelope(z.object({ watchlists: z.array(WatchlistSchema), pagination: Pagination }))) }, ...errors() },
  });
  registry.registerPath({
    method: 'get',
    path: `${base}/{id}`,
    tags: [tag],
    summary: `${label}one watchlist`,
    security,
    request: { params: WatchlistParamsSchema },
    responses: { 200: { description: 'The list.', content: json(envelope(WatchlistSchema)) }, ...errors({ 404: notFound }) },
  });
  registry.registerPath({
    method: 'patch',
    path: `${base}/{id}`,
    tags: [tag],
    summary: `${label}rename a watchlist or change its purpose, severity or owner`,
    description: 'A change that changes nothing keeps the version; any other bumps it.',
    security,
    request: { params: WatchlistParamsSchema, body: { required: true, content: json(ChangeWatchlistSchema) } },
    responses: { 200: { description: 'The list after the change.', content: json(envelope(WatchlistSchema)) }, ...errors({ 404: notFound, 409: archived }) },
  });
  registry.registerPath({
    method: 'post',
    path: `${base}/{id}/archive`,
    tags: [tag],
    summary: `${label}archive a watchlist (no longer screened; entries kept for audit)`,
    description: 'Archiving an archived list changes nothing. Monitoring alerts it raised stay as they are.',
    security,
    request: { params: WatchlistParamsSchema, body: { required: false, content: json(ArchiveWatchlistSchema) } },
    responses: { 200: { description: 'The archived list.', content: json(envelope(WatchlistSchema)) }, ...errors({ 404: notFound }) },
  });
  registry.registerPath({
    method: 'post',
    path: `${base}/{id}/entries`,
    tags: [tag],
    summary: `${label}add an entry`,
    description:
      'An entry has the fields of an official list entity. `primary_name` is required. Adding an entry reverse-matches the account\'s monitored subjects against it (monitoring alerts). With an `Idempotency-Key` a retry is safe whether or not you send an `entry_id`: the entry\'s id is bound to the key, so a retry after a lost answer (even one the service crashed before sending) answers the same entry and adds nothing. Without a key, send your own `entry_id` (the same id twice is a 409).',
    security,
    request: { params: WatchlistParamsSchema, body: { required: true, content: json(CreateEntrySchema) } },
    responses: {
      201: { description: 'The entry and the list (new version).', content: json(envelope(z.object({ entry: WatchlistEntrySchema, watchlist: WatchlistSchema }))) },
      ...errors({ 404: notFound, 409: `${archived} Or: an entry with this entry_id exists.` }),
    },
  });
  registry.registerPath({
    method: 'get',
    path: `${base}/{id}/entries`,
    tags: [tag],
    summary: `${label}the list's current entries`,
    security,
    request: { params: WatchlistParamsSchema, query: EntryListQuerySchema },
    responses: { 200: { description: 'Entries by entry_id.', content: json(envelope(z.object({ entries: z.array(WatchlistEntrySchema), pagination: Pagination }))) }, ...errors({ 404: notFound }) },
  });
  registry.registerPath({
    method: 'get',
    path: `${base}/{id}/entries/{entryId}`,
    tags: [tag],
    summary: `${label}one entry`,
    security,
    request: { params: EntryParamsSchema },
    responses: { 200: { description: 'The entry.', content: json(envelope(WatchlistEntrySchema)) }, ...errors({ 404: notFound }) },
  });
  registry.registerPath({
    method: 'patch',
    path: `${base}/{id}/entries/{entryId}`,
    tags: [tag],
    summary: `${label}change an entry`,
    description: 'The given fields replace the entry\'s (arrays whole); the others stay. A change re-matches the monitored subjects.',
    security,
    request: { params: EntryParamsSchema, body: { required: true, content: json(WatchlistEntryBodySchema.partial()) } },
    responses: { 200: { description: 'The entry and the list.', content: json(envelope(z.object({ entry: WatchlistEntrySchema, watchlist: WatchlistSchema }))) }, ...errors({ 404: notFound, 409: archived }) },
  });
  registry.registerPath({
    method: 'delete',
    path: `${base}/{id}/entries/{entryId}`,
    tags: [tag],
    summary: `${label}remove an entry`,
    description: 'Open monitoring alerts raised by this entry are flagged "entry removed" for the analyst to close (docs/watchlists.md); screenings that already used it keep it in their recorded version.',
    security,
    request: { params: EntryParamsSchema, query: RemoveEntryQuerySchema },
    responses: { 200: { description: 'Removed; the list at its new version.', content: json(envelope(z.object({ removed: z.string(), watchlist: WatchlistSchema }))) }, ...errors({ 404: notFound, 409: archived }) },
  });
  const importBody = {
    required: true,
    content: {
      'text/csv': {
        schema: {
          type: 'string' as const,
          description:
            'A header row, then one entry per row. Headers are recognised automatically: plain ones (name, first/middle/last name, suffix, alias, DOB, gender, status, address lines, city, state, postcode, country, passport, national id, SSN, tax id, registration number, IMO, driver\'s licence and its state, phone, e-mail, reason, id), the entity-resolution vendor layout (`PRIMARY_NAME_LAST/FIRST/MIDDLE/SUFFIX/FULL`, other labels\' `_NAME_FULL` as aliases, `[LABEL_]ADDR_LINE1..6/CITY/STATE/POSTAL_CODE/COUNTRY/FULL` one address per label, `PHONE_NUMBER`, `EMAIL_ADDRESS`, `SSN_NUMBER`, `DRIVERS_LICENSE_NUMBER/STATE`, `PASSPORT_NUMBER/COUNTRY`, `GENDER`, `DATE_OF_BIRTH`, `RECORD_TYPE`, `RECORD_ID`, `STATUS`) and the World-Check style (`UID`, `LAST NAME`, `FIRST NAME`, `ALIASES`, `DOB`, `PASSPORTS`, `SSN`, `CITIZENSHIP`, `E/I`, `FURTHER INFORMATION`). Several values in one cell are separated by `;` or `|`.',
        },
      },
      'application/x-ndjson': {
        schema: {
          type: 'string' as const,
          description: 'One JSON object per line, keys recognised like CSV headers; values are strings, numbers or arrays of them. The vendor\'s nested form (`{"RECORD_ID": …, "FEATURES": [{"NAME_TYPE": "PRIMARY", "NAME_LAST": …}, {"DATE_OF_BIRTH": …}, {"ADDR_TYPE": "HOME", "ADDR_LINE1": …}]}`) is read as the record its features make.',
        },
      },
    },
  };
  registry.registerPath({
    method: 'post',
    path: `${base}/{id}/imports/preview`,
    tags: [tag],
    summary: `${label}preview an import: the column mapping, sample rows and every row error (nothing written)`,
    security,
    request: { params: WatchlistParamsSchema, query: ImportQuerySchema, headers: ImportHeaders, body: importBody },
    responses: {
      200: { description: 'What the import would do.', content: json(envelope(ImportPreviewSchema)) },
      413: { description: 'Larger than WATCHLIST_IMPORT_MAX_BYTES (default 64 MiB).', content: json(S3ValidationErrorSchema) },
      415: { description: 'Content-Type is not text/csv or application/x-ndjson.', content: json(S3ValidationErrorSchema) },
      ...errors({ 404: notFound }),
    },
  });
  registry.registerPath({
    method: 'post',
    path: `${base}/{id}/imports`,
    tags: [tag],
    summary: `${label}import entries from CSV or JSON lines, all or nothing (or skipping bad rows)`,
    description:
      'Streams the body, maps it (automatic recognition plus your mapping in the X-Import-Mapping header or `mapping` query parameter) and commits the rows in chunks closed by one ListImported event with the counts, the file name and its SHA-256: the list gets one new version, searchable as soon as the answer is sent. `mode=add` adds new ids and changes known ones; `mode=replace` also removes entries the file does not hold. Rows without an id get a stable one from the name and date of birth. A row needs a name, an alias or a document number, phone or e-mail. The day/month order of each date column is decided from all its rows (the answer\'s `date_orders` says how); two-digit years follow `two_digit_years`. `bad_rows=reject` (default): any unreadable row ⇒ 422 listing each (line, field, reason), nothing imported; `bad_rows=skip`: the readable rows are imported and the others listed in `skipped`. With an `Idempotency-Key`, a retry of the same import (same file bytes, mode, mapping and file name) within 24 h answers the first import again (`Idempotent-Replayed: true`) and records nothing; the same key with another file or other options ⇒ 422 `idempotency_key_reused`. Without the key, re-sending the same file changes no entry (all rows `unchanged`) but records another import.',
    security,
    request: { params: WatchlistParamsSchema, query: ImportQuerySchema, headers: ImportHeaders, body: importBody },
    responses: {
      201: { description: 'Imported.', content: json(envelope(ImportResultSchema)) },
      413: { description: 'Larger than WATCHLIST_IMPORT_MAX_BYTES (default 64 MiB).', content: json(S3ValidationErrorSchema) },
      415: { description: 'Content-Type is not text/csv or application/x-ndjson.', content: json(S3ValidationErrorSchema) },
      422: { description: 'Rows that cannot be read, each (line, field, reason); nothing was imported.', content: json(ImportRejectedSchema) },
      ...errors({ 404: notFound, 409: archived }),
    },
  });
  registry.registerPath({
    method: 'get',
    path: `${base}/{id}/export.csv`,
    tags: [tag],
    summary: `${label}the list's entries as CSV`,
    description: `Columns: ${EXPORT_COLUMNS.join(', ')} (the first address; several values joined by "; "). The file re-imports as is. Cells a spreadsheet would run as a formula are prefixed with '. X-Watchlist-Version names the version.`,
    security,
    request: { params: WatchlistParamsSchema },
    responses: {
      200: { description: 'CSV.', headers: { 'X-Watchlist-Version': { description: 'The list version exported.', schema: { type: 'integer' } } }, content: { 'text/csv': { schema: { type: 'string' } } } },
      ...errors({ 404: notFound }),
    },
  });
}
