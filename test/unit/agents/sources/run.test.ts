import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { querySource, type AgentOutcome, type ExternalSource, type SourceContext } from '../../../../src/agents/sources';

function fakeSource(query: (ctx: SourceContext) => Promise<AgentOutcome>): ExternalSource {
  return { name: 'fake', label: 'Fake', phase: '1', tier: 'all', enableWith: 'FAKE_URL', configured: () => true, query: (_s, ctx) => query(ctx ?? {}) };
}
const subject = { name: 'X Y', entityType: 'individual' as const };

describe('querySource (per-agent budget)', () => {
  it('passes a successful outcome through with its duration', async () => {
    let t = 100;
    const { outcome, durationMs } = await querySource(fakeSource(async () => ((t += 7), { queried: true, matches: [] })), subject, { now: () => t });
    assert.deepEqual(outcome, { queried: true, matches: [] });
    assert.equal(durationMs, 7);
  });

  it('aborts a source that overruns and reports the timeout', async () => {
    let aborted = false;
    const slow = fakeSource(
      (ctx) =>
        new Promise((resolve) => {
          const timer = setTimeout(() => resolve({ queried: true, matches: [] }), 1000);
          ctx.signal?.addEventListener('abort', () => {
            aborted = true;
            clearTimeout(timer);
          });
        }),
    );
    const { outcome } = await querySource(slow, subject, { timeoutMs: 30 });
    assert.deepEqual(outcome, { queried: false, error: 'agent timeout after 30 ms', matches: [] });
    assert.equal(aborted, true);
  });

  it('turns a throwing source into queried:false', async () => {
    const { outcome } = await querySource(fakeSource(async () => { throw new Error('bug'); }), subject);
    assert.deepEqual(outcome, { queried: false, error: 'bug', matches: [] });
  });
});
