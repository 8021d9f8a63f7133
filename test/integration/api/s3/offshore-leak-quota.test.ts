/**
 * Issue 33 over real HTTP on the whole wired service (real PostgreSQL, the in-process bus, the real
 * pipeline): on the S3 Enterprise API a used-up offshore-leak quota (100 a month) limits offshore-leak
 * checks, not screenings. The 101st to the 1,000th screening of the month complete, with offshore leaks
 * "not searched" and the reason in the answer, the JSON report's data gaps and the PDF; the 1,001st
 * request is refused by the request quota (429), as before.
 *
 * Business time is November 2026 (a ManualClock), so the reason reads "resets 2026-12-01". The month's
 * earlier checks are set up through the real event path (the quota aggregate's command, as the
 * workflow uses it), and the request quota through its real counter (limit_counters, the gate's):
 * running 1,000 screenings would prove nothing more.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestService, type TestService } from '../../../support/service';
import { ManualClock } from '../../../../src/shared/clock';
import { EventSourcedOffshoreLeakChecks } from '../../../../src/app/usage/offshore-leak-checks';
import { pdfText } from '../../../unit/reports/pdf-text';
import { call, envelopeData, s3Error } from './helpers';

const clock = new ManualClock('2026-11-20T10:00:00.000Z');
const REASON = 'monthly offshore-leak quota used: 100 of 100, resets 2026-12-01';
/** An officer in the ICIJ Panama Papers data: searched, offshore leaks find him. */
const OFFSHORE_NAME = 'Gregory John Solomon';
/** A name on no list at all. */
const CLEAN_NAME = 'Margaret Thistlewood';

let svc: TestService;
let checks: EventSourcedOffshoreLeakChecks;
let earlierScreening = 7_000_000;

/** Screenings of the month before the test's, each using one check through the quota aggregate's real command. */
async function earlierScreeningsUsed(accountId: string, count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    const outcome = await checks.use({ accountId, month: '2026-11', screeningId: String(earlierScreening++), limit: 100 });
    assert.deepEqual(outcome, { used: true });
  }
}

/** The account's request quota as the gate counts it (limit_counters), set to `count` requests this month. */
async function requestsMade(accountId: string, count: number): Promise<void> {
  await svc.db.pool.query(
    `INSERT INTO limit_counters (bucket, window_start, window_end, count) VALUES ($1, $2, $3, $4)
     ON CONFLICT (bucket, window_start) DO UPDATE SET count = EXCLUDED.count`,
    [`s3:requests:${accountId}:2026-11`, new Date('2026-11-01T00:00:00.000Z'), new Date('2026-12-01T00:00:00.000Z'), count],
  );
}

async function enterpriseAccount() {
  const account = await svc.createAccount('enterprise');
  const key = (await svc.createKey(account.accountId, 's3', { userId: account.userId })).key;
  return { accountId: account.accountId, key };
}

const screen = (key: string, query: string) => call(svc.url, 'POST', '/api/v1/screening/cdd', { key, body: { query, entity_type: 'individual' } });
const usage = async (key: string) => envelopeData(await call(svc.url, 'GET', '/api/v1/usage', { key }), 200).quota;

before(async () => {
  svc = await startTestService({ clock });
  checks = new EventSourcedOffshoreLeakChecks({ store: svc.service.store, clock });
});
after(async () => {
  await svc?.stop();
});

describe('S3 Enterprise: the monthly offshore-leak checks limit offshore-leak checks, not screenings (issue 33)', () => {
  let account: { accountId: string; key: string };
  let searched: { risk_score: number; risk_level: string; summary: string };
  let firstId: string;

  before(async () => {
    account = await enterpriseAccount();
  });

  it('a screening of the month uses one check and searches offshore leaks', async () => {
    const found = envelopeData(await screen(account.key, OFFSHORE_NAME), 201);
    assert.doesNotMatch(found.summary, /not searched: monthly/);
    assert.equal(found.status, 'completed');
    assert.equal(found.offshore_leaks_searched, true);
    assert.equal(found.offshore_leaks_not_searched_reason, null);
    assert.ok(found.offshore_leaks_hits >= 1, 'the Panama Papers officer is found');
    firstId = found.id;
    searched = envelopeData(await screen(account.key, CLEAN_NAME), 201);
    assert.equal(searched.risk_level, 'low');
    assert.match(searched.summary, /No sanctions, PEP, debarment or offshore-leak match/);
    const quota = await usage(account.key);
    assert.deepEqual(quota.offshore_leak_checks, { limit: 100, used: 2, remaining: 98, resets_at: '2026-12-01T00:00:00.000Z', warning: null });
    assert.equal(quota.requests.used, 3, 'two screenings and this read');
    assert.equal(quota.requests.limit, 1000);
  });

  it('with all 100 used, the 101st screening completes without the offshore-leak search: the answer, the detail, the JSON report and the PDF say why', async () => {
    await earlierScreeningsUsed(account.accountId, 98);
    const quota = await usage(account.key);
    assert.deepEqual(quota.offshore_leak_checks, { limit: 100, used: 100, remaining: 0, resets_at: '2026-12-01T00:00:00.000Z', warning: 'reached' });

    const answer = await screen(account.key, OFFSHORE_NAME);
    const created = envelopeData(answer, 201);
    assert.equal(created.status, 'completed');
    assert.equal(created.offshore_leaks_searched, false);
    assert.equal(created.offshore_leaks_not_searched_reason, REASON);
    assert.equal(created.offshore_leaks_hits, 0, 'not searched, so no hit (the first screening of this name had one)');
    assert.ok(created.summary.includes(`Offshore leaks were not searched: ${REASON}.`), created.summary);
    assert.doesNotMatch(created.summary, /offshore-leak match/, 'the summary does not claim offshore leaks found nothing');

    // Every source the month's first screening of this name searched is searched again, but offshore leaks.
    type Source = { agent: string; queried: boolean; error: string | null };
    const sourcesOf = async (id: string): Promise<Source[]> => envelopeData(await call(svc.url, 'GET', `/api/v1/screening/${id}`, { key: account.key }), 200).sources;
    const [first, now] = [await sourcesOf(firstId), await sourcesOf(created.id)];
    const queried = (sources: Source[]) => sources.filter((x) => x.queried).map((x) => x.agent).sort();
    assert.ok(queried(first).includes('offshore_leaks') && queried(first).includes('sanctions'));
    assert.deepEqual(queried(now), queried(first).filter((agent) => agent !== 'offshore_leaks'));
    const offshore = now.find((x) => x.agent === 'offshore_leaks')!;
    assert.deepEqual([offshore.queried, offshore.error], [false, REASON]);

    const report = envelopeData(await call(svc.url, 'GET', `/api/v1/screening/${created.id}/report`, { key: account.key }), 200);
    const gaps = report.sections.find((s: { key: string }) => s.key === 'data_gaps').content;
    assert.ok(
      gaps.sources_not_searched.some((s: { source: string; reason: string }) => /offshore/i.test(s.source) && s.reason === REASON),
      JSON.stringify(gaps.sources_not_searched),
    );
    assert.ok(gaps.gaps.some((g: { code: string; description: string }) => g.code === 'not_searched:offshore_leaks' && g.description.endsWith(REASON)));

    // The PDF (the S1 report endpoint, with an S1 key of the same account) says it in its data-gaps section.
    const s1Key = (await svc.createKey(account.accountId, 's1')).key;
    const pdf = await fetch(`${svc.url}/api/v1/screening/${created.screening_number}/report`, { headers: { authorization: `Bearer ${s1Key}` } });
    assert.equal(pdf.status, 200);
    const { flat } = pdfText(Buffer.from(await pdf.arrayBuffer()), 'quota.pdf');
    assert.match(flat, /Sources not searched/);
    assert.ok(flat.includes(REASON), 'the PDF names the quota and its reset');

    const after = await usage(account.key);
    assert.equal(after.offshore_leak_checks.used, 100, 'a screening without the search uses no check');
  });

  it('offshore leaks not searched is a data gap only: a clean name keeps the verdict it had when they were searched', async () => {
    const clean = envelopeData(await screen(account.key, CLEAN_NAME), 201);
    assert.equal(clean.offshore_leaks_searched, false);
    assert.equal(clean.risk_level, searched.risk_level);
    assert.equal(clean.risk_score, searched.risk_score);
  });

  it('the 1,000th request of the month is a completed screening; the 1,001st is 429 from the request quota, and creates nothing', async () => {
    await requestsMade(account.accountId, 998);
    for (const n of [999, 1000]) {
      const answer = await screen(account.key, `Subject Number ${n === 999 ? 'Nine' : 'Ten'}`);
      const data = envelopeData(answer, 201);
      assert.equal(data.status, 'completed', `request ${n}`);
      assert.equal(data.offshore_leaks_not_searched_reason, REASON, `request ${n}`);
      assert.equal(answer.headers.get('ratelimit-remaining'), String(1000 - n));
    }
    const refused = await screen(account.key, 'Subject Number Eleven');
    s3Error(refused, 429);
    assert.match(refused.body.message, /quota/i);
    assert.doesNotMatch(refused.body.message, /offshore/i, 'the request quota, not the offshore-leak one');
    assert.ok(Number(refused.headers.get('retry-after')) > 0);
    const { rows } = await svc.db.pool.query(`SELECT count(*)::int AS n FROM proj_screenings.screenings WHERE account_id = $1 AND search_query = 'Subject Number Eleven'`, [account.accountId]);
    assert.equal(rows[0].n, 0);
    s3Error(await call(svc.url, 'GET', '/api/v1/usage', { key: account.key }), 429);
  });
});

describe('S3 offshore-leak checks: races, scope and the next month', () => {
  it('two screenings at 99 used: exactly one searches offshore leaks, the other completes without', async () => {
    const account = await enterpriseAccount();
    await earlierScreeningsUsed(account.accountId, 99);
    const answers = await Promise.all([screen(account.key, OFFSHORE_NAME), screen(account.key, OFFSHORE_NAME)]);
    const data = answers.map((a) => envelopeData(a, 201));
    assert.deepEqual(data.map((d) => d.status), ['completed', 'completed']);
    assert.deepEqual(data.map((d) => d.offshore_leaks_searched).sort(), [false, true]);
    assert.equal(data.find((d) => !d.offshore_leaks_searched).offshore_leaks_not_searched_reason, REASON);
    assert.equal((await usage(account.key)).offshore_leak_checks.used, 100);
  });

  it('S1 screenings of an Enterprise account and S3 screenings of other plans use no offshore-leak check', async () => {
    const account = await enterpriseAccount();
    await earlierScreeningsUsed(account.accountId, 100);
    const s1Key = (await svc.createKey(account.accountId, 's1')).key;
    const s1 = await fetch(`${svc.url}/api/v1/screening/cdd`, { method: 'POST', headers: { authorization: `Bearer ${s1Key}`, 'content-type': 'application/json' }, body: JSON.stringify({ query: OFFSHORE_NAME }) });
    assert.equal(s1.status, 201);
    assert.ok(((await s1.json()) as { screening: { offshore_leaks_hits: number } }).screening.offshore_leaks_hits >= 1, 'S1 searches offshore leaks');
    assert.equal((await usage(account.key)).offshore_leak_checks.used, 100);

    const pro = await svc.createAccount('professional');
    const proKey = (await svc.createKey(pro.accountId, 's3', { userId: pro.userId })).key;
    const proScreening = envelopeData(await screen(proKey, OFFSHORE_NAME), 201);
    assert.equal(proScreening.offshore_leaks_searched, true);
    assert.equal((await usage(proKey)).offshore_leak_checks, null, 'no cap of its own on Professional');
  });

  it("on the 1st of the next month the checks are back: December's first screening searches offshore leaks", async () => {
    const account = await enterpriseAccount();
    await earlierScreeningsUsed(account.accountId, 100);
    assert.equal(envelopeData(await screen(account.key, OFFSHORE_NAME), 201).offshore_leaks_not_searched_reason, REASON);
    clock.set('2026-12-01T00:00:05.000Z');
    const december = envelopeData(await screen(account.key, OFFSHORE_NAME), 201);
    assert.equal(december.offshore_leaks_searched, true);
    assert.ok(december.offshore_leaks_hits >= 1);
    const quota = await usage(account.key);
    assert.deepEqual(quota.offshore_leak_checks, { limit: 100, used: 1, remaining: 99, resets_at: '2027-01-01T00:00:00.000Z', warning: null });
  });
});
