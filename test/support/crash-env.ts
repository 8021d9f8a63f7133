/**
 * Short deadlines for crash tests: a phase must be over within 3 s of its start, is re-dispatched
 * once, and the supervisor looks every 500 ms. The longest a screening can then stay running after
 * a restart: the overdue phase's deadline + one retry deadline + two supervisor intervals, for the
 * phase it was in, plus a deadline for each later phase that loses its tasks again (none do after
 * the restart); CRASH_RECOVERY_BOUND_MS allows a generous margin for a loaded 2-core machine.
 */
export const CRASH_ENV: Record<string, string> = {
  AGENT_TIMEOUT_MS: '2000',
  PIPELINE_PHASE_DEADLINE_MS: '3000',
  PIPELINE_RETRY_BUDGET: '1',
  SUPERVISOR_INTERVAL_MS: '500',
  SCREENING_WAIT_MS: '20000',
};
export const CRASH_RECOVERY_BOUND_MS = 3000 * 2 + 500 * 2 + 20_000;
