/**
 * The analyst's work queue: the account's completed screenings that still have undecided hits (from
 * the pipeline, or re-opened and added by monitoring alerts), most severe first, then oldest first,
 * so what needs a decision soonest is on top. Read from the screenings and monitoring read models in
 * one statement; every row is the account's own.
 *
 * A hit marked "needs more information" is still undecided: its case stays in the queue, counted in
 * `open_hits` and marked by `needs_more_information_hits`. A case's assignee is a user of the account
 * (CaseAssigned), shown by e-mail, never by id.
 */
import type pg from 'pg';
import { projectionSchema } from '../../projections/projection';
import { listLabel } from '../../screening/lists/freshness';

export type QueueLevel = 'critical' | 'high' | 'medium' | 'low';
export const QUEUE_LEVELS: readonly QueueLevel[] = ['critical', 'high', 'medium', 'low'];

export interface WorkQueueFilter {
  level?: QueueLevel;
  /** s1, s3 or portal: where the screening was requested. */
  surface?: string;
  /** A list (source id, e.g. ofac_sdn, or internal_list:<watchlistId>) an undecided hit's entity is on, any of its lists. */
  list?: string;
  /** Only cases with at least one hit waiting for more information. */
  needsMoreInformation?: boolean;
  /** `me` (the reader), `unassigned`, or the e-mail of a user of the account. */
  assignee?: string;
  page: number;
  limit: number;
}

/** Whom the filter `assignee=me` means. */
export interface QueueReader {
  accountId: string;
  userId?: string;
}

/** The assignee of a case, as people know them. */
export interface QueueAssignee {
  email: string;
  /** The reader holds the case. */
  me: boolean;
}

/** A list as the analyst knows it: its name, with the id the filter takes. */
export interface QueueList {
  id: string;
  name: string;
}

export interface WorkQueueItem {
  screening_id: number;
  search_query: string;
  entity_type: string;
  kind: string;
  surface: string;
  risk_level: string | null;
  risk_score: number | null;
  /** Hits nobody has decided yet (waiting for more information included). */
  open_hits: number;
  /** Of those, hits an analyst marked "needs more information". */
  needs_more_information_hits: number;
  /** Who holds the case; null when nobody does. */
  assignee: QueueAssignee | null;
  /** Every list the entities of those hits are on (a merged hit counts under each of its lists), by name. */
  lists: QueueList[];
  /** Enrolled in ongoing monitoring (its alerts land here as re-opened or new hits). */
  monitoring: boolean;
  completed_at: string;
  /** Whole days since completion, from the read time given. */
  age_days: number;
}

export interface WorkQueuePage {
  items: WorkQueueItem[];
  total: number;
  /** Open cases per risk level, before the level filter (the queue's headline). */
  counts: Record<QueueLevel, number>;
  /** Lists seen among open hits (the list filter's choices), by name. */
  lists: QueueList[];
  /** The account's users (the assignee filter's choices), by e-mail. */
  assignees: QueueAssignee[];
}

export interface WorkQueuePort {
  list(reader: QueueReader, filter: WorkQueueFilter, now: Date): Promise<WorkQueuePage>;
}

export class PgWorkQueue implements WorkQueuePort {
  constructor(private readonly pool: pg.Pool) {}

  async list(reader: QueueReader, filter: WorkQueueFilter, now: Date): Promise<WorkQueuePage> {
    const accountId = reader.accountId;
    const screenings = projectionSchema('screenings');
    const monitoring = projectionSchema('monitoring');
    const accounts = projectionSchema('accounts');
    // A hit's lists: every list its entity is on, as recorded at completion; for hits recorded before
    // that (and monitoring's new hits), the entity id's own list (`ofac_sdn:12345`, or
    // `internal_list:<watchlistId>:<entryId>` for the account's own lists).
    // The assignee's e-mail comes from the account's own users only (a join on account_id too).
    const [{ rows }, users] = await Promise.all([
      this.pool.query<
        Omit<WorkQueueItem, 'screening_id' | 'completed_at' | 'age_days' | 'assignee' | 'lists'> & {
          screening_id: string;
          completed_at: Date;
          lists: string[];
          assignee_user_id: string | null;
          assignee_email: string | null;
        }
      >(
        `SELECT s.screening_id::text, s.search_query, s.entity_type, s.kind, s.surface, s.risk_level, s.risk_score, s.monitoring,
                s.completed_at, count(*)::int AS open_hits,
                (count(*) FILTER (WHERE h.status = 'needs_more_information'))::int AS needs_more_information_hits,
                ARRAY(SELECT DISTINCT l
                        FROM ${monitoring}.hits o,
                             unnest(coalesce(o.lists, ARRAY[CASE WHEN o.entity_id LIKE 'internal\_list:%'
                                                                 THEN 'internal_list:' || split_part(o.entity_id, ':', 2)
                                                                 ELSE split_part(o.entity_id, ':', 1) END])) AS l
                       WHERE o.screening_id = s.screening_id AND o.status IN ('open', 'needs_more_information')
                       ORDER BY l) AS lists,
                s.assignee_user_id, u.email AS assignee_email
           FROM ${screenings}.screenings s
           JOIN ${monitoring}.hits h ON h.screening_id = s.screening_id AND h.status IN ('open', 'needs_more_information')
           LEFT JOIN ${accounts}.users u ON u.user_id = s.assignee_user_id AND u.account_id = s.account_id
          WHERE s.account_id = $1 AND s.status = 'completed'
          GROUP BY s.screening_id, u.email`,
        [accountId],
      ),
      this.pool.query<{ user_id: string; email: string }>(`SELECT user_id, email FROM ${accounts}.users WHERE account_id = $1 ORDER BY lower(email)`, [accountId]),
    ]);
    const wanted = filter.assignee?.toLowerCase();
    const assigneeMatches = (r: { assignee_user_id: string | null; assignee_email: string | null }) =>
      wanted === undefined ||
      (wanted === 'unassigned' ? r.assignee_user_id === null : wanted === 'me' ? r.assignee_user_id !== null && r.assignee_user_id === reader.userId : r.assignee_email?.toLowerCase() === wanted);
    const rank = (level: string | null) => (level ? QUEUE_LEVELS.indexOf(level as QueueLevel) : QUEUE_LEVELS.length);
    const counts: Record<QueueLevel, number> = { critical: 0, high: 0, medium: 0, low: 0 };
    const lists = new Set<string>();
    for (const r of rows) {
      if (r.risk_level && r.risk_level in counts) counts[r.risk_level as QueueLevel]++;
      for (const l of r.lists) lists.add(l);
    }
    const names = await this.listNames(accountId, [...lists]);
    const named = (ids: readonly string[]): QueueList[] =>
      ids.map((id) => ({ id, name: names.get(id) ?? id })).sort((a, b) => a.name.localeCompare(b.name, 'en'));
    const matching = rows
      .filter(
        (r) =>
          (!filter.level || r.risk_level === filter.level) &&
          (!filter.surface || r.surface === filter.surface) &&
          (!filter.list || r.lists.includes(filter.list)) &&
          (!filter.needsMoreInformation || r.needs_more_information_hits > 0) &&
          assigneeMatches(r),
      )
      .sort((a, b) => rank(a.risk_level) - rank(b.risk_level) || a.completed_at.getTime() - b.completed_at.getTime() || Number(a.screening_id) - Number(b.screening_id));
    const start = (filter.page - 1) * filter.limit;
    return {
      total: matching.length,
      counts,
      lists: named([...lists]),
      assignees: users.rows.map((u) => ({ email: u.email, me: u.user_id === reader.userId })),
      items: matching.slice(start, start + filter.limit).map((r) => ({
        screening_id: Number(r.screening_id),
        search_query: r.search_query,
        entity_type: r.entity_type,
        kind: r.kind,
        surface: r.surface,
        risk_level: r.risk_level,
        risk_score: r.risk_score,
        open_hits: r.open_hits,
        needs_more_information_hits: r.needs_more_information_hits,
        assignee: r.assignee_email !== null ? { email: r.assignee_email, me: r.assignee_user_id === reader.userId } : null,
        lists: named(r.lists),
        monitoring: r.monitoring,
        completed_at: r.completed_at.toISOString(),
        age_days: Math.max(0, Math.floor((now.getTime() - r.completed_at.getTime()) / 86_400_000)),
      })),
    };
  }

  /** Names of the lists: the catalog's for official lists, the account's own name for each internal list. */
  private async listNames(accountId: string, ids: readonly string[]): Promise<Map<string, string>> {
    const names = new Map<string, string>();
    const internal: string[] = [];
    for (const id of ids) {
      const watchlistId = /^internal_list:([0-9a-f-]{36})$/i.exec(id)?.[1];
      if (watchlistId) internal.push(watchlistId);
      else names.set(id, listLabel(id));
    }
    if (internal.length > 0) {
      const { rows } = await this.pool.query<{ watchlist_id: string; name: string }>(
        `SELECT watchlist_id::text, name FROM ${projectionSchema('watchlists')}.watchlists WHERE account_id = $1 AND watchlist_id = ANY($2::uuid[])`,
        [accountId, internal],
      );
      for (const r of rows) names.set(`internal_list:${r.watchlist_id}`, `Internal list: ${r.name}`);
      for (const id of internal) if (!names.has(`internal_list:${id}`)) names.set(`internal_list:${id}`, 'Internal list (deleted)');
    }
    return names;
  }
}
