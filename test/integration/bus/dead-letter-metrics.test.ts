/** The service wires the retry policy from BUS_MAX_ATTEMPTS and counts dead letters on GET /metrics. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../../../src/config/config';
import { startTestService, type TestService } from '../../support/service';
import { waitFor } from './contract';

describe('dead letters in the running service', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService({ env: { BUS_MAX_ATTEMPTS: '2' }, agents: 'none' });
  });
  after(() => svc.stop());

  it('exposes svc_bus_dead_letters_total{group,topic} after a consumer gave up', async () => {
    const metrics = async () => (await fetch(`${svc.url}/metrics`)).text();
    assert.match(await metrics(), /^# TYPE svc_bus_dead_letters_total counter$/m);
    let attempts = 0;
    const consumer = await svc.service.bus.subscribe({ groupId: 'metrics-test-consumer', topics: ['metrics.test'], fromBeginning: true }, async () => {
      attempts++;
      throw new Error('always fails');
    });
    try {
      await svc.service.bus.publish('metrics.test', [{ key: 'k', value: Buffer.from('x'), headers: {} }]);
      await waitFor(() => attempts >= 2, 5_000, 'two attempts');
      const line = /^svc_bus_dead_letters_total\{group="metrics-test-consumer",topic="metrics\.test"\} 1$/m;
      const deadline = Date.now() + 5_000;
      let text = await metrics();
      while (!line.test(text) && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        text = await metrics();
      }
      assert.match(text, line);
      assert.equal(attempts, 2, 'BUS_MAX_ATTEMPTS=2');
    } finally {
      await consumer.stop();
    }
  });

  it('rejects a BUS_MAX_ATTEMPTS that is not a positive integer', () => {
    for (const bad of ['0', '-1', 'many', '1.5', '100000']) {
      assert.throws(() => loadConfig({ NODE_ENV: 'test', BUS_MAX_ATTEMPTS: bad }), (e: unknown) => e instanceof ConfigError && /BUS_MAX_ATTEMPTS/.test(e.message));
    }
    assert.equal(loadConfig({ NODE_ENV: 'test' }).BUS_MAX_ATTEMPTS, 5);
  });
});
