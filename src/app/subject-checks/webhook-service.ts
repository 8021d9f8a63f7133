/**
 * S2 webhooks for an account: registering or updating its one HTTPS callback URL (an event in the
 * endpoint's stream; the webhook projector keeps `webhook_endpoints`), the operator actions on the
 * outbox (retry-now → subject_check.retry, test delivery → webhook.test) and the delivery log.
 * Lifecycle callbacks themselves are produced by the webhook projector from the check's events.
 */
import { NotFound } from '../../commands/errors';
import { streamName as endpointStream, webhookEndpointDecider, type WebhookEndpointRegistered, type WebhookEndpointUpdated } from '../../commands/webhook-endpoint';
import {
  deliveryCursor,
  enqueueTestDelivery,
  findEndpoint,
  getDelivery,
  listDeliveries,
  retryDeliveryNow,
  type DeliveryStatus,
  type DeliveryView,
  type EndpointView,
  type RetryNowResult,
} from '../../webhooks/outbox';
import { prepareWebhookRegistration } from '../../webhooks/registration';
import { UrlGuardError } from '../../webhooks/url-guard';
import { handleCommand, loadAggregate } from '../../commands/command-handler';
import { bindCreate } from '../idempotency/binding';
import type { CommandContext, Principal } from '../services';
import type { WebhookServiceDeps } from '../webhook-deps';

export class WebhookUrlRejected extends Error {
  override readonly name = 'WebhookUrlRejected';
  constructor(readonly guard: UrlGuardError) {
    super(guard.message);
  }
}

export interface RegisteredWebhook {
  id: number;
  url: string;
  signingSecret: string;
  createdAt: string;
  created: boolean;
}

export interface DeliveryLogPage {
  deliveries: DeliveryView[];
  nextCursor: string | null;
}

export class S2WebhookService {
  constructor(
    private readonly deps: WebhookServiceDeps,
  ) {}

  /** Register or update; throws WebhookUrlRejected for a URL the SSRF guard refuses. */
  async register(principal: Principal, url: string, ctx: CommandContext): Promise<RegisteredWebhook> {
    if (!/^https:\/\//i.test(url)) throw new WebhookUrlRejected(new UrlGuardError('https_required', 'webhook url must use https'));
    const prepared = await prepareWebhookRegistration({
      url,
      secrets: this.deps.secrets,
      allowPrivate: this.deps.allowPrivate,
      ...(this.deps.resolver ? { resolver: this.deps.resolver } : {}),
    });
    if (!prepared.ok) throw new WebhookUrlRejected(prepared.error);
    const stream = endpointStream('s2', principal.accountId);
    // With an Idempotency-Key the command's id is bound to the key before the append: a retry after a
    // crash between the append and the recorded answer finds that registration and answers it (its
    // signing secret is kept sealed, so the same secret is shown), instead of registering a new secret.
    const { meta } = await bindCreate(ctx, 'webhook-registration', async () => ctx.commandId);
    const { commandId } = meta;
    const { state, events } = await loadAggregate(this.deps.store, webhookEndpointDecider, stream);
    if (ctx.idempotency) {
      const done = events.find(
        (e) => e.metadata.causationId === commandId && (e.type === 'WebhookEndpointRegistered' || e.type === 'WebhookEndpointUpdated'),
      ) as unknown as WebhookEndpointRegistered | WebhookEndpointUpdated | undefined;
      if (done) {
        const registered = events.find((e) => e.type === 'WebhookEndpointRegistered') as unknown as WebhookEndpointRegistered | undefined;
        return {
          id: Number(done.data.endpointId),
          url: done.data.url,
          signingSecret: this.deps.secrets.open(done.data.secretCiphertext),
          createdAt: registered?.data.registeredAt ?? this.deps.clock.now().toISOString(),
          created: done.type === 'WebhookEndpointRegistered',
        };
      }
    }
    const endpointId =
      state.status === 'none'
        ? (await this.deps.pool.query<{ id: string }>(`SELECT nextval('webhook_endpoint_id_seq')::text AS id`)).rows[0]!.id
        : state.endpointId;
    const handled = await handleCommand(this.deps.store, webhookEndpointDecider, stream, {
      type: 'RegisterWebhook',
      data: {
        accountId: principal.accountId,
        surface: 's2',
        endpointId,
        url: prepared.url,
        secretCiphertext: prepared.secretCiphertext,
        secretHash: prepared.secretHash,
      },
      metadata: { now: this.deps.clock.now().toISOString(), actor: ctx.actor, correlationId: ctx.correlationId, ...meta },
    });
    // Deliveries and test sends need the endpoint row the projector writes.
    await this.deps.readModelsCaughtUp();
    const history = await this.deps.store.readStream(stream);
    const registered = history.find((e) => e.type === 'WebhookEndpointRegistered') as unknown as WebhookEndpointRegistered | undefined;
    return {
      id: Number(endpointId),
      url: prepared.url,
      signingSecret: prepared.signingSecret,
      createdAt: registered?.data.registeredAt ?? this.deps.clock.now().toISOString(),
      created: handled.events[0]?.type === 'WebhookEndpointRegistered',
    };
  }

  /** The account's registration (id from its stream, state from the endpoints table). */
  async current(accountId: string): Promise<{ id: number; endpoint: EndpointView; createdAt: string } | undefined> {
    const { state, events } = await loadAggregate(this.deps.store, webhookEndpointDecider, endpointStream('s2', accountId));
    if (state.status === 'none') return undefined;
    const endpoint = await findEndpoint(this.deps.pool, { accountId, surface: 's2' });
    if (!endpoint) return undefined;
    const registered = events.find((e) => e.type === 'WebhookEndpointRegistered') as unknown as WebhookEndpointRegistered | undefined;
    return { id: Number(state.endpointId), endpoint, createdAt: registered?.data.registeredAt ?? endpoint.createdAt };
  }

  async retryNow(accountId: string, deliveryId: string): Promise<RetryNowResult> {
    return retryDeliveryNow(this.deps.pool, { accountId, deliveryId, now: this.deps.clock.now() });
  }

  async sendTest(accountId: string) {
    return enqueueTestDelivery(this.deps.pool, { accountId, now: this.deps.clock.now() });
  }

  async deliveries(
    accountId: string,
    query: { limit: number; cursor?: string; status?: DeliveryStatus; event?: string; subjectCheckId?: string },
  ): Promise<DeliveryLogPage> {
    const page = await listDeliveries(this.deps.pool, {
      accountId,
      surface: 's2',
      limit: query.limit + 1,
      ...(query.cursor ? { cursor: query.cursor } : {}),
      ...(query.status ? { status: query.status } : {}),
      ...(query.event ? { event: query.event } : {}),
      ...(query.subjectCheckId ? { subjectRef: query.subjectCheckId } : {}),
    });
    const deliveries = page.slice(0, query.limit);
    return { deliveries, nextCursor: page.length > query.limit ? deliveryCursor(deliveries[deliveries.length - 1]!) : null };
  }

  async delivery(accountId: string, deliveryId: string): Promise<DeliveryView> {
    const found = await getDelivery(this.deps.pool, { accountId, deliveryId });
    if (!found || found.surface !== 's2') throw new NotFound('delivery', deliveryId);
    return found;
  }
}
