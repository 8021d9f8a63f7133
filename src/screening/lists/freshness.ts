import type { ListVersion } from '../model';
import { listDefinition } from './catalog';

/**
 * How old each list in service is, and whether it is too old to rely on. Pure: the caller passes
 * the clock's time (never Date.now()), so tests can set it ahead.
 */
export interface FreshnessPolicy {
  /** Maximum age in days for every sanctions or export-control list (LISTS_MAX_AGE_DAYS). */
  sanctionsMaxAgeDays: number;
  /** Per-list overrides (null: no maximum), for any list. */
  perList?: Record<string, number | null>;
}

export interface ListFreshness {
  source: string;
  label: string;
  versionId: string;
  /** The issuer's publication date (YYYY-MM-DD), null when nothing states it. */
  publishedAt: string | null;
  /** Where publishedAt comes from: the file itself, the snapshot manifest, the download, the file's date. */
  publishedAtSource: ListVersion['publishedAtSource'] | null;
  loadedAt: string;
  /** Whole days from publication to `now`; null without a publication date. */
  ageDays: number | null;
  /** null: this list has no maximum age. */
  maxAgeDays: number | null;
  stale: boolean;
  /** Set when stale: one sentence for the result. */
  warning?: string;
}

const DAY_MS = 86_400_000;

export function maxAgeFor(source: string, policy: FreshnessPolicy): number | null {
  if (policy.perList && source in policy.perList) return policy.perList[source] ?? null;
  const definition = listDefinition(source);
  if (!definition) return null;
  if (definition.defaultMaxAgeDays !== undefined) return definition.defaultMaxAgeDays;
  // Restricted-party lists (sanctions, export control) change weekly: one operator setting for all.
  return definition.topics.some((t) => t === 'sanctions' || t === 'export_control') ? policy.sanctionsMaxAgeDays : null;
}

export function listLabel(source: string): string {
  return listDefinition(source)?.label ?? source;
}

/** Days between an ISO date (or instant) and now, counted from midnight UTC of the publication day. */
export function ageInDays(publishedAt: string, now: Date): number | null {
  const day = /^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?/.exec(publishedAt);
  if (!day) return null;
  const start = Date.UTC(Number(day[1]), Number(day[2] ?? '1') - 1, Number(day[3] ?? '1'));
  return Math.max(0, Math.floor((now.getTime() - start) / DAY_MS));
}

export function staleWarning(label: string, ageDays: number | null): string {
  const what = ageDays === null ? `${label} has no known publication date` : `${label} is ${ageDays.toLocaleString('en-US')} days old`;
  return `${what}: update the lists before relying on this result`;
}

export function listFreshness(
  version: Pick<ListVersion, 'id' | 'source' | 'publishedAt' | 'loadedAt' | 'publishedAtSource'>,
  now: Date,
  policy: FreshnessPolicy,
): ListFreshness {
  const label = listLabel(version.source);
  const ageDays = version.publishedAt ? ageInDays(version.publishedAt, now) : null;
  const maxAgeDays = maxAgeFor(version.source, policy);
  const stale = maxAgeDays !== null && (ageDays === null || ageDays > maxAgeDays);
  return {
    source: version.source,
    label,
    versionId: version.id,
    publishedAt: version.publishedAt ?? null,
    publishedAtSource: version.publishedAtSource ?? null,
    loadedAt: version.loadedAt,
    ageDays,
    maxAgeDays,
    stale,
    ...(stale ? { warning: staleWarning(label, ageDays) } : {}),
  };
}

export function listsFreshness(versions: ListVersion[], now: Date, policy: FreshnessPolicy): ListFreshness[] {
  return versions.map((v) => listFreshness(v, now, policy));
}

/**
 * listsFreshness worked out once per set of list versions and UTC day, for a service that answers it
 * on every request: ages are whole days counted from midnight UTC, so for one set of versions the
 * answer changes only when the day does. The same array is returned until then: do not change it.
 */
export function freshnessByDay(policy: FreshnessPolicy): (versions: ListVersion[], now: Date) => readonly ListFreshness[] {
  let kept: { versions: ListVersion[]; day: number; freshness: readonly ListFreshness[] } | undefined;
  return (versions, now) => {
    const day = Math.floor(now.getTime() / DAY_MS);
    if (kept?.versions !== versions || kept.day !== day) kept = { versions, day, freshness: listsFreshness(versions, now, policy) };
    return kept.freshness;
  };
}

/** The error a refusing service raises (mapped to 503 `lists_stale` in each surface's envelope). */
export class ListsStaleError extends Error {
  readonly code = 'lists_stale';
  constructor(readonly stale: ListFreshness[]) {
    super(
      `Screening refused: ${stale.map((f) => f.warning!.replace(/: update the lists.*$/, '')).join('; ')}. ` +
        'Update the lists (svc lists update) or set LISTS_STALE_POLICY=warn.',
    );
    this.name = 'ListsStaleError';
  }
}
