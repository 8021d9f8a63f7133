/**
 * Every read model equals a fresh rebuild from the events (issue 29), checked the way an operator
 * would: `svc projections rebuild all --scratch` replays the history into scratch schemas up to each
 * live checkpoint and compares row by row, the webhook projector's outbox and endpoints included
 * (delivery ids, times, bodies: a rebuild must write the same rows), and the screening-detail folds
 * (a report built again must be the same report). A tampered row is reported, with exit code 1.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readModelProjections } from '../../../src/bootstrap/read-side';
import { createLogger } from '../../../src/shared/logger';
import { verifyProjection } from '../../../src/projections/verify';
import { startTestService, type TestService } from '../../support/service';

let svc: TestService;

const cli = (...args: string[]) =>
  spawnSync(process.execPath, ['--import', 'tsx', 'src/main.ts', 'projections', 'rebuild', ...args], {
    env: { ...process.env, DATABASE_URL: svc.db.url, LOG_LEVEL: 'silent', NODE_ENV: 'test', LISTS_ONLY: 'fatf' },
    encoding: 'utf8',
  });

before(async () => {
  svc = await startTestService({ env: { LISTS_DIR: 'test/fixtures/lists', WEBHOOK_ALLOW_PRIVATE: 'true', SCREENING_WAIT_MS: '10000' } });
  const account = await svc.createAccount('enterprise');
  // A webhook nobody answers: deliveries are enqueued (the outbox is what is compared), and fail.
  const s1 = (await svc.createKey(account.accountId, 's1', { webhookUrl: 'https://127.0.0.1:9/hooks/verify' })).key;
  for (const query of ['Vladimir Putin', 'Margaret Thistlewood', 'Acme Trading Ltd']) {
    const res = await fetch(`${svc.url}/api/v1/screening/cdd`, { method: 'POST', headers: { authorization: `Bearer ${s1}`, 'content-type': 'application/json' }, body: JSON.stringify({ query }) });
    assert.ok(res.status === 201 || res.status === 202, await res.text());
  }
  await svc.service.runner!.caughtUp();
});
after(async () => {
  await svc?.stop();
});

describe('svc projections rebuild --scratch', () => {
  it('finds every read model, the webhook outbox included, equal to a rebuild from the events', async () => {
    const projections = readModelProjections(createLogger({ level: 'silent' }));
    for (const projection of projections) {
      const result = await verifyProjection({ pool: svc.service.pool, store: svc.service.store, projection });
      assert.ok(result.equal, `${projection.name}: ${JSON.stringify(result.tables.filter((t) => t.onlyLive || t.onlyRebuilt), (_k, v) => (typeof v === 'bigint' ? String(v) : v))}`);
      if (projection.name === 'webhooks') assert.ok(result.tables.find((t) => t.table === 'webhook_outbox')!.liveRows >= 3, 'the outbox was compared');
      if (projection.name === 'screening_details') assert.ok(result.tables.some((t) => t.liveRows >= 3), 'the folds were compared');
    }
    const all = cli('all', '--scratch');
    assert.equal(all.status, 0, all.stdout + all.stderr);
    assert.match(all.stdout, /webhooks: equal to a rebuild/);
  });

  it('reports a row that is not what its events say, and exits 1', async () => {
    await svc.service.runner!.stop();
    await svc.service.pool.query(`UPDATE webhook_outbox SET created_at = created_at + interval '1 second' WHERE dedup_key IS NOT NULL AND ctid = (SELECT ctid FROM webhook_outbox WHERE dedup_key IS NOT NULL LIMIT 1)`);
    await svc.service.pool.query(`UPDATE proj_screenings.screenings SET risk_level = 'critical' WHERE ctid = (SELECT ctid FROM proj_screenings.screenings LIMIT 1)`);
    const checked = cli('all', '--scratch');
    assert.equal(checked.status, 1, checked.stdout + checked.stderr);
    assert.match(checked.stdout, /webhooks: DIFFERS from a rebuild/);
    assert.match(checked.stdout, /screenings: DIFFERS from a rebuild/);
    assert.match(checked.stdout, /accounts: equal to a rebuild/);
    assert.equal(cli('no_such_model', '--scratch').status, 2);
  });
});
