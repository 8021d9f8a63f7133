/**
 * Agent workers answer a workflow's tasks together: the tasks of one phase arrive on several task
 * topics, so in several batches handled at once, and a quick agent's answer waits for the slower
 * agents of the same workflow running in this process, so that the process manager records the
 * phase in one step. Another workflow's answer does not wait for them. Real in-process bus, real
 * Avro messages, agents whose finish the test controls.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startAgentWorkers, WorkflowAnswers } from '../../../src/agents/runtime/worker';
import type { Agent } from '../../../src/agents/runtime/agent';
import { AGENT_RESULT, AGENT_TASK, AvroRegistry, type AgentResult, type AgentTask } from '../../../src/infrastructure/bus/avro';
import { InProcessBus } from '../../../src/infrastructure/bus/inprocess/inprocess-bus';
import type { BusMessage } from '../../../src/infrastructure/bus/port';
import { AGENT_RESULTS_TOPIC, agentTaskTopic } from '../../../src/infrastructure/bus/topics';
import { systemClock } from '../../../src/shared/clock';
import { createLogger } from '../../../src/shared/logger';

const logger = createLogger({ level: 'silent' });
const registry = AvroRegistry.load();

/** An agent that answers once the test lets it (or at once when not gated). */
function gatedAgent(name: string): Agent & { release(): void; started: Promise<void> } {
  let release!: () => void;
  let markStarted!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const started = new Promise<void>((resolve) => (markStarted = resolve));
  return {
    name,
    label: name,
    release: () => release(),
    started,
    async run() {
      markStarted();
      await gate;
      return { queried: true, hits: [] };
    },
  };
}

function task(workflow: string, agent: string): BusMessage {
  const body: AgentTask = {
    taskId: `${workflow}:${agent}`,
    screeningId: workflow,
    subjectKind: 'screening',
    agent,
    phase: '1',
    input: JSON.stringify({ workflow, name: 'Jane Example', entityType: 'individual' }),
    deadline: new Date(Date.now() + 60_000).toISOString(),
    correlationId: workflow,
  };
  return registry.message(AGENT_TASK, workflow, body, { 'x-message-id': body.taskId });
}

describe('agent workers: answers of one workflow go out together', () => {
  it('holds a quick answer until the same workflow\'s slower agent answered; the process manager gets both in one batch', async () => {
    const bus = new InProcessBus({ logger });
    const produced: { topic: string; agents: string[] }[] = [];
    const publish = bus.publish.bind(bus);
    bus.publish = async (topic, messages) => {
      if (topic === AGENT_RESULTS_TOPIC) produced.push({ topic, agents: messages.map((m) => registry.decode<AgentResult>(AGENT_RESULT, m).agent) });
      return publish(topic, messages);
    };
    const quick = gatedAgent('quick');
    const slow = gatedAgent('slow');
    const other = gatedAgent('other');
    quick.release();
    other.release();
    const workers = await startAgentWorkers({ bus, registry, agents: [quick, slow, other], timeoutMs: 10_000, clock: systemClock, logger });
    // What a process manager reads: the results topic, a batch at a time.
    const batches: string[][] = [];
    const reader = await bus.subscribeInBatches({ groupId: 'test-results', topics: [AGENT_RESULTS_TOPIC], fromBeginning: true, maxBatch: 64 }, async (messages) => {
      batches.push(messages.map((m) => registry.decode<AgentResult>(AGENT_RESULT, m).agent));
    });
    try {
      await Promise.all([
        bus.publish(agentTaskTopic('slow'), [task('screening-1', 'slow')]),
        bus.publish(agentTaskTopic('quick'), [task('screening-1', 'quick')]),
        bus.publish(agentTaskTopic('other'), [task('screening-2', 'other')]),
      ]);
      await Promise.all([quick.started, slow.started, other.started]);
      // screening-2 has nothing else running here: its answer is out while screening-1's waits.
      for (let i = 0; i < 200 && !produced.some((p) => p.agents.includes('other')); i++) await new Promise((r) => setTimeout(r, 5));
      assert.deepEqual(produced, [{ topic: AGENT_RESULTS_TOPIC, agents: ['other'] }], 'the quick answer of screening-1 waits for its slow agent');
      slow.release();
      for (let i = 0; i < 200 && batches.flat().length < 3; i++) await new Promise((r) => setTimeout(r, 5));
      assert.deepEqual(produced.flatMap((p) => p.agents).sort(), ['other', 'quick', 'slow']);
      const ofScreening1 = batches.find((b) => b.includes('quick'));
      assert.deepEqual([...(ofScreening1 ?? [])].sort(), ['quick', 'slow'], 'both answers of screening-1 reach the process manager in one batch');
    } finally {
      await reader.stop();
      await workers.stop();
      await bus.close();
    }
  });
});

describe('WorkflowAnswers', () => {
  const answer = (agent: string): BusMessage => ({ key: agent, value: Buffer.from(agent), headers: {} });
  it('publishes a workflow\'s answers in one call once none of its tasks runs, and leaves other workflows alone', async () => {
    const calls: string[][] = [];
    const answers = new WorkflowAnswers(async (messages) => void calls.push(messages.map((m) => m.key)));
    answers.started(['a', 'b']);
    answers.started(['a']);
    const first = answers.finished('a', [answer('a1')]);
    const ofB = answers.finished('b', [answer('b1')]);
    await ofB;
    assert.deepEqual(calls, [['b1']], 'b is published; a still has a task running');
    const second = answers.finished('a', [answer('a2')]);
    await Promise.all([first, second]);
    assert.deepEqual(calls, [['b1'], ['a1', 'a2']]);
  });

  it('a failed batch hands in nothing and holds nobody up; a failed publish rejects every batch that handed in', async () => {
    const answers = new WorkflowAnswers(async () => {
      throw new Error('broker down');
    });
    answers.started(['a']);
    answers.started(['a']);
    answers.finished('a', []).catch(() => undefined); // the failed batch
    await assert.rejects(answers.finished('a', [answer('a1')]), /broker down/);
  });
});
