/**
 * What S1, S3 and S2 answer, over real HTTP on the bundled lists, for the subjects issue 27 names: most
 * screenings arrive with a name only, and a name alone confirms nothing about identity unless it is
 * distinctive (docs/risk-scoring.md "Confirmed").
 *
 * - A listed person screened by name only is at least high; with the listed date of birth, critical.
 * - A distinctive listed organisation ("Banco Nacional de Cuba") is critical by its exact name.
 * - "Zhang Wei", a very common Chinese name that equals listed names, is potential (high, "EDD
 *   required"), never critical; with a date of birth that contradicts every listed date, at most medium.
 * The answer says which fact confirmed the hit, or that nothing did.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestService, type TestService } from '../../support/service';
import { riskLevelForScore, type RiskLevel } from '../../../src/reports/model';

const ORDER: readonly RiskLevel[] = ['low', 'medium', 'high', 'critical'];
const rank = (level: string) => ORDER.indexOf(level as RiskLevel);

interface Case {
  what: string;
  body: Record<string, unknown>;
  /** Level bounds, inclusive. */
  atLeast?: RiskLevel;
  atMost?: RiskLevel;
  /** The hit that decides, and what the answer must say about its identity. */
  says: RegExp;
  status?: 'confirmed' | 'potential';
}

const cases: Case[] = [
  { what: 'Vladimir Putin, name only', body: { query: 'Vladimir Putin', entity_type: 'individual' }, atLeast: 'high', says: /Putin/i },
  {
    what: 'Vladimir Putin with his listed date of birth',
    body: { query: 'Vladimir Putin', entity_type: 'individual', date_of_birth: '1952-10-07' },
    atLeast: 'critical',
    says: /date of birth 1952-10-07 equals listed/,
    status: 'confirmed',
  },
  { what: 'Kim Jong Un, name only', body: { query: 'Kim Jong Un', entity_type: 'individual' }, atLeast: 'high', says: /Kim/i },
  {
    what: 'Kim Jong Un with his listed date of birth',
    body: { query: 'Kim Jong Un', entity_type: 'individual', date_of_birth: '1984-01-08' },
    atLeast: 'critical',
    says: /date of birth 1984-01-08 equals listed/,
    status: 'confirmed',
  },
  {
    what: 'Banco Nacional de Cuba, name only',
    body: { query: 'Banco Nacional de Cuba', entity_type: 'company' },
    atLeast: 'critical',
    says: /exact match on a distinctive name/,
    status: 'confirmed',
  },
  {
    what: 'Zhang Wei, name only: a common name',
    body: { query: 'Zhang Wei', entity_type: 'individual' },
    atLeast: 'high',
    atMost: 'high',
    says: /name only: common name.*needs an identity fact/,
    status: 'potential',
  },
  {
    what: 'Zhang Wei with a date of birth no listed Zhang Wei has',
    body: { query: 'Zhang Wei', entity_type: 'individual', date_of_birth: '1990-03-15' },
    atMost: 'medium',
    says: /contradict|differs from listed|outside listed|agrees with none/,
    status: 'potential',
  },
];

let svc: TestService;
let s1: string;
let s3: string;
let s2: string;

before(async () => {
  svc = await startTestService({ env: { SCREENING_WAIT_MS: '60000' } });
  const account = await svc.createAccount('enterprise');
  s1 = (await svc.createKey(account.accountId, 's1')).key;
  s3 = (await svc.createKey(account.accountId, 's3', { userId: account.userId })).key;
  s2 = (await svc.createKey(account.accountId, 's2')).key;
});
after(async () => {
  await svc?.stop();
});

async function post(headers: Record<string, string>, body: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${svc.url}/api/v1/screening/cdd`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, body: await res.json() };
}

const surfaces = [
  { name: 'S1', screen: async (body: unknown) => (await expectCreated(await post({ authorization: `Bearer ${s1}` }, body))).screening },
  { name: 'S3', screen: async (body: unknown) => (await expectCreated(await post({ 'x-api-key': s3 }, body))).data },
];
async function expectCreated(res: { status: number; body: any }): Promise<any> {
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body;
}

/** Every hit of a screening read back, whatever the surface's names. */
function hitsOf(screening: any): any[] {
  return Object.values(screening.hits ?? {}).flat() as any[];
}

for (const surface of surfaces) {
  describe(`${surface.name} CDD over HTTP: a name alone is not an identity`, () => {
    for (const c of cases) {
      const bounds = c.atLeast === 'critical' || c.atLeast === c.atMost ? c.atLeast : [c.atLeast && `at least ${c.atLeast}`, c.atMost && `at most ${c.atMost}`].filter(Boolean).join(', ');
      it(`${c.what}: ${bounds}`, async () => {
        const screening = await surface.screen(c.body);
        const level: string = screening.risk_level;
        assert.equal(level, riskLevelForScore(screening.risk_score), 'level and score agree');
        if (c.atLeast) assert.ok(rank(level) >= rank(c.atLeast), `${level} ${screening.risk_score}: ${screening.risk_reason}`);
        if (c.atMost) assert.ok(rank(level) <= rank(c.atMost), `${level} ${screening.risk_score}: ${screening.risk_reason}`);
        // The answer says why: the verdict's sentence names the fact that confirmed the hit, or that nothing did.
        assert.match(screening.risk_reason, c.says, screening.risk_reason);
        if (c.status) {
          const read = await fetch(`${svc.url}/api/v1/screening/${screening.id}`, {
            headers: surface.name === 'S1' ? { authorization: `Bearer ${s1}` } : { 'x-api-key': s3 },
          });
          assert.equal(read.status, 200);
          const detail = (await read.json()) as any;
          const hits = hitsOf(surface.name === 'S1' ? detail.screening : detail.data);
          assert.ok(hits.length > 0, 'the hit is shown');
          const strengths = new Set(hits.map((h) => h.match_strength ?? h.status));
          if (c.status === 'confirmed') assert.ok(strengths.has('confirmed'), [...strengths].join());
          else assert.ok(!strengths.has('confirmed'), `no hit is confirmed by a common name alone: ${[...strengths].join()}`);
        }
      });
    }
  });
}

/**
 * S2 subject checks (persons only, so the Banco case does not apply): the same bounds. A check concludes
 * asynchronously; its `risk_level` and `risk_reason` come from the same scorer. S2 requires a location:
 * each person's own country.
 */
describe('S2 subject checks over HTTP: the same bounds for the same persons and facts', () => {
  const parts = (query: string) => {
    const words = query.split(' ');
    return { first_name: words[0], ...(words.length > 2 ? { middle_name: words.slice(1, -1).join(' ') } : {}), last_name: words.at(-1) };
  };
  for (const c of cases.filter((x) => x.body.entity_type === 'individual')) {
    const bounds = [c.atLeast && `at least ${c.atLeast}`, c.atMost && `at most ${c.atMost}`].filter(Boolean).join(', ');
    it(`${c.what}: ${bounds}`, async () => {
      // S2 requires a location: each person's own country (China adds no floor of its own to Zhang Wei's bound)
      const country = { 'Vladimir Putin': 'RU', 'Kim Jong Un': 'KP', 'Zhang Wei': 'CN' }[String(c.body.query)];
      assert.ok(country, `a location for ${String(c.body.query)}`);
      const body = {
        ...parts(String(c.body.query)),
        ...(c.body.date_of_birth ? { date_of_birth: c.body.date_of_birth } : {}),
        locations: [{ country }],
        purpose: 'employment',
        consent: { certified: true },
      };
      const started = await fetch(`${svc.url}/api/v1/compliance/subject-checks`, { method: 'POST', headers: { authorization: `Bearer ${s2}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
      const created = (await started.json()) as any;
      assert.equal(started.status, 201, JSON.stringify(created));
      let check: any;
      for (let i = 0; i < 600 && !check; i++) {
        const got = (await (await fetch(`${svc.url}/api/v1/compliance/subject-checks/${created.subject_check_id}`, { headers: { authorization: `Bearer ${s2}` } })).json()) as any;
        if (got.subject_check && got.subject_check.status !== 'running') check = got.subject_check;
        else await new Promise((r) => setTimeout(r, 100));
      }
      assert.ok(check, 'the subject check concluded');
      const level: string = check.risk_level;
      if (c.atLeast) assert.ok(rank(level) >= rank(c.atLeast), `${level} ${check.risk_score}: ${check.risk_reason}`);
      if (c.atMost) assert.ok(rank(level) <= rank(c.atMost), `${level} ${check.risk_score}: ${check.risk_reason}`);
      assert.match(check.risk_reason, c.says, check.risk_reason);
    });
  }
});
