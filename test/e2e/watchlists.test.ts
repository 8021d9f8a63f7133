/**
 * Issue 21 end to end, over real HTTP on the whole service: an account creates its own list (S3),
 * imports a CSV of a few hundred entries with a column mapping, screens a customer (portal) who
 * matches one entry by nickname and date of birth among namesakes, sees the hit with its
 * explanation and the list's severity in the risk level; `svc audit reproduce` gives the same hits
 * from the list version the screening recorded, also after the entry is removed.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestService, type TestService } from '../support/service';
import { rawRequest } from '../support/raw-http';
import { reproduceScreening } from '../../src/app/audit/reproduce';
import { ListRegistry } from '../../src/screening/lists/registry';
import { listsConfig } from '../../src/screening/lists/config';
import path from 'node:path';

let svc: TestService;
let key: string;
let portal: Record<string, string>;

before(async () => {
  svc = await startTestService({ env: { LISTS_DIR: 'test/fixtures/lists' } });
  const account = await svc.createAccount('enterprise');
  key = (await svc.createKey(account.accountId, 's3', { userId: account.userId })).key;
  const signIn = await rawRequest(svc.url, 'POST', '/api/session', { json: { email: account.email, password: account.password } });
  assert.equal(signIn.status, 200, signIn.text);
  portal = { authorization: `Bearer ${signIn.body.data.token}` };
});
after(async () => {
  await svc?.stop();
});

const SURNAMES = ['Okafor', 'Lindqvist', 'Moreau', 'Havel', 'Castellano', 'Nakamura', 'Brennan', 'Petrov', 'Sato', 'Dubois', 'Kowalski', 'Andersen'];
const GIVEN = ['Alice', 'Tomasz', 'Ingrid', 'Pierre', 'Yuki', 'Sean', 'Marta', 'Olu', 'Nils', 'Chiara'];

/** A few hundred ordinary entries, five namesakes of the target with other birth dates, and the target. */
function exitsCsv(): { csv: string; rows: number } {
  const lines = ['Client Ref|Surname|Forenames|Born|Addr|Town|Post Code|Ctry|Why'];
  let n = 0;
  for (const surname of SURNAMES) {
    for (const given of GIVEN) {
      for (const year of [1960, 1975]) {
        n += 1;
        lines.push(`X-${n}|${surname}|${given}|${String((n % 27) + 1).padStart(2, '0')}/0${(n % 9) + 1}/${year + (n % 13)}|${n} High Street|Leeds|LS${n % 20} 1AA|United Kingdom|exited ${n}`);
      }
    }
  }
  for (const [i, dob] of ['12/11/1958', '01/01/1980', '30/06/1990', '15/02/1971', '03/05/1972'].entries()) {
    lines.push(`NS-${i}|Smith|Robert|${dob}|${i + 1} Other Road|Bristol|BS${i} 2BB|United Kingdom|namesake ${i}`);
  }
  lines.push('TARGET-1|Smith|Robert|03/04/1971|12 Baker Street|London|NW1 6XE|United Kingdom|"card fraud, account exited 2024"');
  return { csv: lines.map((l) => l.replace(/\|/g, ',')).join('\n'), rows: lines.length - 1 };
}

async function screen(body: Record<string, unknown>): Promise<any> {
  const created = await rawRequest(svc.url, 'POST', '/api/portal/screenings', { headers: portal, json: body });
  assert.equal(created.status, 201, created.text);
  const id = created.body.data.screening.id;
  const deadline = Date.now() + 60_000;
  for (;;) {
    const got = await rawRequest(svc.url, 'GET', `/api/portal/screenings/${id}`, { headers: portal });
    assert.equal(got.status, 200, got.text);
    if (got.body.data.screening.status !== 'running') return got.body.data.screening;
    if (Date.now() > deadline) throw new Error(`screening ${id} still running`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('internal watchlists end to end', () => {
  let listId: string;
  let screeningId: string;
  let screeningUuid: string;
  const alerts = async (id: string) =>
    (await svc.service.store.readStream(`screening-${id}`)).filter((e) => e.type === 'MonitoringAlertRaised').map((e) => e.data as { kind: string; entityId: string; listVersion: string });

  it('creates a block list and imports a few hundred entries with a mapping', async () => {
    const created = await rawRequest(svc.url, 'POST', '/api/v1/watchlists', { headers: { 'x-api-key': key }, json: { name: 'Exited customers', purpose: 'fraud exits', severity: 'block', owner: 'fincrime' } });
    assert.equal(created.status, 201, created.text);
    listId = created.body.data.id;
    const { csv, rows } = exitsCsv();
    assert.ok(rows >= 200);
    const mapping = { columns: { 'Client Ref': 'entry_id', Born: 'date_of_birth', Addr: 'address_line', 'Post Code': 'postal_code', Ctry: 'country', Why: 'reason' } };
    const preview = await rawRequest(svc.url, 'POST', `/api/v1/watchlists/${listId}/imports/preview`, { headers: { 'x-api-key': key, 'content-type': 'text/csv', 'x-import-mapping': JSON.stringify(mapping) }, body: csv });
    assert.equal(preview.status, 200, preview.text);
    assert.deepEqual([preview.body.data.rows, preview.body.data.error_count, JSON.stringify(preview.body.data.errors), preview.body.data.mapping.Surname, preview.body.data.mapping.Forenames], [rows, 0, "[]", 'last_name', 'first_name']);
    const imported = await rawRequest(svc.url, 'POST', `/api/v1/watchlists/${listId}/imports?file_name=exits.csv`, { headers: { 'x-api-key': key, 'content-type': 'text/csv', 'x-import-mapping': JSON.stringify(mapping) }, body: csv });
    assert.equal(imported.status, 201, imported.text);
    assert.deepEqual([imported.body.data.import.added, imported.body.data.watchlist.version], [rows, 2]);
  });

  it('screens "Bob Smith" born 1971-04-03: one hit on the target (nickname + DOB), none on the namesakes; the list severity sets the risk level', async () => {
    const screening = await screen({ kind: 'cdd', query: 'Bob Smith', entity_type: 'individual', date_of_birth: '1971-04-03', nationality: 'GB' });
    screeningId = String(screening.id);
    screeningUuid = String(screening.uuid);
    assert.equal(screening.status, 'completed', JSON.stringify(screening));
    const internal = (screening.hits as any[]).filter((h) => String(h.entityId ?? h.entity_id ?? '').startsWith('internal_list:') || h.source === 'internal_list');
    assert.equal(internal.length, 1, JSON.stringify(screening.hits));
    const hit = internal[0];
    assert.match(JSON.stringify(hit), /TARGET-1/);
    assert.match(JSON.stringify(hit), /internal list: Exited customers/);
    assert.match(JSON.stringify(hit), /nickname Bob → Robert/);
    assert.match(JSON.stringify(hit), /date of birth 1971-04-03 equals listed 1971-04-03/);
    // A potential hit on a "block" list: the floor makes the level high (docs/risk-scoring.md).
    assert.equal(screening.risk_level ?? screening.riskLevel, 'high', JSON.stringify({ level: screening.risk_level, score: screening.risk_score }));
    const events = await svc.service.store.readStream(`screening-${screening.screening_number ?? screening.id}`);
    const completed = events.find((e) => e.type === 'ScreeningCompleted')!;
    const versions = (completed.data as { listVersions: { id: string; source: string }[] }).listVersions;
    assert.ok(versions.some((v) => v.id === `watchlist-${listId}@v2` && v.source === 'internal_list'), JSON.stringify(versions));
  });

  it('a namesake without the date of birth is not an alert: the name alone stays below the threshold', async () => {
    const screening = await screen({ kind: 'cdd', query: 'Robert Smith', entity_type: 'individual' });
    const internal = (screening.hits as any[]).filter((h) => JSON.stringify(h).includes('internal list:'));
    assert.deepEqual(internal, []);
  });

  it('svc audit reproduce gives the same hits from the recorded list version, also after the entry is removed', async () => {
    const config = svc.service.config;
    const lists = new ListRegistry(listsConfig({ listsDir: config.LISTS_DIR, dataDir: path.resolve(config.DATA_DIR, 'lists') }));
    const id = screeningId;
    const before = await reproduceScreening({ store: svc.service.store, lists }, id);
    const internal = before.listVersions.find((v) => v.source === 'internal_list');
    assert.equal(internal?.available, true, JSON.stringify(before));
    assert.ok(before.recordedListHits >= 1 && before.reproducedHits === before.recordedListHits, JSON.stringify(before));
    assert.equal(before.onlyRecorded.length + before.onlyReproduced.length + before.changed.length, 0, JSON.stringify(before));
    // The screening is monitored: removing the entry flags its hit ("entry removed"), once.
    const enrolled = await rawRequest(svc.url, 'POST', `/api/v1/screening/${screeningUuid}/monitoring`, { headers: { 'x-api-key': key } });
    assert.equal(enrolled.status, 200, enrolled.text);
    const removed = await rawRequest(svc.url, 'DELETE', `/api/v1/watchlists/${listId}/entries/TARGET-1`, { headers: { 'x-api-key': key } });
    assert.equal(removed.status, 200, removed.text);
    assert.deepEqual(
      (await alerts(screeningId)).map((a) => [a.kind, a.entityId, a.listVersion]),
      [['removed_hit', `internal_list:${listId}:TARGET-1`, `watchlist-${listId}@v3`]],
    );
    const afterRemoval = await reproduceScreening({ store: svc.service.store, lists }, id);
    assert.equal(afterRemoval.onlyRecorded.length + afterRemoval.onlyReproduced.length + afterRemoval.changed.length, 0, JSON.stringify(afterRemoval));
    // A new screening uses the new version and no longer finds the removed entry.
    const again = await screen({ kind: 'cdd', query: 'Bob Smith', entity_type: 'individual', date_of_birth: '1971-04-03' });
    assert.deepEqual((again.hits as any[]).filter((h) => JSON.stringify(h).includes('internal list:')), []);
  });

  it('adding an entry that matches a monitored subject raises a new_hit; an unrelated entry raises nothing; another account is never touched', async () => {
    const add = (body: Record<string, unknown>) => rawRequest(svc.url, 'POST', `/api/v1/watchlists/${listId}/entries`, { headers: { 'x-api-key': key }, json: body });
    const unrelated = await add({ entry_id: 'OTHER-1', primary_name: 'Wilhelmina Quarrie', dates_of_birth: ['1950-01-01'] });
    assert.equal(unrelated.status, 201, unrelated.text);
    assert.equal((await alerts(screeningId)).length, 1, 'only the earlier removed_hit');
    const readded = await add({ entry_id: 'TARGET-2', primary_name: 'Robert Smith', dates_of_birth: ['1971-04-03'], reason: 'relisted' });
    assert.equal(readded.status, 201, readded.text);
    const after = await alerts(screeningId);
    assert.deepEqual(after.slice(1).map((a) => [a.kind, a.entityId]), [['new_hit', `internal_list:${listId}:TARGET-2`]]);
    // Another account's monitored subject with the same name and date of birth: this account's list never reaches it.
    const other = await svc.createAccount('enterprise');
    const otherKey = (await svc.createKey(other.accountId, 's3', { userId: other.userId })).key;
    const otherSignIn = await rawRequest(svc.url, 'POST', '/api/session', { json: { email: other.email, password: other.password } });
    const otherPortal = { authorization: `Bearer ${otherSignIn.body.data.token}` };
    const theirs = await rawRequest(svc.url, 'POST', '/api/portal/screenings', { headers: otherPortal, json: { kind: 'cdd', query: 'Bob Smith', entity_type: 'individual', date_of_birth: '1971-04-03' } });
    assert.equal(theirs.status, 201, theirs.text);
    const theirId = String(theirs.body.data.screening.id);
    for (let i = 0; i < 300; i++) {
      const got = await rawRequest(svc.url, 'GET', `/api/portal/screenings/${theirId}`, { headers: otherPortal });
      if (got.body.data.screening.status !== 'running') {
        assert.equal(JSON.stringify(got.body.data.screening.hits).includes('internal list'), false, 'their screening does not see our list');
        break;
      }
      await new Promise((r) => setTimeout(r, 200));
    }
    const enrolTheirs = await rawRequest(svc.url, 'POST', `/api/v1/screening/${theirs.body.data.screening.uuid}/monitoring`, { headers: { 'x-api-key': otherKey } });
    assert.equal(enrolTheirs.status, 200, enrolTheirs.text);
    assert.equal((await add({ entry_id: 'TARGET-3', primary_name: 'Robert Smith', dates_of_birth: ['1971-04-03'], reason: 'second record' })).status, 201);
    assert.deepEqual((await alerts(screeningId)).slice(2).map((a) => [a.kind, a.entityId]), [['new_hit', `internal_list:${listId}:TARGET-3`]]);
    assert.deepEqual(await alerts(theirId), []);
  });
});
