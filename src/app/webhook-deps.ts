/** What the application services that write events need, and what a webhook endpoint service adds. */
import type pg from 'pg';
import type { EventStore } from '../infrastructure/eventstore/port';
import type { Clock } from '../shared/clock';
import type { SecretBox } from '../webhooks/secrets';
import type { Resolver } from '../webhooks/url-guard';

/** The event store, the read models' database, the clock, and read-your-writes for the read models. */
export interface StoreServiceDeps {
  store: EventStore;
  pool: pg.Pool;
  clock: Clock;
  readModelsCaughtUp: () => Promise<void>;
}

/** What a webhook endpoint service needs (the S2 and S3 ones, and the portal console that calls them). */
export interface WebhookServiceDeps extends StoreServiceDeps {
  /** Encrypts signing secrets at rest (SECRETS_KEY). */
  secrets: SecretBox;
  /** WEBHOOK_ALLOW_PRIVATE: lets local receivers through the SSRF guard (tests, development). */
  allowPrivate: boolean;
  resolver?: Resolver;
}
