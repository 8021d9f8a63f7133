/**
 * The S3 webhook endpoint of an account (screening.completed): register or update it from the
 * portal, show its state (enabled, failure streak, auto-disable), re-enable it after an auto-disable,
 * and feed the dispatcher's per-delivery outcomes into the endpoint aggregate so the streak and the
 * auto-disable after 10 consecutive failures are events (WebhookDeliveryFailed, WebhookEndpointDisabled).
 */
import { streamName as endpointStream, webhookEndpointDecider, type WebhookEndpointEvent } from '../../commands/webhook-endpoint';
import type { RecordedEvent } from '../../shared/events';
import type { DeliveryFinished } from '../../webhooks/dispatcher';
import { findEndpoint } from '../../webhooks/outbox';
import { prepareWebhookRegistration } from '../../webhooks/registration';
import { UrlGuardError } from '../../webhooks/url-guard';
import { handleCommand, loadAggregate } from '../../commands/command-handler';
import type { CommandContext, Principal } from '../services';
import type { WebhookServiceDeps } from '../webhook-deps';

export class S3WebhookUrlRejected extends Error {
  override readonly name = 'S3WebhookUrlRejected';
  constructor(readonly guard: UrlGuardError) {
    super(guard.message);
  }
}

export interface S3EndpointState {
  id: number;
  url: string;
  enabled: boolean;
  consecutive_failures: number;
  disabled_at: string | null;
  /** The auto-disable events of this endpoint, newest first. */
  disable_history: { disabled_at: string; consecutive_failures: number; reason: string }[];
  created_at: string;
}

export class S3WebhookService {
  constructor(
    private readonly deps: WebhookServiceDeps,
  ) {}

  private meta(ctx: CommandContext) {
    return { now: this.deps.clock.now().toISOString(), actor: ctx.actor, commandId: ctx.commandId, correlationId: ctx.correlationId };
  }

  async register(principal: Principal, url: string, ctx: CommandContext): Promise<{ endpoint: S3EndpointState; signingSecret: string; created: boolean }> {
    const prepared = await prepareWebhookRegistration({
      url,
      secrets: this.deps.secrets,
      allowPrivate: this.deps.allowPrivate,
      ...(this.deps.resolver ? { resolver: this.deps.resolver } : {}),
    });
    if (!prepared.ok) throw new S3WebhookUrlRejected(prepared.error);
    if (!prepared.url.startsWith('https://')) throw new S3WebhookUrlRejected(new UrlGuardError('https_required', 'webhook url must use https'));
    const stream = endpointStream('s3', principal.accountId);
    const { state } = await loadAggregate(this.deps.store, webhookEndpointDecider, stream);
    const endpointId =
      state.status === 'none' ? (await this.deps.pool.query<{ id: string }>(`SELECT nextval('webhook_endpoint_id_seq')::text AS id`)).rows[0]!.id : state.endpointId;
    const handled = await handleCommand(this.deps.store, webhookEndpointDecider, stream, {
      type: 'RegisterWebhook',
      data: { accountId: principal.accountId, surface: 's3', endpointId, url: prepared.url, secretCiphertext: prepared.secretCiphertext, secretHash: prepared.secretHash },
      metadata: this.meta(ctx),
    });
    await this.deps.readModelsCaughtUp();
    const endpoint = await this.current(principal.accountId);
    return { endpoint: endpoint!, signingSecret: prepared.signingSecret, created: handled.events[0]?.type === 'WebhookEndpointRegistered' };
  }

  async current(accountId: string): Promise<S3EndpointState | undefined> {
    const { state, events } = await loadAggregate(this.deps.store, webhookEndpointDecider, endpointStream('s3', accountId));
    if (state.status === 'none') return undefined;
    const row = await findEndpoint(this.deps.pool, { accountId, surface: 's3' });
    const typed = events as unknown as (RecordedEvent & WebhookEndpointEvent)[];
    const registered = typed.find((e) => e.type === 'WebhookEndpointRegistered');
    const history = typed
      .filter((e) => e.type === 'WebhookEndpointDisabled')
      .map((e) => (e.type === 'WebhookEndpointDisabled' ? { disabled_at: e.data.disabledAt, consecutive_failures: e.data.consecutiveFailures, reason: e.data.reason } : undefined))
      .filter((x): x is NonNullable<typeof x> => Boolean(x))
      .reverse();
    return {
      id: Number(state.endpointId),
      url: state.url,
      // The aggregate is the truth; the outbox row follows it (and disables itself on the same streak).
      enabled: state.status === 'enabled' && (row?.enabled ?? true),
      consecutive_failures: row?.consecutiveFailures ?? state.failureStreak.length,
      disabled_at: state.status === 'disabled' ? (history[0]?.disabled_at ?? row?.disabledAt ?? null) : row && !row.enabled ? row.disabledAt : null,
      disable_history: history,
      created_at: registered?.type === 'WebhookEndpointRegistered' ? registered.data.registeredAt : (row?.createdAt ?? ''),
    };
  }

  /** The owner's re-enable: an event; the projector turns the outbox endpoint back on. */
  async reenable(principal: Principal, ctx: CommandContext): Promise<S3EndpointState | undefined> {
    const stream = endpointStream('s3', principal.accountId);
    const { state } = await loadAggregate(this.deps.store, webhookEndpointDecider, stream);
    if (state.status === 'none') return undefined;
    await handleCommand(this.deps.store, webhookEndpointDecider, stream, {
      type: 'ReenableWebhook',
      data: { accountId: principal.accountId, surface: 's3', reason: 'owner re-enabled it in the portal' },
      metadata: this.meta(ctx),
    });
    await this.deps.readModelsCaughtUp();
    return this.current(principal.accountId);
  }

  private readonly queues = new Map<string, Promise<void>>();

  /**
   * Dispatcher hook: one call per finished S3 delivery (not per attempt). Deliveries of one endpoint
   * finish concurrently; their outcomes are appended one after the other (per stream, in this process)
   * so they do not fight over the stream revision; other processes are handled by the conflict retry.
   */
  recordDeliveryFinished(finished: DeliveryFinished): Promise<void> {
    if (finished.surface !== 's3') return Promise.resolve();
    const stream = endpointStream('s3', finished.accountId);
    const previous = this.queues.get(stream) ?? Promise.resolve();
    const next = previous.catch(() => undefined).then(() => this.appendOutcome(finished));
    this.queues.set(stream, next);
    void next.finally(() => {
      if (this.queues.get(stream) === next) this.queues.delete(stream);
    }).catch(() => undefined);
    return next;
  }

  private async appendOutcome(finished: DeliveryFinished): Promise<void> {
    const stream = endpointStream('s3', finished.accountId);
    const metadata = { now: this.deps.clock.now().toISOString(), actor: { surface: 'system' as const }, commandId: `delivery:${finished.deliveryId}:${finished.outcome}` };
    const key = { accountId: finished.accountId, surface: 's3' as const, deliveryId: finished.deliveryId };
    if (finished.outcome === 'succeeded') {
      await handleCommand(this.deps.store, webhookEndpointDecider, stream, { type: 'RecordDeliverySuccess', data: { ...key, ...(finished.statusCode !== undefined ? { statusCode: finished.statusCode } : {}) }, metadata }, { maxAttempts: 20 });
    } else {
      await handleCommand(this.deps.store, webhookEndpointDecider, stream, {
        type: 'RecordDeliveryFailure',
        data: { ...key, attempts: finished.attempts, reason: finished.reason ?? 'failed', ...(finished.statusCode !== undefined ? { statusCode: finished.statusCode } : {}) },
        metadata,
      }, { maxAttempts: 20 });
    }
  }
}
