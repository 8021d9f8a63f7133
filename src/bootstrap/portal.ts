/** S3 (X-API-Key) and portal services: usage, portal sessions (JWT, 7 days), the S3 webhook endpoint and payment-provider events. */
import { countsOffshoreChecks } from '../commands/plans';
import type pg from 'pg';
import type { Config } from '../config/config';
import type { Clock } from '../shared/clock';
import type { EventStore } from '../infrastructure/eventstore/port';
import type { SecretBox } from '../webhooks/secrets';
import { S3_OFFSHORE_CHECKS_PER_MONTH, s3MonthlyRequestQuota } from '../api/s3/gate';
import { PORTAL_SESSION_SECONDS } from '../api/portal/router';
import { DEV_JWT_SECRET, JwtSessionService } from '../app/sessions/session-service';
import { PgUsageService } from '../app/usage/usage-service';
import { PaymentService } from '../app/payments/payment-service';
import { createSmtpMailer, unconfiguredMailer } from '../app/payments/mailer';
import { S3WebhookService } from '../app/s3-webhooks/webhook-service';
import type { ApplicationServices } from './services';
import type { ReadSide } from './read-side';

export interface PortalServices {
  usage: PgUsageService;
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
  const usage = new PgUsageService({
    pool,
    clock,
    keys: deps.services.keys,
    limits: deps.services.limits,
    monthlyQuota: s3MonthlyRequestQuota,
    offshoreChecksPerMonth: (plan) => (countsOffshoreChecks(plan) ? S3_OFFSHORE_CHECKS_PER_MONTH : null),
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
  return { usage, payments, webhooks, portalSessions };
}
