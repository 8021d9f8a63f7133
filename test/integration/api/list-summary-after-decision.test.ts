/**
 * Issue 31 item 3 on the list endpoints: after an analyst's false-positive decision, the summary a
 * screening shows in GET /api/v1/screenings (S1 and S3) counts the hits as they stand, as its detail
 * does; the list read model takes it from the RiskRecomputed the decision records. Real HTTP, the
 * whole wired service, the bundled OFAC SDN list.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startTestService, type TestService } from '../../support/service';

let svc: TestService;
let dataDir: string;
let s1Key: string;
let s3Key: string;

before(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'svc-list-summary-'));
  svc = await startTestService({ env: { LISTS_DIR: path.resolve('lists'), LISTS_ONLY: 'ofac_sdn', LISTS_DATA_DIR: dataDir } });
  const account = await svc.createAccount('enterprise');
  s1Key = (await svc.createKey(account.accountId, 's1')).key;
  s3Key = (await svc.createKey(account.accountId, 's3', { userId: account.userId })).key;
});
after(async () => {
  await svc?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

type Http = { status: number; body: Record<string, any> };

/** The surface's credential: S1 a bearer key, S3 an X-API-Key. */
async function call(surface: 's1' | 's3', method: string, urlPath: string, body?: unknown): Promise<Http> {
  const auth: Record<string, string> = surface === 's1' ? { authorization: `Bearer ${s1Key}` } : { 'x-api-key': s3Key };
  const res = await fetch(`${svc.url}${urlPath}`, {
    method,
    headers: { ...auth, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

/** Each surface's envelope around a screening, a detail and a list. */
const SURFACES = {
  s1: { screening: (b: any) => b.screening, list: (b: any) => b.screenings as any[] },
  s3: { screening: (b: any) => b.data, list: (b: any) => b.data.screenings as any[] },
} as const;

async function listed(surface: 's1' | 's3', id: number | string): Promise<any> {
  await svc.service.runner!.caughtUp();
  const res = await call(surface, 'GET', '/api/v1/screenings?limit=100');
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const row = SURFACES[surface].list(res.body).find((s) => s.id === id);
  assert.ok(row, `screening ${id} in the ${surface} list`);
  return row;
}

for (const surface of ['s1', 's3'] as const) {
  test(`${surface}: screen, decide every hit a false positive, and the list's summary counts them dismissed as the detail does`, async () => {
    const created = await call(surface, 'POST', '/api/v1/screening/cdd', { query: 'Banco Nacional de Cuba', entity_type: 'company' });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const screening = SURFACES[surface].screening(created.body);
    const detail = SURFACES[surface].screening((await call(surface, 'GET', `/api/v1/screening/${screening.id}`)).body);
    const hits: any[] = detail.hits.sanctions;
    assert.ok(hits.length >= 1, 'Banco Nacional de Cuba is on the SDN list');

    const before = await listed(surface, screening.id);
    assert.equal(before.summary, detail.summary, 'at completion the list and the detail agree');
    assert.doesNotMatch(before.summary, /dismissed/);

    for (const hit of hits) {
      const decided = await call(surface, 'POST', `/api/v1/screening/${screening.id}/hits/${encodeURIComponent(hit.hit_id)}/disposition`, {
        disposition: 'false_positive',
        reason: 'Not the bank onboarded: our customer is a trading company of the same name',
      });
      assert.equal(decided.status, 200, JSON.stringify(decided.body));
    }

    const now = SURFACES[surface].screening((await call(surface, 'GET', `/api/v1/screening/${screening.id}`)).body);
    const after = await listed(surface, screening.id);
    assert.notEqual(after.summary, before.summary, 'the decision changed the list summary');
    assert.equal(after.summary, now.summary, 'the list shows what the detail shows');
    assert.match(after.summary, new RegExp(`\\(dismissed ${hits.length}\\): none stands after the analysts' decisions\\.`));
    assert.equal(after.risk_score, now.risk_score);
    // The rest of the summary (its first sentence) is kept as the summary step wrote it.
    assert.equal(after.summary.split('. ')[0], before.summary.split('. ')[0]);
  });
}
