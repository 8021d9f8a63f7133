/**
 * What the portal's console routes (account overview, keys of every surface, webhooks and their
 * delivery log, screenings with live progress) need from the composition root. Everything is
 * injected: the routes hold no state of their own.
 */
import type { WebhookServiceDeps } from '../../app/webhook-deps';
import { monthlyQuotas } from '../../commands/plans';
import type { AccountService, CommandContext, KeyService, LimitService, Plan, Principal, ScreeningService } from '../../app/services';
import type { RegisteredWebhook } from '../../app/subject-checks/webhook-service';
import type { SubjectCheckDetailView, SubjectCheckStatus, SubjectCheckView } from '../../app/subject-checks/subject-check-service';
import type { PortalAuthenticator } from './auth';
import type { WorkQueuePort } from '../../app/screenings/work-queue';
import type { AccountUser, CaseFile } from '../../app/screenings/case-desk';
import type { AnalystNames } from '../../app/accounts/analyst-names';
import type { ListFreshness } from '../../screening/lists/freshness';
import type { Idempotent } from '../http/idempotency';
import type { Timer } from '../../shared/clock';

/** The S3 endpoint service (src/app/s3-webhooks/webhook-service.ts) as the console uses it. */
export interface S3WebhookPort {
  register(principal: Principal, url: string, ctx: CommandContext): Promise<{ signingSecret: string; created: boolean }>;
  reenable(principal: Principal, ctx: CommandContext): Promise<unknown>;
}

/** The S2 endpoint service (src/app/subject-checks/webhook-service.ts) as the console uses it. */
export interface S2WebhookPort {
  register(principal: Principal, url: string, ctx: CommandContext): Promise<RegisteredWebhook>;
}

/** The S2 subject checks (src/app/subject-checks/subject-check-service.ts) as the portal's history reads them. */
export interface SubjectCheckReadPort {
  search(accountId: string, filter: { page: number; limit: number; status?: SubjectCheckStatus; search?: string }): Promise<{ items: SubjectCheckView[]; total: number }>;
  get(accountId: string, subjectCheckId: number): Promise<SubjectCheckDetailView | undefined>;
}

/** Hit dispositions (true match / false positive / needs more information), when the service that records them is wired. */
export interface DispositionPort {
  disposition(
    principal: Principal,
    input: { screeningId: string; hitId: string; status: 'true_match' | 'false_positive' | 'needs_more_information'; reason: string },
    ctx: CommandContext,
  ): Promise<unknown>;
  /** One decision with one comment on several hits, all or nothing (a bulk decision). */
  dispositionMany(
    principal: Principal,
    input: { screeningId: string; hitIds: string[]; status: 'true_match' | 'false_positive' | 'needs_more_information'; reason: string },
    ctx: CommandContext,
  ): Promise<unknown>;
}

/** Case assignment and history (src/app/screenings/case-desk.ts), when wired. */
export interface CaseDeskPort {
  users(accountId: string): Promise<AccountUser[]>;
  caseFile(accountId: string, screeningId: string): Promise<CaseFile>;
  assign(principal: Principal, screeningId: string, assigneeEmail: string | null, ctx: CommandContext): Promise<unknown>;
}

export interface PortalConsoleDeps extends WebhookServiceDeps {
  /** Idempotency-Key handling of the create routes (src/api/http/idempotency.ts); without it the header is ignored. */
  idempotent?: Idempotent;
  /** Internal watchlists (issue 21) at /api/portal/watchlists…; absent, the routes are not mounted. */
  watchlists?: import('../../app/watchlists/watchlist-service').WatchlistService;
  /** Largest watchlist import body in bytes (WATCHLIST_IMPORT_MAX_BYTES). */
  watchlistImportMaxBytes?: number;
  auth: PortalAuthenticator;
  accounts: AccountService;
  keys: KeyService;
  limits: LimitService;
  screenings: ScreeningService;
  s2Webhooks: S2WebhookPort;
  s3Webhooks?: S3WebhookPort;
  dispositions?: DispositionPort;
  /** Case assignment and the case history; unwired: the assignment routes answer 404 and the case view has no history beyond its hits. */
  caseDesk?: CaseDeskPort;
  /** E-mails and key names of the analysts shown in the case view (raw identities when unwired). */
  analystNames?: AnalystNames;
  /** The lists in service and the outside sources, for the sources page (GET /api/portal/sources). */
  sourceStatus?: {
    /** Each list in service with its age against its maximum (src/screening/lists/freshness.ts). */
    lists(): (ListFreshness & { entityCount: number })[];
    agents(): { name: string; label: string; configured: boolean; enableWith?: string }[];
  };
  /** The analyst's work queue (GET /api/portal/queue); unwired: that route answers 404. */
  workQueue?: WorkQueuePort;
  /** The account's S2 subject checks, for the history (GET /api/portal/subject-checks); unwired: those routes answer 404. */
  subjectChecks?: SubjectCheckReadPort;
  /** Whether the person-check routes (/api/person-checks) are mounted: the portal shows the form then. */
  personChecks?: boolean;
  /** S1 monthly screening quota by plan (null = unlimited): the S1 router's own function. */
  s1MonthlyQuota: (plan: Plan) => number | null;
  /** S3 monthly request quota by plan. */
  s3MonthlyQuota: (plan: Plan) => number;
  /** The S3 monthly offshore-leak checks (src/app/usage/offshore-leak-checks.ts); unwired, the overview leaves them out. */
  offshoreLeakChecks?: { perMonth(plan: Plan): number | null; usedIn(accountId: string, month: string): Promise<number> };
  /** Agent display names, for the progress stream. */
  agentLabels?: Record<string, string>;
  /** How long one progress stream stays open at most (ms). */
  progressStreamMaxMs?: number;
  /** How often a progress stream looks for new events (ms). */
  progressPollMs?: number;
  /** Elapsed time of a progress stream (its maximum, its keep-alives); default the monotonic system timer. */
  timer?: Timer;
}

/** Spec part 8: Enterprise 1,000 requests a month, Professional 250, Starter none; Essentials sits between. */
export function defaultS3MonthlyQuota(plan: Plan): number {
  return monthlyQuotas.s3Requests[plan];
}
