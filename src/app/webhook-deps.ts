/** What a webhook endpoint service needs (the S2 and S3 ones, and the portal console that calls them). */
import type pg from 'pg';
import type { EventStore } from '../infrastructure/eventstore/port';
import type { Clock } from '../shared/clock';
import type { SecretBox } from '../webhooks/secrets';
import type { Resolver } from '../webhooks/url-guard';

export interface WebhookServiceDeps {
  store: EventStore;
  pool: pg.Pool;
  clock: Clock;
  /** Encrypts signing secrets at rest (SECRETS_KEY). */
  secrets: SecretBox;
  /** WEBHOOK_ALLOW_PRIVATE: lets local receivers through the SSRF guard (tests, development). */
  allowPrivate: boolean;
  resolver?: Resolver;
  readModelsCaughtUp: () => Promise<void>;
}
