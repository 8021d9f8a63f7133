/**
 * S2 subject checks over real HTTP on the whole wired service (fixture lists, the real sanctions
 * worker, scripted workers for the other sources: see ./support.ts).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Validator } from '@seriousme/openapi-schema-validator';
import { startTestService, type TestService } from '../../../support/service';
import { subjectCheckRateBucket, S2_SUBJECT_CHECKS_PER_HOUR, S2_SUBJECT_CHECK_WINDOW_SECONDS } from '../../../../src/api/s2/router';
import { call, settled, startScriptedAgents, subject, writes } from './support';

let svc: TestService;
let key: string;
let accountId: string;
let otherKey: string;
let scripted: Awaited<ReturnType<typeof startScriptedAgents>>;

const CHECKS = '/api/v1/compliance/subject-checks';
const post = (path: string, body: unknown, bearer = key) => call(svc.url, 'POST', path, { bearer, body });
const get = (path: string, bearer = key) => call(svc.url, 'GET', path, { bearer });

before(async () => {
  svc = await startTestService({ env: { LISTS_DIR: 'test/fixtures/lists' }, agents: ['sanctions'] });
  scripted = await startScriptedAgents(svc.service.bus);
  const account = await svc.createAccount('enterprise');
  accountId = account.accountId;
  key = (await svc.createKey(accountId, 's2')).key;
  otherKey = (await svc.createKey((await svc.createAccount('enterprise')).accountId, 's2')).key;
});
after(async () => {
  await scripted?.stop();
  await svc?.stop();
});

describe('creating a subject check', () => {
  it('answers 201 at once with the running check id, and the pipeline completes an innocent subject as clean', async () => {
    const res = await post(CHECKS, subject('Thistlewood'));
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.success, true);
    assert.equal(res.body.status, 'running');
    assert.equal(typeof res.body.subject_check_id, 'number');
    assert.equal(res.headers.get('location'), `${CHECKS}/${res.body.subject_check_id}`);
    assert.equal(res.body.subject_check.status, 'running');
    assert.equal(res.body.subject_check.account_id, Number(accountId));
    const check = await settled(svc.url, key, res.body.subject_check_id);
    assert.equal(check.status, 'completed');
    assert.equal(check.overall_result, 'clean');
    assert.equal(check.sources_total, 5);
    assert.equal(check.sources_searched, 3, 'sanctions, offshore_leaks, debarment searched; pep and adverse media not configured');
    assert.equal(check.findings_count, 0);
    assert.equal(check.resolved_by, 'automatic');
    assert.deepEqual(check.sources.map((s: any) => s.agent).sort(), ['adverse_media', 'debarment', 'offshore_leaks', 'pep', 'sanctions']);
    assert.ok(check.sources.find((s: any) => s.agent === 'pep').error.includes('not configured'));
  });

  it('escalates a subject on a sanctions list with the investigation fields', async () => {
    const res = await post(CHECKS, { ...subject('Petrov'), first_name: 'Alexander', locations: [{ country: 'RU' }] });
    assert.equal(res.status, 201, res.text);
    const check = await settled(svc.url, key, res.body.subject_check_id);
    assert.equal(check.status, 'escalated');
    assert.deepEqual(check.triggering_tiers, ['sanctions']);
    assert.ok(check.tier_scores.sanctions >= 80);
    assert.equal(check.investigation_id, `INV-${check.subject_check_id}`);
    assert.equal(check.requested_scope, 'enhanced_due_diligence');
    assert.ok(['critical', 'high'].includes(check.priority));
    assert.ok(Date.parse(check.sla_due_at) > Date.parse(check.escalated_at));
    // On the name alone (a common Russian name) the hit is a potential match: a warning, not a red flag.
    assert.deepEqual([check.red_flag_count, check.warning_count], [0, 1]);
    assert.equal(check.findings[0].tier, 'sanctions');
    assert.match(check.findings[0].entity_name, /PETROV/);
    assert.deepEqual([check.findings[0].match_strength, check.findings[0].assessment], ['potential', 'strong_name_match']);
    // With the listed date of birth the identity agrees: a confirmed hit, a red flag, critical.
    const dated = await post(CHECKS, { ...subject('Petrov'), first_name: 'Alexander', date_of_birth: '1979-07-12', locations: [{ country: 'RU' }] });
    const confirmed = await settled(svc.url, key, dated.body.subject_check_id);
    assert.equal(confirmed.status, 'escalated');
    assert.equal(confirmed.red_flag_count, 1);
    assert.deepEqual([confirmed.findings[0].match_strength, confirmed.findings[0].confirmation?.basis], ['confirmed', 'date_of_birth']);
    assert.equal(confirmed.risk_level, 'critical');
  });

  it('needs review when too few sources could be searched, or when the best hit is ambiguous', async () => {
    const sparse = await settled(svc.url, key, (await post(CHECKS, subject('Sparse'))).body.subject_check_id);
    assert.equal(sparse.status, 'needs_review');
    assert.equal(sparse.review_reason, 'insufficient_source_coverage');
    assert.equal(sparse.sources_searched, 1);
    assert.equal(sparse.overall_result, 'inconclusive');
    const ambiguous = await settled(svc.url, key, (await post(CHECKS, subject('Ambiguous'))).body.subject_check_id);
    assert.equal(ambiguous.status, 'needs_review');
    assert.equal(ambiguous.review_reason, 'ambiguous_match');
    assert.equal(ambiguous.warning_count, 1);
  });

  it('escalates on a PEP tier score and fails on a corrupt source result without leaking internals', async () => {
    const pep = await settled(svc.url, key, (await post(CHECKS, subject('Political'))).body.subject_check_id);
    assert.equal(pep.status, 'escalated');
    assert.deepEqual(pep.triggering_tiers, ['pep']);
    assert.equal(pep.tier_scores.pep, 97);
    const broken = await settled(svc.url, key, (await post(CHECKS, subject('Broken'))).body.subject_check_id);
    assert.equal(broken.status, 'failed');
    assert.match(broken.error_message, /Internal error/);
    assert.doesNotMatch(broken.error_message, /JSON|Syntax|at \w+ \(/);
    assert.ok(broken.failed_at);
  });
});

describe('bad input leaves nothing written', () => {
  const invalid: [string, unknown, RegExp[]][] = [
    ['an empty object: one message for each of first_name, last_name, location, purpose, consent', {}, [/^first_name: /, /^last_name: /, /^locations: .*location/, /^purpose: /, /^consent: /]],
    ['wrong types', { first_name: 42, last_name: ['x'], locations: 'GB', purpose: true, consent: 'yes' }, [/^first_name/, /^last_name/, /^locations/, /^purpose/, /^consent/]],
    ['no location and uncertified consent', { ...subject('Smith'), locations: [], consent: { certified: false } }, [/^locations: .*location/, /^consent.certified: /]],
    ['an unknown purpose and a location without a country', { ...subject('Smith'), purpose: 'curiosity', locations: [{ city: 'Leeds' }] }, [/^purpose: must be one of/, /^locations\[0\]\.country: is required/]],
    ['oversized names', { ...subject('x'.repeat(101)), first_name: 'y'.repeat(5000) }, [/^first_name: must be at most 100/, /^last_name: must be at most 100/]],
    ['control characters and markup', { ...subject('Smith\u0000'), first_name: '<script>alert(1)</script>' }, [/^first_name: may contain only letters/, /^last_name: must not contain control/]],
    ['SQL in a name', { ...subject("x'; DROP TABLE events; --") }, [/^last_name: may contain only letters/]],
    ['a lone surrogate', { ...subject('Sm\ud800ith') }, [/^last_name: must be well-formed Unicode/]],
    ['a name that is only a title and a legal form', { ...subject('Ltd.'), first_name: 'Mr.' }, [/^last_name: first_name, middle_name, last_name together: names only a legal form/]],
    ['a name that is only legal forms', { ...subject('GmbH'), first_name: 'LLC', middle_name: 'Inc.' }, [/^last_name: .*names only a legal form/]],
    ['an unknown field (a typo of locations)', { ...subject('Smith'), location: { country: 'GB' } }, [/^location: unknown field/]],
    ['a future date of birth', { ...subject('Smith'), date_of_birth: '2999-01-01' }, [/^date_of_birth: must be a real date/]],
    ['a body that is not an object', [1, 2, 3], [/^body: must be a JSON object/, /^first_name: is required/, /^last_name: is required/, /^locations: /, /^purpose: /, /^consent: /]],
  ];
  for (const [name, body, expected] of invalid) {
    it(`400 invalid_payload for ${name}`, async () => {
      const before = await writes(svc);
      for (const path of [CHECKS, `${CHECKS}/sandbox`]) {
        const res = await post(path, body);
        assert.equal(res.status, 400, `${path}: ${res.text}`);
        assert.equal(res.body.error.code, 'invalid_payload');
        assert.equal(res.body.error.errors.length, expected.length, JSON.stringify(res.body.error.errors));
        for (const pattern of expected) assert.ok(res.body.error.errors.some((e: string) => pattern.test(e)), `${pattern} in ${JSON.stringify(res.body.error.errors)}`);
      }
      assert.deepEqual(await writes(svc), before);
    });
  }

  it('400 for a body that is not JSON and 413 for an oversized one, both in the S2 envelope', async () => {
    const before = await writes(svc);
    const notJson = await call(svc.url, 'POST', CHECKS, { bearer: key, raw: '{"first_name": ' });
    assert.equal(notJson.status, 400);
    assert.equal(notJson.body.error.code, 'invalid_payload');
    const wrongType = await call(svc.url, 'POST', CHECKS, { bearer: key, raw: JSON.stringify(subject('Smith')), headers: { 'content-type': 'text/plain' } });
    assert.equal(wrongType.status, 400);
    assert.match(wrongType.body.error.errors[0], /Content-Type: application\/json/);
    const huge = await call(svc.url, 'POST', CHECKS, { bearer: key, raw: JSON.stringify({ ...subject('Smith'), consent: { certified: true, statement: 'x'.repeat(300_000) } }) });
    assert.equal(huge.status, 413);
    assert.ok(huge.body.error.code);
    assert.deepEqual(await writes(svc), before);
  });

  it('401 invalid_key_format for a missing or malformed header, invalid_key for an unknown token, whatever the body', async () => {
    const before = await writes(svc);
    const cases: [Record<string, string>, string][] = [
      [{}, 'invalid_key_format'],
      [{ authorization: 'Basic abc' }, 'invalid_key_format'],
      [{ authorization: 'Bearer svc_aaaaaaaaaaaaaaaaaaaaaaaa' }, 'invalid_key_format'],
      [{ authorization: 'Bearer svca_short' }, 'invalid_key_format'],
      [{ authorization: `Bearer svca_${'A'.repeat(43)}` }, 'invalid_key'],
    ];
    for (const [headers, code] of cases) {
      const res = await call(svc.url, 'POST', CHECKS, { headers, raw: '{broken' });
      assert.equal(res.status, 401, JSON.stringify(headers));
      assert.equal(res.body.error.code, code, JSON.stringify(headers));
      const list = await call(svc.url, 'GET', CHECKS, { headers });
      assert.equal(list.body.error.code, code);
    }
    assert.deepEqual(await writes(svc), before);
  });
});

describe('reading and listing', () => {
  it('GET is own account only (404 otherwise), 400 for a non-numeric id', async () => {
    const id = (await post(CHECKS, subject('Owner'))).body.subject_check_id;
    assert.equal((await get(`${CHECKS}/${id}`)).status, 200);
    const foreign = await get(`${CHECKS}/${id}`, otherKey);
    assert.equal(foreign.status, 404);
    assert.equal(foreign.body.error.code, 'not_found');
    assert.equal((await get(`${CHECKS}/999999999`)).status, 404);
    for (const bad of ['abc', '0', '-1', '1.5', '1%27%20OR%201=1', '9'.repeat(16), '9'.repeat(30)]) {
      const res = await get(`${CHECKS}/${bad}`);
      assert.equal(res.status, 400, bad);
      assert.equal(res.body.error.code, 'invalid_payload');
    }
    const list = await get(CHECKS, otherKey);
    assert.equal(list.body.total, 0, 'another account sees none of these checks');
  });

  it('lists newest first with a keyset cursor and filters', async () => {
    const first = await get(`${CHECKS}?limit=2`);
    assert.equal(first.status, 200);
    assert.equal(first.body.subject_checks.length, 2);
    assert.ok(first.body.total >= 6);
    const ids = first.body.subject_checks.map((c: any) => c.subject_check_id);
    assert.ok(ids[0] > ids[1]);
    const second = await get(`${CHECKS}?limit=2&cursor=${first.body.next_cursor}`);
    assert.ok(second.body.subject_checks.every((c: any) => c.subject_check_id < ids[1]));
    const escalated = await get(`${CHECKS}?status=escalated&limit=100`);
    assert.ok(escalated.body.subject_checks.length >= 2);
    assert.ok(escalated.body.subject_checks.every((c: any) => c.status === 'escalated'));
    for (const bad of ['limit=0', 'limit=101', 'limit=abc', 'status=done', 'cursor=xyz', 'batch_id=nope', 'unknown=1']) {
      const res = await get(`${CHECKS}?${bad}`);
      assert.equal(res.status, 400, bad);
      assert.equal(res.body.error.code, 'invalid_payload');
    }
  });
});

describe('reviewer decisions', () => {
  async function inState(state: string): Promise<number> {
    const last = { running: 'Pending', needs_review: 'Sparse', escalated: 'Political', completed: 'Thistlewood', failed: 'Broken' }[state]!;
    const id = (await post(CHECKS, subject(last))).body.subject_check_id;
    if (state !== 'running') await settled(svc.url, key, id, state);
    return id;
  }
  const decision = { outcome: 'clear', note: 'Reviewed the sources by hand' };
  // state × command → expected status (and state after)
  const table: [string, 'review-resolution' | 'investigation-closure', number, string][] = [
    ['running', 'review-resolution', 409, 'running'],
    ['running', 'investigation-closure', 409, 'running'],
    ['needs_review', 'review-resolution', 200, 'completed'],
    ['needs_review', 'investigation-closure', 409, 'needs_review'],
    ['escalated', 'review-resolution', 409, 'escalated'],
    ['escalated', 'investigation-closure', 200, 'completed'],
    ['completed', 'review-resolution', 409, 'completed'],
    ['completed', 'investigation-closure', 409, 'completed'],
    ['failed', 'review-resolution', 409, 'failed'],
    ['failed', 'investigation-closure', 409, 'failed'],
  ];
  for (const [state, command, status, after] of table) {
    it(`${command} on a ${state} check → ${status}, ${after}`, async () => {
      const id = await inState(state);
      const before = await writes(svc);
      const res = await post(`${CHECKS}/${id}/${command}`, decision);
      assert.equal(res.status, status, res.text);
      if (status === 409) {
        assert.equal(res.body.error.code, 'illegal_transition');
        assert.equal((await writes(svc)).events, before.events, 'a refused decision appends nothing');
      } else {
        assert.equal(res.body.subject_check.status, after);
        assert.equal(res.body.subject_check.overall_result, 'clean');
        assert.equal(res.body.subject_check.decisions.length, 1);
      }
      assert.equal((await get(`${CHECKS}/${id}`)).body.subject_check.status, after);
    });
  }

  it('an adverse review escalates with an investigation; closing it adverse completes as adverse_found', async () => {
    const id = await inState('needs_review');
    const escalated = await post(`${CHECKS}/${id}/review-resolution`, { outcome: 'adverse', note: 'Same person: matching address', reviewer: 'analyst@example.com' });
    assert.equal(escalated.status, 200, escalated.text);
    assert.equal(escalated.body.subject_check.status, 'escalated');
    assert.deepEqual(escalated.body.subject_check.triggering_tiers, ['manual_review']);
    assert.equal(escalated.body.subject_check.investigation_id, `INV-${id}`);
    const closed = await post(`${CHECKS}/${id}/investigation-closure`, { outcome: 'adverse', note: 'Confirmed' });
    assert.equal(closed.body.subject_check.status, 'completed');
    assert.equal(closed.body.subject_check.overall_result, 'adverse_found');
    assert.deepEqual(closed.body.subject_check.decisions.map((d: any) => d.reviewer), ['analyst@example.com', `api_key:${closed.body.subject_check.decisions[1].reviewer.split(':')[1]}`]);
  });

  it('decisions are validated, own-account only, and leave nothing written when refused', async () => {
    const id = await inState('needs_review');
    const before = await writes(svc);
    const bad = await post(`${CHECKS}/${id}/review-resolution`, { outcome: 'maybe', note: '' });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.errors.length, 2);
    const foreign = await post(`${CHECKS}/${id}/review-resolution`, decision, otherKey);
    assert.equal(foreign.status, 404);
    assert.equal((await post(`${CHECKS}/abc/review-resolution`, decision)).status, 400);
    assert.deepEqual(await writes(svc), before);
  });
});

describe('sandbox', () => {
  it('answers a deterministic completed clear_no_match and writes nothing: no event, no limiter change', async () => {
    const before = await writes(svc);
    const peekBefore = await svc.service.services.limits.peek(subjectCheckRateBucket(accountId), S2_SUBJECT_CHECKS_PER_HOUR, S2_SUBJECT_CHECK_WINDOW_SECONDS);
    const a = await post(`${CHECKS}/sandbox`, { ...subject('Petrov'), first_name: 'Alexander' });
    const b = await post(`${CHECKS}/sandbox`, { ...subject('Petrov'), first_name: 'Alexander' });
    assert.equal(a.status, 200, a.text);
    assert.equal(a.body.status, 'completed');
    assert.equal(a.body.overall_result, 'clear_no_match');
    assert.equal(a.body.subject_check.overall_result, 'clear_no_match');
    assert.equal(a.body.subject_check_id, 0);
    const strip = (x: any) => ({ ...x.subject_check, created_at: 0, updated_at: 0, completed_at: 0 });
    assert.deepEqual(strip(a.body), strip(b.body), 'deterministic apart from the time');
    await new Promise((r) => setTimeout(r, 700)); // a projection or relay would have written by now
    assert.deepEqual(await writes(svc), before);
    const peekAfter = await svc.service.services.limits.peek(subjectCheckRateBucket(accountId), S2_SUBJECT_CHECKS_PER_HOUR, S2_SUBJECT_CHECK_WINDOW_SECONDS);
    assert.equal(peekAfter.remaining, peekBefore.remaining);
    assert.equal((await get(`${CHECKS}/0`)).status, 400);
  });
});

describe('batch creation', () => {
  it('starts each valid subject as its own check and reports invalid ones per item', async () => {
    const res = await post(`${CHECKS}/batch`, { subjects: [subject('Thistlewood'), { first_name: 'X' }, subject('Ambiguous'), subject('Sparse')] });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.created_count, 3);
    assert.equal(res.body.rejected_count, 1);
    assert.deepEqual(res.body.results.map((r: any) => r.status), ['created', 'rejected', 'created', 'created']);
    const rejected = res.body.results[1];
    assert.equal(rejected.error.code, 'invalid_payload');
    assert.ok(rejected.error.errors.some((e: string) => e.startsWith('subjects[1].last_name')));
    const ids = res.body.results.filter((r: any) => r.status === 'created').map((r: any) => r.subject_check_id);
    assert.equal(new Set(ids).size, 3);
    for (const id of ids) assert.equal((await svc.service.store.readStream(`subject-check-${id}`))[0]!.type, 'SubjectCheckStarted');
    const listed = await get(`${CHECKS}?batch_id=${res.body.batch_id}`);
    assert.deepEqual(listed.body.subject_checks.map((c: any) => c.subject_check_id).sort(), [...ids].sort());
    const finals = await Promise.all(ids.map((id: number) => settled(svc.url, key, id)));
    assert.deepEqual(finals.map((c) => c.status), ['completed', 'needs_review', 'needs_review']);
  });

  it('400 for an empty batch, more than 100 subjects, or no valid subject; nothing written', async () => {
    const before = await writes(svc);
    for (const body of [{ subjects: [] }, { subjects: Array.from({ length: 101 }, () => subject('Smith')) }, { subjects: [{}, { last_name: 1 }] }, { people: [] }, []]) {
      const res = await post(`${CHECKS}/batch`, body);
      assert.equal(res.status, 400, res.text.slice(0, 200));
      assert.equal(res.body.error.code, 'invalid_payload');
    }
    const none = await post(`${CHECKS}/batch`, { subjects: [{}, { last_name: 1 }] });
    assert.ok(none.body.error.errors.some((e: string) => e.startsWith('subjects[0].first_name')));
    assert.ok(none.body.error.errors.some((e: string) => e.startsWith('subjects[1].last_name')));
    assert.deepEqual(await writes(svc), before);
  });
});

describe('limits and errors', () => {
  it('60 subject checks per hour per account: the 61st gets 429 rate_limited with Retry-After in the header only', async () => {
    const account = await svc.createAccount('enterprise');
    const limited = (await svc.createKey(account.accountId, 's2')).key;
    const bucket = subjectCheckRateBucket(account.accountId);
    // 59 checks already made this hour (the limiter's own state, as 59 creations would leave it).
    for (let i = 0; i < 59; i++) await svc.service.services.limits.consume(bucket, S2_SUBJECT_CHECKS_PER_HOUR, S2_SUBJECT_CHECK_WINDOW_SECONDS);
    const batchTooBig = await post(`${CHECKS}/batch`, { subjects: [subject('Pending'), subject('Pending')] }, limited);
    assert.equal(batchTooBig.status, 429, 'the hour has room for one, not two: nothing starts');
    const sixtieth = await post(CHECKS, subject('Pending'), limited);
    assert.equal(sixtieth.status, 201);
    const before = await writes(svc);
    const sixtyFirst = await post(CHECKS, subject('Pending'), limited);
    assert.equal(sixtyFirst.status, 429);
    assert.equal(sixtyFirst.body.error.code, 'rate_limited');
    const retryAfter = Number(sixtyFirst.headers.get('retry-after'));
    assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 3600, String(retryAfter));
    assert.deepEqual(Object.keys(sixtyFirst.body.error).sort(), ['code', 'message']);
    assert.doesNotMatch(sixtyFirst.text, /retry_after|retryAfter|"\d+ seconds/i);
    assert.deepEqual(await writes(svc), before, 'a refused creation writes nothing');
    // The sandbox does not count and is not refused.
    assert.equal((await post(`${CHECKS}/sandbox`, subject('Pending'), limited)).status, 200);
    // Other accounts have their own allowance.
    assert.equal((await post(CHECKS, subject('Pending'))).status, 201);
  });

  it('500 internal_error carries no stack trace or internals', async () => {
    const original = svc.service.services.subjectChecks.start.bind(svc.service.services.subjectChecks);
    svc.service.services.subjectChecks.start = async () => {
      throw new Error('connect ECONNREFUSED 10.0.0.7:5432 at Pool.connect (/srv/app/node_modules/pg/lib/index.js:45:11)');
    };
    try {
      const res = await post(CHECKS, subject('Smith'));
      assert.equal(res.status, 500);
      assert.equal(res.body.error.code, 'internal_error');
      assert.doesNotMatch(res.text, /ECONNREFUSED|node_modules|at Pool|10\.0\.0\.7/);
      assert.match(res.body.error.message, /request/);
    } finally {
      svc.service.services.subjectChecks.start = original;
    }
  });
});

describe('OpenAPI', () => {
  it('documents every S2 route in the valid OpenAPI document served without authentication', async () => {
    const res = await call(svc.url, 'GET', '/api/v1/openapi.json');
    assert.equal(res.status, 200);
    const validation = await new Validator().validate(structuredClone(res.body));
    assert.equal(validation.valid, true, JSON.stringify(validation.errors));
    const paths = Object.keys(res.body.paths);
    for (const path of [
      '/api/v1/compliance/subject-checks',
      '/api/v1/compliance/subject-checks/batch',
      '/api/v1/compliance/subject-checks/sandbox',
      '/api/v1/compliance/subject-checks/{id}',
      '/api/v1/compliance/subject-checks/{id}/review-resolution',
      '/api/v1/compliance/subject-checks/{id}/investigation-closure',
      '/api/v1/compliance/api-keys/rotate',
      '/api/v1/compliance/webhooks',
      '/api/v1/compliance/webhooks/test',
      '/api/v1/compliance/webhooks/deliveries',
      '/api/v1/compliance/webhooks/deliveries/{id}',
      '/api/v1/compliance/webhooks/deliveries/{id}/retry',
      '/api/account/session',
      '/api/account/api-keys',
      '/api/account/api-keys/{id}',
    ]) {
      assert.ok(paths.includes(path), path);
    }
    for (const event of ['subject_check.processing', 'subject_check.review_required', 'subject_check.escalated', 'subject_check.completed', 'subject_check.failed', 'subject_check.retry', 'webhook.test']) {
      assert.ok(res.body['x-webhooks'][event], event);
    }
    const create = res.body.paths['/api/v1/compliance/subject-checks'].post;
    const schema = res.body.components.schemas.S2SubjectCheckRequest;
    assert.deepEqual([...schema.required].sort(), ['consent', 'first_name', 'last_name', 'locations', 'purpose']);
    assert.ok(create.responses['429'].headers['Retry-After']);
  });
});
