/**
 * The firm's own lists (internal watchlists, issue 21): the domain model shared by the decider
 * (src/commands/watchlist), the read model, the API and the matcher.
 *
 * An entry has the fields of an official list entity so the same engine indexes it
 * (`toListEntity` below): primary name and aliases with scripts, dates of birth, nationalities,
 * addresses, identifiers. Internal lists hold ordinary names, so DOB, address and identifier
 * agreement are weighed by ./match-policy.ts on top of the name match.
 */
import type { Address, BirthDate, EntitySchema, Identifier, ListEntity, NameRecord } from '../model';

export const watchlistSeverities = ['block', 'review', 'note'] as const;
export type WatchlistSeverity = (typeof watchlistSeverities)[number];
export const watchlistStatuses = ['active', 'archived'] as const;
export type WatchlistStatus = (typeof watchlistStatuses)[number];
export const watchlistEntityTypes = ['person', 'organization', 'vessel', 'aircraft', 'unknown'] as const;
export type WatchlistEntityType = (typeof watchlistEntityTypes)[number];
export const identifierKinds = ['passport', 'national_id', 'tax_id', 'registration_number', 'imo', 'drivers_license', 'phone', 'email', 'other'] as const;
export type IdentifierKind = (typeof identifierKinds)[number];
/** An inactive entry stays on the list (for audit and export) but is not screened. */
export const watchlistEntryStatuses = ['active', 'inactive'] as const;
export type WatchlistEntryStatus = (typeof watchlistEntryStatuses)[number];
export const watchlistGenders = ['male', 'female', 'other'] as const;
export type WatchlistGender = (typeof watchlistGenders)[number];

export interface Watchlist {
  /** uuid, allocated by the handler. */
  id: string;
  /** Numeric account id (string): the tenant that owns the list. */
  accountId: string;
  name: string;
  purpose: string;
  /** How a confirmed hit counts in the shared risk scorer: block ⇒ critical floor, review ⇒ high, note ⇒ medium. */
  severity: WatchlistSeverity;
  /** Who answers for the list (free text: a team, a person, an e-mail). */
  owner: string;
  status: WatchlistStatus;
  /** Bumped by every change (one per command, an import counts once); 1 after creation. */
  version: number;
}

export interface WatchlistAlias {
  name: string;
  /** ISO 15924 script code when known (Latn, Cyrl, Arab, Hani…). */
  script?: string;
}

export interface WatchlistAddress {
  line?: string;
  city?: string;
  /** State, province or county (a US state or Canadian province as its two-letter code). */
  region?: string;
  postalCode?: string;
  /** ISO 3166-1 alpha-2. */
  country?: string;
}

export interface WatchlistIdentifier {
  kind: IdentifierKind;
  value: string;
  /** Issuing country, ISO 3166-1 alpha-2. */
  country?: string;
  /** Issuing state or province (a driver's licence). */
  region?: string;
}

/** The content of an entry, as a caller writes it (no bookkeeping fields). */
export interface WatchlistEntryInput {
  entityType: WatchlistEntityType;
  primaryName: string;
  aliases: WatchlistAlias[];
  /** YYYY, YYYY-MM or YYYY-MM-DD. */
  datesOfBirth: string[];
  /** ISO 3166-1 alpha-2. */
  nationalities: string[];
  addresses: WatchlistAddress[];
  identifiers: WatchlistIdentifier[];
  /** Why the firm listed it (free text, shown with a hit). */
  reason: string;
  /** Absent: active. An inactive entry is kept (export, audit) but not screened. */
  status?: WatchlistEntryStatus;
  gender?: WatchlistGender;
}

export interface WatchlistEntry extends WatchlistEntryInput {
  /** Unique within its list: the caller's own reference, or a uuid the handler allocates. */
  entryId: string;
  /** Who added it (user id, `key:<id>`, or `import`), and when (ISO instant). */
  addedBy: string;
  addedAt: string;
}

/** Source id of every internal-list entity in the engine (one per account index). */
export const INTERNAL_LIST_SOURCE = 'internal_list';

/** Version id of one list version, as recorded by a screening (like `ofac_sdn@<hash>`). */
export function watchlistVersionId(watchlistId: string, version: number): string {
  return `watchlist-${watchlistId}@v${version}`;
}

/** Parses `watchlist-<id>@v<n>`; undefined for official list versions. */
export function parseWatchlistVersionId(versionId: string): { watchlistId: string; version: number } | undefined {
  const m = /^watchlist-([0-9a-f-]{36})@v([1-9][0-9]*)$/i.exec(versionId);
  return m ? { watchlistId: m[1]!.toLowerCase(), version: Number(m[2]) } : undefined;
}

/** A request's pinned internal-list versions: at most 1000 ids `watchlist-<id>@v<n>` (the screening and person-check deciders' one rule). */
export const MAX_PINNED_INTERNAL_LISTS = 1000;
export function isPinnedInternalListVersions(value: unknown): value is string[] {
  return Array.isArray(value) && value.length <= MAX_PINNED_INTERNAL_LISTS && value.every((v) => typeof v === 'string' && parseWatchlistVersionId(v) !== undefined);
}

/** The label a hit shows as its source. */
export function internalListLabel(name: string): string {
  return `internal list: ${name}`;
}

const DATE = /^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?$/;

function birthDate(value: string): BirthDate {
  const m = DATE.exec(value);
  if (!m) return { raw: value };
  return m[2] ? { date: value, year: Number(m[1]), raw: value } : { year: Number(m[1]), raw: value };
}

const identifierType: Record<IdentifierKind, string> = {
  passport: 'passport',
  national_id: 'national_id',
  tax_id: 'tax_id',
  registration_number: 'registration',
  imo: 'imo',
  drivers_license: 'drivers_license',
  phone: 'phone',
  email: 'email',
  other: 'other',
};

/**
 * An entry as an engine entity: id `internal_list:<watchlistId>:<entryId>`, list version
 * `watchlist-<id>@v<n>`, topic sanctions (the spec's phase 1 "local curated list").
 */
export function toListEntity(list: Pick<Watchlist, 'id' | 'name' | 'severity' | 'version'>, entry: WatchlistEntry): ListEntity {
  // an entry listed by an identifier alone has no name to index (the fact index finds it)
  const names: NameRecord[] = [
    ...(entry.primaryName ? [{ value: entry.primaryName, kind: 'primary' as const }] : []),
    ...entry.aliases.map((a): NameRecord => ({ value: a.name, kind: a.script && a.script !== 'Latn' ? 'original_script' : 'strong_alias', ...(a.script ? { script: a.script } : {}) })),
  ];
  const addresses: Address[] = entry.addresses.map((a) => ({
    ...(a.line ? { street: a.line } : {}),
    ...(a.city ? { city: a.city } : {}),
    ...(a.region ? { region: a.region } : {}),
    ...(a.postalCode ? { postalCode: a.postalCode } : {}),
    ...(a.country ? { country: a.country } : {}),
    full: [a.line, a.city, a.region, a.postalCode, a.country].filter(Boolean).join(', '),
  }));
  const identifiers: Identifier[] = entry.identifiers.map((i) => ({ type: identifierType[i.kind], value: i.value, ...(i.country ? { country: i.country } : {}) }));
  const countries = [...new Set(entry.addresses.map((a) => a.country).filter((c): c is string => !!c))];
  return {
    id: `${INTERNAL_LIST_SOURCE}:${list.id}:${entry.entryId}`,
    source: INTERNAL_LIST_SOURCE,
    sourceId: `${list.id}:${entry.entryId}`,
    listVersion: watchlistVersionId(list.id, list.version),
    topics: ['sanctions'],
    schema: entry.entityType as EntitySchema,
    primaryName: entry.primaryName,
    names,
    birthDates: entry.datesOfBirth.map(birthDate),
    birthPlaces: [],
    nationalities: [...entry.nationalities],
    countries,
    addresses,
    identifiers,
    programs: [internalListLabel(list.name)],
    listedOn: entry.addedAt.slice(0, 10),
    remarks: entry.reason,
    extra: { watchlist: list.name, watchlistId: list.id, entryId: entry.entryId, severity: list.severity },
  };
}

/**
 * The entity of an unchanged entry under another version, name or severity of its list: exactly what
 * toListEntity(list, entry) gives (the list-dependent fields rewritten, the rest shared). Kept beside
 * toListEntity: the incremental index (src/app/watchlists/watchlist-index.ts) relies on the two agreeing.
 */
export function relistEntity(list: Pick<Watchlist, 'id' | 'name' | 'severity' | 'version'>, entity: ListEntity): ListEntity {
  return {
    ...entity,
    listVersion: watchlistVersionId(list.id, list.version),
    programs: [internalListLabel(list.name)],
    extra: { ...entity.extra, watchlist: list.name, severity: list.severity },
  };
}
