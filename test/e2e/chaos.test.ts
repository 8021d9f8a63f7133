/**
 * The fault-injection soak of issue 29, short (bench/chaos.ts runs it for minutes, in both modes): the
 * embedded service as a child process under a mixed workload through clients that retry with the
 * same Idempotency-Key, its process group or its PostgreSQL killed with SIGKILL and restarted at
 * random moments, then every invariant (test/support/chaos.ts): each acknowledged request visible
 * exactly once, no duplicate resource, event or delivery id, nothing stuck past its deadline, every
 * hash chain valid, every read model equal to a fresh rebuild, every webhook received and exactly
 * once by its id.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { chaosTable, runChaos } from '../support/chaos';

describe('chaos soak (short): kill -9 under a mixed workload', () => {
  it('keeps every exactly-once invariant in the embedded default', async () => {
    const result = await runChaos({ mode: 'embedded', durationMs: 40_000, killEveryMs: [10_000, 16_000], minKills: 2, clients: 3, requestDeadlineMs: 180_000, settleDeadlineMs: 180_000 });
    const table = chaosTable(result);
    assert.ok(result.killCount >= 2, `at least two kills landed under load:\n${table}`);
    assert.ok(result.requests.reduce((sum, r) => sum + r.acknowledged, 0) > 20, `the workload ran:\n${table}`);
    for (const invariant of result.invariants) assert.ok(invariant.ok, `${invariant.name}: ${invariant.detail}\n${table}`);
  });
});
