import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { createLogger } from '../../../src/shared/logger';

test('secrets never reach the log: credentials, keys, passwords and configured secrets are redacted', () => {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk, _enc, done) {
      lines.push(String(chunk));
      done();
    },
  });
  const log = createLogger({ level: 'info', destination });
  const key = 'svc_' + 'A'.repeat(43);
  log.info({ req: { headers: { authorization: `Bearer ${key}`, cookie: 'auth_token=jwt.value.here', 'x-api-key': 'svcc_live_' + 'a'.repeat(40) } } }, 'request');
  log.info({ account: { password: 'hunter2-long-password', passwordHash: 'scrypt$...' }, created: { key } }, 'created');
  log.info({ config: { JWT_SECRET: 'j'.repeat(40), SECRETS_KEY: 's'.repeat(40), DATABASE_URL: 'postgres://u:p@h/db' } }, 'config');
  log.info({ webhook: { signing_secret: 'whsec_abc' } }, 'webhook');
  const all = lines.join('');
  for (const secret of [key, 'jwt.value.here', 'svcc_live_aaaa', 'hunter2', 'scrypt$', 'jjjjjjjj', 'ssssssss', 'postgres://u:p', 'whsec_abc']) {
    assert.ok(!all.includes(secret), `${secret} leaked into the log`);
  }
  assert.equal((all.match(/\[redacted\]/g) ?? []).length >= 9, true);
});
