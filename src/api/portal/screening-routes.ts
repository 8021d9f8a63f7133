/**
 * Screenings from the portal (the analyst's view):
 *   POST /api/portal/screenings {kind, query, entity_type, jurisdiction?}   start one (answers at once, 201 running)
 *   GET  /api/portal/screenings?page=&limit=&risk_level=&type=&q=           search and filter, paginated
 *   GET  /api/portal/screenings/:id                                          the report view (hits, sources, audit)
 *   GET  /api/portal/screenings/:id/progress                                 server-sent events from the event stream
 *   GET  /api/portal/screenings/:id/report.pdf                               the PDF report
 *   POST /api/portal/screenings/:id/hits/:hitId/disposition {status, reason} when dispositions are wired
 *   POST /api/portal/screenings/:id/dispositions {hit_ids, status, reason}    one decision on several hits
 *
 * The progress stream replays the screening's stream from the start (or after Last-Event-ID) and
 * then follows it by polling the stream until ScreeningCompleted/ScreeningFailed, so a page opened
 * late, or reconnecting, sees every phase in order.
 */
import { screeningKindRefusal } from '../../commands/plans';
import express, { type Request, type Response, type Router } from 'express';
import { answersRecordedBy, type PhaseSkipped, skippedPhases, streamName as screeningStream } from '../../commands/screening/decider';
import type { AgentAnswer } from '../../commands/decider';
import type { Principal, ScreeningDetailView, ScreeningKind } from '../../app/services';
import type { RecordedEvent } from '../../shared/events';
import { systemTimer } from '../../shared/clock';
import { handle } from '../http/app';
import { ApiError } from '../http/errors';
import { entityTypeOmitted, parseInput } from '../http/validation';
import { portalCommandContext, portalIdempotent, sendPortalData } from './auth';
import type { PortalConsoleDeps } from './console-deps';
import { identitiesIn } from '../../app/screenings/case-desk';
import { portalHit, portalListVersions, portalSubject } from './case-view';
import { PORTAL_SCREENING_ID, PortalAssignmentSchema, PortalBulkDispositionSchema as BulkDispositionSchema, PortalDispositionSchema as DispositionSchema, PortalQueueQuerySchema, PortalReportPdfQuerySchema as ReportPdfQuerySchema, PortalScreeningListSchema, PortalScreeningRequestSchema } from './schemas';
import { addressInput, subjectFactsInput } from '../http/subject-facts';

export { PortalScreeningListSchema, PortalScreeningRequestSchema } from './schemas';

const ID = PORTAL_SCREENING_ID;

const PHASE_NAMES: Record<string, string> = {
  '0': 'Entity enrichment',
  '1': 'Core screening: sanctions, PEP, adverse media, offshore leaks, debarment',
  '1b': 'Registries and market data',
  '2': 'Financial due diligence and verification',
  '3': 'Litigation, bankruptcy, complaints, ESG',
  '4': 'Arbitration, web archive, beneficial ownership',
  '5': 'Finalisation: country risk, scoring, summary',
};

type Progress = { event: string; data: Record<string, unknown> };

/** What the page needs from one stored event (never the raw agent payloads): one or more messages. */
export function progressOf(event: RecordedEvent, labels: Record<string, string>): Progress[] {
  const one = progressOfOne(event, labels);
  return Array.isArray(one) ? one : [one];
}

function notQueriedFinished(phase: string, sources: { agent: string; error: string }[], label: (agent: string) => string): Progress[] {
  return sources.map((n) => ({
    event: 'agent_finished',
    data: { phase, agent: n.agent, label: label(n.agent), queried: false, error: n.error, duration_ms: 0 },
  }));
}

function phaseStarted(phase: string, at: string): Progress {
  return { event: 'phase_started', data: { phase, name: PHASE_NAMES[phase] ?? `Phase ${phase}`, at } };
}

function agentFinished(a: AgentAnswer<string>, label: (agent: string) => string): Progress {
  return {
    event: 'agent_finished',
    data: {
      phase: a.phase,
      agent: a.agent,
      label: label(a.agent),
      queried: a.queried,
      error: a.error ?? null,
      duration_ms: Math.max(0, Date.parse(a.finishedAt) - Date.parse(a.startedAt)) || 0,
    },
  };
}

function progressOfOne(event: RecordedEvent, labels: Record<string, string>): Progress | Progress[] {
  const d = event.data as Record<string, any>;
  const label = (agent: string) => labels[agent] ?? agent.charAt(0).toUpperCase() + agent.slice(1).replace(/_/g, ' ');
  switch (event.type) {
    case 'ScreeningRequested':
      return {
        event: 'requested',
        data: {
          query: d.subject?.query,
          entity_type: d.subject?.entityType,
          kind: d.kind,
          at: d.requestedAt,
          phases: (d.pipeline as { phase: string; agents: string[]; mode: string }[]).map((p) => ({
            phase: p.phase,
            name: PHASE_NAMES[p.phase] ?? `Phase ${p.phase}`,
            mode: p.mode,
            agents: p.agents.map((a) => ({ agent: a, label: label(a) })),
          })),
        },
      };
    case 'PhaseStarted':
      // The sources this deployment cannot query are recorded in PhaseStarted: each is also "finished".
      return [
        phaseStarted(d.phase, d.startedAt),
        ...notQueriedFinished(d.phase, d.notQueried ?? [], label),
      ];
    case 'PhaseSkipped':
      // No agent of the phase (nor of those skipped with it) could be queried: to the page each
      // phase started, each of its agents finished, and it completed.
      return skippedPhases(d as PhaseSkipped['data']).flatMap((p) => [
        phaseStarted(p.phase, d.skippedAt),
        ...notQueriedFinished(p.phase, p.notQueried, label),
        { event: 'phase_completed', data: { phase: p.phase, queried: [], not_queried: p.notQueried.map((n) => n.agent), at: d.skippedAt } },
      ]);
    case 'AgentResultRecorded':
      return agentFinished(d as AgentAnswer<string>, label);
    case 'PhaseCompleted': {
      const completed = { event: 'phase_completed', data: { phase: d.phase, queried: d.agentsQueried, not_queried: d.agentsNotQueried, at: d.completedAt } };
      // A phase recorded whole (v2, the finalisation): to the page it started, each agent finished, and it completed.
      const answers = answersRecordedBy(event);
      if (answers.length === 0) return completed;
      return [
        phaseStarted(d.phase, answers[0]!.startedAt),
        ...answers.map((a) => agentFinished(a, label)),
        completed,
      ];
    }
    case 'ScreeningCompleted':
      return {
        event: 'completed',
        data: {
          risk_level: d.riskLevel,
          risk_score: d.riskScore,
          counts: {
            sanctions: d.counts?.sanctionsHits ?? 0,
            pep: d.counts?.pepHits ?? 0,
            adverse_media: d.counts?.adverseMediaHits ?? 0,
            offshore_leaks: d.counts?.offshoreLeaksHits ?? 0,
            debarment: d.counts?.debarmentHits ?? 0,
          },
          at: d.completedAt,
        },
      };
    case 'ScreeningFailed':
      return { event: 'failed', data: { reason: d.reason, at: d.failedAt } };
    default:
      return { event: 'other', data: { type: event.type } };
  }
}

export function createScreeningRoutes(deps: PortalConsoleDeps): Router {
  const router = express.Router();
  const labels = deps.agentLabels ?? {};
  const pollMs = deps.progressPollMs ?? 250;
  const maxMs = deps.progressStreamMaxMs ?? 10 * 60_000;
  const timer = deps.timer ?? systemTimer;

  function idOf(req: Request): string {
    const id = String(req.params.id);
    if (!ID.test(id)) throw new ApiError('bad_request', 'id: must be a screening id or uuid', { fields: { id: ['must be a screening id or uuid'] } });
    return id;
  }

  async function own(principal: Principal, id: string) {
    const key = /^[0-9]+$/.test(id) ? Number(id) : id;
    let screening = await deps.screenings.get(principal.accountId, key);
    if (!screening) {
      // Read your writes: a screening requested a moment ago may not be in the read model yet.
      await deps.readModelsCaughtUp();
      screening = await deps.screenings.get(principal.accountId, key);
    }
    if (!screening) throw new ApiError('not_found', `Screening ${id} not found`);
    return screening;
  }

  /**
   * The case view names who decided each hit (e-mail or key name), never only an internal id; with the
   * case desk wired, also who holds the case and its history (every decision, assignment and alert).
   */
  async function withAnalystNames(principal: Principal, screening: ScreeningDetailView) {
    const decided = screening.hits.filter((h) => h.disposition);
    const file = deps.caseDesk && screening.status !== 'running' ? await deps.caseDesk.caseFile(principal.accountId, String(screening.id)) : undefined;
    const identities = [...decided.map((h) => h.disposition!.analyst), ...(file ? identitiesIn(file.history) : [])];
    const names = deps.analystNames ? await deps.analystNames(principal.accountId, identities) : new Map<string, string>();
    const name = (identity: string) => names.get(identity) ?? identity;
    return {
      ...screening,
      subject: portalSubject(screening.subject),
      list_versions: portalListVersions(screening.list_versions),
      hits: screening.hits.map((h) => portalHit(h.disposition ? { ...h, disposition: { ...h.disposition, analyst_name: name(h.disposition.analyst) } } : h)),
      ...(file
        ? {
            assignee: file.assignee ? { email: file.assignee.email, me: file.assignee.userId === principal.userId } : null,
            case_history: file.history.map((entry) => ({
              ...entry,
              ...('by' in entry ? { by: name(entry.by) } : {}),
              ...('assignee' in entry ? { assignee: name(entry.assignee) } : {}),
              ...('previous_assignee' in entry && entry.previous_assignee ? { previous_assignee: name(entry.previous_assignee) } : {}),
            })),
          }
        : {}),
    };
  }

  function kindAllowed(principal: Principal, kind: ScreeningKind): void {
    const refusal = screeningKindRefusal(principal.plan, kind);
    if (refusal) throw new ApiError('plan_required', refusal);
  }

  router.post(
    '/api/portal/screenings',
    portalIdempotent(deps.idempotent, deps.auth),
    handle(async (req, res) => {
      const principal = await deps.auth.require(req, res);
      const input = parseInput(PortalScreeningRequestSchema, req.body);
      kindAllowed(principal, input.kind);
      const declared = Object.fromEntries(Object.entries(input.declared ?? {}).filter(([, v]) => typeof v === 'string' && v !== '')) as Record<string, string>;
      const screening = await deps.screenings.request(
        principal,
        {
          kind: input.kind,
          query: input.query,
          // M&A screens the target company.
          entityType: input.kind === 'ma' ? 'company' : input.entity_type,
          ...(input.kind !== 'ma' ? entityTypeOmitted(req.body) : {}),
          ...(input.jurisdiction ? { jurisdiction: input.jurisdiction } : {}),
          ...subjectFactsInput(input),
          ...addressInput(input.address),
          ...(Object.keys(declared).length ? { declared } : {}),
        },
        portalCommandContext(res, principal),
      );
      res.setHeader('Location', `/api/portal/screenings/${screening.id}`);
      sendPortalData(res, 201, { screening }, deps.clock.now());
    }),
  );

  // The analyst's home: completed screenings with undecided hits, most severe then oldest first.
  router.get(
    '/api/portal/queue',
    handle(async (req, res) => {
      const principal = await deps.auth.require(req, res);
      if (!deps.workQueue) throw new ApiError('not_found', 'The work queue is not available on this deployment');
      const query = parseInput(PortalQueueQuerySchema, req.query, 'query');
      // Read your writes: a decision taken a moment ago has left the queue.
      await deps.readModelsCaughtUp();
      const now = deps.clock.now();
      const queue = await deps.workQueue.list(
        { accountId: principal.accountId, ...(principal.userId ? { userId: principal.userId } : {}) },
        {
          page: query.page,
          limit: query.limit,
          ...(query.level ? { level: query.level } : {}),
          ...(query.surface ? { surface: query.surface } : {}),
          ...(query.list ? { list: query.list } : {}),
          ...(query.needs_more_information === 'true' ? { needsMoreInformation: true } : {}),
          ...(query.assignee ? { assignee: query.assignee } : {}),
        },
        now,
      );
      sendPortalData(res, 200, { items: queue.items, counts: queue.counts, lists: queue.lists, assignees: queue.assignees }, now, {
        pagination: { page: query.page, limit: query.limit, total: queue.total, pages: Math.max(1, Math.ceil(queue.total / query.limit)) },
      });
    }),
  );

  router.get(
    '/api/portal/screenings',
    handle(async (req, res) => {
      const principal = await deps.auth.require(req, res);
      const query = parseInput(PortalScreeningListSchema, req.query, 'query');
      // Read your writes: a screening started a moment ago is listed.
      await deps.readModelsCaughtUp();
      const { items, total } = await deps.screenings.list(principal.accountId, {
        page: query.page,
        limit: query.limit,
        ...(query.risk_level ? { riskLevel: query.risk_level } : {}),
        ...(query.type ? { kinds: [query.type.toLowerCase() as ScreeningKind] } : {}),
        ...(query.q ? { search: query.q } : {}),
      });
      sendPortalData(res, 200, { screenings: items }, deps.clock.now(), {
        pagination: { page: query.page, limit: query.limit, total, pages: Math.max(1, Math.ceil(total / query.limit)) },
      });
    }),
  );

  router.get(
    '/api/portal/screenings/:id',
    handle(async (req, res) => {
      const principal = await deps.auth.require(req, res);
      const screening = await withAnalystNames(principal, await own(principal, idOf(req)));
      sendPortalData(res, 200, { screening, dispositions_enabled: Boolean(deps.dispositions) }, deps.clock.now());
    }),
  );

  router.get(
    '/api/portal/screenings/:id/report.pdf',
    handle(async (req, res) => {
      const principal = await deps.auth.require(req, res);
      const screening = await own(principal, idOf(req));
      const query = parseInput(ReportPdfQuerySchema, req.query, 'query');
      if (screening.status === 'running') throw new ApiError('conflict', `Screening ${screening.id} is still running; its report is available once it completes`);
      const pdf = await deps.screenings.reportPdf(principal.accountId, screening.id, query.time_zone ? { timeZone: query.time_zone } : {});
      if (!pdf) throw new ApiError('not_found', `Screening ${screening.id} not found`);
      res.status(200);
      res.setHeader('Content-Type', 'application/pdf');
      res.setHeader('Content-Disposition', `attachment; filename="screening-${screening.id}.pdf"`);
      res.setHeader('Content-Length', String(pdf.length));
      res.end(pdf);
    }),
  );

  router.post(
    '/api/portal/screenings/:id/hits/:hitId/disposition',
    handle(async (req, res) => {
      const principal = await deps.auth.require(req, res);
      if (!deps.dispositions) throw new ApiError('not_found', 'Dispositions are not available on this deployment');
      const screening = await own(principal, idOf(req));
      const hitId = String(req.params.hitId);
      if (!screening.hits.some((h) => h.hit_id === hitId)) throw new ApiError('not_found', `Hit ${hitId} not found`);
      const input = parseInput(DispositionSchema, req.body);
      await deps.dispositions.disposition(principal, { screeningId: String(screening.id), hitId, status: input.status, reason: input.reason }, portalCommandContext(res, principal));
      sendPortalData(res, 200, { screening: await withAnalystNames(principal, await own(principal, String(screening.id))) }, deps.clock.now());
    }),
  );

  // One decision with one comment on several hits (e.g. every subsidiary of a bank: false positive).
  router.post(
    '/api/portal/screenings/:id/dispositions',
    handle(async (req, res) => {
      const principal = await deps.auth.require(req, res);
      if (!deps.dispositions) throw new ApiError('not_found', 'Dispositions are not available on this deployment');
      const screening = await own(principal, idOf(req));
      const input = parseInput(BulkDispositionSchema, req.body);
      // Every hit named must be one of this case's: otherwise nothing is decided (the ids are not echoed back).
      const known = new Set(screening.hits.map((h) => h.hit_id));
      const unknown = input.hit_ids.flatMap((id, i) => (known.has(id) ? [] : [`hit_ids.${i}`]));
      if (unknown.length > 0) {
        const problem = `${unknown.length === 1 ? 'is not a hit' : 'are not hits'} of screening ${screening.id} (${unknown.slice(0, 5).join(', ')}${unknown.length > 5 ? ', …' : ''})`;
        throw new ApiError('bad_request', `hit_ids: ${unknown.length} ${problem}`, { fields: { hit_ids: [`${unknown.length} ${problem}`] } });
      }
      await deps.dispositions.dispositionMany(principal, { screeningId: String(screening.id), hitIds: input.hit_ids, status: input.status, reason: input.reason }, portalCommandContext(res, principal));
      sendPortalData(res, 200, { screening: await withAnalystNames(principal, await own(principal, String(screening.id))) }, deps.clock.now());
    }),
  );

  // The people a case can be assigned to: the users of the signed-in account, by e-mail.
  router.get(
    '/api/portal/assignees',
    handle(async (req, res) => {
      const principal = await deps.auth.require(req, res);
      if (!deps.caseDesk) throw new ApiError('not_found', 'Case assignment is not available on this deployment');
      const users = await deps.caseDesk.users(principal.accountId);
      sendPortalData(res, 200, { assignees: users.map((u) => ({ email: u.email, role: u.role, me: u.userId === principal.userId })) }, deps.clock.now());
    }),
  );

  router.put(
    '/api/portal/screenings/:id/assignee',
    handle(async (req, res) => {
      const principal = await deps.auth.require(req, res);
      if (!deps.caseDesk) throw new ApiError('not_found', 'Case assignment is not available on this deployment');
      const screening = await own(principal, idOf(req));
      const input = parseInput(PortalAssignmentSchema, req.body);
      await deps.caseDesk.assign(principal, String(screening.id), input.assignee, portalCommandContext(res, principal));
      sendPortalData(res, 200, { screening: await withAnalystNames(principal, await own(principal, String(screening.id))) }, deps.clock.now());
    }),
  );

  router.get(
    '/api/portal/screenings/:id/progress',
    handle(async (req, res) => {
      const principal = await deps.auth.require(req, res);
      const screening = await own(principal, idOf(req));
      await streamProgress(req, res, String(screening.id));
    }),
  );

  async function streamProgress(req: Request, res: Response, screeningId: string): Promise<void> {
    const stream = screeningStream(screeningId);
    const lastEventId = req.headers['last-event-id'];
    let next = typeof lastEventId === 'string' && /^[0-9]{1,12}$/.test(lastEventId) ? BigInt(lastEventId) + 1n : 0n;
    res.status(200);
    res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
    // Not `no-store`: Chromium reports a no-store response read through a stream reader as aborted
    // even when it reached its end (playwright#42742), so every progress stream of the page showed
    // as a failed request; `private, no-cache` keeps shared caches out and every reuse revalidated.
    res.setHeader('Cache-Control', 'private, no-cache');
    res.setHeader('X-Accel-Buffering', 'no');
    res.flushHeaders();
    res.write('retry: 2000\n\n');
    let closed = false;
    req.on('close', () => {
      closed = true;
    });
    const started = timer.nowMs();
    let lastWrite = started;
    while (!closed) {
      const events = await deps.store.readStream(stream, { fromRevision: next });
      let finished = false;
      for (const event of events) {
        for (const progress of progressOf(event, labels)) {
          res.write(`id: ${event.streamPosition}\nevent: ${progress.event}\ndata: ${JSON.stringify(progress.data)}\n\n`);
        }
        lastWrite = timer.nowMs();
        next = event.streamPosition + 1n;
        if (event.type === 'ScreeningCompleted' || event.type === 'ScreeningFailed') finished = true;
      }
      if (finished || timer.nowMs() - started > maxMs) {
        res.write(`event: end\ndata: {}\n\n`);
        break;
      }
      if (timer.nowMs() - lastWrite > 15_000) {
        res.write(': keep-alive\n\n');
        lastWrite = timer.nowMs();
      }
      await new Promise((resolve) => setTimeout(resolve, pollMs));
    }
    res.end();
  }

  return router;
}
