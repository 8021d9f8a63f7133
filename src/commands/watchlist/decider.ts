/**
 * An account's own list (internal watchlist, issue 21). Stream `watchlist-<uuid>`.
 *
 *   (none) --CreateWatchlist--> active --ChangeWatchlist/AddEntry/ChangeEntry/RemoveEntry/ImportEntries--> active
 *   active --ArchiveWatchlist--> archived (read-only: no longer screened, entries kept for audit)
 *
 * Every command that changes something bumps the list's version by one: an import counts once, and
 * its EntryAdded/EntryChanged/EntryRemoved events carry the version of the ListImported that closes
 * it. A screening records `watchlist-<id>@v<version>`; folding the stream up to that version
 * rebuilds exactly the entries it screened against (replay, `svc audit reproduce`).
 *
 * An import is all-or-nothing and streamed (src/app/watchlists/watchlist-import.ts): every row is
 * checked (importRowIssues) before anything is written; the rows are then decided in chunks
 * (decideImportChunk) appended as EntriesImported events to a staging stream of their own, and one
 * CommitImport appends ListImported naming that stream to the list's stream. Until then no reader
 * sees any of it; an import that dies half way leaves an unreferenced staging stream.
 */
import { assertNever, type Event } from '../../shared/events';
import {
  identifierKinds,
  watchlistEntityTypes,
  watchlistEntryStatuses,
  watchlistGenders,
  watchlistSeverities,
  type Watchlist,
  type WatchlistEntry,
  type WatchlistEntryInput,
  type WatchlistSeverity,
} from '../../screening/watchlists/model';
import { type Command, type Decider, isNonEmptyText, NUMERIC_ID, stamp, UUID } from '../decider';
import { Conflict, IllegalTransition, Issues, NotFound, ValidationFailed } from '../errors';

export function streamName(watchlistId: string): string {
  return `watchlist-${watchlistId}`;
}
export const watchlistStreamName = streamName;

/** Largest import one command takes (rows); the API's body limit is the first guard. */
export const MAX_IMPORT_ROWS = 250_000;
export const ENTRY_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;
const DOB = /^\d{4}(-(0[1-9]|1[0-2])(-(0[1-9]|[12]\d|3[01]))?)?$/;
const ISO2 = /^[A-Z]{2}$/;
const SCRIPT = /^[A-Z][a-z]{3}$/;

// ---- commands ----
type ListRef = { watchlistId: string; accountId: string };
export type CreateWatchlist = Command<'CreateWatchlist', ListRef & { name: string; purpose: string; severity: WatchlistSeverity; owner: string }>;
export type ChangeWatchlist = Command<'ChangeWatchlist', ListRef & { name?: string; purpose?: string; severity?: WatchlistSeverity; owner?: string }>;
export type ArchiveWatchlist = Command<'ArchiveWatchlist', ListRef & { reason?: string }>;
export type AddEntry = Command<'AddEntry', ListRef & { entryId: string; entry: WatchlistEntryInput; addedBy: string }>;
export type ChangeEntry = Command<'ChangeEntry', ListRef & { entryId: string; entry: WatchlistEntryInput }>;
export type RemoveEntry = Command<'RemoveEntry', ListRef & { entryId: string; reason?: string }>;
/**
 * Closes a streamed import (see decideImportChunk): the chunks are already on the import's staging
 * stream; this makes them part of the list, at one new version, if the list has not moved since the
 * chunks were decided (`basedOnVersion`). Until this event exists no reader sees any of them.
 */
export type CommitImport = Command<
  'CommitImport',
  ListRef & {
    importId: string;
    /** The staging stream holding the import's EntriesImported chunks, and how many there are. */
    staging: { stream: string; chunks: number };
    basedOnVersion: number;
    mode: 'add' | 'replace';
    source: { fileName: string; sha256: string; format: 'csv' | 'jsonl'; bytes: number };
    counts: ImportCounts;
    /** Rows left out as bad (skipping bad rows). */
    skippedRows?: number;
    dateOrders?: Record<string, 'dmy' | 'mdy'>;
  }
>;
export interface ImportCounts {
  rows: number;
  added: number;
  changed: number;
  unchanged: number;
  removed: number;
}
export type WatchlistCommand = CreateWatchlist | ChangeWatchlist | ArchiveWatchlist | AddEntry | ChangeEntry | RemoveEntry | CommitImport;

// ---- events ----
type Ids = { watchlistId: string; accountId: string; version: number };
export type WatchlistCreated = Event<'WatchlistCreated', Ids & { name: string; purpose: string; severity: WatchlistSeverity; owner: string; createdAt: string }>;
export type WatchlistChanged = Event<
  'WatchlistChanged',
  Ids & { name: string; purpose: string; severity: WatchlistSeverity; owner: string; previousName: string; previousSeverity: WatchlistSeverity; changedAt: string }
>;
export type WatchlistArchived = Event<'WatchlistArchived', Ids & { reason?: string; archivedAt: string }>;
export type EntryAdded = Event<'EntryAdded', Ids & { entry: WatchlistEntry; importId?: string }>;
export type EntryChanged = Event<'EntryChanged', Ids & { entry: WatchlistEntry; changedAt: string; importId?: string }>;
export type EntryRemoved = Event<'EntryRemoved', Ids & { entryId: string; primaryName: string; reason?: string; removedAt: string; importId?: string }>;
export type ListImported = Event<
  'ListImported',
  Ids & {
    importId: string;
    mode: 'add' | 'replace';
    fileName: string;
    sha256: string;
    format: 'csv' | 'jsonl';
    bytes: number;
    rows: number;
    added: number;
    changed: number;
    unchanged: number;
    removed: number;
    entryCount: number;
    importedAt: string;
    /** A streamed import: its entries are the EntriesImported chunks of this staging stream (absent: they precede this event in the list's stream). */
    stagingStream?: string;
    chunks?: number;
    /** Rows refused and left out (an import that skipped bad rows); absent: all or nothing. */
    skippedRows?: number;
    /** Date column → the order its ambiguous dates were read in. */
    dateOrders?: Record<string, 'dmy' | 'mdy'>;
  }
>;
/**
 * One chunk of a streamed import, on the import's staging stream (`watchlist-<id>.import-<stagingId>`),
 * not on the list's: invisible (not part of any list version) until a ListImported on the list's
 * stream names the staging stream. An import that never commits leaves only an unreferenced stream.
 */
export type EntriesImported = Event<
  'EntriesImported',
  Ids & {
    importId: string;
    chunk: number;
    added: WatchlistEntry[];
    changed: WatchlistEntry[];
    removed: { entryId: string; primaryName: string; reason: string }[];
    importedAt: string;
  }
>;
export type WatchlistEvent = WatchlistCreated | WatchlistChanged | WatchlistArchived | EntryAdded | EntryChanged | EntryRemoved | ListImported | EntriesImported;
export const watchlistEventTypes = ['WatchlistCreated', 'WatchlistChanged', 'WatchlistArchived', 'EntryAdded', 'EntryChanged', 'EntryRemoved', 'ListImported', 'EntriesImported'] as const;

/** The staging stream of one import attempt (a retry gets a new one). */
export function importStagingStream(watchlistId: string, stagingId: string): string {
  return `watchlist-${watchlistId}.import-${stagingId}`;
}
export function isImportStagingStream(name: string): boolean {
  return name.startsWith('watchlist-') && name.includes('.import-');
}

// ---- state ----
export type WatchlistState = { status: 'none' } | (Watchlist & { entries: Map<string, WatchlistEntry> });

export function initialState(): WatchlistState {
  return { status: 'none' };
}

/** Validates one entry's content; field names are prefixed (`entries[3].`) by the caller when useful. */
export function entryIssues(entry: WatchlistEntryInput | undefined, issues: Issues, prefix = ''): Issues {
  const f = (name: string) => `${prefix}${name}`;
  if (!entry || typeof entry !== 'object') return issues.add(f('entry'), 'is required');
  issues
    .check((watchlistEntityTypes as readonly string[]).includes(entry.entityType), f('entity_type'), `must be one of ${watchlistEntityTypes.join(', ')}`)
    .check(
      isNonEmptyText(entry.primaryName, 300) || (entry.primaryName === '' && hasStrongIdentifier(entry)),
      f('primary_name'),
      'is required (1-300 characters) unless the entry has a document number, phone or e-mail: an entry with neither cannot be matched',
    )
    .check(Array.isArray(entry.aliases) && entry.aliases.length <= 100, f('aliases'), 'at most 100')
    .check(Array.isArray(entry.datesOfBirth) && entry.datesOfBirth.length <= 20, f('dates_of_birth'), 'at most 20')
    .check(Array.isArray(entry.nationalities) && entry.nationalities.length <= 20, f('nationalities'), 'at most 20')
    .check(Array.isArray(entry.addresses) && entry.addresses.length <= 50, f('addresses'), 'at most 50')
    .check(Array.isArray(entry.identifiers) && entry.identifiers.length <= 50, f('identifiers'), 'at most 50')
    .check(typeof entry.reason === 'string' && entry.reason.length <= 2000, f('reason'), 'at most 2000 characters')
    .check(entry.status === undefined || (watchlistEntryStatuses as readonly string[]).includes(entry.status), f('status'), `must be one of ${watchlistEntryStatuses.join(', ')}`)
    .check(entry.gender === undefined || (watchlistGenders as readonly string[]).includes(entry.gender), f('gender'), `must be one of ${watchlistGenders.join(', ')}`);
  if (!issues.empty) return issues;
  entry.aliases.forEach((a, i) => {
    issues.check(isNonEmptyText(a?.name, 300), f(`aliases[${i}].name`), 'is required (1-300 characters)');
    issues.check(a?.script === undefined || SCRIPT.test(a.script), f(`aliases[${i}].script`), 'must be an ISO 15924 code (Latn, Cyrl…)');
  });
  entry.datesOfBirth.forEach((d, i) => issues.check(typeof d === 'string' && DOB.test(d) && validDay(d), f(`dates_of_birth[${i}]`), 'must be YYYY, YYYY-MM or a real YYYY-MM-DD'));
  entry.nationalities.forEach((n, i) => issues.check(typeof n === 'string' && ISO2.test(n), f(`nationalities[${i}]`), 'must be an ISO 3166-1 alpha-2 code'));
  entry.addresses.forEach((a, i) => {
    const parts = [a?.line, a?.city, a?.region, a?.postalCode, a?.country];
    issues.check(parts.some((p) => typeof p === 'string' && p.trim() !== ''), f(`addresses[${i}]`), 'needs at least one of line, city, region, postal_code, country');
    issues.check(parts.every((p) => p === undefined || (typeof p === 'string' && p.length <= 500)), f(`addresses[${i}]`), 'parts are text of at most 500 characters');
    issues.check(a?.country === undefined || ISO2.test(a.country), f(`addresses[${i}].country`), 'must be an ISO 3166-1 alpha-2 code');
  });
  entry.identifiers.forEach((id, i) => {
    issues.check((identifierKinds as readonly string[]).includes(id?.kind), f(`identifiers[${i}].kind`), `must be one of ${identifierKinds.join(', ')}`);
    issues.check(isNonEmptyText(id?.value, 200), f(`identifiers[${i}].value`), 'is required (1-200 characters)');
    issues.check(id?.country === undefined || ISO2.test(id.country), f(`identifiers[${i}].country`), 'must be an ISO 3166-1 alpha-2 code');
    issues.check(id?.region === undefined || isNonEmptyText(id.region, 100), f(`identifiers[${i}].region`), 'is 1-100 characters');
  });
  return issues;
}

/** Kinds that identify a holder by themselves: an entry with one of them needs no name (a fraudster's e-mail). */
const STRONG_IDENTIFIERS = new Set<string>(['passport', 'national_id', 'tax_id', 'registration_number', 'imo', 'drivers_license', 'phone', 'email', 'other']);
function hasStrongIdentifier(entry: WatchlistEntryInput): boolean {
  return Array.isArray(entry.identifiers) && entry.identifiers.some((i) => STRONG_IDENTIFIERS.has(i?.kind) && isNonEmptyText(i?.value, 200));
}

function validDay(d: string): boolean {
  if (d.length < 10) return true;
  const [y, m, day] = d.split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(y, m - 1, day));
  return date.getUTCMonth() === m - 1 && date.getUTCDate() === day;
}

function listIssues(d: { name?: string; purpose?: string; severity?: string; owner?: string }, issues: Issues, required: boolean): Issues {
  const present = (v: unknown) => required || v !== undefined;
  if (present(d.name)) issues.check(isNonEmptyText(d.name, 200), 'name', 'is required (1-200 characters)');
  if (present(d.purpose)) issues.check(typeof d.purpose === 'string' && d.purpose.length <= 2000, 'purpose', 'at most 2000 characters');
  if (present(d.severity)) issues.check((watchlistSeverities as readonly string[]).includes(d.severity ?? ''), 'severity', 'must be block, review or note');
  if (present(d.owner)) issues.check(isNonEmptyText(d.owner, 200), 'owner', 'is required (1-200 characters)');
  return issues;
}

/**
 * Content equality of two entries (bookkeeping fields aside): a re-import of the same row changes
 * nothing. Both sides are written in one key order first: an entry read back from the PostgreSQL
 * store (jsonb) has its objects' keys in another order than the one it was written in.
 */
export function sameContent(a: WatchlistEntryInput, b: WatchlistEntryInput): boolean {
  const content = (e: WatchlistEntryInput) => {
    const c = contentOf(e);
    return JSON.stringify([c.entityType, c.primaryName, c.aliases, c.datesOfBirth, c.nationalities, c.addresses, c.identifiers, c.reason, c.status ?? 'active', c.gender ?? null]);
  };
  return content(a) === content(b);
}

function contentOf(e: WatchlistEntryInput): WatchlistEntryInput {
  return {
    entityType: e.entityType,
    primaryName: e.primaryName.trim(),
    aliases: e.aliases.map((a) => ({ name: a.name.trim(), ...(a.script ? { script: a.script } : {}) })),
    datesOfBirth: [...e.datesOfBirth],
    nationalities: [...e.nationalities],
    addresses: e.addresses.map((a) => ({
      ...(a.line ? { line: a.line.trim() } : {}),
      ...(a.city ? { city: a.city.trim() } : {}),
      ...(a.region ? { region: a.region.trim() } : {}),
      ...(a.postalCode ? { postalCode: a.postalCode.trim() } : {}),
      ...(a.country ? { country: a.country } : {}),
    })),
    identifiers: e.identifiers.map((i) => ({ kind: i.kind, value: i.value.trim(), ...(i.country ? { country: i.country } : {}), ...(i.region ? { region: i.region.trim() } : {}) })),
    reason: e.reason,
    // absent when active: entries written before statuses existed keep their content (and hash)
    ...(e.status === 'inactive' ? { status: 'inactive' as const } : {}),
    ...(e.gender ? { gender: e.gender } : {}),
  };
}

export function decide(command: WatchlistCommand, state: WatchlistState): WatchlistEvent[] {
  const now = command.metadata.now;
  const d = command.data;
  new Issues()
    .check(UUID.test(d.watchlistId ?? ''), 'watchlist_id', 'must be a uuid')
    .check(NUMERIC_ID.test(d.accountId ?? ''), 'account_id', 'must be a positive integer string')
    .throwIfAny();
  if (command.type === 'CreateWatchlist') {
    if (state.status !== 'none') throw new Conflict(`watchlist ${d.watchlistId} already exists`, { watchlistId: d.watchlistId });
    const c = command.data;
    listIssues(c, new Issues(), true).throwIfAny();
    return stamp<WatchlistEvent>(command, [
      {
        type: 'WatchlistCreated',
        data: { watchlistId: c.watchlistId, accountId: c.accountId, version: 1, name: c.name.trim(), purpose: c.purpose, severity: c.severity, owner: c.owner.trim(), createdAt: now },
      },
    ]);
  }
  // Another tenant's list looks like no list at all.
  if (state.status === 'none' || state.accountId !== d.accountId) throw new NotFound('watchlist', d.watchlistId);
  if (state.status === 'archived') throw new IllegalTransition('watchlist', 'archived', command.type);
  const ids = { watchlistId: state.id, accountId: state.accountId, version: state.version + 1 };
  switch (command.type) {
    case 'ChangeWatchlist': {
      const c = command.data;
      listIssues(c, new Issues(), false).throwIfAny();
      const next = { name: c.name?.trim() ?? state.name, purpose: c.purpose ?? state.purpose, severity: c.severity ?? state.severity, owner: c.owner?.trim() ?? state.owner };
      if (next.name === state.name && next.purpose === state.purpose && next.severity === state.severity && next.owner === state.owner) return [];
      return stamp<WatchlistEvent>(command, [{ type: 'WatchlistChanged', data: { ...ids, ...next, previousName: state.name, previousSeverity: state.severity, changedAt: now } }]);
    }
    case 'ArchiveWatchlist': {
      const reason = command.data.reason;
      new Issues().check(reason === undefined || isNonEmptyText(reason, 2000), 'reason', 'must be 1-2000 characters').throwIfAny();
      return stamp<WatchlistEvent>(command, [{ type: 'WatchlistArchived', data: { ...ids, ...(reason !== undefined ? { reason } : {}), archivedAt: now } }]);
    }
    case 'AddEntry': {
      const c = command.data;
      const issues = new Issues().check(ENTRY_ID.test(c.entryId ?? ''), 'entry_id', 'must be 1-128 characters of letters, digits, . _ : -');
      entryIssues(c.entry, issues).check(isNonEmptyText(c.addedBy, 200), 'added_by', 'is required').throwIfAny();
      if (state.entries.has(c.entryId)) throw new Conflict(`entry ${c.entryId} already exists in watchlist ${state.id}`, { entryId: c.entryId });
      const entry: WatchlistEntry = { entryId: c.entryId, ...contentOf(c.entry), addedBy: c.addedBy, addedAt: now };
      return stamp<WatchlistEvent>(command, [{ type: 'EntryAdded', data: { ...ids, entry } }]);
    }
    case 'ChangeEntry': {
      const c = command.data;
      const existing = state.entries.get(c.entryId);
      if (!existing) throw new NotFound('watchlist entry', c.entryId);
      entryIssues(c.entry, new Issues()).throwIfAny();
      const content = contentOf(c.entry);
      if (sameContent(existing, content)) return [];
      const entry: WatchlistEntry = { ...content, entryId: existing.entryId, addedBy: existing.addedBy, addedAt: existing.addedAt };
      return stamp<WatchlistEvent>(command, [{ type: 'EntryChanged', data: { ...ids, entry, changedAt: now } }]);
    }
    case 'RemoveEntry': {
      const c = command.data;
      const existing = state.entries.get(c.entryId);
      if (!existing) throw new NotFound('watchlist entry', c.entryId);
      new Issues().check(c.reason === undefined || isNonEmptyText(c.reason, 2000), 'reason', 'must be 1-2000 characters').throwIfAny();
      return stamp<WatchlistEvent>(command, [
        { type: 'EntryRemoved', data: { ...ids, entryId: c.entryId, primaryName: existing.primaryName, ...(c.reason !== undefined ? { reason: c.reason } : {}), removedAt: now } },
      ]);
    }
    case 'CommitImport':
      return decideCommitImport(command, state, ids);
    default:
      return assertNever(command, 'watchlist command');
  }
}

/** Error of one import row: the file line, the field (snake_case) and why. */
export interface ImportRowIssue {
  line: number;
  field: string;
  reason: string;
}

/** What an import is decided against: the list as it was when the import began. */
export type ImportBase = Watchlist & { entries: ReadonlyMap<string, WatchlistEntry> };

/**
 * Checks an import's parameters against the list before any row is decided; returns the ids its
 * events carry (the version the import will be, once committed).
 */
export function beginImport(
  state: WatchlistState,
  d: { watchlistId: string; accountId: string; mode: string; source: { fileName?: string; sha256?: string }; addedBy: string },
): { base: ImportBase; ids: Ids } {
  new Issues()
    .check(UUID.test(d.watchlistId ?? ''), 'watchlist_id', 'must be a uuid')
    .check(NUMERIC_ID.test(d.accountId ?? ''), 'account_id', 'must be a positive integer string')
    .check(d.mode === 'add' || d.mode === 'replace', 'mode', 'must be add or replace')
    .check(isNonEmptyText(d.source?.fileName, 255), 'file_name', 'is required (1-255 characters)')
    .check(isNonEmptyText(d.addedBy, 200), 'added_by', 'is required')
    .throwIfAny();
  if (state.status === 'none' || state.accountId !== d.accountId) throw new NotFound('watchlist', d.watchlistId);
  if (state.status === 'archived') throw new IllegalTransition('watchlist', 'archived', 'ImportEntries');
  return { base: state, ids: { watchlistId: state.id, accountId: state.accountId, version: state.version + 1 } };
}

/**
 * The problems of one import row (entry id, content, duplicate id within the file). `seen` is the
 * file's ids so far (id → first line); the row's id is added to it.
 */
export function importRowIssues(row: { line: number; entryId: string; entry: WatchlistEntryInput }, seen: Map<string, number>): ImportRowIssue[] {
  const issues = new Issues().check(ENTRY_ID.test(row.entryId ?? ''), 'entry_id', 'must be 1-128 characters of letters, digits, . _ : -');
  entryIssues(row.entry, issues);
  const first = seen.get(row.entryId);
  if (first !== undefined) issues.add('entry_id', `duplicate of line ${first}`);
  else seen.set(row.entryId, row.line);
  return issues.toArray().map((issue) => ({ line: row.line, field: issue.field, reason: issue.message }));
}

/**
 * One chunk of valid rows (checked by importRowIssues) against the list as the import began: new ids
 * are added, known ids with other content changed, identical rows left alone. Pure; the caller
 * appends the event to the import's staging stream and sums the counts.
 */
export function decideImportChunk(
  base: ImportBase,
  ids: Ids,
  rows: readonly { entryId: string; entry: WatchlistEntryInput }[],
  at: { importId: string; chunk: number; addedBy: string; now: string; stampedBy: Command },
): { event: EntriesImported; counts: ImportCounts } {
  const added: WatchlistEntry[] = [];
  const changed: WatchlistEntry[] = [];
  let unchanged = 0;
  for (const row of rows) {
    const content = contentOf(row.entry);
    const existing = base.entries.get(row.entryId);
    if (!existing) added.push({ entryId: row.entryId, ...content, addedBy: at.addedBy, addedAt: at.now });
    else if (sameContent(existing, content)) unchanged += 1;
    else changed.push({ ...content, entryId: existing.entryId, addedBy: existing.addedBy, addedAt: existing.addedAt });
  }
  return {
    event: stamp<EntriesImported>(at.stampedBy, [{ type: 'EntriesImported', data: { ...ids, importId: at.importId, chunk: at.chunk, added, changed, removed: [], importedAt: at.now } }])[0]!,
    counts: { rows: rows.length, added: added.length, changed: changed.length, unchanged, removed: 0 },
  };
}

/** Replace mode: the list's entries the file does not hold, removed, in chunks of `size`. */
export function* decideImportRemovals(
  base: ImportBase,
  ids: Ids,
  inFile: ReadonlySet<string> | ReadonlyMap<string, unknown>,
  at: { importId: string; firstChunk: number; fileName: string; now: string; size: number; stampedBy: (chunk: number) => Command },
): Generator<EntriesImported> {
  let removed: EntriesImported['data']['removed'] = [];
  let chunk = at.firstChunk;
  const flush = (): EntriesImported => {
    const event = stamp<EntriesImported>(at.stampedBy(chunk), [{ type: 'EntriesImported', data: { ...ids, importId: at.importId, chunk: chunk++, added: [], changed: [], removed, importedAt: at.now } }])[0]!;
    removed = [];
    return event;
  };
  for (const existing of base.entries.values()) {
    if (inFile.has(existing.entryId)) continue;
    removed.push({ entryId: existing.entryId, primaryName: existing.primaryName, reason: `not in import ${at.fileName}` });
    if (removed.length >= at.size) yield flush();
  }
  if (removed.length) yield flush();
}

function decideCommitImport(command: CommitImport, state: Watchlist & { entries: Map<string, WatchlistEntry> }, ids: Ids): WatchlistEvent[] {
  const c = command.data;
  const n = c.counts;
  new Issues()
    .check(c.mode === 'add' || c.mode === 'replace', 'mode', 'must be add or replace')
    .check(Number.isInteger(n?.rows) && n.rows >= 1, 'rows', 'the file holds no entries')
    .check(n?.rows <= MAX_IMPORT_ROWS, 'rows', `at most ${MAX_IMPORT_ROWS} rows per import`)
    .check(n?.added + n?.changed + n?.unchanged === n?.rows && n?.removed >= 0, 'counts', 'added + changed + unchanged must be the rows')
    .check(isNonEmptyText(c.source?.fileName, 255), 'file_name', 'is required (1-255 characters)')
    .check(/^[0-9a-f]{64}$/.test(c.source?.sha256 ?? ''), 'sha256', 'must be a SHA-256 hex digest')
    .check(isNonEmptyText(c.importId, 200), 'import_id', 'is required')
    .check(typeof c.staging?.stream === 'string' && isImportStagingStream(c.staging.stream) && c.staging.stream.startsWith(`${streamName(state.id)}.`), 'staging', 'must be this list\'s import staging stream')
    .check(Number.isInteger(c.staging?.chunks) && c.staging.chunks >= 1, 'staging', 'holds at least one chunk')
    .check(c.skippedRows === undefined || (Number.isInteger(c.skippedRows) && c.skippedRows >= 0), 'skipped_rows', 'must be a count')
    .check(c.dateOrders === undefined || Object.values(c.dateOrders).every((o) => o === 'dmy' || o === 'mdy'), 'date_orders', 'each is dmy or mdy')
    .throwIfAny();
  // The chunks were decided against this version: a change in between would be lost or undone.
  if (state.version !== c.basedOnVersion) {
    throw new Conflict(`watchlist ${state.id} changed during the import (version ${c.basedOnVersion} → ${state.version}); nothing was imported, send the file again`, { watchlistId: state.id });
  }
  const entryCount = state.entries.size + n.added - n.removed;
  return stamp<WatchlistEvent>(command, [
    {
      type: 'ListImported',
      data: {
        ...ids,
        importId: c.importId,
        mode: c.mode,
        fileName: c.source.fileName,
        sha256: c.source.sha256,
        format: c.source.format,
        bytes: c.source.bytes,
        ...n,
        entryCount,
        importedAt: command.metadata.now,
        stagingStream: c.staging.stream,
        chunks: c.staging.chunks,
        ...(c.skippedRows !== undefined ? { skippedRows: c.skippedRows } : {}),
        ...(c.dateOrders && Object.keys(c.dateOrders).length ? { dateOrders: c.dateOrders } : {}),
      },
    },
  ]);
}

/** An import refused because of its rows: every (line, field, reason), nothing written. */
export class ImportRejected extends ValidationFailed {
  constructor(readonly rows: ImportRowIssue[]) {
    super(rows.slice(0, 100).map((r) => ({ field: `line ${r.line}: ${r.field}`, message: r.reason })));
    this.message = `${rows.length} problem(s) in the import's rows; nothing was imported`;
  }
}

export function evolve(state: WatchlistState, event: WatchlistEvent): WatchlistState {
  switch (event.type) {
    case 'WatchlistCreated': {
      const e = event.data;
      return { id: e.watchlistId, accountId: e.accountId, name: e.name, purpose: e.purpose, severity: e.severity, owner: e.owner, status: 'active', version: e.version, entries: new Map() };
    }
    case 'WatchlistChanged':
      if (state.status === 'none') return state;
      return { ...state, name: event.data.name, purpose: event.data.purpose, severity: event.data.severity, owner: event.data.owner, version: event.data.version };
    case 'WatchlistArchived':
      return state.status === 'none' ? state : { ...state, status: 'archived', version: event.data.version };
    case 'EntryAdded':
    case 'EntryChanged': {
      if (state.status === 'none') return state;
      // Mutated in place: a 100k-entry stream folds in linear time (state is never shared across folds).
      state.entries.set(event.data.entry.entryId, event.data.entry);
      return { ...state, version: event.data.version };
    }
    case 'EntryRemoved':
      if (state.status === 'none') return state;
      state.entries.delete(event.data.entryId);
      return { ...state, version: event.data.version };
    case 'ListImported':
      return state.status === 'none' ? state : { ...state, version: event.data.version };
    case 'EntriesImported': {
      // Folded only where its ListImported names its staging stream (expandImports): then committed.
      if (state.status === 'none') return state;
      for (const entry of event.data.added) state.entries.set(entry.entryId, entry);
      for (const entry of event.data.changed) state.entries.set(entry.entryId, entry);
      for (const r of event.data.removed) state.entries.delete(r.entryId);
      return state;
    }
    default:
      return assertNever(event, 'watchlist event');
  }
}

/** Folds a stream up to (and including) a version: the entries a screening at that version used. */
export function foldToVersion(events: readonly WatchlistEvent[], version?: number): WatchlistState {
  let state = initialState();
  for (const event of events) {
    if (version !== undefined && event.data.version > version) break;
    state = evolve(state, event);
  }
  return state;
}

export const watchlistDecider: Decider<WatchlistCommand, WatchlistEvent, WatchlistState> = { decide, evolve, initialState };
