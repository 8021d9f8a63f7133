/** List age and staleness: pure functions of a version, a time and the configured maxima. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ageInDays, freshnessByDay, listFreshness, listsFreshness, ListsStaleError, maxAgeFor } from '../../../../src/screening/lists/freshness';
import { loadConfig } from '../../../../src/config/config';
import { renderScreeningReportPdf } from '../../../../src/reports/pdf/screening-report';
import { buildJsonReport } from '../../../../src/reports/json-report';
import { sampleReport } from '../../reports/sample-report';
import { pdfText } from '../../reports/pdf-text';

const sdn = { id: 'ofac_sdn@abc', source: 'ofac_sdn', publishedAt: '2024-05-03', publishedAtSource: 'manifest' as const, loadedAt: '2026-11-26T06:00:00.000Z' };
const policy = { sanctionsMaxAgeDays: 7 };

test('age in whole days from the publication day (UTC midnight) to now', () => {
  assert.equal(ageInDays('2024-05-03', new Date('2024-05-03T23:59:59Z')), 0);
  assert.equal(ageInDays('2024-05-03', new Date('2024-05-04T00:00:00Z')), 1);
  assert.equal(ageInDays('2024-05-03', new Date('2026-11-26T08:00:00Z')), 937);
  assert.equal(ageInDays('2026-02-27T00:00:09Z', new Date('2026-04-01T12:00:00Z')), 33);
  assert.equal(ageInDays('2021', new Date('2021-01-11T00:00:00Z')), 10, 'a year only counts from 1 January');
  assert.equal(ageInDays('2027-01-01', new Date('2026-11-26T00:00:00Z')), 0, 'a date ahead of the clock is age 0');
  assert.equal(ageInDays('unknown', new Date()), null);
});

test('given the default policy, when a sanctions list is 937 days old, then it is stale with the warning', () => {
  const f = listFreshness(sdn, new Date('2026-11-26T08:00:00Z'), policy);
  assert.equal(f.ageDays, 937);
  assert.equal(f.maxAgeDays, 7);
  assert.equal(f.stale, true);
  assert.equal(f.warning, 'OFAC SDN list is 937 days old: update the lists before relying on this result');
});

test('given the default policy, when a sanctions list is exactly 7 days old, then it is not stale; at 8 it is', () => {
  assert.equal(listFreshness(sdn, new Date('2024-05-10T12:00:00Z'), policy).stale, false);
  assert.equal(listFreshness(sdn, new Date('2024-05-11T12:00:00Z'), policy).stale, true);
});

test('every list is judged by its own maximum age: export control as sanctions, FATF, ICIJ and PEPs by their issuers\' rhythm; per-list overrides win, "off" removes one', () => {
  const fatf = { ...sdn, id: 'fatf@1', source: 'fatf', publishedAt: '2026-06-19' };
  assert.equal(maxAgeFor('us_dpl', policy), 7, 'the Denied Persons List is a restricted-party list');
  assert.equal(maxAgeFor('fatf', policy), 180);
  assert.equal(maxAgeFor('icij_offshore', policy), 730);
  assert.equal(maxAgeFor('opensanctions_peps', policy), 30);
  assert.equal(maxAgeFor('internal_list', policy), null, 'a list the catalog does not know has no maximum');
  assert.equal(listFreshness(fatf, new Date('2026-11-26'), policy).stale, false, '160 days: within one plenary cycle');
  assert.equal(listFreshness(fatf, new Date('2026-12-17'), policy).stale, true, '181 days');
  assert.equal(listFreshness(fatf, new Date('2026-12-17'), { ...policy, perList: { fatf: null } }).stale, false);
  const dpl = { ...sdn, id: 'us_dpl@1', source: 'us_dpl', publishedAt: '2022-09-02' };
  assert.equal(listFreshness(dpl, new Date('2026-11-26'), policy).stale, true, 'a 1,546-day-old Denied Persons List is not fresh');
  const icij = { ...sdn, id: 'icij_offshore@1', source: 'icij_offshore', publishedAt: '2017-08-14' };
  assert.equal(listFreshness(icij, new Date('2026-11-26'), policy).stale, true, 'nine-year-old offshore-leaks data is not fresh');
  assert.equal(listFreshness(sdn, new Date('2026-11-26'), { ...policy, perList: { ofac_sdn: null } }).stale, false);
  assert.equal(listFreshness(sdn, new Date('2026-11-26'), { ...policy, perList: { ofac_sdn: 5000 } }).stale, false);
  assert.equal(maxAgeFor('uk_sanctions', policy), 7);
  assert.equal(maxAgeFor('us_csl', policy), 7);
});

test('a sanctions list without a publication date is stale: its age cannot be vouched for', () => {
  const { publishedAt: _p, ...undated } = sdn;
  const f = listFreshness(undated, new Date('2026-11-26'), policy);
  assert.equal(f.ageDays, null);
  assert.equal(f.stale, true);
  assert.equal(f.warning, 'OFAC SDN list has no known publication date: update the lists before relying on this result');
});

test('the refusal names every stale list and how to fix it', () => {
  const err = new ListsStaleError([listFreshness(sdn, new Date('2026-11-26T08:00:00Z'), policy)]);
  assert.equal(err.code, 'lists_stale');
  assert.equal(err.message, 'Screening refused: OFAC SDN list is 937 days old. Update the lists (svc lists update) or set LISTS_STALE_POLICY=warn.');
});

test('config: LISTS_MAX_AGE_DAYS defaults to 7, LISTS_MAX_AGE parses overrides, bad values are refused', () => {
  const c = loadConfig({ LISTS_MAX_AGE: 'ofac_sdn=30, fatf=off' });
  assert.equal(c.LISTS_MAX_AGE_DAYS, 7);
  assert.deepEqual(c.LISTS_MAX_AGE, { ofac_sdn: 30, fatf: null });
  assert.equal(c.LISTS_STALE_POLICY, 'warn');
  assert.equal(loadConfig({ LISTS_STALE_POLICY: 'refuse' }).LISTS_STALE_POLICY, 'refuse');
  assert.throws(() => loadConfig({ LISTS_MAX_AGE: 'ofac_sdn=soon' }), /LISTS_MAX_AGE/);
  assert.throws(() => loadConfig({ LISTS_STALE_POLICY: 'ignore' }), /LISTS_STALE_POLICY/);
  assert.throws(() => loadConfig({ LISTS_MAX_AGE_DAYS: '0' }), /LISTS_MAX_AGE_DAYS/);
});

test('the PDF cover and the JSON report carry a stale list\'s warning and the audit trail its age', async () => {
  const base = sampleReport();
  const warning = 'OFAC SDN list is 937 days old: update the lists before relying on this result';
  const report = sampleReport({
    audit: {
      ...base.audit,
      listVersions: base.audit.listVersions.map((v) =>
        v.source === 'ofac_sdn' ? { ...v, label: 'OFAC SDN list', ageDays: 937, maxAgeDays: 7, stale: true, warning } : { ...v, ageDays: 3, maxAgeDays: 7, stale: false },
      ),
    },
  });
  const json = buildJsonReport(report, { generatedAt: '2026-11-26T08:00:00Z' });
  assert.deepEqual(json.list_warnings, [warning]);
  const audit = json.sections.find((s) => s.key === 'audit')!.content as { list_versions: { source: string; age_days?: number; stale?: boolean }[] };
  const sdnAudit = audit.list_versions.find((v) => v.source === 'ofac_sdn')!;
  assert.equal(sdnAudit.age_days, 937);
  assert.equal(sdnAudit.stale, true);
  const { flat } = pdfText(await renderScreeningReportPdf(report, { generatedAt: '2026-11-26T08:00:00Z' }), 'stale.pdf');
  assert.ok(flat.includes(`! ${warning}`), 'warning on the cover');
  assert.ok(flat.includes('937 days old, over the 7-day maximum: OUT OF DATE'), 'age in the audit trail');
  // A fresh report has none.
  assert.deepEqual(buildJsonReport(base, { generatedAt: '2026-11-26T08:00:00Z' }).list_warnings, []);
});

test('freshness kept for the day: the same answer as worked out afresh, anew when the day or the lists change', () => {
  const versions = [
    { ...sdn, contentHash: 'x', entityCount: 1, files: [] },
    { id: 'un_sc@abc', source: 'un_sc', publishedAt: '2026-11-20T10:00:00Z', loadedAt: '2026-11-26T06:00:00.000Z', contentHash: 'y', entityCount: 1, files: [] },
  ];
  const kept = freshnessByDay({ sanctionsMaxAgeDays: 6 });
  const times = ['2026-11-26T00:00:00Z', '2026-11-26T13:30:00Z', '2026-11-26T23:59:59.999Z', '2026-11-27T00:00:00Z', '2026-11-27T18:00:00Z'];
  for (const t of times) assert.deepEqual(kept(versions, new Date(t)), listsFreshness(versions, new Date(t), { sanctionsMaxAgeDays: 6 }), t);
  assert.equal(kept(versions, new Date('2026-11-26T01:00:00Z')), kept(versions, new Date('2026-11-26T22:00:00Z')), 'one day, one answer');
  // un_sc: 6 days old on the 26th, 7 (stale) on the 27th
  assert.equal(kept(versions, new Date('2026-11-26T23:59:59Z'))[1]!.stale, false);
  assert.equal(kept(versions, new Date('2026-11-27T00:00:00Z'))[1]!.stale, true);
  const others = versions.slice(0, 1);
  assert.equal(kept(others, new Date('2026-11-27T00:00:00Z')).length, 1, 'another list set is worked out anew');
});
