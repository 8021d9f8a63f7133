import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { projectionSchema } from '../../../src/projections/projection';
import { startTestService } from '../../support/service';

test('svc projections rebuild <name> replays history into fresh tables equal to the live ones', async () => {
  const svc = await startTestService({ agents: 'none' });
  try {
    const a = await svc.createAccount('enterprise');
    await svc.createAccount('professional');
    await svc.createKey(a.accountId, 's1');
    await svc.createKey(a.accountId, 's3');
    await svc.service.runner!.caughtUp();
    const snapshot = async () =>
      (await svc.service.pool.query(`SELECT key_id, account_id, surface, name, key_hash, prefix, revoked_at FROM ${projectionSchema('api_keys')}.api_keys ORDER BY key_id`)).rows;
    const before = await snapshot();
    assert.equal(before.length, 2);
    await svc.service.runner!.stop();

    const result = spawnSync(process.execPath, ['--import', 'tsx', 'src/main.ts', 'projections', 'rebuild', 'api_keys'], {
      env: { ...process.env, DATABASE_URL: svc.db.url, LOG_LEVEL: 'silent', NODE_ENV: 'test', LISTS_ONLY: 'fatf' },
      encoding: 'utf8',
    });
    assert.equal(result.status, 0, result.stderr);
    assert.match(result.stdout, /api_keys/);
    assert.deepEqual(await snapshot(), before);

    const unknown = spawnSync(process.execPath, ['--import', 'tsx', 'src/main.ts', 'projections', 'rebuild', 'no_such_model'], {
      env: { ...process.env, DATABASE_URL: svc.db.url, LOG_LEVEL: 'silent', NODE_ENV: 'test', LISTS_ONLY: 'fatf' },
      encoding: 'utf8',
    });
    assert.notEqual(unknown.status, 0);
    assert.match(unknown.stderr, /Unknown projection "no_such_model"; known projections: accounts, api_keys/);
  } finally {
    await svc.stop();
  }
});
