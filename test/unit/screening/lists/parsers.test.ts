import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadAllLists, loadList, toIso2, extractRemarks, parseOfacDob } from '../../../../src/screening/lists';
import type { ListEntity } from '../../../../src/screening/model';

const FIX = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../fixtures/lists');
const byId = (es: ListEntity[], id: string) => {
  const e = es.find((x) => x.sourceId === id);
  assert.ok(e, `entity ${id} missing`);
  return e;
};

test('OFAC legacy CSV: CRLF + 0x1A, quoted commas, -0- nulls, programs, aliases, addresses', async () => {
  const { entities, version, stats } = await loadList({ source: 'ofac_sdn', dir: path.join(FIX, 'ofac_tricky') });
  assert.equal(entities.length, 4);
  assert.equal(version.entityCount, 4);
  assert.match(version.id, /^ofac_sdn@[0-9a-f]{16}$/);
  assert.deepEqual(version.files, ['sdn.csv', 'alt.csv', 'add.csv', 'sdn_comments.csv']);
  assert.deepEqual(stats, { primary: 4, alt: 4, aka: 3, fka: 1, nka: 0, add: 3, comments: 1 });

  const anglo = byId(entities, '10');
  assert.equal(anglo.primaryName, 'ANGLO-CARIBBEAN CO., LTD.');
  assert.equal(anglo.schema, 'organization');
  assert.equal(anglo.remarks, undefined, '-0- is a null, not a remark');
  assert.equal(anglo.titles, undefined);
  assert.deepEqual(anglo.programs, ['CUBA']);
  assert.equal(anglo.addresses[0].street, 'Ibex House, The Minories');
  assert.equal(anglo.addresses[0].country, 'GB');

  const ivan = byId(entities, '11');
  assert.equal(ivan.schema, 'person');
  assert.deepEqual(ivan.programs, ['SDGT', 'IRGC', 'IFSR']);
  assert.deepEqual(ivan.titles, ['Commander']);
  assert.deepEqual(
    ivan.names.map((n) => [n.value, n.kind]),
    [
      ['TESTOV, Ivan', 'primary'],
      ['ABU TEST', 'weak_alias'],
      ['TESTOV, Ivan Ivanovich', 'strong_alias'],
      ['OLDNAME, Ivan', 'former'],
    ],
  );
  assert.equal(ivan.addresses.length, 0, 'an all-null address row adds nothing');
  assert.equal(ivan.gender, 'male');

  const vessel = byId(entities, '13');
  assert.equal(vessel.schema, 'vessel');
  assert.equal(vessel.extra?.tonnage, '150,000');
  assert.equal(vessel.extra?.vessel_flag, 'Malta');
  assert.ok(vessel.countries.includes('MT'));
  assert.deepEqual(
    vessel.identifiers.map((i) => [i.type, i.value]),
    [
      ['call_sign', '9HA1234'],
      ['imo', '9999999'],
      ['mmsi', '215000000'],
    ],
  );
  assert.ok(!entities.some((e) => e.names.some((n) => n.value === 'ORPHAN ALIAS')), 'alias of an unknown ent_num is dropped');
});

test('OFAC remarks overflow: sdn_comments continues mid-word and is parsed as one text', async () => {
  const { entities } = await loadList({ source: 'ofac_sdn', dir: path.join(FIX, 'ofac_tricky') });
  const bank = byId(entities, '12');
  assert.ok(bank.remarks?.includes('Email Address info@example.ru; Website'), bank.remarks);
  const ids = Object.fromEntries(bank.identifiers.map((i) => [i.type, i]));
  assert.equal(ids.email.value, 'info@example.ru');
  assert.equal(ids.website.value, 'www.example.ru');
  assert.equal(ids.swift_bic.value, 'VTBRRUMM');
  assert.equal(ids.imo.value, '9187629');
  assert.equal(ids.lei.value, '253400V1H6ART1UQ0N94');
  assert.equal(ids.tax_id.value, '7702070139');
  assert.equal(ids.tax_id.country, 'RU');
  assert.equal(ids.registration.value, '1027739609391');
  assert.ok(bank.names.some((n) => n.value === 'EXAMPLE BANK' && n.kind === 'strong_alias'), 'ALT.CSV alias upgrades the remark a.k.a.');
  assert.deepEqual(bank.birthDates, [{ date: '1970', year: 1970, approximate: true, raw: 'circa 1970' }]);
});

test('OFAC remarks extraction: DOB forms, POB, nationality/citizenship to ISO, IDs with country and issue note', () => {
  const x = extractRemarks(
    "DOB 01 Jan 1960; alt. DOB 1958 to 1962; alt. DOB Feb 1961; POB Tehran, Iran; nationality Iran; citizen Korea, North; Passport A1234567 (Iran) issued 01 Feb 2010; National ID No. 0012345678 (Burma); Cedula No. 16247821 (Colombia); Gender Male; a.k.a. 'ABU TEST'; f.k.a. 'OLD CO'; Linked To: SOME GROUP.",
  );
  assert.deepEqual(x.birthDates, [
    { date: '1960-01-01', year: 1960, approximate: undefined, raw: '01 Jan 1960' },
    { fromYear: 1958, toYear: 1962, approximate: undefined, raw: '1958 to 1962' },
    { date: '1961-02', year: 1961, approximate: undefined, raw: 'Feb 1961' },
  ]);
  assert.deepEqual(x.birthPlaces, ['Tehran, Iran']);
  assert.deepEqual(x.nationalities, ['IR', 'KP']);
  assert.deepEqual(x.countries, ['IR']);
  assert.deepEqual(x.identifiers[0], { type: 'passport', value: 'A1234567', country: 'IR', note: 'Passport; issued 01 Feb 2010' });
  assert.deepEqual(x.identifiers[1], { type: 'national_id', value: '0012345678', country: 'MM', note: 'National ID No.' });
  assert.deepEqual(x.identifiers[2], { type: 'national_id', value: '16247821', country: 'CO', note: 'Cedula No.' });
  assert.equal(x.gender, 'male');
  assert.deepEqual(x.weakAliases, ['ABU TEST']);
  assert.deepEqual(x.formerNames, ['OLD CO']);
  assert.deepEqual(x.linkedTo, ['SOME GROUP']);
  assert.equal(parseOfacDob('circa 1960')?.approximate, true);
  assert.deepEqual(parseOfacDob('circa 1979-1982'), { fromYear: 1979, toYear: 1982, approximate: true, raw: 'circa 1979-1982' });
  assert.deepEqual(extractRemarks('nationality possibly Palestinian;arrested 23 Apr 2002').nationalities, ['PS']);
  assert.equal(parseOfacDob('not a date'), undefined);
  assert.equal(parseOfacDob('1990 to 1950'), undefined, 'a reversed range is rejected');
});

test('country names and variants resolve to ISO alpha-2', () => {
  const cases: [string, string | undefined][] = [
    ['Korea, North', 'KP'],
    ["Democratic People's Republic of Korea", 'KP'],
    ['Korea, South', 'KR'],
    ['Iran (Islamic Republic of)', 'IR'],
    ['Iranian', 'IR'],
    ['Russian Federation', 'RU'],
    ['Burma', 'MM'],
    ['Syrian Arab Republic', 'SY'],
    ['Congo, Democratic Republic of the', 'CD'],
    ['Cote d Ivoire', 'CI'],
    ["Côte d'Ivoire", 'CI'],
    ['Türkiye', 'TR'],
    ['Viet Nam', 'VN'],
    ['Bahamas, The', 'BS'],
    ['Man, Isle of', 'IM'],
    ['Gaza (Palestinian Authority)', 'PS'],
    ['possibly Palestinian', 'PS'],
    ['Baghdad, Iraq', 'IQ'],
    ['Sarajevo Bosnia-Herzegovina', 'BA'],
    ['UK', 'GB'],
    ['us', 'US'],
    ['IRN', 'IR'],
    ['Atlantis', undefined],
    ['-0-', undefined],
  ];
  for (const [name, iso] of cases) assert.equal(toIso2(name), iso, name);
});

test('a malformed file fails only its list, naming file, line and field', async () => {
  const res = await loadAllLists(
    {
      lists: [
        { source: 'ofac_sdn', dir: path.join(FIX, 'ofac_bad') },
        { source: 'ofac_cons', dir: path.join(FIX, 'ofac_tricky'), files: ['sdn.csv', 'alt.csv', 'add.csv', 'sdn_comments.csv'] },
        { source: 'un_sc', dir: path.join(FIX, 'nowhere') },
      ],
    },
    { progressBar: false },
  );
  assert.deepEqual(
    res.versions.map((v) => v.source),
    ['ofac_cons'],
  );
  assert.equal(res.entities.length, 4);
  const bad = res.failures.find((f) => f.source === 'ofac_sdn');
  assert.ok(bad);
  assert.match(bad.file, /ofac_bad\/sdn\.csv$/);
  assert.equal(bad.line, 3);
  assert.equal(bad.field, 'columns');
  assert.match(bad.message, /sdn\.csv:3 \[columns\]: expected 12 columns, found 11/);
  const missing = res.failures.find((f) => f.source === 'un_sc');
  assert.ok(missing);
  assert.match(missing.message, /file not found/);
});

test('progress callback reports bytes read up to the total', async () => {
  const events: { bytesRead: number; totalBytes: number }[] = [];
  await loadAllLists({ lists: [{ source: 'ofac_sdn', dir: path.join(FIX, 'ofac_tricky') }] }, { progressBar: false, onProgress: (e) => events.push(e) });
  assert.ok(events.length >= 4);
  const last = events[events.length - 1];
  assert.equal(last.bytesRead, last.totalBytes);
  assert.equal(last.totalBytes, 815 + 148 + 176 + 172);
  for (let i = 1; i < events.length; i++) assert.ok(events[i].bytesRead >= events[i - 1].bytesRead);
});

test('EU FSF CSV (fixture): rows grouped by Entity_LogicalId into names, birth date, passport, citizenship, address', async () => {
  const { entities, version } = await loadList({ source: 'eu_fsf', dir: path.join(FIX, 'eu_fsf') });
  assert.equal(entities.length, 2);
  assert.equal(version.publishedAt, '2026-03-01');
  const saddam = byId(entities, '13');
  assert.equal(saddam.schema, 'person');
  assert.equal(saddam.primaryName, 'Saddam Hussein Al-Tikriti');
  assert.deepEqual(saddam.names.map((n) => n.kind), ['primary', 'strong_alias']);
  assert.equal(saddam.names[1].value, 'Abu Ali');
  assert.deepEqual(saddam.birthDates.map((b) => b.date), ['1937-04-28']);
  assert.deepEqual(saddam.birthPlaces, ['al-Awja, IRAQ']);
  assert.deepEqual(saddam.identifiers, [{ type: 'passport', value: 'A123456', country: 'IQ', note: 'National passport' }]);
  assert.deepEqual(saddam.nationalities, ['IQ']);
  assert.deepEqual(saddam.programs, ['IRQ']);
  assert.equal(saddam.gender, 'male');
  assert.equal(saddam.listedOn, '2003-06-27');
  const volga = byId(entities, '1234');
  assert.equal(volga.schema, 'organization');
  assert.equal(volga.primaryName, 'VOLGA TRADING; LLC');
  assert.equal(volga.addresses[0].country, 'RU');
});

test('UK OFSI ConList CSV (fixture): Last Updated line, rows grouped by Group ID, alias quality, 00/00/YYYY dates', async () => {
  const { entities, version } = await loadList({ source: 'uk_sanctions', dir: path.join(FIX, 'uk_sanctions') });
  assert.equal(entities.length, 2);
  assert.equal(version.publishedAt, '2026-02-28');
  const petrov = byId(entities, '13712');
  assert.equal(petrov.primaryName, 'Alexander Vladimirovich PETROV');
  assert.deepEqual(
    petrov.names.map((n) => [n.value, n.kind]),
    [
      ['Alexander Vladimirovich PETROV', 'primary'],
      ['Александр Владимирович ПЕТРОВ', 'original_script'],
      ['Aleksandr PETROV', 'strong_alias'],
      ['SASHA', 'weak_alias'],
    ],
  );
  assert.deepEqual(petrov.birthDates.map((b) => b.date), ['1979', '1979-07-12']);
  assert.deepEqual(petrov.nationalities, ['RU']);
  assert.equal(petrov.listedOn, '2018-10-15');
  const ship = byId(entities, '13640');
  assert.equal(ship.schema, 'organization');
  assert.deepEqual(ship.programs, ["Democratic People's Republic of Korea"]);
  assert.equal(ship.addresses[0].country, 'HK');
});

test('malformed XML, CSV and JSON lines each fail with file, line and field', async (t) => {
  const { mkdtemp, writeFile, rm, mkdir } = await import('node:fs/promises');
  const { tmpdir } = await import('node:os');
  const work = await mkdtemp(path.join(tmpdir(), 'lists-bad-'));
  t.after(() => rm(work, { recursive: true, force: true }));
  for (const d of ['un', 'csl', 'os', 'dpl']) await mkdir(path.join(work, d));
  await writeFile(
    path.join(work, 'un', 'UN_consolidated.xml'),
    '<?xml version="1.0"?>\n<CONSOLIDATED_LIST dateGenerated="2026-01-01T00:00:00Z">\n<INDIVIDUALS>\n<INDIVIDUAL><DATAID>1</DATAID><FIRST_NAME>A</FIRST_NAME></INDIVIDUAL>\n<INDIVIDUAL><DATAID>2</DATAID><FIRST_NAME>B</SECOND_NAME>\n',
  );
  await writeFile(
    path.join(work, 'csl', 'consolidated.csv'),
    '_id,source,entity_number,type,programs,name,title,addresses,federal_register_notice,start_date,end_date,standard_order,license_requirement,license_policy,call_sign,vessel_type,gross_tonnage,gross_registered_tonnage,vessel_flag,vessel_owner,remarks,source_list_url,alt_names,citizenships,dates_of_birth,nationalities,places_of_birth,source_information_url,ids\n' +
      'x1,Specially Designated Nationals (SDN) - Treasury Department,1,Individual,SDGT,"DOE, John",,,,,,,,,,,,,,,,,,,,,,,\n' +
      'x2,Specially Designated Nationals (SDN) - Treasury Department,2,Individual,SDGT,"ROE, Jane",,,\n',
  );
  await writeFile(path.join(work, 'os', 'x_senzing.json'), '{"RECORD_ID":"a","RECORD_TYPE":"PERSON","NAMES":[{"NAME_TYPE":"PRIMARY","NAME_FULL":"A B"}]}\n{"RECORD_ID": "b", NAMES\n');
  await writeFile(path.join(work, 'dpl', 'dpl.txt'), '"Name"\t"Street_Address"\t"City"\t"State"\t"Country"\t"Postal_Code"\t"Effective_Date"\t"Expiration_Date"\t"Standard_Order"\t"Last_Update"\t"Action"\t"FR_Citation"\n"X"\t""\t""\t""\t"US"\t""\t"13/45/2001"\t""\t"Y"\t"2020-01-01"\t""\t""\n');
  const res = await loadAllLists(
    {
      lists: [
        { source: 'un_sc', dir: path.join(work, 'un') },
        { source: 'us_csl', dir: path.join(work, 'csl') },
        { source: 'opensanctions_peps', dir: path.join(work, 'os') },
        { source: 'us_dpl', dir: path.join(work, 'dpl') },
      ],
    },
    { progressBar: false },
  );
  assert.deepEqual(res.versions.map((v) => v.source), [], JSON.stringify(res.failures));
  const f = Object.fromEntries(res.failures.map((x) => [x.source, x]));
  assert.equal(f.un_sc.field, 'xml');
  assert.equal(f.un_sc.line, 5);
  assert.match(f.un_sc.message, /UN_consolidated\.xml:5 \[xml\]: malformed XML/);
  assert.deepEqual([f.us_csl.line, f.us_csl.field], [3, 'columns']);
  assert.match(f.us_csl.message, /expected 29 columns, found 9/);
  assert.deepEqual([f.opensanctions_peps.line, f.opensanctions_peps.field], [2, 'json']);
  assert.deepEqual([f.us_dpl.line, f.us_dpl.field], [2, 'Effective_Date']);
});

test('ICIJ current export names (nodes-*.csv, relationships.csv with node_id_start/end) load too', async (t) => {
  const { mkdtemp, writeFile, rm } = await import('node:fs/promises');
  const { tmpdir } = await import('node:os');
  const dir = await mkdtemp(path.join(tmpdir(), 'icij-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  await writeFile(path.join(dir, 'nodes-entities.csv'), 'node_id,name,original_name,jurisdiction_description,countries,country_codes,sourceID\n10,"ALPHA HOLDINGS LTD.",,Panama,Hong Kong,HKG,Panama Papers\n');
  await writeFile(path.join(dir, 'nodes-officers.csv'), 'node_id,name,countries,country_codes,sourceID\n20,"SMITH, John",United Kingdom,GBR,Panama Papers\n21,,,,Panama Papers\n');
  await writeFile(path.join(dir, 'nodes-addresses.csv'), 'node_id,address,countries\n30,"1 Road, Town",Panama\n');
  await writeFile(path.join(dir, 'relationships.csv'), 'node_id_start,node_id_end,rel_type,link,sourceID\n20,10,officer_of,shareholder of,Panama Papers\n');
  const { entities, stats } = await loadList({ source: 'icij_offshore', dir });
  assert.deepEqual(stats, { entity: 1, officer: 1, edges: 1 });
  const smith = byId(entities, '20');
  assert.deepEqual(smith.links, [{ relation: 'officer_of', targetId: 'icij_offshore:10' }]);
  assert.deepEqual(smith.countries, ['GB']);
  const alpha = byId(entities, '10');
  assert.deepEqual(alpha.countries, ['HK', 'PA']);
  assert.deepEqual(alpha.links, [{ relation: 'officer_of (inverse)', targetId: 'icij_offshore:20' }]);
});
