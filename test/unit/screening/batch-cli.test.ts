/**
 * `svc screen` input validation and batch mode through commander: usage errors exit 2 before any
 * list is loaded, bad rows go to the errors file with their line, the worker pool writes exactly
 * what the single-thread path writes.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, it } from 'node:test';
import { Command } from 'commander';
import { parse } from 'csv-parse/sync';
import { CliUsageError, registerScreenCommands } from '../../../src/cli/screen';
import { RESULT_COLUMNS } from '../../../src/app/batch-screening/rows';
import { computeRiskScore } from '../../../src/reports/risk-score';
import { ScreeningEngine } from '../../../src/screening/engine';
import * as F from './matching/fixtures';

const engine = ScreeningEngine.build(F.ALL, []);
const dir = mkdtempSync(path.join(os.tmpdir(), 'svc-batch-'));
const NOW = new Date('2026-11-26T10:00:00Z');
/** Lists or engines handed out to the command, over all runs. */
let listLoads = 0;

async function run(args: string[], opts: { progressEveryMs?: number; tty?: boolean } = {}): Promise<{ out: string; err: string; loads: number }> {
  const stdout = new PassThrough();
  const stderr = Object.assign(new PassThrough(), { isTTY: opts.tty ?? false, columns: 160 });
  let out = '';
  let err = '';
  let loads = 0;
  stdout.on('data', (d) => (out += d));
  stderr.on('data', (d) => (err += d));
  const program = new Command().exitOverride();
  registerScreenCommands(program, {
    loadEngine: async () => (loads++, listLoads++, engine),
    loadLists: async () => (loads++, listLoads++, { entities: F.ALL, versions: [] }),
    stdout,
    stderr,
    now: () => NOW,
    ...(opts.progressEveryMs !== undefined ? { progressEveryMs: opts.progressEveryMs } : {}),
  });
  await program.parseAsync(['node', 'svc', ...args]);
  return { out, err, loads };
}

const csv = (file: string) => parse(readFileSync(file, 'utf8'), { columns: true }) as Record<string, string>[];

describe('svc screen: single-name validation', () => {
  it('refuses the issue example with every problem named, exit code 2, before loading any list', async () => {
    let loads = 0;
    const program = new Command().exitOverride();
    registerScreenCommands(program, { loadEngine: async () => (loads++, engine), stdout: new PassThrough(), stderr: new PassThrough(), now: () => NOW });
    await assert.rejects(program.parseAsync(['node', 'svc', 'screen', 'X', '--dob', '31/02/1960', '--country', 'Narnia', '--type', 'boat']), (e: unknown) => {
      assert.ok(e instanceof CliUsageError);
      assert.equal(e.exitCode, 2);
      assert.equal(
        e.message,
        [
          '--dob: "31/02/1960" is not a real calendar date',
          '--country: unknown country "Narnia": give an ISO 3166-1 code (GB, GBR) or a country name',
          '--type: unknown entity type "boat": one of person (individual), organization (organisation, company, entity), vessel, aircraft',
        ].join('\n'),
      );
      return true;
    });
    assert.equal(loads, 0);
    await assert.rejects(run(['screen', 'X', '--dob', '2026-12-01']), /--dob: "2026-12-01" is in the future/);
    await assert.rejects(run(['screen', 'X', '--threshold', 'high']), /--threshold: "high" is not a number between 0 and 1/);
    await assert.rejects(run(['screen', 'X', '--topic', 'terror']), /--topic: unknown topic "terror"/);
    await assert.rejects(run(['screen', '--file', 'x.csv', '--workers', '0']), /--workers must be an integer from 1 to 64/);
  });

  it('maps a country name and a type, and screens with them (the query the engine gets is the validated one)', async () => {
    const { out } = await run(['screen', 'Vladimir Putin', '--dob', '07/10/1952', '--country', 'Russia', '--type', 'individual']);
    assert.match(out, /Query: Vladimir Putin, dob 1952-10-07, country RU, person/);
    assert.match(out, /dob_match \+0\.05: date of birth 1952-10-07 equals listed/);
    assert.match(out, /country_match \+0\.03: nationality RU listed/);
  });

  it('exits the real process with code 2 and the message on stderr', () => {
    const r = spawnSync(process.execPath, ['--import', 'tsx', 'src/main.ts', 'screen', 'X', '--dob', '31/02/1960', '--country', 'Narnia', '--type', 'boat'], {
      encoding: 'utf8',
      env: { ...process.env, LOG_LEVEL: 'silent' },
    });
    assert.equal(r.status, 2);
    assert.match(r.stderr, /--dob: "31\/02\/1960" is not a real calendar date\n--country: unknown country "Narnia".*\n--type: unknown entity type "boat"/);
    assert.equal(r.stdout, '');
  });
});

describe('svc screen --file', () => {
  const bad = path.join(dir, 'bad-rows.csv');
  writeFileSync(
    bad,
    [
      'Name,Entity_Type,DOB,Country',
      '"PUTIN, Vladimir",person,1952,RU',
      ',person,1970,',
      'Osama bin Laden,,31/02/1960,',
      'Hamas,organization,,Narnia',
      'ab"c,person,,',
      '"Sea Star',
      '2",boat,,',
      '',
      'George Bush,person,1950..1960,US',
      'Hamas,organisation,,GBR',
      '',
    ].join('\n'),
  );

  it('refuses only rows without a name or unreadable; a bad optional field is left out with a warning in the row and the errors file', async () => {
    const out = path.join(dir, 'bad-rows.out.csv');
    const { err } = await run(['screen', '--file', bad, '--out', out, '--workers', '1']);
    const results = csv(out);
    assert.deepEqual(
      results.map((r) => [r.line, r.name, r.flagged]),
      [
        ['2', 'PUTIN, Vladimir', 'true'],
        ['4', 'Osama bin Laden', 'true'],
        ['5', 'Hamas', 'true'],
        ['7', 'Sea Star\n2', 'true'],
        ['10', 'George Bush', 'false'],
        ['11', 'Hamas', 'true'],
      ],
    );
    const errors = csv(`${out}.errors.csv`);
    assert.deepEqual(
      errors.map((e) => [e.line, e.field, e.value]),
      [
        ['3', 'name', ''],
        ['4', 'dob', '31/02/1960'],
        ['5', 'country', 'Narnia'],
        ['6', 'row', ''],
        ['7', 'entity_type', 'boat'],
      ],
    );
    assert.match(errors[3].message, /unreadable CSV row: Invalid Opening Quote/);
    assert.match(errors[1].message, /is not a real calendar date; screened without it$/);
    assert.match(results[1].warnings, /^dob "31\/02\/1960": .*not a real calendar date; screened without it$/);
    assert.match(results[2].warnings, /^country "Narnia": unknown country/);
    assert.equal(results[0].warnings, '');
    assert.match(results[4].explanation, /birth years 1950\.\.1960: .* not used/);
    assert.match(err, new RegExp(`screened 6 names, 5 flagged at 0\\.8, 2 rejected \\(see ${out.replace(/[.]/g, '\\.')}\\.errors\\.csv\\)`));
  });

  it('a bad optional field never drops a name (issue 27): an unpadded date is a date, an impossible one is left out', async () => {
    const input = path.join(dir, 'dates.csv');
    const out = path.join(dir, 'dates.out.csv');
    // the issue's own examples last: Neil Armstrong (not listed) with an unpadded and an impossible date
    writeFileSync(input, 'name,dob,country\nVladimir Putin,1952-10-7,RU\nVladimir Putin,1952-13-30,RU\nVladimir Putin,1952-10-07,\nNeil Armstrong,1969-7-16,US\nNeil Armstrong,1968-13-30,US\n');
    await run(['screen', '--file', input, '--out', out, '--workers', '1']);
    const [unpadded, impossible, padded, armstrongUnpadded, armstrongImpossible] = csv(out);
    assert.deepEqual([unpadded.line, unpadded.warnings, unpadded.match_strength], ['2', '', 'confirmed'], 'read as 1952-10-07: the listed date of birth confirms the hit');
    assert.match(unpadded.confirmation, /^date_of_birth: date of birth 1952-10-07 equals listed/);
    assert.equal(unpadded.risk_level, 'critical');
    assert.deepEqual([impossible.line, impossible.flagged, impossible.risk_level], ['3', 'true', 'high'], 'screened on the name without the date: a potential hit, high');
    assert.match(impossible.warnings, /^dob "1952-13-30": "1952-13-30": there is no month 13; screened without it$/);
    assert.equal(padded.risk_level, 'critical');
    assert.deepEqual([armstrongUnpadded.line, armstrongUnpadded.name, armstrongUnpadded.warnings, armstrongUnpadded.flagged], ['5', 'Neil Armstrong', '', 'false'], '1969-7-16 is a date');
    assert.deepEqual([armstrongImpossible.line, armstrongImpossible.name, armstrongImpossible.flagged], ['6', 'Neil Armstrong', 'false'], 'screened without 1968-13-30');
    assert.match(armstrongImpossible.warnings, /^dob "1968-13-30": .*there is no month 13; screened without it$/);
    // every row is in the results; only the impossible dates are in the errors file, as warnings of screened rows
    assert.equal(csv(out).length, 5);
    assert.deepEqual(csv(`${out}.errors.csv`).map((e) => [e.line, e.field]), [['3', 'dob'], ['6', 'dob']]);
  });

  it('refuses a file without a name column before loading lists, and leaves no file behind', async () => {
    const input = path.join(dir, 'no-name.csv');
    const out = path.join(dir, 'no-name.out.csv');
    writeFileSync(input, 'full_name,dob\nHamas,\n');
    const before = listLoads;
    for (const workers of ['1', '2']) {
      await assert.rejects(run(['screen', '--file', input, '--out', out, '--workers', workers]), (e: unknown) => e instanceof CliUsageError && /the header must have a "name" column \(found: full_name, dob\)/.test(e.message));
      assert.deepEqual([out, `${out}.partial`, `${out}.errors.csv`, `${out}.errors.csv.partial`].filter((f) => existsSync(f)), []);
    }
    assert.equal(listLoads, before, 'the header is checked before any list is loaded');
  });

  it('writes the documented columns, the best hit, its lists and the shared risk level', async () => {
    const input = path.join(dir, 'cols.csv');
    const out = path.join(dir, 'cols.out.csv');
    const jsonl = path.join(dir, 'cols.jsonl');
    writeFileSync(input, 'name,type\nHamas,organization\nEmma Daniels,person\nNobody Inparticular,person\n');
    await run(['screen', '--file', input, '--out', out, '--jsonl', jsonl, '--workers', '1']);
    assert.deepEqual(readFileSync(out, 'utf8').split('\n', 1)[0], RESULT_COLUMNS.join(','));
    const [hamas, emma, nobody] = csv(out);
    const expected = engine.screen({ name: 'Hamas', schema: 'organization' });
    assert.deepEqual(
      [hamas.entity_type, hamas.hit_count, hamas.best_entity_id, hamas.best_entity_name, hamas.matched_name, hamas.matched_lists],
      ['organization', '1', F.HAMAS.id, 'HAMAS', 'HAMAS', 'ofac_sdn'],
    );
    assert.ok(hamas.explanation.startsWith(expected[0].explanation.summary), hamas.explanation);
    // the shared scorer on the row's merged hits, filed as the list agents file them (a sanctions list → sanctions, a PEP list → pep),
    // with what S1/S3 would say about the identity: a one-word organisation name confirms nothing, nor does an exact
    // person name many people carry (Emma Daniels: the name-frequency model knows Daniels, an English patronymic surname)
    assert.equal(Number(hamas.best_score), 0.95);
    assert.deepEqual([hamas.risk_score, hamas.risk_level, hamas.match_strength, hamas.confirmation], ['45', 'high', 'potential', '']);
    assert.match(hamas.explanation, /Name only: not distinctive/);
    assert.match(hamas.risk_reason, /^High \(45\), edd required: potential sanctions match/);
    assert.deepEqual([emma.risk_score, emma.risk_level, emma.matched_lists, emma.match_strength, emma.confirmation], ['10', 'low', 'opensanctions_peps', 'potential', '']);
    assert.match(emma.explanation, /Name only: common name: about [\d,]+ expected bearers among English names/);
    const pep = computeRiskScore({ hits: { pep: [{ hitId: F.EMMA_DANIELS.id, category: 'pep', source: 'opensanctions_peps', score: Number(emma.best_score), assessment: 'strong_name_match' }] } });
    assert.deepEqual([emma.risk_score, emma.risk_level], [String(pep.riskScore), pep.riskLevel]);
    assert.deepEqual([nobody.flagged, nobody.hit_count, nobody.risk_score, nobody.risk_level], ['false', '0', '0', 'low']);
    const lines = readFileSync(jsonl, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    assert.deepEqual(lines.map((l) => l.line), [2, 3]);
    assert.deepEqual(lines[0].hits.map((h: { entityId: string }) => h.entityId), [F.HAMAS.id]);
    assert.equal(lines[0].hits[0].explanation.summary, hamas.explanation);
    assert.deepEqual([lines[0].risk_level, lines[1].risk_level], ['high', 'low']);
  });

  it('scores a row as S1/S3 do (issue 27 §4): one hit per listed entity, the row country\'s risk, export-control rows as export control', async () => {
    // The same SDN designation on the SDN file and inside the CSL (linked by its OFAC entity number), and a BIS Entity List row.
    const putinInCsl = F.entity({
      primaryName: 'PUTIN, Vladimir Vladimirovich',
      source: 'us_csl',
      sourceId: '35096-1',
      birthDates: [{ date: '1952-10-07' }],
      extra: { list: 'Specially Designated Nationals (SDN) - Treasury Department', entity_number: '35096' },
    });
    const entityList = F.entity({
      primaryName: 'ZORBLAX MICROELECTRONICS COMPANY',
      source: 'us_csl',
      sourceId: 'el-zorblax',
      schema: 'organization',
      topics: ['export_control'],
      extra: { list: 'Entity List (EL) - Bureau of Industry and Security' },
    });
    const merged = ScreeningEngine.build([F.PUTIN, putinInCsl, entityList], []);
    const input = path.join(dir, 'as-api.csv');
    const out = path.join(dir, 'as-api.out.csv');
    writeFileSync(input, 'name,dob,country,entity_type\nVladimir Putin,1952-10-07,,person\nZorblax Microelectronics Company,,,organization\nMargaret Thistlewood,,GB,person\nMargaret Thistlewood,,IR,person\n');
    const program = new Command().exitOverride();
    registerScreenCommands(program, { loadEngine: async () => merged, stdout: new PassThrough(), stderr: new PassThrough(), now: () => NOW });
    await program.parseAsync(['node', 'svc', 'screen', '--file', input, '--out', out, '--jsonl', `${out}.jsonl`, '--workers', '1']);
    const [putin, zorblax, inGb, inIr] = csv(out);
    // two list rows, one real entity: one hit carrying both lists, counted once per issuing authority
    assert.deepEqual([putin.hit_count, putin.matched_lists, putin.match_strength, putin.risk_level], ['1', 'ofac_sdn;us_csl', 'confirmed', 'critical']);
    const detail = readFileSync(`${out}.jsonl`, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    assert.deepEqual(detail[0].hits.map((h: { category: string; sources: unknown[] }) => [h.category, h.sources.length]), [['sanctions', 2]]);
    // an export-control row is filed as export control (debarment), and its floor is export control's, not sanctions'
    assert.deepEqual(detail[1].hits.map((h: { category: string }) => h.category), ['debarment']);
    assert.ok(!detail[1].risk_flags.includes('confirmed_sanctions_hit'));
    assert.ok(['medium', 'high'].includes(zorblax.risk_level), zorblax.risk_reason);
    assert.match(zorblax.risk_reason, /export-control/);
    // no hit: the row's country alone decides, as the country-risk step does for S1/S3 (Iran: comprehensive embargo)
    assert.deepEqual([inGb.flagged, inGb.risk_level], ['false', 'low']);
    assert.deepEqual([inIr.flagged, inIr.risk_level], ['false', 'high']);
    assert.match(inIr.risk_reason, /embargo|comprehensive/i);
    // the single-name command shows the same merged hit and the same verdict
    let printed = '';
    const stdout = new PassThrough().on('data', (d) => (printed += d));
    const single = new Command().exitOverride();
    registerScreenCommands(single, { loadEngine: async () => merged, stdout, stderr: new PassThrough(), now: () => NOW });
    await single.parseAsync(['node', 'svc', 'screen', 'Vladimir Putin', '--dob', '1952-10-07', '--json']);
    const answer = JSON.parse(printed);
    assert.deepEqual([answer.verdict.risk_level, answer.hits.length, answer.hits[0].sources.map((x: { source: string }) => x.source)], ['critical', 1, ['ofac_sdn', 'us_csl']]);
  });

  it('writes the same results, hits and errors on a pool of worker threads as in one thread', async () => {
    const names = ['"PUTIN, Vladimir",person,1952,RU', 'Hamas,,,', 'Usama bin Ladin,person,,', 'Nobody Inparticular,,,', 'Sea Star 2,vessel,,', 'Kim Jong Un,,,KP', 'x,boat,,'];
    const input = path.join(dir, 'many.csv');
    // more rows than one chunk (250) per worker, so chunks finish out of order
    writeFileSync(input, `name,entity_type,dob,country\n${Array.from({ length: 1400 }, (_, i) => names[i % names.length]).join('\n')}\n`);
    const outputs: Record<number, string[]> = {};
    for (const workers of [1, 3]) {
      const out = path.join(dir, `many-${workers}.csv`);
      const { err } = await run(['screen', '--file', input, '--out', out, '--jsonl', `${out}.jsonl`, '--workers', String(workers)]);
      // 'x' of type 'boat' is screened without the unknown type (a warning), no longer refused
      assert.match(err, new RegExp(`screened 1400 names, 1000 flagged at 0\\.8, 0 rejected.* on ${workers} worker\\(s\\)`));
      outputs[workers] = [readFileSync(out, 'utf8'), readFileSync(`${out}.jsonl`, 'utf8'), readFileSync(`${out}.errors.csv`, 'utf8')];
    }
    assert.equal(outputs[3][0], outputs[1][0]);
    assert.equal(outputs[3][1], outputs[1][1]);
    assert.equal(outputs[3][2], outputs[1][2]);
    assert.deepEqual(csv(path.join(dir, 'many-3.csv')).slice(0, 3).map((r) => r.line), ['2', '3', '4']);
  });

  it('prints plain progress lines with names/s and an ETA when stderr is not a terminal', async () => {
    const input = path.join(dir, 'progress.csv');
    writeFileSync(input, `name\n${Array.from({ length: 600 }, (_, i) => (i % 2 ? 'Hamas' : 'Nobody Inparticular')).join('\n')}\n`);
    const { err } = await run(['screen', '--file', input, '--out', path.join(dir, 'progress.out.csv'), '--workers', '1'], { progressEveryMs: 0 });
    const lines = err.split('\n').filter((l) => l.startsWith('screened ') && l.includes('ETA'));
    assert.ok(lines.length >= 2, err);
    assert.match(lines[0], /^screened 250 of ~600 rows \(42%\), \d+ names\/s, ETA \d+ s; 125 flagged, 0 rejected$/);
  });

  it('draws a bar with names/s and ETA on a terminal', async () => {
    const input = path.join(dir, 'progress-tty.csv');
    writeFileSync(input, `name\n${Array.from({ length: 600 }, (_, i) => (i % 2 ? 'Hamas' : 'Nobody Inparticular')).join('\n')}\n`);
    const { err } = await run(['screen', '--file', input, '--out', path.join(dir, 'progress-tty.out.csv'), '--workers', '1'], { tty: true });
    assert.match(err, /screening \|.*\| 600\/600 100% \| \d+ names\/s \| ETA \S+ \| 300 flagged, 0 rejected/);
    assert.doesNotMatch(err, /^screened \d+ of ~/m);
  });

  it('reads JSON lines (.jsonl, or --format jsonl): the same results as the CSV of the same rows, unreadable lines in the errors file', async () => {
    const rows = [
      { name: 'PUTIN, Vladimir', entity_type: 'person', dob: '1952', country: 'RU' },
      { name: 'Hamas', type: 'organization' },
      { name: 'Nobody Inparticular' },
    ];
    const jsonlIn = path.join(dir, 'book.jsonl');
    writeFileSync(jsonlIn, `${JSON.stringify(rows[0])}\n{broken\n\n${JSON.stringify(rows[1])}\n{"name":"Osama bin Laden","dob":"31/02/1960"}\n{"name":["x"]}\n${JSON.stringify(rows[2])}`);
    const csvIn = path.join(dir, 'book-same.csv');
    writeFileSync(csvIn, 'name,entity_type,dob,country\n"PUTIN, Vladimir",person,1952,RU\nHamas,organization,,\nNobody Inparticular,,,\n');
    const out = path.join(dir, 'book-jsonl.out.csv');
    const { err } = await run(['screen', '--file', jsonlIn, '--out', out, '--jsonl', `${out}.jsonl`, '--workers', '1']);
    // Osama bin Laden's impossible date is left out (a warning), the name is screened: 4 names, 2 rows refused
    assert.match(err, /screened 4 names, 3 flagged at 0\.8, 2 rejected/);
    await run(['screen', '--file', csvIn, '--out', path.join(dir, 'book-same.out.csv'), '--workers', '1']);
    const fromJson = csv(out);
    const fromCsv = csv(path.join(dir, 'book-same.out.csv'));
    assert.deepEqual(fromJson.map((r) => r.line), ['1', '4', '5', '7']);
    assert.deepEqual(fromJson.filter((r) => r.line !== '5').map((r) => ({ ...r, line: '' })), fromCsv.map((r) => ({ ...r, line: '' })));
    assert.deepEqual(csv(`${out}.errors.csv`).map((e) => [e.line, e.field]), [['2', 'row'], ['5', 'dob'], ['6', 'name']]);
    const detail = readFileSync(`${out}.jsonl`, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    assert.deepEqual(detail.map((l) => l.line), [1, 4, 5]);
    assert.match(detail[2].warnings[0], /^dob "31\/02\/1960"/);
    // --format overrides the extension
    const txt = path.join(dir, 'book.txt');
    writeFileSync(txt, readFileSync(jsonlIn));
    await run(['screen', '--file', txt, '--format', 'jsonl', '--out', path.join(dir, 'book-txt.out.csv'), '--workers', '1']);
    assert.equal(readFileSync(path.join(dir, 'book-txt.out.csv'), 'utf8'), readFileSync(out, 'utf8'));
  });

  it('refuses a JSON lines file whose first line is not an object, and a bad --format, before loading lists', async () => {
    const before = listLoads;
    const notJson = path.join(dir, 'not-json.jsonl');
    writeFileSync(notJson, '\nname,dob\nHamas,\n');
    await assert.rejects(run(['screen', '--file', notJson, '--workers', '1']), (e: unknown) => e instanceof CliUsageError && /JSON lines expected.*first line: name,dob/.test(e.message));
    await assert.rejects(run(['screen', '--file', notJson, '--format', 'xml']), (e: unknown) => e instanceof CliUsageError && /--format must be csv or jsonl/.test(e.message));
    assert.equal(listLoads, before);
  });
});
