/** S3 (X-API-Key) and portal services: usage, portal sessions (JWT, 7 days), the S3 webhook endpoint and payment-provider events. */
import { offshoreLeakChecksPerMonth } from '../commands/plans';
import type pg from 'pg';
import type { Config } from '../config/config';
import type { Clock } from '../shared/clock';
import type { EventStore } from '../infrastructure/eventstore/port';
import type { SecretBox } from '../webhooks/secrets';
import { s3MonthlyRequestQuota } from '../api/s3/gate';
import { PORTAL_SESSION_SECONDS } from '../api/portal/router';
import { DEV_JWT_SECRET, JwtSessionService } from '../app/sessions/session-service';
import { PgUsageService } from '../app/usage/usage-service';
import { EventSourcedOffshoreLeakChecks } from '../app/usage/offshore-leak-checks';
import { PaymentService } from '../app/payments/payment-service';
import { createSmtpMailer, unconfiguredMailer } from '../app/payments/mailer';
import { S3WebhookService } from '../app/s3-webhooks/webhook-service';
import type { ApplicationServices } from './services';
import type { ReadSide } from './read-side';

export interface PortalServices {
  usage: PgUsageService;
  /** The accounts' monthly offshore-leak checks, as the usage record and the portal's overview read them. */
  offshoreLeakChecks: EventSourcedOffshoreLeakChecks;
  payments: PaymentService;
  webhooks: S3WebhookService;
  portalSessions: JwtSessionService;
}

export interface PortalDeps {
  config: Config;
  clock: Clock;
  pool: pg.Pool;
  store: EventStore;
  secrets: SecretBox;
  services: ApplicationServices;
  readSide: ReadSide;
}

export function createPortalServices(deps: PortalDeps): PortalServices {
  const { config, clock, pool, store, secrets, readSide } = deps;
  const { readModelsCaughtUp } = readSide;
  const offshoreLeakChecks = new EventSourcedOffshoreLeakChecks({ store, clock });
  const usage = new PgUsageService({
    pool,
    clock,
    keys: deps.services.keys,
    limits: deps.services.limits,
    monthlyQuota: s3MonthlyRequestQuota,
    offshoreChecksPerMonth: (plan) => offshoreLeakChecksPerMonth(plan, 's3'),
    offshoreChecksUsed: (accountId, month) => offshoreLeakChecks.usedIn(accountId, month),
    readModelsCaughtUp,
  });
  const portalSessions = new JwtSessionService({ pool, clock, secret: config.JWT_SECRET ?? DEV_JWT_SECRET, audience: 'portal', lifetimeSeconds: PORTAL_SESSION_SECONDS });
  const webhooks = new S3WebhookService({ store, pool, clock, secrets, allowPrivate: config.WEBHOOK_ALLOW_PRIVATE, readModelsCaughtUp });
  readSide.deliveryHooks.push((finished) => webhooks.recordDeliveryFinished(finished));
  const payments = new PaymentService({
    store,
    pool,
    clock,
    readModelsCaughtUp,
    mailer: config.SMTP_URL ? createSmtpMailer({ url: config.SMTP_URL, from: config.MAIL_FROM }) : unconfiguredMailer,
  });
  return { usage, offshoreLeakChecks, payments, webhooks, portalSessions };
}
