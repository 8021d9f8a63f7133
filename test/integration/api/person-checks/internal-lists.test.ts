/**
 * Person checks screen the account's own lists (issue 21) over real HTTP on the whole wired
 * service: an entry on account A's list is found by A's S1 person check with a date of birth, as
 * source "internal list: <name>", counted by the list's severity, with the list version recorded
 * in the agent result; account B's person check of the same person does not see A's list.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestService, type TestService } from '../../../support/service';
import { call, envelopeData } from '../s3/helpers';

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
    assert.deepEqual(record.internalList, { watchlistId: listId, name: 'Fraud exits', version: 2, severity: 'block', entryId: 'C-1001', reason: 'account exited for cheque fraud' });
    assert.deepEqual(
      result.data.internalLists.map((l: any) => [l.watchlistId, l.version, l.versionId, l.entityCount]),
      [[listId, 2, `watchlist-${listId}@v2`, 1]],
    );
    assert.match(result.data.internalLists[0].contentHash, /^[0-9a-f]{64}$/);
    // the scorer counted the hit by the list's severity (block, confirmed)
    const check = await svc.service.store.readStream(`person-check-${pc.id}`);
    const corroboration = check.find((e) => e.type === 'PersonCheckAgentResultRecorded' && (e.data as any).agent === 'corroboration')!.data as any;
    assert.ok(corroboration.result.verdict.breakdown.some((c: any) => /^internal_list\.block\./.test(c.rule)), JSON.stringify(corroboration.result.verdict.breakdown));
  });

  it('a name alone (another date of birth) is not a hit; another account never sees the list', async () => {
    const namesake = await personCheck(s1Key, { full_name: 'Theodora Quillfeather', date_of_birth: '1985-11-20' });
    assert.ok(!namesake.findings.some((f: any) => String(f.source?.name).startsWith('internal list')), JSON.stringify(namesake.findings));
    const other = await personCheck(otherS1Key, { full_name: 'Theodora Quillfeather', date_of_birth: '1971-04-03' });
    assert.ok(!other.findings.some((f: any) => String(f.source?.name).startsWith('internal list')), JSON.stringify(other.findings));
    const result = await listAgentResult(other.id);
    assert.equal(result.data?.internalLists, undefined, 'no list of account A is used for account B');
  });
});
