/**
 * GET /api/portal/overview: the signed-in account at a glance: plan, this month's quota use on
 * each surface (with a warning from 80 % used and once used up), the rate limits that apply and what
 * is left of them now, active keys against their caps, and which optional portal features are wired
 * (person checks, dispositions).
 *
 * Counters are read with `peek` (never consumed) from the same buckets the surfaces' gates use, and
 * the offshore-leak checks from the quota aggregate the screening workflow uses them from, so the
 * figures are the ones that will decide the next request.
 */
import express, { type Router } from 'express';
import { activeKeyLimits } from '../../commands/api-keys/decider';
import { quotaWarningLevel } from '../../commands/plans';
import { projectionSchema } from '../../projections/projection';
import type { KeySurface } from '../../app/services';
import { handle } from '../http/app';
import { S1_RATE_LIMIT, S1_RATE_WINDOW_SECONDS } from '../s1/router';
import { S2_SUBJECT_CHECKS_PER_HOUR, S2_SUBJECT_CHECK_WINDOW_SECONDS, subjectCheckRateBucket } from '../s2/router';
import { sendPortalData } from './auth';
import { presentListFreshness } from '../http/list-freshness';
import type { PortalConsoleDeps } from './console-deps';

const MONTH_SECONDS = 31 * 86_400;
/** Spec part 8: the gates' own figures. */
const S1_RATE = { limit: S1_RATE_LIMIT, windowSeconds: S1_RATE_WINDOW_SECONDS };
const S2_RATE = { limit: S2_SUBJECT_CHECKS_PER_HOUR, windowSeconds: S2_SUBJECT_CHECK_WINDOW_SECONDS };

/** The monthly quotas the overview shows, and what happens once each is used up (the warning says it). */
type QuotaId = 's1_screenings' | 's3_requests' | 's3_offshore_leak_checks';
const QUOTAS: Record<QuotaId, { surface: 's1' | 's3'; name: string; whenUsedUp: string }> = {
  s1_screenings: { surface: 's1', name: 'Screening API monthly screenings', whenUsedUp: 'new S1 screenings are refused (402 quota_exceeded)' },
  s3_requests: { surface: 's3', name: 'Enterprise API monthly requests', whenUsedUp: 'Enterprise API requests are refused (429)' },
  s3_offshore_leak_checks: {
    surface: 's3',
    name: 'Enterprise API offshore-leak checks',
    whenUsedUp: 'Enterprise API screenings still run every other source, but offshore leaks are not searched (each report lists it as a data gap)',
  },
};

/**
 * One quota as the overview shows it, with its warning from 80 % used and once used up (issue 33):
 * what is used, and what happens to requests until the reset.
 */
export function quotaView(quota: QuotaId, limit: number | null, used: number, resetsAt: Date) {
  const { surface, name, whenUsedUp } = QUOTAS[quota];
  const level = quotaWarningLevel(used, limit);
  const resetDay = resetsAt.toISOString().slice(0, 10);
  const warning =
    level === null || limit === null
      ? null
      : {
          level,
          message:
            level === 'reached'
              ? `${name}: all ${limit} used. Until the quota resets on ${resetDay}, ${whenUsedUp}.`
              : `${name}: ${used} of ${limit} used (${Math.floor((used / limit) * 100)} %). Once they are used up, ${whenUsedUp} until ${resetDay}.`,
        };
  return { quota, surface, name, limit, used, resets_at: resetsAt.toISOString(), warning };
}

export function createOverviewRoutes(deps: PortalConsoleDeps): Router {
  const router = express.Router();
  const screenings = projectionSchema('screenings');

  router.get(
    '/api/portal/overview',
    handle(async (req, res) => {
      const principal = await deps.auth.require(req, res);
      const account = await deps.accounts.get(principal.accountId);
      const now = deps.clock.now();
      const month = now.toISOString().slice(0, 7);
      const monthStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
      const monthEnd = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));

      const keysBySurface = Object.fromEntries(
        await Promise.all((['s1', 's2', 's3'] as KeySurface[]).map(async (s) => [s, await deps.keys.list(principal.accountId, s)] as const)),
      ) as Record<KeySurface, Awaited<ReturnType<typeof deps.keys.list>>>;
      const isActive = (k: { revokedAt: string | null; expiresAt: string | null }) => k.revokedAt === null && (k.expiresAt === null || Date.parse(k.expiresAt) > now.getTime());

      // Screenings created this month, per surface, from the read model (what unlimited plans are shown).
      const counted = await deps.pool.query<{ surface: string; n: string }>(
        `SELECT surface, count(*)::text AS n FROM ${screenings}.screenings WHERE account_id = $1 AND created_at >= $2 AND created_at < $3 GROUP BY surface`,
        [principal.accountId, monthStart, monthEnd],
      );
      const createdThisMonth: Record<string, number> = {};
      for (const row of counted.rows) createdThisMonth[row.surface] = Number(row.n);

      const s1Quota = deps.s1MonthlyQuota(principal.plan);
      const s1Used =
        s1Quota === null
          ? (createdThisMonth.s1 ?? 0)
          : s1Quota - (await deps.limits.peek(`s1:quota:${principal.accountId}:${month}`, s1Quota, MONTH_SECONDS, { align: 'utc_month' })).remaining;
      const s3Quota = deps.s3MonthlyQuota(principal.plan);
      const s3Used = s3Quota === 0 ? 0 : s3Quota - (await deps.limits.peek(`s3:requests:${principal.accountId}:${month}`, s3Quota, MONTH_SECONDS, { align: 'utc_month' })).remaining;
      const s2Window = await deps.limits.peek(subjectCheckRateBucket(principal.accountId), S2_RATE.limit, S2_RATE.windowSeconds);
      const offshoreLimit = deps.offshoreLeakChecks?.perMonth(principal.plan) ?? null;
      const offshoreUsed = offshoreLimit === null ? 0 : await deps.offshoreLeakChecks!.usedIn(principal.accountId, month);

      const s1KeyWindows = await Promise.all(
        keysBySurface.s1.filter(isActive).map(async (k) => {
          const w = await deps.limits.peek(`s1:key:${k.id}`, S1_RATE.limit, S1_RATE.windowSeconds);
          return { key_id: k.id, name: k.name, prefix: k.prefix, remaining: w.remaining, resets_at: new Date(w.resetAt * 1000).toISOString() };
        }),
      );

      sendPortalData(
        res,
        200,
        {
          account: { id: principal.accountId, name: account?.name ?? null, plan: principal.plan, created_at: account?.createdAt ?? null, user_id: principal.userId ?? null },
          month,
          quota_resets_at: monthEnd.toISOString(),
          quotas: [
            quotaView('s1_screenings', s1Quota, s1Used, monthEnd),
            quotaView('s3_requests', s3Quota, s3Used, monthEnd),
            ...(offshoreLimit === null ? [] : [quotaView('s3_offshore_leak_checks', offshoreLimit, offshoreUsed, monthEnd)]),
          ],
          screenings_this_month: { total: Object.values(createdThisMonth).reduce((a, b) => a + b, 0), by_surface: createdThisMonth },
          rate_limits: [
            { surface: 's1', description: 'requests per minute, per API key', limit: S1_RATE.limit, window_seconds: S1_RATE.windowSeconds, keys: s1KeyWindows },
            {
              surface: 's2',
              description: 'subject checks per hour, per account (sandbox calls do not count)',
              limit: S2_RATE.limit,
              window_seconds: S2_RATE.windowSeconds,
              remaining: s2Window.remaining,
              resets_at: new Date(s2Window.resetAt * 1000).toISOString(),
            },
          ],
          keys: {
            s1: { active: keysBySurface.s1.filter(isActive).length, cap: activeKeyLimits.s1.perAccount, cap_scope: 'account' },
            s2: { active: keysBySurface.s2.filter(isActive).length, cap: null, cap_scope: null },
            s3: { active: keysBySurface.s3.filter(isActive).length, cap: activeKeyLimits.s3.perUser, cap_scope: 'user' },
          },
          features: { person_checks: Boolean(deps.personChecks), dispositions: Boolean(deps.dispositions), s3_webhooks: Boolean(deps.s3Webhooks) },
        },
        now,
      );
    }),
  );

  // What this deployment searches: each list with its publication date and age, each outside source
  // configured or not with what enables it (explained here once, not on every report).
  router.get(
    '/api/portal/sources',
    handle(async (req, res) => {
      await deps.auth.require(req, res);
      const now = deps.clock.now();
      const lists = (deps.sourceStatus?.lists() ?? []).map((v) => {
        // The body of the portal's schema: no `warning` (the page says it once for all stale lists).
        const { warning: _warning, ...shown } = presentListFreshness(v);
        return { ...shown, entity_count: v.entityCount };
      });
      const sources = (deps.sourceStatus?.agents() ?? []).map((a) => ({ agent: a.name, label: a.label, configured: a.configured, enable_with: a.enableWith ?? null }));
      sendPortalData(res, 200, { lists, sources }, now);
    }),
  );
  return router;
}
