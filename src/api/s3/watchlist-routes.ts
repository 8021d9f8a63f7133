/**
 * Internal watchlists (issue 21), mounted twice with the same handlers: on S3 under
 * /api/v1/watchlists (X-API-Key, after the S3 gate) and on the portal under /api/portal/watchlists
 * (portal JWT). Answers use the S3 envelope `{data, meta}`; errors the S3 shapes, except the import's
 * 422 `{error, details: [{line, field, reason}]}` when rows cannot be read (nothing imported).
 *
 * Imports and previews take the body as a stream (`text/csv`, or `application/x-ndjson` /
 * `application/jsonl` for JSON lines), never through the JSON parser; the bytes are counted as they
 * arrive and the request is refused with 413 past the limit. The mapping comes as JSON in the
 * `X-Import-Mapping` header or the `mapping` query parameter.
 */
import { createHash, randomUUID } from 'node:crypto';
import { csvCell } from '../../shared/csv';
import express, { type Request, type Response, type Router } from 'express';
import { ImportRejected, MAX_IMPORT_ROWS } from '../../commands/watchlist';
import type { CommandContext, Principal } from '../../app/services';
import { ImportTooLarge, ImportUnreadable, parseImport, type ImportMapping, type ParsedImport } from '../../app/watchlists/import-parser';
import type { DateColumnOrder } from '../../app/watchlists/import-values';
import { spoolImport } from '../../app/watchlists/watchlist-import';
import type { WatchlistService } from '../../app/watchlists/watchlist-service';
import type { WatchlistEntry } from '../../screening/watchlists/model';
import { handle } from '../http/app';
import { ApiError } from '../http/errors';
import { canonicalJson } from '../http/idempotency';
import type { RequestHandler } from 'express';
import { parseInput } from '../http/validation';
import {
  ArchiveWatchlistSchema,
  ChangeWatchlistSchema,
  CreateEntrySchema,
  CreateWatchlistSchema,
  EntryListQuerySchema,
  EntryParamsSchema,
  ImportMappingSchema,
  ImportQuerySchema,
  presentEntry,
  presentEntryContent,
  presentWatchlist,
  RemoveEntryQuerySchema,
  toEntryInput,
  WatchlistEntryBodySchema,
  WatchlistListQuerySchema,
  WatchlistParamsSchema,
} from './watchlist-schemas';

export interface WatchlistRoutesOptions {
  /** '/api/v1/watchlists' (S3) or '/api/portal/watchlists' (portal). */
  base: string;
  watchlists: WatchlistService;
  principalOf(req: Request, res: Response): Promise<Principal>;
  commandContext(res: Response, principal: Principal): CommandContext;
  send(res: Response, status: number, data: unknown): void;
  /** The Idempotency-Key middleware of the create routes (lists, entries, imports). */
  idempotent: RequestHandler;
  /** Largest import body in bytes (WATCHLIST_IMPORT_MAX_BYTES). */
  maxImportBytes: number;
  /** Today as YYYY-MM-DD (the service clock): the default pivot of two-digit years. */
  today(): string;
}

const CSV_TYPES = ['text/csv', 'application/csv', 'text/plain'];
const JSONL_TYPES = ['application/x-ndjson', 'application/jsonl', 'application/x-jsonlines', 'application/jsonlines'];

function importFormat(req: Request): 'csv' | 'jsonl' {
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (CSV_TYPES.includes(type)) return 'csv';
  if (JSONL_TYPES.includes(type)) return 'jsonl';
  throw new ApiError('unsupported_media_type', `Content-Type must be text/csv (CSV) or application/x-ndjson (JSON lines), not ${type || 'absent'}`, {
    errors: ['content-type: text/csv or application/x-ndjson'],
  });
}

function mappingOf(req: Request, query: { mapping?: string | undefined }): ImportMapping {
  const header = req.headers['x-import-mapping'];
  if (Array.isArray(header)) throw new ApiError('bad_request', 'X-Import-Mapping: sent more than once', { fields: { 'x-import-mapping': ['sent more than once'] } });
  const text = header ?? query.mapping;
  if (text === undefined) return {};
  if (header !== undefined && query.mapping !== undefined) throw new ApiError('bad_request', 'mapping: give it in the X-Import-Mapping header or the mapping query parameter, not both', { fields: { mapping: ['given twice'] } });
  if (text.length > 8192) throw new ApiError('bad_request', 'mapping: at most 8192 characters', { fields: { mapping: ['at most 8192 characters'] } });
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new ApiError('bad_request', 'mapping: not valid JSON', { fields: { mapping: ['not valid JSON'] } });
  }
  return parseInput(ImportMappingSchema, parsed, 'mapping');
}

async function readImport(req: Request, options: WatchlistRoutesOptions, mapping: ImportMapping, keepRows?: number): Promise<ParsedImport> {
  return readBody(req, options, (format) => parseImport(req, { format, mapping, maxBytes: options.maxImportBytes, maxRows: MAX_IMPORT_ROWS, today: options.today(), ...(keepRows !== undefined ? { keepRows } : {}) }));
}

/** How each date column's order was decided, as the preview and the import answer show it. */
function presentDateOrders(orders: Readonly<Record<string, DateColumnOrder>>) {
  return Object.fromEntries(
    Object.entries(orders).map(([column, o]) => [
      column,
      { order: o.order, decided_by: o.decidedBy, day_first_rows: o.dayFirstRows, month_first_rows: o.monthFirstRows, ambiguous_rows: o.ambiguousRows, flagged: o.flagged, note: o.note },
    ]),
  );
}

/** Reads an import body with `read`, answering a body too large or unreadable in the surface's envelope. */
async function readBody<T>(req: Request, options: WatchlistRoutesOptions, read: (format: 'csv' | 'jsonl') => Promise<T>): Promise<T> {
  const format = importFormat(req);
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > options.maxImportBytes) {
    throw new ApiError('payload_too_large', `The import is larger than ${options.maxImportBytes} bytes`, { errors: [`body: at most ${options.maxImportBytes} bytes`] });
  }
  try {
    return await read(format);
  } catch (error) {
    if (error instanceof ImportTooLarge) {
      // Stop reading: the client gets its answer now, the rest of the body is dropped.
      req.unpipe();
      req.resume();
      throw new ApiError('payload_too_large', `The import is larger than ${options.maxImportBytes} bytes`, { errors: [`body: at most ${options.maxImportBytes} bytes`] });
    }
    if (error instanceof ImportUnreadable) throw new ApiError('bad_request', `body: ${error.message}`, { fields: { body: [error.message] } });
    throw error;
  }
}

export const EXPORT_COLUMNS = [
  'entry_id',
  'entity_type',
  'status',
  'full_name',
  'aliases',
  'gender',
  'date_of_birth',
  'nationality',
  'address_line',
  'city',
  'region',
  'postal_code',
  'country',
  'passport',
  'national_id',
  'tax_id',
  'registration_number',
  'imo',
  'drivers_license',
  'drivers_license_region',
  'phone',
  'email',
  'other_id',
  'reason',
  'added_by',
  'added_at',
] as const;

/** One export row; the first address only (the others are listed in the JSON API). */
export function exportRow(e: WatchlistEntry): string {
  const ids = (kind: string) => e.identifiers.filter((i) => i.kind === kind).map((i) => i.value).join('; ');
  const a = e.addresses[0];
  const cells = [
    e.entryId,
    e.entityType,
    e.status ?? 'active',
    e.primaryName,
    e.aliases.map((x) => x.name).join('; '),
    e.gender ?? '',
    e.datesOfBirth.join('; '),
    e.nationalities.join('; '),
    a?.line ?? '',
    a?.city ?? '',
    a?.region ?? '',
    a?.postalCode ?? '',
    a?.country ?? '',
    ids('passport'),
    ids('national_id'),
    ids('tax_id'),
    ids('registration_number'),
    ids('imo'),
    ids('drivers_license'),
    e.identifiers.find((i) => i.kind === 'drivers_license' && i.region)?.region ?? '',
    ids('phone'),
    ids('email'),
    ids('other'),
    e.reason,
    e.addedBy,
    e.addedAt,
  ];
  return cells.map(csvCell).join(',');
}

export function createWatchlistRoutes(options: WatchlistRoutesOptions): Router {
  const router = express.Router();
  const { base, watchlists: service, send } = options;
  const listId = (req: Request) => {
    const parsed = WatchlistParamsSchema.safeParse(req.params);
    if (!parsed.success) throw new ApiError('bad_request', 'id: must be a watchlist uuid', { fields: { id: ['must be a watchlist uuid'] } });
    return parsed.data.id.toLowerCase();
  };
  const entryParams = (req: Request) => {
    const parsed = EntryParamsSchema.safeParse(req.params);
    if (!parsed.success) throw new ApiError('bad_request', 'id/entryId: must be a watchlist uuid and an entry id', { fields: Object.fromEntries(parsed.error.issues.map((i) => [i.path.join('.'), [i.message]])) });
    return { id: parsed.data.id.toLowerCase(), entryId: parsed.data.entryId };
  };
  /** Another account's list answers exactly like no list. */
  const own = async (principal: Principal, id: string) => {
    const list = await service.get(principal.accountId, id);
    if (!list) throw new ApiError('not_found', `Watchlist ${id} not found`);
    return list;
  };
  const archivedConflict = (id: string) => new ApiError('conflict', `Watchlist ${id} is archived: it takes no changes`);

  router.post(
    base,
    options.idempotent,
    handle(async (req, res) => {
      const principal = await options.principalOf(req, res);
      const input = parseInput(CreateWatchlistSchema, req.body);
      const created = await service.create(principal.accountId, input, options.commandContext(res, principal));
      res.setHeader('Location', `${base}/${created.id}`);
      send(res, 201, presentWatchlist(created));
    }),
  );
  router.get(
    base,
    handle(async (req, res) => {
      const principal = await options.principalOf(req, res);
      const query = parseInput(WatchlistListQuerySchema, req.query, 'query');
      const { items, total } = await service.list(principal.accountId, { page: query.page, limit: query.limit, ...(query.status ? { status: query.status } : {}) });
      send(res, 200, { watchlists: items.map(presentWatchlist), pagination: { page: query.page, limit: query.limit, total, pages: Math.ceil(total / query.limit) } });
    }),
  );
  router.get(
    `${base}/:id`,
    handle(async (req, res) => {
      const principal = await options.principalOf(req, res);
      send(res, 200, presentWatchlist(await own(principal, listId(req))));
    }),
  );
  router.patch(
    `${base}/:id`,
    handle(async (req, res) => {
      const principal = await options.principalOf(req, res);
      const id = listId(req);
      const input = parseInput(ChangeWatchlistSchema, req.body ?? {});
      const list = await own(principal, id);
      if (list.status === 'archived') throw archivedConflict(id);
      const changed = await service.change(principal.accountId, id, Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)), options.commandContext(res, principal));
      send(res, 200, presentWatchlist(changed));
    }),
  );
  router.post(
    `${base}/:id/archive`,
    handle(async (req, res) => {
      const principal = await options.principalOf(req, res);
      const id = listId(req);
      const input = parseInput(ArchiveWatchlistSchema, req.body ?? {});
      await own(principal, id);
      send(res, 200, presentWatchlist(await service.archive(principal.accountId, id, input.reason, options.commandContext(res, principal))));
    }),
  );

  // ---- entries
  router.post(
    `${base}/:id/entries`,
    options.idempotent,
    handle(async (req, res) => {
      const principal = await options.principalOf(req, res);
      const id = listId(req);
      const body = parseInput(CreateEntrySchema, req.body);
      const list = await own(principal, id);
      if (list.status === 'archived') throw archivedConflict(id);
      const { entry_id, ...content } = body;
      const added = await service.addEntry(principal.accountId, id, entry_id, toEntryInput(content), options.commandContext(res, principal));
      res.setHeader('Location', `${base}/${id}/entries/${encodeURIComponent(added.entry.entryId)}`);
      send(res, 201, { entry: presentEntry(added.entry), watchlist: presentWatchlist(added.list) });
    }),
  );
  router.get(
    `${base}/:id/entries`,
    handle(async (req, res) => {
      const principal = await options.principalOf(req, res);
      const id = listId(req);
      const query = parseInput(EntryListQuerySchema, req.query, 'query');
      await own(principal, id);
      const { items, total } = await service.entries(principal.accountId, id, { page: query.page, limit: query.limit, ...(query.q ? { q: query.q } : {}) });
      send(res, 200, { entries: items.map(presentEntry), pagination: { page: query.page, limit: query.limit, total, pages: Math.ceil(total / query.limit) } });
    }),
  );
  router.get(
    `${base}/:id/entries/:entryId`,
    handle(async (req, res) => {
      const principal = await options.principalOf(req, res);
      const { id, entryId } = entryParams(req);
      await own(principal, id);
      const entry = await service.entry(principal.accountId, id, entryId);
      if (!entry) throw new ApiError('not_found', `Entry ${entryId} not found in watchlist ${id}`);
      send(res, 200, presentEntry(entry));
    }),
  );
  router.patch(
    `${base}/:id/entries/:entryId`,
    handle(async (req, res) => {
      const principal = await options.principalOf(req, res);
      const { id, entryId } = entryParams(req);
      // PATCH merges the given fields into the entry; arrays are replaced whole.
      const patch = parseInput(WatchlistEntryBodySchema.partial(), req.body ?? {});
      const list = await own(principal, id);
      if (list.status === 'archived') throw archivedConflict(id);
      const current = await service.entry(principal.accountId, id, entryId);
      if (!current) throw new ApiError('not_found', `Entry ${entryId} not found in watchlist ${id}`);
      const given = Object.fromEntries(Object.entries(patch).filter(([key]) => req.body && Object.hasOwn(req.body, key)));
      const { primary_name: currentName, ...currentRest } = presentEntryContent(current);
      const merged = parseInput(WatchlistEntryBodySchema, { ...currentRest, ...(currentName ? { primary_name: currentName } : {}), ...given });
      const changed = await service.changeEntry(principal.accountId, id, entryId, toEntryInput(merged), options.commandContext(res, principal));
      send(res, 200, { entry: presentEntry(changed.entry), watchlist: presentWatchlist(changed.list) });
    }),
  );
  router.delete(
    `${base}/:id/entries/:entryId`,
    handle(async (req, res) => {
      const principal = await options.principalOf(req, res);
      const { id, entryId } = entryParams(req);
      const query = parseInput(RemoveEntryQuerySchema, req.query, 'query');
      const list = await own(principal, id);
      if (list.status === 'archived') throw archivedConflict(id);
      if (!(await service.entry(principal.accountId, id, entryId))) throw new ApiError('not_found', `Entry ${entryId} not found in watchlist ${id}`);
      const after = await service.removeEntry(principal.accountId, id, entryId, query.reason, options.commandContext(res, principal));
      send(res, 200, { removed: entryId, watchlist: presentWatchlist(after) });
    }),
  );

  // ---- imports
  router.post(
    `${base}/:id/imports/preview`,
    handle(async (req, res) => {
      const principal = await options.principalOf(req, res);
      const id = listId(req);
      const query = parseInput(ImportQuerySchema, req.query, 'query');
      const mapping = mappingOf(req, query);
      await own(principal, id);
      const parsed = await readImport(req, options, mapping, 20);
      send(res, 200, {
        format: parsed.format,
        mapping: parsed.mapping,
        unmapped_columns: parsed.unmappedColumns,
        date_orders: presentDateOrders(parsed.dateOrders),
        two_digit_years: parsed.twoDigitYears,
        rows: parsed.rowCount,
        valid_rows: parsed.rowCount - parsed.badRows,
        sample: parsed.rows.map((r) => ({ line: r.line, entry_id: r.entryId, ...presentEntryContent(r.entry) })),
        errors: parsed.errors.slice(0, 1000),
        error_count: parsed.errorCount,
        bytes: parsed.bytes,
        sha256: parsed.sha256,
      });
    }),
  );
  router.post(
    `${base}/:id/imports`,
    options.idempotent,
    handle(async (req, res) => {
      const principal = await options.principalOf(req, res);
      const id = listId(req);
      const query = parseInput(ImportQuerySchema, req.query, 'query');
      const mapping = mappingOf(req, query);
      const list = await own(principal, id);
      if (list.status === 'archived') throw archivedConflict(id);
      // Pass one: every row read and checked, the valid ones spooled to disk (never all in memory).
      const skip = query.bad_rows === 'skip';
      const parsed = await readBody(req, options, (format) => spoolImport(req, { format, mapping, maxBytes: options.maxImportBytes, maxRows: MAX_IMPORT_ROWS, today: options.today(), skipBadRows: skip }));
      const refuse = (rows: { line: number; field: string; reason: string }[], count: number): void => {
        res.status(422).json({ error: `${count} problem(s) in the import's rows; nothing was imported`, details: rows.slice(0, 1000) });
      };
      try {
        if (parsed.errorCount && (!skip || parsed.goodRows === 0)) return refuse(parsed.errors, parsed.errorCount);
        if (parsed.rowCount === 0) throw new ApiError('bad_request', 'body: the file holds no entries', { fields: { body: ['the file holds no entries'] } });
        const fileNameHeader = req.headers['x-file-name'];
        const fileName = query.file_name ?? (typeof fileNameHeader === 'string' && fileNameHeader.trim() ? fileNameHeader.trim().slice(0, 255) : `upload.${parsed.format}`);
        let ctx = options.commandContext(res, principal);
        if (ctx.idempotency) {
          // The streamed file is not in the key's request hash: its SHA-256 (with the mode, mapping and
          // file name) is bound to the key, and so is the import id, so a retry imports nothing twice.
          const request = createHash('sha256').update(`${parsed.sha256}\n${query.mode}\n${fileName}\n${canonicalJson(mapping)}${skip ? '\nskip' : ''}`).digest('hex');
          const [importId, bound] = await ctx.idempotency.bind(['watchlist-import', 'watchlist-import-request'], async () => [randomUUID(), request]);
          if (bound !== request) throw new ApiError('idempotency_key_reused', 'This Idempotency-Key was already used with a different file or import options; use a new key for a new import');
          ctx = { ...ctx, commandId: importId! };
        }
        // Pass two: decided and appended in chunks, made visible by one ListImported.
        const { list: after, imported } = await service.importStaged(principal.accountId, id, parsed, { mode: query.mode, fileName, skipBadRows: skip }, ctx);
        const d = imported as { importId: string; rows: number; added: number; changed: number; unchanged: number; removed: number; entryCount: number; version: number };
        send(res, 201, {
          watchlist: presentWatchlist(after),
          import: {
            import_id: d.importId,
            mode: query.mode,
            file_name: fileName,
            sha256: parsed.sha256,
            format: parsed.format,
            bytes: parsed.bytes,
            rows: d.rows,
            added: d.added,
            changed: d.changed,
            unchanged: d.unchanged,
            removed: d.removed,
            entry_count: d.entryCount,
            version: d.version,
            mapping: parsed.mapping,
            date_orders: presentDateOrders(parsed.dateOrders),
            two_digit_years: parsed.twoDigitYears,
            bad_rows: query.bad_rows,
            skipped_rows: skip ? parsed.badRows : 0,
            skipped: skip ? parsed.errors : [],
          },
        });
      } catch (error) {
        if (error instanceof ImportRejected) return refuse(error.rows, error.rows.length);
        throw error;
      } finally {
        await parsed.dispose();
      }
    }),
  );

  router.get(
    `${base}/:id/export.csv`,
    handle(async (req, res) => {
      const principal = await options.principalOf(req, res);
      const id = listId(req);
      const list = await own(principal, id);
      res.status(200);
      res.setHeader('Content-Type', 'text/csv; charset=utf-8');
      res.setHeader('Content-Disposition', `attachment; filename="watchlist-${list.id}-v${list.version}.csv"`);
      res.setHeader('X-Watchlist-Version', String(list.version));
      res.write(`${EXPORT_COLUMNS.join(',')}\r\n`);
      let chunk = '';
      for await (const entry of service.allEntries(principal.accountId, id)) {
        chunk += `${exportRow(entry)}\r\n`;
        if (chunk.length > 64 * 1024) {
          if (!res.write(chunk)) await new Promise((resolve) => res.once('drain', resolve));
          chunk = '';
        }
      }
      res.end(chunk);
    }),
  );
  return router;
}
