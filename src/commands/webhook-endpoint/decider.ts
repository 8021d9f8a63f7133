/**
 * Webhook endpoint of an account on S2 (one callback URL per account, registered or updated)
 * and S3 (screening.completed, auto-disabled after 10 consecutive delivery failures).
 * Stream `webhook-endpoint-<surface>-<accountId>`: one endpoint per account and surface.
 * (S1 webhooks are configured with the key: see api-keys.)
 *
 *   (none) --RegisterWebhook--> enabled --10th consecutive RecordDeliveryFailure--> disabled
 *   enabled|disabled --RegisterWebhook (new URL/secret)--> enabled, failure streak reset
 *   disabled --ReenableWebhook--> enabled
 *
 * A "delivery failure" is one event delivery whose attempts are all exhausted (the dispatcher
 * issues RecordDeliveryFailure once per delivery, not once per attempt). A success resets the streak.
 */
import { assertNever, type Event } from '../../shared/events';
import { type Command, type Decider, isHttpsUrl, isNonEmptyText, NUMERIC_ID, SHA256_HEX, stamp } from '../decider';
import { Issues, NotFound } from '../errors';

export type WebhookSurface = 's2' | 's3';
export const autoDisableAfterConsecutiveFailures = 10;

export function streamName(surface: WebhookSurface, accountId: string): string {
  return `webhook-endpoint-${surface}-${accountId}`;
}
export const webhookEndpointStreamName = streamName;

type Key = { accountId: string; surface: WebhookSurface };

// ---- commands ----
export type RegisterWebhook = Command<
  'RegisterWebhook',
  Key & {
    /** Allocated by the handler on first registration; kept on updates. */
    endpointId: string;
    url: string;
    /** Signing secret encrypted by the handler; its plaintext is returned once and never stored in events. */
    secretCiphertext: string;
    secretHash?: string;
  }
>;
export type RecordDeliveryFailure = Command<
  'RecordDeliveryFailure',
  Key & { deliveryId: string; attempts: number; reason: string; statusCode?: number }
>;
export type RecordDeliverySuccess = Command<'RecordDeliverySuccess', Key & { deliveryId: string; statusCode?: number }>;
export type ReenableWebhook = Command<'ReenableWebhook', Key & { reason?: string }>;
export type WebhookEndpointCommand = RegisterWebhook | RecordDeliveryFailure | RecordDeliverySuccess | ReenableWebhook;

// ---- events ----
type Ids = { accountId: string; surface: WebhookSurface; endpointId: string };
export type WebhookEndpointRegistered = Event<
  'WebhookEndpointRegistered',
  Ids & { url: string; secretCiphertext: string; secretHash?: string; registeredAt: string }
>;
export type WebhookEndpointUpdated = Event<
  'WebhookEndpointUpdated',
  Ids & { url: string; previousUrl: string; secretCiphertext: string; secretHash?: string; wasDisabled: boolean; updatedAt: string }
>;
export type WebhookDeliveryFailed = Event<
  'WebhookDeliveryFailed',
  Ids & { deliveryId: string; attempts: number; reason: string; statusCode?: number; consecutiveFailures: number; failedAt: string }
>;
export type WebhookDeliveryRecovered = Event<
  'WebhookDeliveryRecovered',
  Ids & { deliveryId: string; statusCode?: number; previousConsecutiveFailures: number; recoveredAt: string }
>;
export type WebhookEndpointDisabled = Event<
  'WebhookEndpointDisabled',
  Ids & { reason: 'consecutive_failures'; consecutiveFailures: number; lastDeliveryId: string; disabledAt: string }
>;
export type WebhookEndpointReenabled = Event<'WebhookEndpointReenabled', Ids & { reason?: string; reenabledAt: string }>;
export type WebhookEndpointEvent =
  | WebhookEndpointRegistered
  | WebhookEndpointUpdated
  | WebhookDeliveryFailed
  | WebhookDeliveryRecovered
  | WebhookEndpointDisabled
  | WebhookEndpointReenabled;
export const webhookEndpointEventTypes = [
  'WebhookEndpointRegistered',
  'WebhookEndpointUpdated',
  'WebhookDeliveryFailed',
  'WebhookDeliveryRecovered',
  'WebhookEndpointDisabled',
  'WebhookEndpointReenabled',
] as const;

// ---- state ----
export type WebhookEndpointState =
  | { status: 'none' }
  | {
      status: 'enabled' | 'disabled';
      endpointId: string;
      accountId: string;
      surface: WebhookSurface;
      url: string;
      secretCiphertext: string;
      /** Deliveries in the current failure streak (bounded by the threshold). */
      failureStreak: string[];
    };

export function initialState(): WebhookEndpointState {
  return { status: 'none' };
}

export function decide(command: WebhookEndpointCommand, state: WebhookEndpointState): WebhookEndpointEvent[] {
  const now = command.metadata.now;
  if (command.type === 'RegisterWebhook') {
    const d = command.data;
    new Issues()
      .check(NUMERIC_ID.test(d.accountId ?? ''), 'account_id', 'must be a positive integer string')
      .check(d.surface === 's2' || d.surface === 's3', 'surface', 'must be s2 or s3')
      .check(NUMERIC_ID.test(d.endpointId ?? ''), 'endpoint_id', 'must be a positive integer string')
      .check(isHttpsUrl(d.url), 'url', 'must be an https URL')
      .check(isNonEmptyText(d.secretCiphertext, 4000), 'signing_secret', 'ciphertext is required')
      .check(d.secretHash === undefined || SHA256_HEX.test(d.secretHash), 'secret_hash', 'must be a SHA-256 hex digest')
      .throwIfAny();
    const secret = { secretCiphertext: d.secretCiphertext, ...(d.secretHash !== undefined ? { secretHash: d.secretHash } : {}) };
    if (state.status === 'none') {
      return stamp<WebhookEndpointEvent>(command, [
        { type: 'WebhookEndpointRegistered', data: { accountId: d.accountId, surface: d.surface, endpointId: d.endpointId, url: d.url, ...secret, registeredAt: now } },
      ]);
    }
    // Register-or-update (S2): same endpoint id, new URL and secret; a fixed URL starts afresh.
    return stamp<WebhookEndpointEvent>(command, [
      {
        type: 'WebhookEndpointUpdated',
        data: {
          accountId: state.accountId,
          surface: state.surface,
          endpointId: state.endpointId,
          url: d.url,
          previousUrl: state.url,
          ...secret,
          wasDisabled: state.status === 'disabled',
          updatedAt: now,
        },
      },
    ]);
  }
  if (state.status === 'none') throw new NotFound('webhook endpoint', `${command.data.surface}-${command.data.accountId}`);
  const ids = { accountId: state.accountId, surface: state.surface, endpointId: state.endpointId };
  switch (command.type) {
    case 'RecordDeliveryFailure': {
      const d = command.data;
      // While disabled nothing is delivered; late reports of in-flight deliveries change nothing.
      if (state.status === 'disabled') return [];
      if (state.failureStreak.includes(d.deliveryId)) return [];
      new Issues()
        .check(isNonEmptyText(d.deliveryId, 200), 'delivery_id', 'is required')
        .check(Number.isInteger(d.attempts) && d.attempts >= 1, 'attempts', 'must be a positive integer')
        .check(isNonEmptyText(d.reason, 2000), 'reason', 'is required')
        .throwIfAny();
      const consecutiveFailures = state.failureStreak.length + 1;
      const failed = {
        type: 'WebhookDeliveryFailed' as const,
        data: {
          ...ids,
          deliveryId: d.deliveryId,
          attempts: d.attempts,
          reason: d.reason,
          ...(d.statusCode !== undefined ? { statusCode: d.statusCode } : {}),
          consecutiveFailures,
          failedAt: now,
        },
      };
      if (consecutiveFailures < autoDisableAfterConsecutiveFailures) return stamp<WebhookEndpointEvent>(command, [failed]);
      return stamp<WebhookEndpointEvent>(command, [
        failed,
        {
          type: 'WebhookEndpointDisabled',
          data: { ...ids, reason: 'consecutive_failures', consecutiveFailures, lastDeliveryId: d.deliveryId, disabledAt: now },
        },
      ]);
    }
    case 'RecordDeliverySuccess': {
      // Only the end of a failure streak is worth an event; routine successes are the outbox's business.
      if (state.failureStreak.length === 0) return [];
      return stamp<WebhookEndpointEvent>(command, [
        {
          type: 'WebhookDeliveryRecovered',
          data: {
            ...ids,
            deliveryId: command.data.deliveryId,
            ...(command.data.statusCode !== undefined ? { statusCode: command.data.statusCode } : {}),
            previousConsecutiveFailures: state.failureStreak.length,
            recoveredAt: now,
          },
        },
      ]);
    }
    case 'ReenableWebhook':
      if (state.status === 'enabled') return [];
      new Issues()
        .check(command.data.reason === undefined || isNonEmptyText(command.data.reason, 2000), 'reason', 'must be 1-2000 characters')
        .throwIfAny();
      return stamp<WebhookEndpointEvent>(command, [
        {
          type: 'WebhookEndpointReenabled',
          data: { ...ids, ...(command.data.reason !== undefined ? { reason: command.data.reason } : {}), reenabledAt: now },
        },
      ]);
    default:
      return assertNever(command, 'webhook endpoint command');
  }
}

export function evolve(state: WebhookEndpointState, event: WebhookEndpointEvent): WebhookEndpointState {
  switch (event.type) {
    case 'WebhookEndpointRegistered':
      return {
        status: 'enabled',
        endpointId: event.data.endpointId,
        accountId: event.data.accountId,
        surface: event.data.surface,
        url: event.data.url,
        secretCiphertext: event.data.secretCiphertext,
        failureStreak: [],
      };
    case 'WebhookEndpointUpdated':
      if (state.status === 'none') return state;
      return { ...state, status: 'enabled', url: event.data.url, secretCiphertext: event.data.secretCiphertext, failureStreak: [] };
    case 'WebhookDeliveryFailed':
      if (state.status === 'none') return state;
      return { ...state, failureStreak: [...state.failureStreak, event.data.deliveryId] };
    case 'WebhookDeliveryRecovered':
      return state.status === 'none' ? state : { ...state, failureStreak: [] };
    case 'WebhookEndpointDisabled':
      return state.status === 'none' ? state : { ...state, status: 'disabled' };
    case 'WebhookEndpointReenabled':
      return state.status === 'none' ? state : { ...state, status: 'enabled', failureStreak: [] };
    default:
      return assertNever(event, 'webhook endpoint event');
  }
}

export const webhookEndpointDecider: Decider<WebhookEndpointCommand, WebhookEndpointEvent, WebhookEndpointState> = {
  decide,
  evolve,
  initialState,
};
