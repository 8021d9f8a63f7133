/** The test broker launcher: librdkafka's mock cluster on real loopback ports. */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { connect } from 'node:net';
import { it } from 'node:test';
import { compileMockBroker, startMockKafka } from '../../support/kafka';

function canConnect(address: string): Promise<boolean> {
  const [host, port] = address.split(':');
  return new Promise((resolve) => {
    const socket = connect({ host: host!, port: Number(port) });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

it('starts N brokers on loopback ports and frees them on stop', async () => {
  const kafka = await startMockKafka({ brokers: 3, topics: [{ name: 'a', partitions: 2 }, { name: 'b' }] });
  assert.equal(kafka.brokers.length, 3);
  for (const broker of kafka.brokers) {
    assert.match(broker, /^127\.0\.0\.1:\d+$/);
    assert.equal(await canConnect(broker), true, `${broker} accepts connections`);
  }
  await kafka.stop();
  await kafka.stop(); // idempotent
  for (const broker of kafka.brokers) assert.equal(await canConnect(broker), false, `${broker} is closed`);
});

it('compiles the launcher once and caches it by source hash', async () => {
  const first = await compileMockBroker();
  const second = await compileMockBroker();
  assert.equal(first, second);
  assert.ok(existsSync(first));
  assert.match(first, /\.tmp\/kafka-mock\/mock-broker-[0-9a-f]{16}$/);
});

it('the launcher rejects bad arguments and exits when stdin closes', async () => {
  const binary = await compileMockBroker();
  const bad = spawnSync(binary, ['--brokers', '0'], { encoding: 'utf8' });
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /usage/);
  const ok = spawnSync(binary, ['--topic', 'x:3'], { input: '', encoding: 'utf8', timeout: 10_000 });
  assert.equal(ok.status, 0);
  assert.match(ok.stdout.trim(), /^127\.0\.0\.1:\d+$/);
});
