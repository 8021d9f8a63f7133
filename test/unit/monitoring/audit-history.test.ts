import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AuditTrailService, streamOwner } from '../../../src/app/audit/history';
import { AuditorTokens } from '../../../src/app/audit/auditor-token';
import { chainEvents, GENESIS_HASH } from '../../../src/infrastructure/eventstore/hashChain';
import { Forbidden, NotFound } from '../../../src/commands/errors';
import { ManualClock } from '../../../src/shared/clock';
import type { Principal } from '../../../src/app/services';
import type { RecordedEvent } from '../../../src/shared/events';

function recorded(stream: string, datas: Record<string, unknown>[]): RecordedEvent[] {
  const chained = chainEvents(
    datas.map((data, i) => ({ type: i === 0 ? 'ScreeningRequested' : 'Noted', data, metadata: { eventId: `${stream}:${i}`, occurredAt: '2026-01-01T00:00:00.000Z' } })),
    GENESIS_HASH,
  );
  return chained.map((e, i) => ({ ...e, streamName: stream, streamPosition: BigInt(i), globalPosition: BigInt(100 + i), recordedAt: '2026-01-01T00:00:00.000Z' }));
}

const streams = new Map<string, RecordedEvent[]>([
  ['screening-1', recorded('screening-1', [{ accountId: '7', screeningId: '1' }, { accountId: '7', n: 1 }, { accountId: '7', n: 2 }])],
  ['screening-2', recorded('screening-2', [{ accountId: '8', screeningId: '2' }])],
]);
const service = new AuditTrailService({ store: { readStream: async (name: string) => streams.get(name) ?? [] } });
const auditor: Principal = { accountId: '7', plan: 'enterprise', userId: 'u1', roles: ['auditor'], surface: 'portal' };

test('the history is for auditors of the stream\'s account only, and verifies the chain', async () => {
  const h = await service.history(auditor, 'screening-1');
  assert.deepEqual(h.events.map((e) => e.position), [0, 1, 2]);
  assert.equal(h.chain.ok, true);
  assert.equal(h.chain.head_hash, h.events[2]!.hash);
  await assert.rejects(service.history({ ...auditor, roles: ['owner'] }, 'screening-1'), Forbidden);
  await assert.rejects(service.history(auditor, 'screening-2'), NotFound, 'another account looks missing');
  await assert.rejects(service.history(auditor, 'screening-404'), NotFound);
  await assert.rejects(service.history(auditor, '../etc'), NotFound);
});

test('a tampered event shows as a broken chain at its position', async () => {
  const events = recorded('screening-3', [{ accountId: '7' }, { accountId: '7', n: 1 }, { accountId: '7', n: 2 }]);
  events[1] = { ...events[1]!, data: { accountId: '7', n: 99 } };
  streams.set('screening-3', events);
  const h = await service.history(auditor, 'screening-3');
  assert.deepEqual(h.chain, { ok: false, head_hash: null, broken_at: 1, reason: 'hash does not match the event content' });
});

test('stream owners come from the name of account streams, else from the first event', () => {
  assert.equal(streamOwner('account-1001', []), '1001');
  assert.equal(streamOwner('account-keys-1001', []), '1001');
  assert.equal(streamOwner('webhook-endpoint-s3-1001', []), '1001');
  assert.equal(streamOwner('screening-1', streams.get('screening-1')!), '7');
});

test('auditor tokens: only users with the auditor role, bound to their account, expiring', async () => {
  const clock = new ManualClock(new Date('2026-05-01T00:00:00Z'));
  const users: Record<string, Principal> = {
    'a@x.test': { accountId: '7', plan: 'enterprise', userId: 'u-a', roles: ['auditor'], surface: 'session' },
    'o@x.test': { accountId: '7', plan: 'enterprise', userId: 'u-o', roles: ['owner'], surface: 'session' },
  };
  const tokens = new AuditorTokens({ secret: 's'.repeat(40), clock, accounts: { signIn: async (email, password) => (password === 'right' ? users[email] : undefined) } });
  assert.equal(await tokens.issue('7', 'a@x.test', 'wrong'), undefined);
  assert.equal(await tokens.issue('8', 'a@x.test', 'right'), undefined, "another account's user");
  assert.equal(await tokens.issue('7', 'o@x.test', 'right'), 'not_auditor');
  const issued = await tokens.issue('7', 'a@x.test', 'right');
  assert.ok(issued && issued !== 'not_auditor');
  const principal = await tokens.verify(issued.token, '7', 'enterprise');
  assert.deepEqual(principal?.roles, ['auditor']);
  assert.equal(principal?.userId, 'u-a');
  assert.equal(await tokens.verify(issued.token, '8', 'enterprise'), undefined);
  assert.equal(await tokens.verify(`${issued.token}x`, '7', 'enterprise'), undefined);
  const forged = new AuditorTokens({ secret: 'z'.repeat(40), clock, accounts: { signIn: async () => users['a@x.test'] } });
  const other = await forged.issue('7', 'a@x.test', 'right');
  assert.equal(await tokens.verify((other as { token: string }).token, '7', 'enterprise'), undefined, 'signed with another key');
  clock.set(new Date('2026-05-01T00:16:00Z'));
  assert.equal(await tokens.verify(issued.token, '7', 'enterprise'), undefined, 'expired after 15 minutes');
});
