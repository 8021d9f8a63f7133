/**
 * Internal watchlists on S3 and the portal (issue 21): request schemas the routes validate with and
 * the response shapes the OpenAPI description documents. Field names are snake_case, as on S3.
 */
import { z } from '../openapi/zod';
import { identifierKinds, watchlistEntityTypes, watchlistEntryStatuses, watchlistGenders, watchlistSeverities, type Watchlist, type WatchlistEntry, type WatchlistEntryInput } from '../../screening/watchlists/model';
import { importTargets } from '../../app/watchlists/import-parser';
import { freeText, nameText } from './schemas';

const iso2 = z
  .string()
  .trim()
  .transform((s) => s.toUpperCase())
  .pipe(z.string().regex(/^[A-Z]{2}$/, 'must be an ISO 3166-1 alpha-2 code'))
  .openapi({ type: 'string', example: 'GB' });
const dob = z
  .string()
  .regex(/^\d{4}(-(0[1-9]|1[0-2])(-(0[1-9]|[12]\d|3[01]))?)?$/, 'must be YYYY, YYYY-MM or YYYY-MM-DD')
  .openapi({ example: '1971-04-03' });

export const WatchlistSeverityField = z.enum(watchlistSeverities).openapi({ description: 'How a confirmed hit counts in the risk scorer: block ⇒ critical floor, review ⇒ high, note ⇒ medium (docs/risk-scoring.md).' });

export const CreateWatchlistSchema = z
  .strictObject({
    name: nameText(1, 200),
    purpose: freeText(0, 2000).default(''),
    severity: WatchlistSeverityField,
    owner: nameText(1, 200).openapi({ description: 'Who answers for the list: a team, a person, an e-mail.' }),
  })
  .openapi('WatchlistCreate');

export const ChangeWatchlistSchema = z
  .strictObject({
    name: nameText(1, 200).optional(),
    purpose: freeText(0, 2000).optional(),
    severity: WatchlistSeverityField.optional(),
    owner: nameText(1, 200).optional(),
  })
  .refine((v) => Object.values(v).some((x) => x !== undefined), { message: 'name at least one of name, purpose, severity, owner' })
  .openapi('WatchlistChange');

export const ArchiveWatchlistSchema = z.strictObject({ reason: freeText(1, 2000).optional() }).openapi('WatchlistArchive');

const AliasSchema = z.strictObject({ name: nameText(1, 300), script: z.string().regex(/^[A-Z][a-z]{3}$/, 'must be an ISO 15924 code (Latn, Cyrl…)').optional() });
const AddressSchema = z
  .strictObject({
    line: freeText(1, 500).optional().openapi({ description: 'The street line, or the whole address on one line ("123 Main St Apt 4, Las Vegas NV 89101"): the matcher takes it apart.' }),
    city: nameText(1, 200).optional(),
    region: nameText(1, 100).optional().openapi({ description: 'State, province or county.' }),
    postal_code: nameText(1, 40).optional(),
    country: iso2.optional(),
  })
  .refine((a) => a.line !== undefined || a.city !== undefined || a.region !== undefined || a.postal_code !== undefined || a.country !== undefined, { message: 'needs at least one of line, city, region, postal_code, country' });
const IdentifierSchema = z.strictObject({
  kind: z.enum(identifierKinds),
  value: nameText(1, 200),
  country: iso2.optional(),
  region: nameText(1, 100).optional().openapi({ description: "Issuing state or province (a driver's licence)." }),
});

export const WatchlistEntryBodySchema = z
  .strictObject({
    entity_type: z.enum(watchlistEntityTypes).default('person'),
    primary_name: nameText(1, 300)
      .optional()
      .openapi({ description: 'The name. Required unless the entry has a document number, phone or e-mail (an entry listed by an identifier alone: it is found by that identifier only).' }),
    aliases: z.array(AliasSchema).max(100).default([]),
    dates_of_birth: z.array(dob).max(20).default([]),
    nationalities: z.array(iso2).max(20).default([]),
    addresses: z.array(AddressSchema).max(50).default([]),
    identifiers: z.array(IdentifierSchema).max(50).default([]),
    reason: freeText(0, 2000).default(''),
    status: z.enum(watchlistEntryStatuses).default('active').openapi({ description: 'inactive: kept on the list (export, audit) but not screened.' }),
    gender: z.enum(watchlistGenders).optional(),
  })
  .openapi('WatchlistEntryInput');

export const CreateEntrySchema = WatchlistEntryBodySchema.extend({
  entry_id: z
    .string()
    .regex(/^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/, 'must be 1-128 characters of letters, digits, . _ : -')
    .optional()
    .openapi({ description: 'Your own reference; a uuid is allocated when absent. Adding an id that exists is a 409.' }),
}).openapi('WatchlistEntryCreate');

export const WatchlistParamsSchema = z.strictObject({ id: z.string().uuid('must be a watchlist uuid') });
export const EntryParamsSchema = z.strictObject({ id: z.string().uuid('must be a watchlist uuid'), entryId: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/, 'must be an entry id') });
export const WatchlistListQuerySchema = z.strictObject({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(20),
  status: z.enum(['active', 'archived']).optional(),
});
export const EntryListQuerySchema = z.strictObject({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  limit: z.coerce.number().int().min(1).max(500).default(50),
  q: z.string().trim().min(1).max(200).optional().openapi({ description: 'Part of the primary name (case-insensitive).' }),
});
export const RemoveEntryQuerySchema = z.strictObject({ reason: freeText(1, 2000).optional() });

export const ImportMappingSchema = z
  .strictObject({
    columns: z.record(z.string().min(1).max(200), z.enum(importTargets)).optional().openapi({ description: 'Column header (CSV) or key (JSON lines) → entry field; overrides the automatic recognition. `ignore` drops a column.' }),
    dob_order: z.enum(['dmy', 'mdy']).optional().openapi({
      description:
        'How to read an ambiguous numeric date such as 03/04/1971 in every date column. Default: decided per column from all its rows (a 3/31/1954 proves month first); a column no row decides is read day first and flagged in the preview.',
    }),
    century_pivot: z.number().int().min(0).max(99).optional().openapi({ description: 'Two-digit years (3/1/70): 00 up to the pivot are 20xx, the rest 19xx. Default: this year\'s last two digits (a birth date is never in the future).' }),
    default_entity_type: z.enum(watchlistEntityTypes).optional(),
  })
  .openapi('WatchlistImportMapping');

export const ImportQuerySchema = z.strictObject({
  mode: z.enum(['add', 'replace']).default('add').openapi({ description: 'add: new ids added, known ids changed; replace: also removes every entry the file does not hold.' }),
  file_name: nameText(1, 255).optional().openapi({ description: 'Recorded with the import (default: the X-File-Name header, else `upload.<csv|jsonl>`).' }),
  mapping: z.string().max(8192).optional().openapi({ description: 'The mapping as JSON (alternatively in the X-Import-Mapping header).' }),
  bad_rows: z.enum(['reject', 'skip']).default('reject').openapi({
    description: 'reject (default): all or nothing, a file with any unreadable row is refused (422) and nothing is imported. skip: the readable rows are imported and the refused ones reported by line in the answer (`skipped`).',
  }),
});

// ---- responses ----
export const WatchlistSchema = z
  .object({
    id: z.string().uuid(),
    name: z.string(),
    purpose: z.string(),
    severity: z.enum(watchlistSeverities),
    owner: z.string(),
    status: z.enum(['active', 'archived']),
    version: z.number().int().openapi({ description: 'Bumped by every change (an import counts once). Screenings record `watchlist-<id>@v<version>`.' }),
    entry_count: z.number().int(),
    created_at: z.string(),
    updated_at: z.string(),
    archived_at: z.string().nullable(),
    last_import: z.record(z.string(), z.unknown()).nullable().openapi({ description: 'Counts, file name and SHA-256 of the latest import.' }),
  })
  .openapi('Watchlist');

export const WatchlistEntrySchema = z
  .object({
    entry_id: z.string(),
    entity_type: z.enum(watchlistEntityTypes),
    primary_name: z.string(),
    aliases: z.array(z.object({ name: z.string(), script: z.string().optional() })),
    dates_of_birth: z.array(z.string()),
    nationalities: z.array(z.string()),
    addresses: z.array(z.object({ line: z.string().optional(), city: z.string().optional(), region: z.string().optional(), postal_code: z.string().optional(), country: z.string().optional() })),
    identifiers: z.array(z.object({ kind: z.enum(identifierKinds), value: z.string(), country: z.string().optional(), region: z.string().optional() })),
    reason: z.string(),
    status: z.enum(watchlistEntryStatuses),
    gender: z.enum(watchlistGenders).optional(),
    added_by: z.string(),
    added_at: z.string(),
  })
  .openapi('WatchlistEntry');

export const ImportRowErrorSchema = z.object({ line: z.number().int(), field: z.string(), reason: z.string() }).openapi('WatchlistImportRowError');

const DateOrderSchema = z
  .object({
    order: z.enum(['dmy', 'mdy']),
    decided_by: z.enum(['mapping', 'header', 'inferred', 'default']),
    day_first_rows: z.number().int(),
    month_first_rows: z.number().int(),
    ambiguous_rows: z.number().int(),
    flagged: z.boolean().openapi({ description: 'Check this column: no row decided the order of its ambiguous dates, or rows prove both orders.' }),
    note: z.string(),
  })
  .openapi('WatchlistImportDateOrder');

export const ImportPreviewSchema = z
  .object({
    format: z.enum(['csv', 'jsonl']),
    mapping: z.record(z.string(), z.enum(importTargets)).openapi({ description: 'Column → field as it will be applied (recognised, then your overrides).' }),
    unmapped_columns: z.array(z.string()).openapi({ description: 'Columns that will be ignored.' }),
    date_orders: z.record(z.string(), DateOrderSchema).openapi({ description: 'Each date column: the day/month order its ambiguous dates will be read in, and why (decided from every row of the file).' }),
    two_digit_years: z.string().openapi({ description: 'How two-digit years are read, e.g. "00-26 are 2000-2026, 27-99 are 1927-1999".' }),
    rows: z.number().int(),
    valid_rows: z.number().int(),
    sample: z.array(WatchlistEntrySchema.omit({ added_by: true, added_at: true }).extend({ line: z.number().int() })).openapi({ description: 'The first 20 rows as they will be imported.' }),
    errors: z.array(ImportRowErrorSchema).openapi({ description: 'Every unreadable row (at most the first 1,000 problems).' }),
    error_count: z.number().int(),
    bytes: z.number().int(),
    sha256: z.string(),
  })
  .openapi('WatchlistImportPreview');

export const ImportResultSchema = z
  .object({
    watchlist: WatchlistSchema,
    import: z.object({
      import_id: z.string(),
      mode: z.enum(['add', 'replace']),
      file_name: z.string(),
      sha256: z.string(),
      format: z.enum(['csv', 'jsonl']),
      bytes: z.number().int(),
      rows: z.number().int(),
      added: z.number().int(),
      changed: z.number().int(),
      unchanged: z.number().int(),
      removed: z.number().int(),
      entry_count: z.number().int(),
      version: z.number().int(),
      mapping: z.record(z.string(), z.enum(importTargets)),
      date_orders: z.record(z.string(), DateOrderSchema),
      two_digit_years: z.string(),
      bad_rows: z.enum(['reject', 'skip']),
      skipped_rows: z.number().int().openapi({ description: 'Rows refused and left out (bad_rows=skip; 0 otherwise).' }),
      skipped: z.array(ImportRowErrorSchema).openapi({ description: 'Why each was refused, by line (the first 1,000 problems).' }),
    }),
  })
  .openapi('WatchlistImportResult');

export const ImportRejectedSchema = z
  .object({ error: z.string(), details: z.array(ImportRowErrorSchema) })
  .openapi('WatchlistImportRejected', { description: 'Some rows cannot be read: each (line, field, reason); nothing was imported.' });

// ---- presenters ----
export function presentWatchlist(v: Watchlist & { entryCount: number; createdAt: string; updatedAt: string; archivedAt: string | null; lastImport: Record<string, unknown> | null }) {
  return {
    id: v.id,
    name: v.name,
    purpose: v.purpose,
    severity: v.severity,
    owner: v.owner,
    status: v.status,
    version: v.version,
    entry_count: v.entryCount,
    created_at: v.createdAt,
    updated_at: v.updatedAt,
    archived_at: v.archivedAt,
    last_import: v.lastImport,
  };
}

export function presentEntryContent(e: WatchlistEntryInput) {
  return {
    entity_type: e.entityType,
    primary_name: e.primaryName,
    aliases: e.aliases.map((a) => ({ name: a.name, ...(a.script ? { script: a.script } : {}) })),
    dates_of_birth: e.datesOfBirth,
    nationalities: e.nationalities,
    addresses: e.addresses.map((a) => ({
      ...(a.line ? { line: a.line } : {}),
      ...(a.city ? { city: a.city } : {}),
      ...(a.region ? { region: a.region } : {}),
      ...(a.postalCode ? { postal_code: a.postalCode } : {}),
      ...(a.country ? { country: a.country } : {}),
    })),
    identifiers: e.identifiers.map((i) => ({ kind: i.kind, value: i.value, ...(i.country ? { country: i.country } : {}), ...(i.region ? { region: i.region } : {}) })),
    reason: e.reason,
    status: e.status ?? 'active',
    ...(e.gender ? { gender: e.gender } : {}),
  };
}

export function presentEntry(e: WatchlistEntry) {
  return { entry_id: e.entryId, ...presentEntryContent(e), added_by: e.addedBy, added_at: e.addedAt };
}

export function toEntryInput(body: z.infer<typeof WatchlistEntryBodySchema>): WatchlistEntryInput {
  return {
    entityType: body.entity_type,
    primaryName: body.primary_name ?? '',
    aliases: body.aliases.map((a) => ({ name: a.name, ...(a.script ? { script: a.script } : {}) })),
    datesOfBirth: body.dates_of_birth,
    nationalities: body.nationalities,
    addresses: body.addresses.map((a) => ({
      ...(a.line ? { line: a.line } : {}),
      ...(a.city ? { city: a.city } : {}),
      ...(a.region ? { region: a.region } : {}),
      ...(a.postal_code ? { postalCode: a.postal_code } : {}),
      ...(a.country ? { country: a.country } : {}),
    })),
    identifiers: body.identifiers.map((i) => ({ kind: i.kind, value: i.value, ...(i.country ? { country: i.country } : {}), ...(i.region ? { region: i.region } : {}) })),
    reason: body.reason,
    ...(body.status === 'inactive' ? { status: 'inactive' as const } : {}),
    ...(body.gender ? { gender: body.gender } : {}),
  };
}
