/**
 * Backpressure (issue 19): with MAX_INFLIGHT_SCREENINGS screenings of this process still running,
 * a new screening request is refused at once with 503 and Retry-After in the caller's envelope
 * (S1, S3), nothing written; a slot frees when the store shows a screening ended. The whole service
 * over real HTTP and PostgreSQL; no agents run, so accepted screenings stay in flight.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { handleCommand } from '../../../src/commands/command-handler';
import { screeningDecider, streamName } from '../../../src/commands/screening';
import { projectionSchema } from '../../../src/projections/projection';
import { startTestService, type TestService } from '../../support/service';

let svc: TestService;
let s1Key: string;
let s3Key: string;

before(async () => {
  svc = await startTestService({ agents: 'none', env: { MAX_INFLIGHT_SCREENINGS: '2', SCREENING_WAIT_MS: '0' } });
  const account = await svc.createAccount('enterprise');
  s1Key = (await svc.createKey(account.accountId, 's1')).key;
  s3Key = (await svc.createKey(account.accountId, 's3', { userId: account.userId })).key;
});
after(async () => {
  await svc?.stop();
});

const cdd = (headers: Record<string, string>, query: string) =>
  fetch(`${svc.url}/api/v1/screening/cdd`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ query, entity_type: 'individual' }) });
const s1 = (query: string) => cdd({ authorization: `Bearer ${s1Key}` }, query);
const s3 = (query: string) => cdd({ 'x-api-key': s3Key }, query);

async function screeningsNamed(query: string): Promise<number> {
  const { rows } = await svc.service.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${projectionSchema('screenings')}.screenings WHERE search_query = $1`, [query]);
  return rows[0]!.n;
}

describe('backpressure: screenings in flight per process', () => {
  it('refuses past the bound with 503 + Retry-After in each envelope, writes nothing, and admits again once one ends', async () => {
    const first = await s1('Alice Example');
    const second = await s3('Bob Example');
    assert.equal(first.status, 202);
    assert.equal(second.status, 202);
    const firstBody = (await first.json()) as { screening: { id: number } };
    await second.json();

    const refusedS1 = await s1('Carol Refused');
    assert.equal(refusedS1.status, 503);
    assert.ok(Number(refusedS1.headers.get('retry-after')) >= 1, 'Retry-After in seconds');
    const s1Body = (await refusedS1.json()) as Record<string, unknown>;
    assert.equal(s1Body.success, false);
    assert.equal(s1Body.code, 'service_unavailable');
    assert.match(String(s1Body.message), /at capacity/);

    const refusedS3 = await s3('Carol Refused');
    assert.equal(refusedS3.status, 503);
    assert.ok(Number(refusedS3.headers.get('retry-after')) >= 1);
    const s3Body = (await refusedS3.json()) as Record<string, unknown>;
    assert.match(String(s3Body.error), /at capacity/);
    assert.equal(s3Body.success, undefined, 'the S3 envelope, not S1');

    const metrics = await (await fetch(`${svc.url}/metrics`)).text();
    assert.match(metrics, /^svc_screenings_in_flight 2$/m);
    assert.match(metrics, /^svc_screenings_in_flight_limit 2$/m);

    // One of them ends (here: fails); the process sees it in the store and frees its slot.
    const id = String(firstBody.screening.id);
    await handleCommand(svc.service.store, screeningDecider, streamName(id), {
      type: 'FailScreening',
      data: { screeningId: id, reason: 'test: ended' },
      metadata: { now: new Date().toISOString(), actor: { surface: 'system' }, commandId: `fail-${id}` },
    });
    let admitted: Response | undefined;
    for (let i = 0; i < 50; i++) {
      admitted = await s1('Dave Admitted');
      if (admitted.status !== 503) break;
      await admitted.arrayBuffer();
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.equal(admitted!.status, 202);
    await admitted!.arrayBuffer();

    // Nothing refused was written (once the read model shows the later, admitted one).
    for (let i = 0; i < 50 && (await screeningsNamed('Dave Admitted')) === 0; i++) await new Promise((r) => setTimeout(r, 100));
    assert.equal(await screeningsNamed('Dave Admitted'), 1);
    assert.equal(await screeningsNamed('Carol Refused'), 0);
    assert.equal(await screeningsNamed('Alice Example'), 1);
  });
});
