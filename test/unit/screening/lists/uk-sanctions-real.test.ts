/**
 * The UK OFSI Consolidated List, real file (../shared/data/uk_ofsi/ConList.xlsx, Last Updated
 * 2025-04-14: 18,798 rows, 4,688 designations per the data README), read through the streaming
 * xlsx reader, and the same table written out as ConList.csv read through the CSV path.
 * Also the bundled OFAC SDN of 2024-05-03 with the 2021-07-07 aliases attached and marked.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { mkdtemp, rm, writeFile, mkdir, copyFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { SHARED_DATA_DIR } from '../../../support/shared-data';
import { loadList, BUNDLED_LISTS_DIR, type LoadedList } from '../../../../src/screening/lists';
import { readXlsxRows, columnIndex, serialToDmy, unescapeXml } from '../../../../src/screening/lists/xlsx';
import { ukDate, ukMulti } from '../../../../src/screening/lists/uk-sanctions';
import { ScreeningEngine } from '../../../../src/screening/engine';
import { toReportHit } from '../../../../src/agents/lists/list-agents';

const XLSX = path.join(SHARED_DATA_DIR, 'uk_ofsi', 'ConList.xlsx');
let uk: LoadedList;

test('xlsx helpers: column letters and Excel serial dates', () => {
  assert.equal(columnIndex('A1'), 0);
  assert.equal(columnIndex('Z9'), 25);
  assert.equal(columnIndex('AA10'), 26);
  assert.equal(columnIndex('AJ3'), 35);
  assert.equal(serialToDmy(45761), '14/04/2025');
  assert.equal(serialToDmy(25569), '01/01/1970');
  assert.equal(unescapeXml('Tom &amp; Jerry &lt;Ltd&gt; &quot;x&quot; &apos;y&apos; &#233;&#x4E2D;'), 'Tom & Jerry <Ltd> "x" \'y\' é中');
  assert.equal(unescapeXml('no references'), 'no references');
});

test('OFSI date and multi-value cells', () => {
  assert.equal(ukDate('07/10/1952'), '1952-10-07');
  assert.equal(ukDate('00/00/1979'), '1979');
  assert.equal(ukDate('00/05/1979'), '1979-05');
  assert.equal(ukDate('05/1979'), '1979-05');
  assert.equal(ukDate('1979'), '1979');
  assert.equal(ukDate('00/00/0000'), undefined);
  assert.equal(ukDate('unknown'), undefined);
  assert.deepEqual(ukMulti('(1) Tunis (2) - (3) -'), ['Tunis']);
  assert.deepEqual(ukMulti('(1) 223611 (2) C00146605'), ['223611', 'C00146605']);
  assert.deepEqual(ukMulti('Pakistan'), ['Pakistan']);
  assert.deepEqual(ukMulti(''), []);
});

test('real ConList.xlsx: 4,688 designations from 18,798 rows, Last Updated 2025-04-14', async () => {
  uk = await loadList({ source: 'uk_sanctions', dir: path.dirname(XLSX) });
  assert.equal(uk.version.publishedAt, '2025-04-14');
  assert.deepEqual(uk.version.files, ['ConList.xlsx']);
  assert.equal(uk.stats?.rows, 18798);
  assert.equal(uk.entities.length, 4688);
  const bySchema: Record<string, number> = {};
  for (const e of uk.entities) bySchema[e.schema] = (bySchema[e.schema] ?? 0) + 1;
  // Group Type per designation (the README counts rows: Individual 13,692, Entity 5,025, Ship 81).
  assert.deepEqual(bySchema, { person: 3663, organization: 1010, vessel: 15 });
  console.log('uk_sanctions stats:', uk.stats);
  // Every designation has its primary name first and nothing else is primary.
  for (const e of uk.entities) {
    assert.equal(e.names[0].kind, 'primary', e.id);
    assert.equal(e.names.filter((n) => n.kind === 'primary').length, 1, e.id);
  }
  // Alias counts by kind; Alias Quality "Low quality" rows are weak aliases, FKA rows former names.
  const kinds: Record<string, number> = {};
  for (const e of uk.entities) for (const n of e.names.slice(1)) kinds[n.kind] = (kinds[n.kind] ?? 0) + 1;
  assert.equal(uk.stats?.aliases, 11291);
  assert.ok(kinds.weak_alias > 400, JSON.stringify(kinds));
  assert.ok(kinds.former > 0 && kinds.original_script > 3000, JSON.stringify(kinds));
  // DOBs, including the year-only and month/year forms of the real file.
  assert.equal(uk.entities.filter((e) => e.birthDates.length > 0).length, 3147);
  assert.equal(uk.stats?.birthDates, 3543);
  assert.ok(uk.entities.some((e) => e.birthDates.some((b) => b.date?.length === 4)));
});

test('real ConList.xlsx: Putin, with DOB, nationality, Cyrillic name and regime', () => {
  const putin = uk.entities.find((e) => e.primaryName === 'Vladimir Vladimirovich PUTIN');
  assert.ok(putin);
  assert.equal(putin.schema, 'person');
  assert.deepEqual(putin.birthDates.map((b) => b.date), ['1952-10-07']);
  assert.deepEqual(putin.nationalities, ['RU']);
  assert.ok(putin.names.some((n) => n.value === 'Владимир Владимирович Путин' && n.kind === 'original_script'));
  assert.deepEqual(putin.programs, ['Russia']);
  assert.equal(putin.listedOn, '2022-02-25');
  assert.equal(putin.gender, 'male');
  // Multi-valued passport cells become one identifier each.
  assert.ok(uk.entities.some((e) => e.identifiers.filter((i) => i.type === 'passport').length >= 2));
});

test('a UK designation screened by name is a hit with listAuthority "uk"', () => {
  const engine = ScreeningEngine.build(uk.entities, [uk.version]);
  const [best] = engine.screen({ name: 'Vladimir Putin', schema: 'person' });
  assert.ok(best, 'no match');
  assert.equal(best.entity.primaryName, 'Vladimir Vladimirovich PUTIN');
  const hit = toReportHit('sanctions', best);
  assert.equal(hit.source, 'uk_sanctions');
  assert.equal(hit.listAuthority, 'uk');
});

test('the same table as ConList.csv (OFSI CSV form) gives the same designations', async (t) => {
  const work = await mkdtemp(path.join(tmpdir(), 'uk-csv-'));
  t.after(() => rm(work, { recursive: true, force: true }));
  const quote = (v: string) => (/[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
  const lines: string[] = [];
  for await (const { fields } of readXlsxRows(XLSX)) lines.push(fields.map(quote).join(','));
  await writeFile(path.join(work, 'ConList.csv'), `${lines.join('\r\n')}\r\n`);
  const csv = await loadList({ source: 'uk_sanctions', dir: work });
  assert.equal(csv.version.publishedAt, '2025-04-14');
  assert.equal(csv.entities.length, uk.entities.length);
  const strip = (l: LoadedList) => l.entities.map(({ listVersion: _v, ...e }) => e);
  assert.deepEqual(strip(csv), strip(uk));
});

test('a folder with both forms loads the CSV only (one version, one hash)', async (t) => {
  const work = await mkdtemp(path.join(tmpdir(), 'uk-both-'));
  t.after(() => rm(work, { recursive: true, force: true }));
  await mkdir(work, { recursive: true });
  await copyFile(XLSX, path.join(work, 'ConList.xlsx'));
  await writeFile(path.join(work, 'ConList.csv'), 'Last Updated,01/05/2025\r\nName 6,Name 1,Group Type,Alias Type,Group ID\r\nDOE,John,Individual,Primary name,1\r\n');
  const both = await loadList({ source: 'uk_sanctions', dir: work });
  assert.deepEqual(both.version.files, ['ConList.csv']);
  assert.equal(both.entities.length, 1);
});

test('a truncated xlsx fails with the file named', async (t) => {
  const work = await mkdtemp(path.join(tmpdir(), 'uk-bad-'));
  t.after(() => rm(work, { recursive: true, force: true }));
  await writeFile(path.join(work, 'ConList.xlsx'), 'PK\u0003\u0004 not really a zip');
  await assert.rejects(loadList({ source: 'uk_sanctions', dir: work }), /ConList\.xlsx.*(xlsx|ZIP)/);
});

test('bundled OFAC SDN: the 2024-05-03 sdn.csv, with the 2021-07-07 aliases attached by ent_num and marked', async () => {
  const sdn = await loadList({ source: 'ofac_sdn', dir: path.join(BUNDLED_LISTS_DIR, 'ofac_sdn'), publishedAt: '2024-05-03' });
  assert.equal(sdn.entities.length, 14965);
  assert.deepEqual(sdn.version.files, ['sdn.csv', 'alt_2021-07-07.csv']);
  assert.equal(sdn.stats?.['older_alt_2021-07-07'], 11477);
  const marked = sdn.entities.flatMap((e) => e.names.filter((n) => n.provenance));
  assert.equal(marked.length, 11477);
  assert.ok(marked.every((n) => /ALT\.CSV of 2021-07-07/.test(n.provenance!)));
  // A hit on such an alias says where the alias comes from.
  const engine = ScreeningEngine.build(sdn.entities, [sdn.version]);
  const [best] = engine.screen({ name: 'AERO-CARIBBEAN', schema: 'organization' });
  assert.equal(best.entity.primaryName, 'AEROCARIBBEAN AIRLINES');
  assert.match(best.explanation.summary, /ALT\.CSV of 2021-07-07/);
  assert.ok(best.explanation.qualifiers.some((q) => q.kind === 'name_provenance'));
});
