/**
 * The account's S2 subject checks in the portal's history (read only; they are started through the
 * S2 API with an `svca_` key):
 *   GET /api/portal/subject-checks?page=&limit=&status=&q=   newest first, paginated, by status and name
 *   GET /api/portal/subject-checks/:id                       summary, status, tier scores, sources, monitoring
 *
 * What the portal shows is narrower than the S2 GET: the subject's name, the year of birth only
 * (as person checks show it) and the countries; never the full date of birth, the account, key or
 * batch ids, the stated purpose or the matched list entries. Another account's check is a 404.
 */
import express, { type Router } from 'express';
import type { SubjectCheckDetailView, SubjectCheckView } from '../../app/subject-checks/subject-check-service';
import { handle } from '../http/app';
import { ApiError } from '../http/errors';
import { parseInput } from '../http/validation';
import { sendPortalData } from './auth';
import type { PortalConsoleDeps } from './console-deps';
import { PortalSubjectCheckListSchema, PortalSubjectCheckParamsSchema } from './schemas';

/** One row of the history. */
export function presentSubjectCheck(v: SubjectCheckView) {
  const s = v.subject;
  return {
    id: v.subject_check_id,
    name: [s.first_name, s.middle_name, s.last_name].filter((p): p is string => Boolean(p)).join(' '),
    year_of_birth: s.date_of_birth ? s.date_of_birth.slice(0, 4) : null,
    countries: [...new Set(s.locations.map((l) => l.country))],
    status: v.status,
    overall_result: v.overall_result,
    confidence_level: v.confidence_level,
    findings_count: v.findings_count,
    red_flag_count: v.red_flag_count,
    warning_count: v.warning_count,
    sources_searched: v.sources_searched,
    sources_total: v.sources_total,
    monitoring: v.monitoring,
    created_at: v.created_at,
    completed_at: v.completed_at,
  };
}

const STATUS_WORDS: Record<SubjectCheckView['status'], string> = {
  running: 'Running',
  needs_review: 'Needs review',
  escalated: 'Escalated',
  completed: 'Completed',
  failed: 'Failed',
};

/** One sentence an analyst can read: where the check stands and what it found. */
export function subjectCheckSummary(v: SubjectCheckView): string {
  const parts = [STATUS_WORDS[v.status]];
  if (v.overall_result) parts[0] += `: ${v.overall_result.replace(/_/g, ' ')}${v.confidence_level ? ` (${v.confidence_level} confidence)` : ''}`;
  if (v.status === 'failed' && v.error_message) parts.push(v.error_message);
  if (v.red_flag_count !== null || v.warning_count !== null) {
    const flags = v.red_flag_count ?? 0;
    const warnings = v.warning_count ?? 0;
    parts.push(`${flags} red flag${flags === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'}`);
  }
  if (v.sources_searched !== null) parts.push(`${v.sources_searched} of ${v.sources_total} sources searched`);
  if (v.review_reason) parts.push(`review: ${v.review_reason.replace(/_/g, ' ')}`);
  if (v.investigation_id) parts.push(`investigation ${v.investigation_id}${v.priority ? ` (${v.priority} priority)` : ''}`);
  return `${parts.join('; ')}.`;
}

/** The detail view. */
export function presentSubjectCheckDetail(v: SubjectCheckDetailView) {
  return {
    ...presentSubjectCheck(v),
    summary: subjectCheckSummary(v),
    review_reason: v.review_reason,
    resolved_by: v.resolved_by,
    investigation_id: v.investigation_id,
    priority: v.priority,
    error_message: v.error_message,
    tier_scores: v.tier_scores,
    sources: v.sources.map((x) => ({ agent: x.agent, tier: x.tier, queried: x.queried, error: x.error, hits: x.hits })),
    monitoring_alerts: v.monitoring_alerts.length,
  };
}

export function createSubjectCheckRoutes(deps: PortalConsoleDeps): Router {
  const router = express.Router();
  const service = () => {
    if (!deps.subjectChecks) throw new ApiError('not_found', 'Subject checks are not available on this deployment');
    return deps.subjectChecks;
  };

  router.get(
    '/api/portal/subject-checks',
    handle(async (req, res) => {
      const principal = await deps.auth.require(req, res);
      const query = parseInput(PortalSubjectCheckListSchema, req.query, 'query');
      const subjectChecks = service();
      // Read your writes: a check started through S2 a moment ago is listed.
      await deps.readModelsCaughtUp();
      const { items, total } = await subjectChecks.search(principal.accountId, {
        page: query.page,
        limit: query.limit,
        ...(query.status ? { status: query.status } : {}),
        ...(query.q ? { search: query.q } : {}),
      });
      sendPortalData(res, 200, { subject_checks: items.map(presentSubjectCheck) }, deps.clock.now(), {
        pagination: { page: query.page, limit: query.limit, total, pages: Math.max(1, Math.ceil(total / query.limit)) },
      });
    }),
  );

  router.get(
    '/api/portal/subject-checks/:id',
    handle(async (req, res) => {
      const principal = await deps.auth.require(req, res);
      const parsed = PortalSubjectCheckParamsSchema.safeParse(req.params);
      if (!parsed.success) throw new ApiError('bad_request', 'id: must be a positive integer', { fields: { id: ['must be a positive integer'] } });
      const subjectChecks = service();
      const id = Number(parsed.data.id);
      let check = await subjectChecks.get(principal.accountId, id);
      if (!check) {
        await deps.readModelsCaughtUp();
        check = await subjectChecks.get(principal.accountId, id);
      }
      if (!check) throw new ApiError('not_found', `Subject check ${id} not found`);
      sendPortalData(res, 200, { subject_check: presentSubjectCheckDetail(check) }, deps.clock.now());
    }),
  );

  return router;
}
