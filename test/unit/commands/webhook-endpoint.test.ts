import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DeciderSpecification, type GivenEvent } from '../../support/decider-spec';
import {
  autoDisableAfterConsecutiveFailures,
  type RecordDeliveryFailure,
  streamName,
  webhookEndpointDecider,
  type WebhookEndpointEvent,
} from '../../../src/commands/webhook-endpoint';
import { NotFound, ValidationFailed } from '../../../src/commands/errors';
import { meta, NOW } from './helpers';

const spec = DeciderSpecification.for(webhookEndpointDecider);
const key = { accountId: '42', surface: 's3' as const };
const ids = { ...key, endpointId: '9' };
const registered: GivenEvent<WebhookEndpointEvent> = {
  type: 'WebhookEndpointRegistered',
  data: { ...ids, url: 'https://hooks.acme.test/svc', secretCiphertext: 'v1:ct', registeredAt: NOW },
};
const failure = (n: number): RecordDeliveryFailure => ({
  type: 'RecordDeliveryFailure',
  data: { ...key, deliveryId: `d${n}`, attempts: 3, reason: 'HTTP 500', statusCode: 500 },
  metadata: meta(),
});
const failed = (n: number, consecutiveFailures = n): GivenEvent<WebhookEndpointEvent> => ({
  type: 'WebhookDeliveryFailed',
  data: { ...ids, deliveryId: `d${n}`, attempts: 3, reason: 'HTTP 500', statusCode: 500, consecutiveFailures, failedAt: NOW },
});
const failures = (count: number) => Array.from({ length: count }, (_, i) => failed(i + 1));
const disabled: GivenEvent<WebhookEndpointEvent> = {
  type: 'WebhookEndpointDisabled',
  data: { ...ids, reason: 'consecutive_failures', consecutiveFailures: 10, lastDeliveryId: 'd10', disabledAt: NOW },
};

describe('webhook endpoint decider', () => {
  it('registers an https endpoint, refuses other schemes', () => {
    const register = { type: 'RegisterWebhook' as const, data: { ...key, endpointId: '9', url: 'https://hooks.acme.test/svc', secretCiphertext: 'v1:ct' } };
    spec.given([]).when({ ...register, metadata: meta() }).then([registered]);
    spec
      .given([])
      .when({ ...register, data: { ...register.data, url: 'http://hooks.acme.test/svc' }, metadata: meta() })
      .thenThrows(ValidationFailed, (e) => e.issues[0]?.field === 'url');
    assert.equal(streamName('s3', '42'), 'webhook-endpoint-s3-42');
  });

  it('counts consecutive failures and disables on the 10th', () => {
    assert.equal(autoDisableAfterConsecutiveFailures, 10);
    spec.given([registered, ...failures(8)]).when(failure(9)).then([failed(9)]);
    const { stateAfter } = spec.given([registered, ...failures(9)]).when(failure(10)).then([failed(10), disabled]);
    assert.equal(stateAfter.status, 'disabled');
  });

  it('a success in between resets the streak', () => {
    const recovered: GivenEvent<WebhookEndpointEvent> = {
      type: 'WebhookDeliveryRecovered',
      data: { ...ids, deliveryId: 'ok1', statusCode: 200, previousConsecutiveFailures: 9, recoveredAt: NOW },
    };
    spec
      .given([registered, ...failures(9)])
      .when({ type: 'RecordDeliverySuccess', data: { ...key, deliveryId: 'ok1', statusCode: 200 }, metadata: meta() })
      .then([recovered]);
    spec
      .given([registered, ...failures(9), recovered])
      .when(failure(11))
      .then([failed(11, 1)]);
    spec.given([registered]).when({ type: 'RecordDeliverySuccess', data: { ...key, deliveryId: 'ok2' }, metadata: meta() }).thenNothing();
  });

  it('the same delivery reported twice counts once; nothing is counted while disabled', () => {
    spec.given([registered, ...failures(3)]).when(failure(3)).thenNothing();
    spec.given([registered, ...failures(10), disabled]).when(failure(11)).thenNothing();
  });

  it('the owner re-enables a disabled endpoint; re-enabling an enabled one is a no-op', () => {
    const reenable = { type: 'ReenableWebhook' as const, data: { ...key, reason: 'receiver fixed' } };
    const { stateAfter } = spec
      .given([registered, ...failures(10), disabled])
      .when({ ...reenable, metadata: meta() })
      .then([{ type: 'WebhookEndpointReenabled', data: { ...ids, reason: 'receiver fixed', reenabledAt: NOW } }]);
    assert.ok(stateAfter.status === 'enabled' && stateAfter.failureStreak.length === 0);
    spec.given([registered]).when({ ...reenable, metadata: meta() }).thenNothing();
    spec.given([]).when({ ...reenable, metadata: meta() }).thenThrows(NotFound);
  });

  it('registering again updates the URL and secret in place and starts afresh (S2 register-or-update)', () => {
    const { stateAfter } = spec
      .given([registered, ...failures(10), disabled])
      .when({ type: 'RegisterWebhook', data: { ...key, endpointId: '77', url: 'https://new.acme.test/hook', secretCiphertext: 'v1:ct2' }, metadata: meta() })
      .then([
        {
          type: 'WebhookEndpointUpdated',
          data: { ...ids, url: 'https://new.acme.test/hook', previousUrl: 'https://hooks.acme.test/svc', secretCiphertext: 'v1:ct2', wasDisabled: true, updatedAt: NOW },
        },
      ]);
    assert.ok(stateAfter.status === 'enabled' && stateAfter.endpointId === '9');
  });
});
