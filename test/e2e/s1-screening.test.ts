import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestService, type TestService } from '../support/service';

let svc: TestService;
let key: string;

before(async () => {
  svc = await startTestService();
  const account = await svc.createAccount('enterprise');
  key = (await svc.createKey(account.accountId, 's1')).key;
});
after(async () => {
  await svc?.stop();
});

async function post(path: string, body: unknown, bearer = key) {
  const res = await fetch(`${svc.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, any>, headers: res.headers };
}

test('a CDD screening of a name on the OFAC SDN list runs the whole pipeline and finds the listed entity', async () => {
  const res = await post('/api/v1/screening/cdd', { query: 'Vladimir Putin', entity_type: 'individual', jurisdiction: 'RU' });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  const s = res.body.screening;
  assert.equal(res.body.success, true);
  assert.equal(s.status, 'completed');
  assert.ok(s.sanctions_hits >= 1, 'listed on OFAC SDN');
  assert.ok(s.risk_score >= 15, `risk score ${s.risk_score}`);
  assert.equal(typeof s.offshore_leaks_hits, 'number');
  assert.equal(typeof s.summary, 'string');
  assert.equal(res.headers.get('x-ratelimit-limit'), '60');

  const detail = await fetch(`${svc.url}/api/v1/screening/${s.id}`, { headers: { authorization: `Bearer ${key}` } });
  assert.equal(detail.status, 200);
  const d = (await detail.json()) as Record<string, any>;
  const hit = d.screening.hits.sanctions[0];
  assert.ok(hit, 'a sanctions hit is detailed');
  assert.match(hit.entity_name, /PUTIN/i);
  assert.ok(hit.explanation.length > 0);
  assert.equal(hit.entity_type, 'person');
  assert.ok(hit.score >= 0.8 && hit.score <= 1);
  assert.ok(d.screening.sources.some((x: any) => x.agent === 'adverse_media' && x.queried === false), 'unconfigured sources say so');
});

test('an innocent name completes low risk with no hits', async () => {
  const res = await post('/api/v1/screening/cdd', { query: 'Margaret Thistlewood', entity_type: 'individual' });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  assert.equal(res.body.screening.status, 'completed');
  assert.equal(res.body.screening.sanctions_hits, 0);
  assert.equal(res.body.screening.risk_level, 'low');
});

test('when the pipeline is slower than the wait, the API answers 202 running with the screening URL, and the screening stays readable', async () => {
  // A deployment whose agents are elsewhere (AGENTS=none) and not running: nothing completes.
  const apiOnly = await startTestService({ agents: 'none', env: { SCREENING_WAIT_MS: '150' } });
  try {
    const account = await apiOnly.createAccount('enterprise');
    const { key: apiKey } = await apiOnly.createKey(account.accountId, 's1');
    const res = await fetch(`${apiOnly.url}/api/v1/screening/cdd`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'Slow Subject' }),
    });
    assert.equal(res.status, 202);
    const body = (await res.json()) as Record<string, any>;
    assert.equal(body.status, 'running');
    assert.equal(body.screening.status, 'running');
    assert.equal(body.url, `/api/v1/screening/${body.screening.id}`);
    const read = await fetch(`${apiOnly.url}${body.url}`, { headers: { authorization: `Bearer ${apiKey}` } });
    assert.equal(read.status, 200);
    assert.equal(((await read.json()) as Record<string, any>).screening.status, 'running');
  } finally {
    await apiOnly.stop();
  }
});
