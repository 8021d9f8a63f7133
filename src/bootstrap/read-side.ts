/** The read side (the API process): the relay to the bus, the read models' runner and the webhook dispatcher. */
import type { Config } from '../config/config';
import type { Logger } from '../shared/logger';
import { EventRelay } from '../infrastructure/relay/relay';
import { ProjectionRunner } from '../projections/runner';
import type { Projection } from '../projections/projection';
import { accountsProjection } from '../projections/read-models/accounts';
import { apiKeysProjection } from '../projections/read-models/api-keys';
import { screeningsProjection } from '../projections/read-models/screenings';
import { createScreeningDetailsProjection } from '../projections/read-models/screening-details';
import { usageProjection } from '../projections/read-models/usage';
import { subjectChecksProjection } from '../projections/read-models/subject-checks';
import { personChecksProjection } from '../projections/read-models/person-checks';
import { monitoringProjection } from '../projections/read-models/monitoring';
import { watchlistsProjection } from '../projections/read-models/watchlists';
import { createWebhookProjector } from '../webhooks/projector';
import { createWebhookDispatcher, type DeliveryFinished, type WebhookDispatcher } from '../webhooks/dispatcher';
import { createSecretBox, type SecretBox } from '../webhooks/secrets';
import type { CoreDeps } from './lifecycle';

/** Every read model the API process keeps, in one list (the runner and `svc projections rebuild` share it). */
export function readModelProjections(logger: Logger): Projection[] {
  return [
    accountsProjection,
    apiKeysProjection,
    screeningsProjection,
    createScreeningDetailsProjection(),
    usageProjection,
    subjectChecksProjection,
    personChecksProjection,
    monitoringProjection,
    watchlistsProjection,
    createWebhookProjector({ logger }),
  ];
}

const devSecret = 'embedded-development-secret-change-me-0123456789';

/** The box that seals webhook signing secrets at rest (SECRETS_KEY; a development key otherwise). */
export function webhookSecrets(config: Config): SecretBox {
  return createSecretBox(config.SECRETS_KEY ?? devSecret);
}

export interface ReadSideDeps extends CoreDeps {
  secrets: SecretBox;
  webhookCa?: string | Buffer | Array<string | Buffer>;
}

export interface ReadSide {
  runner: ProjectionRunner | undefined;
  relay: EventRelay | undefined;
  dispatcher: WebhookDispatcher | undefined;
  /** Per-delivery outcomes feed the endpoint aggregates (S3: failure streak, auto-disable event). */
  deliveryHooks: ((finished: DeliveryFinished) => Promise<void>)[];
  /** Waits until the read models have applied the store through this position (no-op without a runner). */
  readModelsCaughtUp(through?: bigint): Promise<void>;
}

export async function startReadSide(deps: ReadSideDeps, here: boolean): Promise<ReadSide> {
  const deliveryHooks: ReadSide['deliveryHooks'] = [];
  if (!here) return { runner: undefined, relay: undefined, dispatcher: undefined, deliveryHooks, readModelsCaughtUp: async () => {} };
  const { pool, store, bus, registry, clock, logger, stops, telemetry } = deps;
  const relay = new EventRelay({ store, bus, pool, registry, logger, pollIntervalMs: 500, telemetry });
  relay.start();
  stops.push(() => relay.stop());
  const runner = new ProjectionRunner({ pool, store, projections: readModelProjections(logger), logger, pollIntervalMs: 500, telemetry });
  await runner.start();
  stops.push(() => runner.stop());
  const dispatcher = createWebhookDispatcher({
    pool,
    clock,
    secrets: deps.secrets,
    allowPrivate: deps.config.WEBHOOK_ALLOW_PRIVATE,
    logger,
    telemetry,
    ...(deps.webhookCa ? { ca: deps.webhookCa } : {}),
    onDeliveryFinished: async (finished) => {
      for (const hook of deliveryHooks) await hook(finished).catch((err: unknown) => logger.error({ err, deliveryId: finished.deliveryId }, 'delivery outcome not recorded'));
    },
  });
  dispatcher.start(500);
  stops.push(() => dispatcher.stop());
  return { runner, relay, dispatcher, deliveryHooks, readModelsCaughtUp: (through) => runner.applied(through) };
}
