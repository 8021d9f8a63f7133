/**
 * Issue 27 on ongoing monitoring, over real HTTP on S1 and S3 with the whole wired service: when a list
 * update adds an entity that matches a monitored subject, its hit is assessed on the subject's own
 * facts exactly as a screening's would be. A date of birth the listing contradicts gives a namesake
 * (at most medium); the listed date of birth confirms (critical on a blocking list). A fresh screening
 * of the same subject after the update gives the same assessment and level. And an alert that leaves
 * score and level unchanged still refreshes the list endpoints' summary (it equals the detail's).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { copySdnList, editSdnCsv, sdnPerson } from '../../support/sdn-file';
import { startTestService, type TestService } from '../../support/service';

let svc: TestService;
let s1Key: string;
let s3Key: string;
let listsDir: string;

before(async () => {
  const lists = copySdnList('svc-monitoring-identity-');
  listsDir = lists.listsDir;
  svc = await startTestService({ env: { ...lists.env, SCREENING_WAIT_MS: '60000' } });
  const account = await svc.createAccount('enterprise');
  s1Key = (await svc.createKey(account.accountId, 's1')).key;
  s3Key = (await svc.createKey(account.accountId, 's3', { userId: account.userId })).key;
});
after(async () => {
  await svc?.stop();
  if (listsDir) rmSync(listsDir, { recursive: true, force: true });
});

type Surface = 's1' | 's3';
const ENVELOPE = {
  s1: { screening: (b: any) => b.screening, list: (b: any) => b.screenings as any[] },
  s3: { screening: (b: any) => b.data, list: (b: any) => b.data.screenings as any[] },
} as const;

async function call(surface: Surface, method: string, urlPath: string, body?: unknown): Promise<{ status: number; body: any }> {
  const auth: Record<string, string> = surface === 's1' ? { authorization: `Bearer ${s1Key}` } : { 'x-api-key': s3Key };
  const res = await fetch(`${svc.url}${urlPath}`, {
    method,
    headers: { ...auth, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  return { status: res.status, body: await res.json() };
}

async function screen(surface: Surface, body: Record<string, unknown>): Promise<any> {
  const res = await call(surface, 'POST', '/api/v1/screening/cdd', { entity_type: 'individual', ...body });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return ENVELOPE[surface].screening(res.body);
}
const detail = async (surface: Surface, id: number | string) => ENVELOPE[surface].screening((await call(surface, 'GET', `/api/v1/screening/${id}`)).body);
async function listed(surface: Surface, id: number | string): Promise<any> {
  await svc.service.runner!.caughtUp();
  const res = await call(surface, 'GET', '/api/v1/screenings?limit=100');
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const row = ENVELOPE[surface].list(res.body).find((s) => s.id === id);
  assert.ok(row, `screening ${id} in the ${surface} list`);
  return row;
}

/** Appends data lines to the copied SDN CSV and reloads the lists: monitoring runs. */
async function listOnSdn(lines: string[]): Promise<void> {
  editSdnCsv(listsDir, (kept) => [...kept, ...lines]);
  await svc.service.reloadLists();
  await svc.service.runner!.caughtUp();
}

const ORDER = ['low', 'medium', 'high', 'critical'];
const hitOn = (screening: any, entityId: string) => screening.hits.sanctions.find((h: any) => h.entity_id === entityId);
/** The alert a screening's stream records for a listed entity (an S3 screening's stream is named by its screening_number). */
async function alertOf(screening: any, entityId: string): Promise<any> {
  const events = await svc.service.store.readStream(`screening-${screening.screening_number ?? screening.id}`);
  return events.find((e) => e.type === 'MonitoringAlertRaised' && (e.data as any).entityId === entityId)?.data;
}

describe('monitoring assesses a listed newcomer on the monitored subject\'s facts (issue 27 on monitoring)', () => {
  // S1: a namesake (another date of birth); S3: the listed person (the listed date of birth).
  let namesake: any;
  let listedPerson: any;
  let namesakeSummaryAfterFirst: string;

  it('given two subjects screened with a date of birth and enrolled, when nobody of their name is listed, then both are low', async () => {
    namesake = await screen('s1', { query: 'Kestrel Zorriban', date_of_birth: '1980-05-05', monitor: true });
    listedPerson = await screen('s3', { query: 'Orsolya Vantrell', date_of_birth: '1970-01-01', nationality: 'HU', monitor: true });
    assert.deepEqual([namesake.risk_level, listedPerson.risk_level], ['low', 'low']);
    await svc.service.runner!.caughtUp();
  });

  it('when a list update adds a person of each name born 01 Jan 1970, then the namesake\'s alert is contradicted (at most medium) and the listed person\'s is confirmed by the date of birth (critical)', async () => {
    await listOnSdn([sdnPerson(99999101, 'ZORRIBAN, Kestrel', '01 Jan 1970'), sdnPerson(99999102, 'VANTRELL, Orsolya', '01 Jan 1970')]);

    const contradicted = await alertOf(namesake, 'ofac_sdn:99999101');
    assert.equal(contradicted?.kind, 'new_hit', 'the namesake is alerted: a name match is still reported');
    assert.equal(contradicted.identity?.assessment, 'identity_contradicted');
    assert.equal(contradicted.identity.confirmation, undefined);
    const s1 = await detail('s1', namesake.id);
    assert.ok(ORDER.indexOf(s1.risk_level) <= ORDER.indexOf('medium') && s1.risk_level !== 'low', `${s1.risk_level} ${s1.risk_score}: ${s1.risk_reason}`);
    const s1Hit = hitOn(s1, 'ofac_sdn:99999101');
    assert.deepEqual([s1Hit.match_strength, s1Hit.match_assessment], ['potential', 'identity_contradicted']);
    assert.match(s1Hit.explanation, /ongoing monitoring \(new hit\).*1980-05-05/);

    const corroborated = await alertOf(listedPerson, 'ofac_sdn:99999102');
    assert.equal(corroborated?.identity?.assessment, 'identity_corroborated');
    assert.equal(corroborated.identity.confirmation.basis, 'date_of_birth');
    const s3 = await detail('s3', listedPerson.id);
    assert.equal(s3.risk_level, 'critical', `${s3.risk_score}: ${s3.risk_reason}`);
    const s3Hit = hitOn(s3, 'ofac_sdn:99999102');
    assert.deepEqual([s3Hit.match_strength, s3Hit.match_assessment, s3Hit.confirmation?.basis], ['confirmed', 'identity_corroborated', 'date_of_birth']);

    // Each list row shows the summary and the per-category hit counts its detail shows (the alert's hit counted).
    for (const [surface, s, d] of [['s1', namesake, s1], ['s3', listedPerson, s3]] as const) {
      const row = await listed(surface, s.id);
      assert.equal(row.summary, d.summary, `${surface} list summary after the alert`);
      assert.equal(row.risk_level, d.risk_level);
      assert.equal(d.sanctions_hits, 1, `${surface}: the detail counts the new hit`);
      for (const count of ['sanctions_hits', 'pep_hits', 'adverse_media_hits', 'offshore_leaks_hits']) {
        assert.equal(row[count], d[count], `${surface} list ${count} after the alert`);
      }
    }
    namesakeSummaryAfterFirst = s1.summary;
  });

  it('then a fresh screening of each subject on the updated list gives the same assessment and level as its alert', async () => {
    for (const [surface, body, s, entityId] of [
      ['s1', { query: 'Kestrel Zorriban', date_of_birth: '1980-05-05' }, namesake, 'ofac_sdn:99999101'],
      ['s3', { query: 'Orsolya Vantrell', date_of_birth: '1970-01-01', nationality: 'HU' }, listedPerson, 'ofac_sdn:99999102'],
    ] as const) {
      const fresh = await detail(surface, (await screen(surface, body)).id);
      const monitored = await detail(surface, s.id);
      assert.equal(monitored.risk_level, fresh.risk_level, `${body.query}: monitored ${monitored.risk_score}, fresh ${fresh.risk_score} (${fresh.risk_reason})`);
      assert.equal(monitored.risk_score, fresh.risk_score);
      assert.equal(hitOn(monitored, entityId).match_assessment, hitOn(fresh, entityId).match_assessment);
    }
  });

  it('when a second namesake is listed and the level stays medium, then the re-score is still recorded and the S1 list\'s summary counts both matches as the detail does', async () => {
    const before = await detail('s1', namesake.id);
    await listOnSdn([sdnPerson(99999103, 'ZORRIBAN, Kestrel', '1972')]);
    const second = await alertOf(namesake, 'ofac_sdn:99999103');
    assert.equal(second?.identity?.assessment, 'identity_contradicted');
    const now = await detail('s1', namesake.id);
    assert.deepEqual([now.risk_score, now.risk_level], [before.risk_score, before.risk_level], 'a second namesake adds nothing to the score');
    assert.notEqual(now.summary, namesakeSummaryAfterFirst, 'the detail counts the second match');
    const events = await svc.service.store.readStream(`screening-${namesake.id}`);
    const last = events.at(-1)!;
    assert.equal(last.type, 'RiskRecomputed', 'the unchanged re-score is recorded for its summary');
    assert.equal((last.data as any).summary, now.summary);
    const row = await listed('s1', namesake.id);
    assert.equal(row.summary, now.summary, 'the list shows what the detail shows');
    assert.deepEqual([row.sanctions_hits, now.sanctions_hits], [2, 2], 'both namesakes counted in the list and the detail');
  });
});
