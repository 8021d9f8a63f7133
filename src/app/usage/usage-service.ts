/**
 * S3 usage record (GET /api/v1/usage): per key, today (UTC) and this UTC month, screening requests by
 * endpoint and by screening type (from the usage projection, i.e. the event history, and the names screened
 * by completed batch jobs, one each, endpoint `POST /api/v1/batches`, type `BATCH`), plus the
 * account's monthly quotas: the request quota from its live counter (limit_counters, the gate's), the
 * offshore-leak checks from their quota aggregate (the screening workflow's), each with the warning
 * the portal shows from 80 % used.
 */
import type pg from 'pg';
import { projectionSchema } from '../../projections/projection';
import { quotaWarningLevel, type QuotaWarningLevel } from '../../commands/plans';
import type { Clock } from '../../shared/clock';
import type { KeyService, LimitService, Plan, Principal } from '../services';

export interface UsageBreakdown {
  total: number;
  by_endpoint: Record<string, number>;
  by_screening_type: Record<string, number>;
}

export interface KeyUsage {
  key_id: string;
  name: string | null;
  key_prefix: string | null;
  active: boolean;
  today: UsageBreakdown;
  month: UsageBreakdown;
  /** The account's monthly request quota left (quotas are per account, shared by its keys). */
  quota_remaining: number;
}

/** One monthly quota: `warning` is `approaching` from 80 % used, `reached` when used up. */
export interface QuotaUsage {
  limit: number;
  used: number;
  remaining: number;
  resets_at: string;
  warning: QuotaWarningLevel | null;
}

export interface UsageRecord {
  date: string;
  month: string;
  plan: Plan;
  quota: {
    requests: QuotaUsage;
    /** null on plans without a cap of their own. */
    offshore_leak_checks: QuotaUsage | null;
  };
  keys: KeyUsage[];
}

export interface UsageService {
  usage(principal: Principal): Promise<UsageRecord>;
}

export function quotaUsage(limit: number, used: number, resetsAt: string): QuotaUsage {
  return { limit, used, remaining: Math.max(0, limit - used), resets_at: resetsAt, warning: quotaWarningLevel(used, limit) };
}

function empty(): UsageBreakdown {
  return { total: 0, by_endpoint: {}, by_screening_type: {} };
}

export class PgUsageService implements UsageService {
  private readonly schema = projectionSchema('usage');

  constructor(
    private readonly deps: {
      pool: pg.Pool;
      clock: Clock;
      keys: KeyService;
      limits: LimitService;
      monthlyQuota: (plan: Plan) => number;
      offshoreChecksPerMonth: (plan: Plan) => number | null;
      /** The checks an account used in a month (src/app/usage/offshore-leak-checks.ts). */
      offshoreChecksUsed: (accountId: string, month: string) => Promise<number>;
      readModelsCaughtUp: () => Promise<void>;
    },
  ) {}

  async usage(principal: Principal): Promise<UsageRecord> {
    await this.deps.readModelsCaughtUp();
    const now = this.deps.clock.now();
    const date = now.toISOString().slice(0, 10);
    const month = date.slice(0, 7);
    const monthStart = `${month}-01`;
    const { rows } = await this.deps.pool.query<{ key_id: string; day: string; endpoint: string; screening_type: string; count: number }>(
      `SELECT key_id::text, to_char(day, 'YYYY-MM-DD') AS day, endpoint, screening_type, count
         FROM ${this.schema}.usage_daily WHERE account_id = $1 AND day >= $2::date AND day <= $3::date`,
      [principal.accountId, monthStart, date],
    );
    // Names screened by the account's completed batch jobs (POST /api/v1/batches), each counted as one,
    // on the day the job finished (table batch_jobs; not an event, so not in the usage projection). A
    // cancelled job counts the names in its files (those up to its last checkpoint).
    const batches = await this.deps.pool.query<{ key_id: string; day: string; count: number }>(
      `SELECT key_id, to_char((finished_at AT TIME ZONE 'UTC')::date, 'YYYY-MM-DD') AS day, sum(screened)::int AS count
         FROM batch_jobs
        WHERE account_id = $1 AND status IN ('completed', 'cancelled') AND key_id IS NOT NULL
          AND finished_at >= $2::date AND finished_at < $3::date + 1
        GROUP BY 1, 2`,
      [principal.accountId, monthStart, date],
    );
    for (const b of batches.rows) rows.push({ key_id: b.key_id, day: b.day, endpoint: 'POST /api/v1/batches', screening_type: 'BATCH', count: b.count });
    const quota = this.deps.monthlyQuota(principal.plan);
    const requests = await this.deps.limits.peek(`s3:requests:${principal.accountId}:${month}`, quota, 31 * 86_400, { align: 'utc_month' });
    const offshoreLimit = this.deps.offshoreChecksPerMonth(principal.plan);
    const offshoreUsed = offshoreLimit === null ? 0 : await this.deps.offshoreChecksUsed(principal.accountId, month);
    const keys = await this.deps.keys.list(principal.accountId, 's3');
    const byKey = new Map<string, KeyUsage>();
    for (const k of keys) {
      byKey.set(k.id, { key_id: k.id, name: k.name, key_prefix: k.prefix, active: k.revokedAt === null, today: empty(), month: empty(), quota_remaining: requests.remaining });
    }
    for (const row of rows) {
      // Legacy svc_ keys used on S3 appear too (their screenings carry their key id).
      let entry = byKey.get(row.key_id);
      if (!entry) {
        entry = { key_id: row.key_id, name: null, key_prefix: null, active: true, today: empty(), month: empty(), quota_remaining: requests.remaining };
        byKey.set(row.key_id, entry);
      }
      const add = (b: UsageBreakdown) => {
        b.total += row.count;
        b.by_endpoint[row.endpoint] = (b.by_endpoint[row.endpoint] ?? 0) + row.count;
        b.by_screening_type[row.screening_type] = (b.by_screening_type[row.screening_type] ?? 0) + row.count;
      };
      add(entry.month);
      if (row.day === date) add(entry.today);
    }
    const resetsAt = new Date(requests.resetAt * 1000).toISOString();
    return {
      date,
      month,
      plan: principal.plan,
      quota: {
        requests: quotaUsage(quota, quota - requests.remaining, resetsAt),
        offshore_leak_checks: offshoreLimit === null ? null : quotaUsage(offshoreLimit, offshoreUsed, resetsAt),
      },
      keys: [...byKey.values()].sort((a, b) => Number(a.key_id) - Number(b.key_id)),
    };
  }
}
