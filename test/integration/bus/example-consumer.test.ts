/** scripts/example-consumer.ts against the mock broker: it decodes what our producers publish. */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { it } from 'node:test';
import { AGENT_TASK, AvroRegistry, type AgentTask } from '../../../src/infrastructure/bus/avro';
import { KafkaBus } from '../../../src/infrastructure/bus/kafka/kafka-bus';
import { agentTaskTopic } from '../../../src/infrastructure/bus/topics';
import { startMockKafka } from '../../support/kafka';
import { recordingLogger } from './contract';

const run = promisify(execFile);
const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

it('example consumer prints messages decoded with the published schemas', async () => {
  const topic = agentTaskTopic('sanctions');
  const kafka = await startMockKafka({ topics: [{ name: topic, partitions: 2 }] });
  const bus = new KafkaBus({ brokers: kafka.brokers, logger: recordingLogger() });
  try {
    const registry = AvroRegistry.load();
    const tasks: AgentTask[] = ['t-1', 't-2'].map((taskId) => ({
      taskId,
      screeningId: 'scr-42',
      subjectKind: 'individual',
      agent: 'sanctions',
      phase: 'lists',
      input: JSON.stringify({ name: 'Ivan Petrov' }),
      deadline: '2026-11-22T12:00:30Z',
      correlationId: 'corr-1',
    }));
    await bus.publish(topic, tasks.map((t) => registry.message(AGENT_TASK, t.screeningId, t, { 'x-message-id': t.taskId })));

    const { stdout } = await run(
      process.execPath,
      ['--import', 'tsx', 'scripts/example-consumer.ts', '--topic', topic, '--from-beginning', '--max', '2'],
      { cwd: repoRoot, env: { ...process.env, KAFKA_BROKERS: kafka.brokers.join(','), KAFKA_SESSION_TIMEOUT_MS: '6000' }, timeout: 30_000 },
    );
    const lines = stdout.trim().split('\n').map((l) => JSON.parse(l));
    assert.equal(lines.length, 2);
    assert.deepEqual(lines.map((l) => l.value).sort((a, b) => a.taskId.localeCompare(b.taskId)), tasks);
    for (const line of lines) {
      assert.equal(line.schema, AGENT_TASK);
      assert.equal(line.key, 'scr-42');
      assert.equal(line.headers['x-schema-fingerprint'], registry.current(AGENT_TASK).fingerprint);
    }
  } finally {
    await bus.close();
    await kafka.stop();
  }
});

it('example consumer refuses to start without KAFKA_BROKERS', async () => {
  const env = { ...process.env };
  delete env.KAFKA_BROKERS;
  await assert.rejects(
    run(process.execPath, ['--import', 'tsx', 'scripts/example-consumer.ts', '--topic', 'x'], { cwd: repoRoot, env }),
    (error: { code?: number; stderr?: string }) => error.code === 1 && /KAFKA_BROKERS is not set/.test(error.stderr ?? ''),
  );
});
