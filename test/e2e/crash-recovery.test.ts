/**
 * kill -9 in the middle of a burst (issue 19): the embedded service runs as a child process (its
 * own process group, with its PostgreSQL), 60 concurrent S1 CDD requests are fired, the group is
 * SIGKILLed after the 5th answer and restarted on the same DATA_DIR. Every screening must then end
 * (completed, or closed with the data gap) within the phase deadline + grace: none stuck, none lost
 * (every 2xx answer's screening exists and ended), none duplicated. One round here (CI time);
 * scripts/crash-recovery.ts repeats it.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { runCrashRound } from '../support/crash-round';
import { CRASH_ENV, CRASH_RECOVERY_BOUND_MS } from '../support/crash-env';

describe('crash recovery: kill -9 during a 60-request burst', () => {
  it('leaves no screening stuck, lost or duplicated after a restart', async () => {
    const r = await runCrashRound({ requests: 60, killAfterAnswers: 5, env: CRASH_ENV, recoveryBoundMs: CRASH_RECOVERY_BOUND_MS });
    const summary = JSON.stringify(r);
    assert.ok(r.answered2xx >= 5, `the kill came after 5 answers: ${summary}`);
    assert.ok(r.cutByKill > 0, `the kill cut requests in flight: ${summary}`);
    assert.ok(r.screeningsInStore >= r.answered2xx && r.screeningsInStore <= r.requests, summary);
    assert.equal(r.stuck, 0, `no screening still running after deadline + grace: ${summary}`);
    assert.equal(r.lost, 0, `every 2xx answer's screening exists and ended: ${summary}`);
    assert.equal(r.duplicated, 0, `no request recorded twice, nothing completed or recorded twice: ${summary}`);
    assert.ok(r.recoveredInMs <= CRASH_RECOVERY_BOUND_MS, summary);
    assert.deepEqual(r.readyzOverdueAfter, { screening: 0, person_check: 0, subject_check: 0 }, `nothing overdue once recovered: ${summary}`);
  });
});
