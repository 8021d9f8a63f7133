/** The application services (src/app) over the store, the database and the lists in service. */
import type pg from 'pg';
import type { Config } from '../config/config';
import type { Clock } from '../shared/clock';
import type { EventStore } from '../infrastructure/eventstore/port';
import type { SecretBox } from '../webhooks/secrets';
import { checkWebhookUrl } from '../webhooks/url-guard';
import { ApiError } from '../api/http/errors';
import { DEV_JWT_SECRET, JwtSessionService } from '../app/sessions/session-service';
import { PgLimitService } from '../app/limits';
import { PgAccountService } from '../app/accounts/account-service';
import { PgKeyService } from '../app/keys/key-service';
import { CompletionNotifier, PgScreeningService } from '../app/screenings/screening-service';
import { ScreeningAdmission } from '../app/screenings/admission';
import { pgAnalystNames } from '../app/accounts/analyst-names';
import { IdBlocks } from '../app/ids';
import { PgSubjectCheckService, SUBJECT_CHECK_PIPELINE_ENDS } from '../app/subject-checks/subject-check-service';
import { S2WebhookService } from '../app/subject-checks/webhook-service';
import { PERSON_CHECK_ENDS, PgPersonCheckService } from '../app/person-checks/person-check-service';
import { WatchlistService } from '../app/watchlists/watchlist-service';
import type { HeldDocuments } from '../agents/person/held-documents';
import type { ListsInService } from './lists';
import type { Stops } from './lifecycle';

export interface ServicesDeps {
  config: Config;
  logger?: import('../shared/logger').Logger;
  clock: Clock;
  pool: pg.Pool;
  store: EventStore;
  secrets: SecretBox;
  lists: ListsInService;
  agentLabels: Record<string, string>;
  readModelsCaughtUp: (through?: bigint) => Promise<void>;
  stops: Stops;
  /**
   * The account's active internal-list versions, pinned by screenings and person checks at request time,
   * and where a person check's whole documents are held (agents.ts).
   */
  personCheckLists?: { activeInternalLists: (accountId: string) => Promise<string[]>; heldDocuments: HeldDocuments };
  /**
   * Whether this process follows the store for the ends of screenings and checks (default true): a
   * request waiting for its screening and the admission slots of requests started here need it. A
   * process that serves no HTTP (`svc worker`) starts none of either, and its subscription would read
   * every event of the store for nothing, once per worker replica.
   */
  followCompletions?: boolean;
}

export type ApplicationServices = Awaited<ReturnType<typeof createApplicationServices>>;

export async function createApplicationServices(deps: ServicesDeps) {
  const { config, clock, pool, store, secrets, lists, readModelsCaughtUp } = deps;
  const allowPrivate = config.WEBHOOK_ALLOW_PRIVATE;
  const notifier = new CompletionNotifier(store as EventStore & { headPosition?: () => Promise<bigint> });
  if (deps.followCompletions !== false) {
    await notifier.start();
    deps.stops.push(() => notifier.stop());
  }

  const limits = new PgLimitService(pool, clock);
  const accounts = new PgAccountService({ store, pool, clock, readModelsCaughtUp });
  const keys = new PgKeyService({
    store,
    pool,
    clock,
    secrets,
    readModelsCaughtUp,
    checkWebhookUrl: async (url) => {
      // Refuse before anything is stored: https only, no private/loopback/metadata addresses.
      const checked = await checkWebhookUrl(url, { allowPrivate });
      if (!checked.ok) throw new ApiError('validation', `webhook_url: ${checked.error.message}`, { errors: [`webhook_url: ${checked.error.message}`] });
    },
  });
  const ids = new IdBlocks(pool);
  const listGate = lists.gate;
  const listsInService = () => lists.inService();
  // Backpressure for checks, like screenings below: a slot per check in flight, freed when its pipeline ends.
  const subjectCheckAdmission = new ScreeningAdmission({ limit: config.MAX_INFLIGHT_SUBJECT_CHECKS, clock, noun: 'subject checks' });
  notifier.onEvents(SUBJECT_CHECK_PIPELINE_ENDS, (stream) => subjectCheckAdmission.ended(stream));
  const personCheckAdmission = new ScreeningAdmission({ limit: config.MAX_INFLIGHT_PERSON_CHECKS, clock, noun: 'person checks' });
  notifier.onEvents(PERSON_CHECK_ENDS, (stream) => personCheckAdmission.ended(stream));
  const subjectChecks = new PgSubjectCheckService({ store, pool, clock, readModelsCaughtUp, ids, listGate, listsInService, admission: subjectCheckAdmission });
  const s2Webhooks = new S2WebhookService({ store, pool, clock, secrets, allowPrivate, readModelsCaughtUp });
  // S2 session cookies (auth_token): 12 h.
  const sessions = new JwtSessionService({ pool, clock, secret: config.JWT_SECRET ?? DEV_JWT_SECRET, audience: 's2_session', lifetimeSeconds: 12 * 3600 });
  const personChecks = new PgPersonCheckService({ store, pool, clock, readModelsCaughtUp, listGate, listsInService, admission: personCheckAdmission, ...(deps.personCheckLists ?? {}) });
  const analystNames = pgAnalystNames(pool);
  // Backpressure: a bounded number of screenings in flight per process (MAX_INFLIGHT_SCREENINGS).
  const admission = new ScreeningAdmission({ limit: config.MAX_INFLIGHT_SCREENINGS, clock });
  notifier.onEnd((stream) => admission.ended(stream));
  const screenings = new PgScreeningService({
    analystNames,
    store,
    pool,
    clock,
    notifier,
    admission,
    ids,
    reportContext: () => ({ agentLabels: deps.agentLabels, matcherVersion: lists.engine().matcherVersion }),
    readModelsCaughtUp,
    listGate,
    ...(deps.personCheckLists ? { activeInternalLists: deps.personCheckLists.activeInternalLists } : {}),
  });
  // The accounts' own lists (issue 21).
  const watchlists = new WatchlistService({ store, pool, clock, readModelsCaughtUp, logger: deps.logger });
  return { limits, accounts, keys, subjectChecks, s2Webhooks, sessions, personChecks, analystNames, admission, personCheckAdmission, subjectCheckAdmission, screenings, watchlists };
}
