/**
 * The S1 HTTP suite against the real wiring: the key, limit and screening services of the running
 * service (event store, read models, agent pipeline, real lists), as `svc serve` wires them.
 */
import { randomUUID } from 'node:crypto';
import { ManualClock } from '../../../../src/shared/clock';
import { projectionSchema } from '../../../../src/projections/projection';
import { startTestService } from '../../../support/service';
import { s1ApiSuite } from './suite';

s1ApiSuite('real wiring', async () => {
  const clock = new ManualClock(new Date());
  const svc = await startTestService({ clock });
  const { keys, limits, screenings } = svc.service.services;
  return {
    keys,
    limits,
    screenings,
    clock,
    listedName: 'Vladimir Putin',
    async createAccount(plan) {
      const account = await svc.createAccount(plan);
      const key = await svc.createKey(account.accountId, 's1');
      return { accountId: account.accountId, keyId: key.id, key: key.key };
    },
    async revokeKey(accountId, keyId) {
      await keys.revoke(
        { accountId, plan: 'enterprise', roles: ['owner'], surface: 'portal' },
        keyId,
        { actor: { surface: 'system' }, correlationId: randomUUID(), commandId: randomUUID() },
      );
    },
    async screeningCount(accountId) {
      await svc.service.runner?.caughtUp();
      const { rows } = await svc.service.pool.query<{ n: string }>(
        `SELECT count(*)::text AS n FROM ${projectionSchema('screenings')}.screenings WHERE account_id = $1`,
        [accountId],
      );
      return Number(rows[0]!.n);
    },
    close: () => svc.stop(),
  };
});
