import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runAgent, type Agent, type AgentContext } from '../../../../src/agents/runtime/agent';

const subject = { workflow: 'screening-1', accountId: '1', name: 'Jane Doe', entityType: 'individual' as const };
const now = () => new Date('2026-11-28T12:00:00.000Z');

function agentOf(run: Agent['run']): Agent {
  return { name: 'probe', label: 'Probe', run };
}

test('an agent that outlives its timeout is answered as not queried, and the signal it holds is aborted', async () => {
  let seen: AbortSignal | undefined;
  const outcome = await runAgent(
    agentOf(async (_subject, context: AgentContext) => {
      seen = context.signal;
      await new Promise<void>((resolve) => context.signal.addEventListener('abort', () => resolve()));
      return { queried: true, hits: [] };
    }),
    subject,
    { timeoutMs: 20, now },
  );
  assert.deepEqual(outcome.outcome, { queried: false, error: 'timed out after 20 ms', hits: [] });
  assert.equal(seen?.aborted, true);
});

test('an agent that never reads the signal answers as before; one read after it answered is not aborted', async () => {
  let context: AgentContext | undefined;
  const outcome = await runAgent(
    agentOf(async (_subject, ctx) => {
      context = ctx;
      return { queried: true, hits: [] };
    }),
    subject,
    { timeoutMs: 1_000, now },
  );
  assert.deepEqual(outcome.outcome, { queried: true, hits: [] });
  assert.equal(outcome.startedAt, '2026-11-28T12:00:00.000Z');
  assert.equal(context!.signal.aborted, false);
});

test('an agent that throws is answered as not queried with its message', async () => {
  const outcome = await runAgent(agentOf(async () => Promise.reject(new Error('source down'))), subject, { timeoutMs: 1_000, now });
  assert.deepEqual(outcome.outcome, { queried: false, error: 'source down', hits: [] });
});
