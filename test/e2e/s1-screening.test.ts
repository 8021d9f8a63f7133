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

test('/metrics exposes read-model lag, the relay position and the loaded lists', async () => {
  const res = await fetch(`${svc.url}/metrics`);
  assert.equal(res.status, 200);
  const text = await res.text();
  assert.match(text, /^svc_projection_lag_events\{projection="screenings",status="running"\} \d+$/m);
  assert.match(text, /^svc_relay_position \d+$/m);
  assert.match(text, /^svc_list_entities\{list="ofac_sdn",version="ofac_sdn@[0-9a-f]+"\} 14965$/m);
});

test('the 13-section PDF report of a screening names every section and the hit, read back with pdftotext', async () => {
  const { execFileSync } = await import('node:child_process');
  const created = await post('/api/v1/screening/cdd', { query: 'Kim Jong Un', entity_type: 'individual' });
  assert.equal(created.status, 201);
  const res = await fetch(`${svc.url}/api/v1/screening/${created.body.screening.id}/report`, { headers: { authorization: `Bearer ${key}` } });
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('content-type'), 'application/pdf');
  assert.match(res.headers.get('content-disposition') ?? '', /attachment; filename="?screening-\d+/);
  const pdf = Buffer.from(await res.arrayBuffer());
  const text = execFileSync('pdftotext', ['-layout', '-', '-'], { input: pdf }).toString('utf8');
  for (const section of ['Cover and verdict', 'Subject', 'Risk score', 'Sanctions', 'PEP', 'Adverse media', 'Offshore leaks', 'Debarment', 'Country risk', 'Registry', 'analysis', 'Data gaps', 'Audit trail']) {
    assert.ok(text.toLowerCase().includes(section.toLowerCase()), `section "${section}" is in the PDF`);
  }
  assert.match(text, /KIM JONG UN/i, 'the hit is named');
  assert.match(text, /ofac_sdn@[0-9a-f]{16}/, 'the list version used is recorded');
});
