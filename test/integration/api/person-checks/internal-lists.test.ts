/**
 * Person checks screen the account's own lists (issue 21) over real HTTP on the whole wired
 * service: an entry on account A's list is found by A's S1 person check with a date of birth, as
 * source "internal list: <name>", counted by the list's severity, with the list version recorded
 * in the agent result; account B's person check of the same person does not see A's list. Since
 * issue 30 a person check also sends its address (the state apart) and its whole documents, which
 * the list agent compares in-process while the stream keeps their last four, and pins the list
 * versions of its request, which a run resumed after the list changed still screens.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestService, type TestService } from '../../../support/service';
import { call, envelopeData } from '../s3/helpers';
import { randomUUID } from 'node:crypto';
import { handleCommand } from '../../../../src/commands/command-handler';
import { personCheckDecider, streamName } from '../../../../src/commands/person-check';
import { newPersonCheckId } from '../../../../src/app/person-checks/person-check-service';
import { reproducePersonCheck } from '../../../../src/app/audit/reproduce';
import { ListRegistry } from '../../../../src/screening/lists/registry';
import { listsConfigFor } from '../../../../src/bootstrap/lists-config';

let svc: TestService;
let s3Key: string;
let s1Key: string;
let otherS1Key: string;
let listId: string;

before(async () => {
  svc = await startTestService({ env: { LISTS_ONLY: 'ofac_sdn' } });
  const a = await svc.createAccount('enterprise');
  s3Key = (await svc.createKey(a.accountId, 's3', { userId: a.userId })).key;
  s1Key = (await svc.createKey(a.accountId, 's1', { userId: a.userId })).key;
  const b = await svc.createAccount('enterprise');
  otherS1Key = (await svc.createKey(b.accountId, 's1', { userId: b.userId })).key;
  const list = envelopeData(await call(svc.url, 'POST', '/api/v1/watchlists', { key: s3Key, body: { name: 'Fraud exits', purpose: 'exited for fraud', severity: 'block', owner: 'fincrime@acme.test' } }), 201);
  listId = list.id;
  envelopeData(
    await call(svc.url, 'POST', `/api/v1/watchlists/${listId}/entries`, {
      key: s3Key,
      body: { entry_id: 'C-1001', entity_type: 'person', primary_name: 'Theodora Quillfeather', dates_of_birth: ['1971-04-03'], reason: 'account exited for cheque fraud' },
    }),
    201,
  );
  envelopeData(
    await call(svc.url, 'POST', `/api/v1/watchlists/${listId}/entries`, {
      key: s3Key,
      body: {
        entry_id: 'C-1002', entity_type: 'person', primary_name: 'Octavia Pennywhistle', dates_of_birth: ['1968-09-12'],
        identifiers: [{ kind: 'phone', value: '+44 20 7946 0958' }, { kind: 'email', value: 'octavia@pennywhistle.test' }], reason: 'mule account',
      },
    }),
    201,
  );
  envelopeData(
    await call(svc.url, 'POST', `/api/v1/watchlists/${listId}/entries`, {
      key: s3Key,
      body: {
        entry_id: 'C-1003', entity_type: 'person', primary_name: 'Marcus Vantongeren', dates_of_birth: ['1980-02-02'],
        identifiers: [{ kind: 'national_id', value: '123-45-6789', country: 'US' }],
        addresses: [{ line: '4596 Washington Circle, Apt 17', city: 'Springfield', region: 'IL', postal_code: '62704', country: 'US' }],
        reason: 'synthetic identity',
      },
    }),
    201,
  );
});
after(async () => {
  await svc?.stop();
});

async function personCheck(key: string, body: Record<string, unknown>) {
  const res = await fetch(`${svc.url}/api/v1/person-checks`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ purpose: 'employment', fcra_consent: true, ...body }),
  });
  const json = (await res.json()) as any;
  assert.equal(res.status, 201, JSON.stringify(json));
  return json.person_check;
}

async function requestedData(personCheckId: string) {
  return (await svc.service.store.readStream(`person-check-${personCheckId}`)).find((e) => e.type === 'PersonCheckRequested')!.data as any;
}

async function listAgentResult(personCheckId: string) {
  const events = await svc.service.store.readStream(`person-check-${personCheckId}`);
  const recorded = events.find((e) => e.type === 'PersonCheckAgentResultRecorded' && (e.data as any).agent === 'sanctions_list');
  assert.ok(recorded, 'the sanctions_list agent recorded its result');
  return (recorded!.data as any).result;
}

describe('person checks screen the account internal lists', () => {
  it("finds the entry with the date of birth, as a red flag of the block list, and records the list version", async () => {
    const pc = await personCheck(s1Key, { full_name: 'Theodora Quillfeather', date_of_birth: '1971-04-03' });
    const finding = pc.findings.find((f: any) => f.source?.name === 'internal list: Fraud exits');
    assert.ok(finding, JSON.stringify(pc.findings));
    assert.equal(finding.severity, 'red_flag');
    assert.equal(finding.corroboration, 'name_dob');
    assert.equal(pc.result, 'adverse_found');
    const result = await listAgentResult(pc.id);
    const record = result.records.find((r: any) => r.internalList);
    // version 4: the list was created (1), then its three entries added (2, 3, 4)
    assert.deepEqual(record.internalList, { watchlistId: listId, name: 'Fraud exits', version: 4, severity: 'block', entryId: 'C-1001', reason: 'account exited for cheque fraud' });
    assert.deepEqual(
      result.data.internalLists.map((l: any) => [l.watchlistId, l.version, l.versionId, l.entityCount]),
      [[listId, 4, `watchlist-${listId}@v4`, 3]],
    );
    // the versions the request pinned are the ones screened
    assert.deepEqual((await requestedData(pc.id)).internalListVersions, [`watchlist-${listId}@v4`]);
    assert.match(result.data.internalLists[0].contentHash, /^[0-9a-f]{64}$/);
    // the scorer counted the hit by the list's severity (block, confirmed)
    const check = await svc.service.store.readStream(`person-check-${pc.id}`);
    const corroboration = check.find((e) => e.type === 'PersonCheckAgentResultRecorded' && (e.data as any).agent === 'corroboration')!.data as any;
    assert.ok(corroboration.result.verdict.breakdown.some((c: any) => /^internal_list\.block\./.test(c.rule)), JSON.stringify(corroboration.result.verdict.breakdown));
  });

  it('the phone and e-mail given with a person check reach the internal-list policy (issue 27): a name alone is no hit, name and phone are', async () => {
    const nameOnly = await personCheck(s1Key, { full_name: 'Octavia Pennywhistle' });
    assert.ok(!nameOnly.findings.some((f: any) => String(f.source?.name).startsWith('internal list')), JSON.stringify(nameOnly.findings));
    const byPhone = await personCheck(s1Key, { full_name: 'Octavia Pennywhistle', phone: '020 7946 0958', email: 'Octavia@Pennywhistle.test' });
    assert.ok(byPhone.findings.some((f: any) => f.source?.name === 'internal list: Fraud exits'), JSON.stringify(byPhone.findings));
    const record = (await listAgentResult(byPhone.id)).records.find((r: any) => r.internalList?.entryId === 'C-1002');
    assert.match(record.nameWhy, /phone|e-mail/i, record.nameWhy);
  });

  it('a phone or e-mail that is not one is refused in the S1 envelope, nothing started', async () => {
    for (const body of [{ phone: 'call me' }, { email: 'nobody' }, { phone: 123456789 }]) {
      const res = await fetch(`${svc.url}/api/v1/person-checks`, {
        method: 'POST',
        headers: { authorization: `Bearer ${s1Key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ purpose: 'employment', fcra_consent: true, full_name: 'Octavia Pennywhistle', ...body }),
      });
      const json = (await res.json()) as any;
      assert.equal(res.status, typeof Object.values(body)[0] === 'number' ? 400 : 422, JSON.stringify(json));
      assert.ok(json.errors.some((m: string) => /^(phone|email)/.test(m)), JSON.stringify(json));
    }
  });

  it('a name alone (another date of birth) is not a hit; another account never sees the list', async () => {
    const namesake = await personCheck(s1Key, { full_name: 'Theodora Quillfeather', date_of_birth: '1985-11-20' });
    assert.ok(!namesake.findings.some((f: any) => String(f.source?.name).startsWith('internal list')), JSON.stringify(namesake.findings));
    const other = await personCheck(otherS1Key, { full_name: 'Theodora Quillfeather', date_of_birth: '1971-04-03' });
    assert.ok(!other.findings.some((f: any) => String(f.source?.name).startsWith('internal list')), JSON.stringify(other.findings));
    const result = await listAgentResult(other.id);
    assert.equal(result.data?.internalLists, undefined, 'no list of account A is used for account B');
  });

  it('the whole SSN given with the check finds the entry listed with it under another surname (same document, another name); the stream keeps its last four only', async () => {
    const pc = await personCheck(s1Key, { full_name: 'Marcus Holloway', date_of_birth: '1980-02-02', identifiers: [{ type: 'ssn', value: '123-45-6789' }] });
    const finding = pc.findings.find((f: any) => f.source?.name === 'internal list: Fraud exits');
    assert.ok(finding, JSON.stringify(pc.findings));
    assert.deepEqual(pc.subject.identifiers, [{ type: 'ssn', value: '*****6789' }]);
    const record = (await listAgentResult(pc.id)).records.find((r: any) => r.internalList?.entryId === 'C-1003');
    assert.match(record.nameWhy, /national id|document|identifier/i, record.nameWhy);
    const stored = JSON.stringify((await svc.service.store.readStream(`person-check-${pc.id}`)).map((e) => e.data));
    assert.ok(!stored.includes('123-45') && !stored.includes('123456789'), 'the whole SSN is in no event');
    // the last four alone are no document: the same request with ssn_last4 finds nothing on the list
    const partial = await personCheck(s1Key, { full_name: 'Marcus Holloway', date_of_birth: '1980-02-02', identifiers: [{ type: 'ssn_last4', value: '6789' }] });
    assert.ok(!partial.findings.some((f: any) => String(f.source?.name).startsWith('internal list')), JSON.stringify(partial.findings));
  });

  it('the address with its state apart reaches the internal-list policy, on S1 and on the portal form', async () => {
    const pc = await personCheck(s1Key, {
      full_name: 'Marcus Vantongeren', date_of_birth: '1980-02-02',
      address: { line: '4596 Washington Cir Apt 17', city: 'Springfield', region: 'IL', postal_code: '62704', country: 'us' },
    });
    assert.deepEqual((await requestedData(pc.id)).address, { line: '4596 Washington Cir Apt 17', city: 'Springfield', region: 'IL', postalCode: '62704', country: 'US' });
    const record = (await listAgentResult(pc.id)).records.find((r: any) => r.internalList?.entryId === 'C-1003');
    assert.ok(record, 'found');
    assert.match(record.nameWhy, /same dwelling/, record.nameWhy);
  });

  it('a check requested before the list changed screens the versions its request pinned, also when it runs after the change', async () => {
    const before = `watchlist-${listId}@v4`;
    // the list moves on: a fifth version lists the same person under the name the check will ask about
    envelopeData(
      await call(svc.url, 'POST', `/api/v1/watchlists/${listId}/entries`, {
        key: s3Key,
        body: { entry_id: 'C-1004', entity_type: 'person', primary_name: 'Lucinda Farthingale', dates_of_birth: ['1975-07-07'], reason: 'added after the request' },
      }),
      201,
    );
    // a check recorded against version 4 before the change, run only now (as after a restart)
    const account = (await requestedData((await personCheck(s1Key, { full_name: 'Ann Lee' })).id)).accountId;
    const id = newPersonCheckId();
    await handleCommand(svc.service.store, personCheckDecider, streamName(id), {
      type: 'RequestPersonCheck',
      data: { personCheckId: id, accountId: account, surface: 's1', fullName: 'Lucinda Farthingale', purpose: 'employment', fcraConsent: true, dateOfBirth: '1975-07-07', internalListVersions: [before] },
      metadata: { now: new Date().toISOString(), actor: { accountId: account, surface: 's1' }, commandId: randomUUID() },
    });
    let result: any;
    for (let i = 0; i < 600 && !result; i++) {
      const events = await svc.service.store.readStream(streamName(id));
      if (events.some((e) => e.type === 'PersonCheckCompleted')) result = await listAgentResult(id);
      else await new Promise((r) => setTimeout(r, 100));
    }
    assert.ok(result, 'the check completed');
    assert.deepEqual(result.data.internalLists.map((l: any) => l.versionId), [before], 'screened the pinned version, not the current one');
    assert.ok(!result.records.some((r: any) => r.internalList?.entryId === 'C-1004'), 'the entry added after the request is not in the pinned version');
    // a check requested now pins the new version and finds the entry
    const now = await personCheck(s1Key, { full_name: 'Lucinda Farthingale', date_of_birth: '1975-07-07' });
    assert.deepEqual((await requestedData(now.id)).internalListVersions, [`watchlist-${listId}@v5`]);
    assert.ok(now.findings.some((f: any) => f.source?.name === 'internal list: Fraud exits'), JSON.stringify(now.findings));
  });

  it('a bad address is refused in the S1 envelope (400 unreadable, 422 a rule broken), nothing started', async () => {
    const cases: [unknown, number][] = [
      ['Springfield IL', 400],
      [{ street: '1 Main' }, 400],
      [{}, 422],
      [{ region: 'x'.repeat(101) }, 422],
      [{ city: 'Spring\u0000field' }, 422],
      [{ country: 'USA' }, 422],
    ];
    for (const [address, status] of cases) {
      const before = (await svc.service.store.readAll()).length;
      const res = await fetch(`${svc.url}/api/v1/person-checks`, {
        method: 'POST',
        headers: { authorization: `Bearer ${otherS1Key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ purpose: 'employment', fcra_consent: true, full_name: 'Marcus Holloway', address }),
      });
      const json = (await res.json()) as any;
      assert.equal(res.status, status, JSON.stringify([address, json]));
      assert.equal(json.success, false);
      assert.ok(json.errors.some((m: string) => m.startsWith('address')), JSON.stringify(json));
      assert.equal((await svc.service.store.readAll()).length, before, 'nothing written');
    }
  });

  it('svc audit reproduce re-runs a person check\'s list search against the versions it recorded: the same records, also after the entry is removed; a record found by a whole document is said not reproducible', async () => {
    const config = svc.service.config;
    // another process's registry, as `svc audit reproduce` opens it: the versions come from the data dir
    const lists = new ListRegistry(listsConfigFor(config, { persist: true }));
    const pc = await personCheck(s1Key, { full_name: 'Theodora Quillfeather', date_of_birth: '1971-04-03' });
    // a record the whole SSN found: the SSN was not kept, so a re-run cannot find it, and says so
    const bySsn = await personCheck(s1Key, { full_name: 'Marcus Holloway', date_of_birth: '1980-02-02', identifiers: [{ type: 'ssn', value: '123-45-6789' }] });
    // the list moves on without the entry: the recorded version still gives the same records
    const removed = await call(svc.url, 'DELETE', `/api/v1/watchlists/${listId}/entries/C-1001`, { key: s3Key });
    assert.equal(removed.status, 200, JSON.stringify(removed.body));
    const same = await reproducePersonCheck({ store: svc.service.store, lists }, pc.id);
    assert.equal(same.error, undefined, JSON.stringify(same));
    assert.equal(same.same, true, JSON.stringify(same));
    assert.ok(same.listVersions.some((v) => v.source === 'ofac_sdn' && v.available), JSON.stringify(same.listVersions));
    assert.ok(same.listVersions.some((v) => v.source === 'internal_list' && v.available), JSON.stringify(same.listVersions));
    assert.ok(same.recordedListRecords >= 1 && same.reproducedRecords === same.recordedListRecords, JSON.stringify(same));
    assert.equal(same.documentsNotKept, false);
    const differs = await reproducePersonCheck({ store: svc.service.store, lists }, bySsn.id);
    assert.equal(differs.documentsNotKept, true);
    assert.equal(differs.same, false);
    assert.ok(differs.onlyRecorded.some((r) => r.entityId.endsWith(':C-1003')), JSON.stringify(differs));
    assert.match((await reproducePersonCheck({ store: svc.service.store, lists }, 'SVC-00000000-P')).error ?? '', /does not exist/);
  });
});
