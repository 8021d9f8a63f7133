/**
 * Property-based fuzzing of every route that reads a body (and the list routes' query strings), on every
 * surface, through the whole service over real HTTP. Inputs: random JSON, the route's valid body with one
 * field replaced by a wrong type, a huge string, deep nesting or a Unicode edge case (lone surrogates, RTL
 * and zero-width marks, NUL, BOM, combining marks), unknown fields, and raw bytes that are not JSON or not
 * UTF-8. Properties: never a 5xx; every refusal in the surface's own envelope; a refusal writes nothing
 * (caller events, idempotency records, webhook endpoints and sessions counted before and after).
 *
 * Deterministic and bounded: fast-check runs with a fixed seed (FUZZ_SEED overrides it; a failure prints
 * the seed and the shrunk counterexample) and a fixed number of runs per route (FUZZ_RUNS), so the file
 * takes well under a minute on two cores. The service's clock moves an hour every 40 requests so the
 * per-minute and per-hour limits never turn the fuzzing into a stream of 429s.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { loadConfig } from '../../../src/config/config';
import { startService, type RunningService } from '../../../src/bootstrap/service';
import { createLogger } from '../../../src/shared/logger';
import type { Clock } from '../../../src/shared/clock';
import { accountHelpers } from '../../support/service';
import { createTestDatabase, type TestDatabase } from '../../support/postgres';
import { testIndexCacheEnv } from '../../support/index-cache';
import { rawRequest, type RawAnswer } from '../../support/raw-http';

const SEED = Number(process.env.FUZZ_SEED ?? 190_019);
const RUNS = Number(process.env.FUZZ_RUNS ?? 40);

let offsetMs = 0;
let requests = 0;
const clock: Clock = { now: () => new Date(Date.now() + offsetMs) };

let db: TestDatabase;
let service: RunningService;
let url: string;
const creds = { s1: '', s2: '', s3: '', portal: '', session: '' };
let owner: { email: string; password: string };

type Surface = 's1' | 's2' | 's2_session' | 's3' | 'portal';

interface FuzzRoute {
  surface: Surface;
  method: 'POST' | 'PUT' | 'GET';
  path: string;
  headers(): Record<string, string>;
  /** A valid body: the fuzzer mutates it field by field. GET routes fuzz the query string instead. */
  valid?: Record<string, unknown>;
}

const s1 = () => ({ authorization: `Bearer ${creds.s1}` });
const s2 = () => ({ authorization: `Bearer ${creds.s2}` });
const s3 = () => ({ 'x-api-key': creds.s3 });
const portal = () => ({ authorization: `Bearer ${creds.portal}` });
const session = () => ({ cookie: `auth_token=${creds.session}` });
const subject = { first_name: 'Margaret', last_name: 'Smith', locations: [{ country: 'GB', city: 'Leeds' }], purpose: 'employment', consent: { certified: true } };
const sow = {
  query: 'Jane Marlowe',
  declared_source_of_wealth: 'Salary',
  wealth_sources: [{ type: 'employment', description: 'Salary', amount: 1000, currency: 'GBP', evidence: [{ type: 'payslip', issuer: 'Trust' }] }],
};

const routes: FuzzRoute[] = [
  { surface: 's1', method: 'POST', path: '/api/v1/screening/cdd', headers: s1, valid: { query: 'Margaret Smith', entity_type: 'individual', jurisdiction: 'GB' } },
  { surface: 's1', method: 'POST', path: '/api/v1/screening/edd', headers: s1, valid: { query: 'Margaret Smith', source_of_wealth: 'Salary' } },
  { surface: 's1', method: 'POST', path: '/api/v1/screening/ma', headers: s1, valid: { target_name: 'Acme Widgets Ltd', deal_type: 'merger' } },
  { surface: 's1', method: 'POST', path: '/api/v1/person-checks', headers: s1, valid: { full_name: 'Theodora Quill', purpose: 'employment', fcra_consent: true, date_of_birth: '1980-01-02' } },
  { surface: 's1', method: 'POST', path: '/api/v1/screening/1/hits/h1/disposition', headers: s1, valid: { disposition: 'false_positive', reason: 'different person' } },
  { surface: 's1', method: 'GET', path: '/api/v1/screenings', headers: s1 },
  { surface: 's3', method: 'POST', path: '/api/v1/screening/cdd', headers: s3, valid: { query: 'Margaret Smith' } },
  { surface: 's3', method: 'POST', path: '/api/v1/screening/ma', headers: s3, valid: { query: 'Acme Widgets Ltd' } },
  { surface: 's3', method: 'POST', path: '/api/v1/screening/sow', headers: s3, valid: sow },
  { surface: 's3', method: 'POST', path: '/api/v1/keys', headers: s3, valid: { name: 'fuzz key' } },
  { surface: 's3', method: 'GET', path: '/api/v1/screenings', headers: s3 },
  { surface: 's2', method: 'POST', path: '/api/v1/compliance/subject-checks', headers: s2, valid: subject },
  { surface: 's2', method: 'POST', path: '/api/v1/compliance/subject-checks/batch', headers: s2, valid: { subjects: [subject] } },
  { surface: 's2', method: 'POST', path: '/api/v1/compliance/subject-checks/sandbox', headers: s2, valid: subject },
  { surface: 's2', method: 'POST', path: '/api/v1/compliance/subject-checks/1/review-resolution', headers: s2, valid: { resolution: 'cleared', note: 'checked' } },
  { surface: 's2', method: 'POST', path: '/api/v1/compliance/webhooks', headers: s2, valid: { url: 'https://127.0.0.1:9/hook' } },
  { surface: 's2', method: 'GET', path: '/api/v1/compliance/subject-checks', headers: s2 },
  { surface: 's2_session', method: 'POST', path: '/api/account/api-keys', headers: session, valid: { name: 'fuzz' } },
  { surface: 's2_session', method: 'POST', path: '/api/account/session', headers: () => ({}), valid: { email: 'nobody@example.test', password: 'wrong' } },
  { surface: 'portal', method: 'POST', path: '/api/session', headers: () => ({}), valid: { email: 'nobody@example.test', password: 'wrong' } },
  { surface: 'portal', method: 'POST', path: '/api/portal/screenings', headers: portal, valid: { kind: 'cdd', query: 'Margaret Smith' } },
  { surface: 'portal', method: 'POST', path: '/api/person-checks', headers: portal, valid: { first_name: 'Theodora', last_name: 'Quill', purpose: 'employment', fcra_consent: true } },
  { surface: 'portal', method: 'POST', path: '/api/portal/keys', headers: portal, valid: { surface: 's1', name: 'fuzz' } },
  { surface: 'portal', method: 'PUT', path: '/api/webhook-endpoint', headers: portal, valid: { url: 'https://127.0.0.1:9/hook' } },
  { surface: 'portal', method: 'GET', path: '/api/portal/screenings', headers: portal },
];

// ------------------------------------------------------------------------------------------- inputs

const UNICODE_EDGES = [
  '\ud800', // lone high surrogate
  '\udfff', // lone low surrogate
  '\udc00\ud800', // reversed pair
  '\u202e', // RTL override
  '\u200f', // RTL mark
  '\u200b', // zero-width space
  '\u200d', // zero-width joiner
  '\u0000', // NUL
  '\ufeff', // BOM
  '\u0301\u0301\u0301', // combining marks with no base
  '\u0085', // C1 next line
  '\u2028', // line separator
  '\ud83d\ude00', // emoji (valid pair)
  'A\u030a', // decomposed Å
  '\uffff', // noncharacter
];

const unicodeString = fc
  .tuple(fc.string({ maxLength: 8 }), fc.constantFrom(...UNICODE_EDGES), fc.string({ maxLength: 8 }))
  .map(([a, edge, b]) => `${a}${edge}${b}`);

/** Nested arrays or objects, depth 50-3000, built without recursion. */
const deepNesting = fc.tuple(fc.integer({ min: 50, max: 3000 }), fc.boolean()).map(([depth, arrays]) => {
  let value: unknown = 'leaf';
  for (let i = 0; i < depth; i++) value = arrays ? [value] : { n: value };
  return value;
});

const hugeString = fc.tuple(fc.integer({ min: 1_000, max: 200_000 }), fc.constantFrom('a', 'é', '\u200b', ' ', '\ud83d\ude00')).map(([n, c]) => c.repeat(n));

const wrongType = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.double(),
  fc.constant(1e308),
  fc.constant(-0),
  fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 4 }),
  fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }),
);

const adversarialValue = fc.oneof(wrongType, unicodeString, hugeString, deepNesting, fc.string({ maxLength: 40 }), fc.constantFrom('', ' ', '__proto__', 'constructor', '0', '-1', '1e999', 'NaN'));

/** `refuse`: the input must be refused with 400 whatever the route (it is not UTF-8, or names a key twice). */
type Input = { kind: 'json'; value: unknown } | { kind: 'raw'; bytes: Buffer; refuse?: true } | { kind: 'query'; query: string };

/** Bytes that are never UTF-8: stray continuation bytes, overlongs, encoded surrogates, out of range, truncated. */
const INVALID_UTF8 = [[0xff], [0xfe], [0x80], [0xc0, 0xaf], [0xe0, 0x80, 0xaf], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xe2, 0x82], [0xf8, 0x88, 0x80, 0x80, 0x80]];

function bodyInputs(valid: Record<string, unknown>): fc.Arbitrary<Input> {
  const fields = Object.keys(valid);
  return fc.oneof(
    // One field replaced by something adversarial.
    fc.tuple(fc.constantFrom(...fields), adversarialValue).map(([field, value]) => ({ kind: 'json' as const, value: { ...valid, [field]: value } })),
    // One field removed, or an unknown field added (including prototype-ish names).
    fc.constantFrom(...fields).map((field) => ({ kind: 'json' as const, value: Object.fromEntries(Object.entries(valid).filter(([k]) => k !== field)) })),
    fc.tuple(fc.constantFrom('__proto__', 'constructor', 'extra', 'screening_id', 'account_id'), adversarialValue).map(([k, v]) => ({ kind: 'json' as const, value: JSON.parse(`{${JSON.stringify(k)}:${JSON.stringify(v) ?? 'null'},${JSON.stringify(valid).slice(1)}`) })),
    // The valid body with bytes that are not UTF-8 inside one of its strings (the issue's `Jo\xff\xfehn`).
    fc.tuple(fc.nat(), fc.constantFrom(...INVALID_UTF8)).map(([at, bytes]) => {
      const text = Buffer.from(JSON.stringify(valid), 'utf8');
      const quotes = [...text.keys()].filter((i) => text[i] === 0x22);
      const cut = quotes[at % quotes.length]! + 1;
      return { kind: 'raw' as const, refuse: true as const, bytes: Buffer.concat([text.subarray(0, cut), Buffer.from(bytes), text.subarray(cut)]) };
    }),
    // The valid body with one of its keys named twice.
    fc.constantFrom(...fields).map((field) => ({
      kind: 'raw' as const,
      refuse: true as const,
      bytes: Buffer.from(`{${JSON.stringify(field)}:${JSON.stringify(valid[field])},${JSON.stringify(valid).slice(1)}`, 'utf8'),
    })),
    // Random JSON of any shape.
    fc.jsonValue({ maxDepth: 4 }).map((value) => ({ kind: 'json' as const, value })),
    // Raw bytes: not JSON, not UTF-8, truncated.
    fc.uint8Array({ minLength: 1, maxLength: 64 }).map((bytes) => ({ kind: 'raw' as const, bytes: Buffer.from(bytes) })),
    fc.integer({ min: 1, max: 30 }).map((cut) => {
      const text = JSON.stringify(valid);
      return { kind: 'raw' as const, bytes: Buffer.from(text.slice(0, Math.max(1, text.length - cut)), 'utf8') };
    }),
  );
}

const queryInputs: fc.Arbitrary<Input> = fc
  .array(
    fc.tuple(
      fc.constantFrom('page', 'limit', 'search', 'screening_type', 'risk_level', 'status', 'cursor', 'type', 'q', 'page[]', 'limit[x]'),
      fc.oneof(fc.string({ maxLength: 20 }), unicodeString, fc.integer().map(String), fc.constantFrom('-1', '0', '1e9', '99999999999999999999', 'all', '')),
    ),
    { maxLength: 4 },
  )
  .chain((pairs) =>
    // Sometimes a broken percent-encoding appended as is.
    fc.constantFrom('', '&page=%', '&search=%zz', '&search=%ff%fe', '&%00=1', '&limit=1&limit=2').map((tail) => ({
      kind: 'query' as const,
      query: pairs.map(([k, v]) => `${percentEncode(k)}=${percentEncode(v)}`).join('&') + tail,
    })),
  );

/** Every UTF-8 byte percent-encoded (encodeURIComponent throws on a lone surrogate; Buffer writes U+FFFD). */
function percentEncode(value: string): string {
  return [...Buffer.from(value, 'utf8')].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');
}

// ------------------------------------------------------------------------------------------- checks

async function written(): Promise<string> {
  const { rows } = await db.pool.query<{ events: number; idem: number; endpoints: number }>(
    `SELECT (SELECT count(*)::int FROM events WHERE metadata->'actor'->>'surface' IS DISTINCT FROM 'system') AS events,
            (SELECT count(*)::int FROM idempotency_keys) AS idem,
            (SELECT count(*)::int FROM webhook_endpoints) AS endpoints`,
  );
  return JSON.stringify(rows[0]);
}

function assertEnvelope(surface: Surface, answer: RawAnswer): void {
  const body = answer.body;
  assert.ok(body && typeof body === 'object', `JSON error body: ${answer.text.slice(0, 300)}`);
  switch (surface) {
    case 's1':
      assert.equal(body.success, false);
      assert.equal(typeof body.message, 'string');
      assert.equal(typeof body.code, 'string');
      return;
    case 's2':
      assert.equal(typeof body.error?.code, 'string', answer.text.slice(0, 300));
      assert.equal(typeof body.error?.message, 'string');
      return;
    case 's2_session':
      assert.equal(body.success, false);
      assert.equal(typeof body.message, 'string');
      return;
    case 's3':
    case 'portal':
      if (answer.status === 429) assert.equal(typeof body.message, 'string');
      else assert.equal(typeof body.error, 'string', answer.text.slice(0, 300));
      return;
  }
}

async function send(route: FuzzRoute, input: Input): Promise<RawAnswer> {
  if (++requests % 40 === 0) offsetMs += 3_600_000 + 1_000;
  const headers = route.headers();
  switch (input.kind) {
    case 'query':
      return rawRequest(url, route.method, `${route.path}${input.query ? `?${input.query}` : ''}`, { headers });
    case 'raw':
      return rawRequest(url, route.method, route.path, { headers: { ...headers, 'content-type': 'application/json' }, body: input.bytes });
    case 'json': {
      const text = JSON.stringify(input.value) ?? 'null';
      return rawRequest(url, route.method, route.path, { headers, body: Buffer.from(text, 'utf8') });
    }
  }
}

function describeInput(input: Input): string {
  const text = input.kind === 'raw' ? `raw ${input.bytes.toString('hex').slice(0, 200)}` : input.kind === 'query' ? `?${input.query}` : JSON.stringify(input.value) ?? 'undefined';
  return text.length > 400 ? `${text.slice(0, 400)}… (${text.length} chars)` : text;
}

before(async () => {
  db = await createTestDatabase();
  // No agents and no wait: a valid create answers 202 at once (the fuzzing is about the edge, not the pipeline).
  const env = { NODE_ENV: 'test', LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent', DATABASE_URL: db.url, PORT: '0', HOST: '127.0.0.1', LISTS_DIR: 'test/fixtures/lists', SCREENING_WAIT_MS: '0', ...testIndexCacheEnv() };
  const config = loadConfig(env);
  service = await startService({ config, logger: createLogger({ level: config.LOG_LEVEL }), http: true, agents: 'none', projections: true, clock });
  url = service.url!;
  const helpers = accountHelpers(service);
  const account = await helpers.createAccount('enterprise');
  owner = account;
  creds.s1 = (await helpers.createKey(account.accountId, 's1')).key;
  creds.s2 = (await helpers.createKey(account.accountId, 's2')).key;
  creds.s3 = (await helpers.createKey(account.accountId, 's3', { userId: account.userId })).key;
  creds.portal = (await rawRequest(url, 'POST', '/api/session', { json: { email: account.email, password: account.password } })).body.data.token;
});
after(async () => {
  await service?.stop();
  await db?.drop();
});

describe(`schema fuzzing (seed ${SEED}, ${RUNS} runs per route)`, () => {
  for (const route of routes) {
    it(`${route.surface} ${route.method} ${route.path}: no 5xx, the surface's envelope, nothing written on refusal`, async () => {
      if (route.surface === 's2_session') {
        const signed = await rawRequest(url, 'POST', '/api/account/session', { json: { email: owner.email, password: owner.password } });
        creds.session = /auth_token=([^;]+)/.exec(String(signed.headers['set-cookie']))![1]!;
      }
      const inputs = route.valid ? bodyInputs(route.valid) : queryInputs;
      const statuses = new Map<number, number>();
      const result = await fc.check(
        fc.asyncProperty(inputs, async (input) => {
          const before = await written();
          const answer = await send(route, input);
          statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
          assert.ok(answer.status < 500, `5xx: ${answer.status} ${answer.text.slice(0, 300)}`);
          if (input.kind === 'raw' && input.refuse) assert.equal(answer.status, 400, `refused as 400: ${answer.text.slice(0, 300)}`);
          if (answer.status >= 400) {
            assertEnvelope(route.surface, answer);
            assert.equal(await written(), before, `a ${answer.status} refusal wrote something`);
          }
        }),
        { seed: SEED, numRuns: RUNS, endOnFailure: true },
      );
      if (result.failed) {
        const input = result.counterexample?.[0] as Input | undefined;
        assert.fail(
          `fuzz failure on ${route.method} ${route.path} — seed ${result.seed}, path ${result.counterexamplePath}; reproduce with FUZZ_SEED=${result.seed}\n` +
            `input: ${input ? describeInput(input) : 'none'}\n${String((result as { errorInstance?: unknown }).errorInstance ?? 'no error recorded')}`,
        );
      }
      // The fuzzing reached the route's validation: the credentials held (no 401/403 but on sign-in routes,
      // whose valid body has a wrong password) and inputs were refused as input (400/413/422).
      const seen = JSON.stringify(Object.fromEntries(statuses));
      if (!route.path.endsWith('/session')) assert.ok(!statuses.has(401) && !statuses.has(403), `statuses ${seen}`);
      assert.ok([400, 413, 422].some((s) => statuses.has(s)), `statuses ${seen}`);
    });
  }
});
