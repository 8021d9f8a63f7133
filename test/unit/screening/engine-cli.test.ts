/** `svc screen` / `svc compare` through commander, with small CSV files. */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, it } from 'node:test';
import { Command } from 'commander';
import { parse } from 'csv-parse/sync';
import { CliUsageError, csvField, registerScreenCommands } from '../../../src/cli/screen';
import { ScreeningEngine } from '../../../src/screening/engine';
import * as F from './matching/fixtures';

const engine = ScreeningEngine.build(F.ALL, []);
const dir = mkdtempSync(path.join(os.tmpdir(), 'svc-screen-'));

async function run(args: string[]): Promise<{ out: string; err: string }> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (d) => (out += d));
  stderr.on('data', (d) => (err += d));
  const program = new Command().exitOverride();
  registerScreenCommands(program, { loadEngine: async () => engine, stdout, stderr });
  await program.parseAsync(['node', 'svc', ...args]);
  return { out, err };
}

describe('svc screen', () => {
  it('prints the verdict S1/S3 give, then one hit per listed entity with what confirmed it (or that nothing did)', async () => {
    const { out } = await run(['screen', 'Vladimir Putin', '--dob', '1952', '--country', 'RU']);
    assert.match(out, /^Verdict: HIGH 45$/m);
    assert.match(out, /1\. PUTIN, Vladimir Vladimirovich  \[sanctions; person; ofac_sdn:35096\]  score 0\.\d{4}/);
    assert.match(out, /POTENTIAL: /);
    assert.match(out, /birth year 1952 agrees .* but a full date is needed to confirm/);
    assert.match(out, /dob_match \+0\.03: birth year 1952/);
    assert.match(out, /country_match \+0\.03/);
    const confirmed = await run(['screen', 'Vladimir Putin', '--dob', '1952-10-07']);
    assert.match(confirmed.out, /^Verdict: CRITICAL 70  \[confirmed_sanctions_hit\]$/m);
    assert.match(confirmed.out, /CONFIRMED: identity corroborated\n\s+confirmed by date of birth 1952-10-07 equals listed 07 Oct 1952/);
    const none = await run(['screen', 'Nobody Inparticular']);
    assert.match(none.out, /Verdict: LOW 0/);
    assert.match(none.out, /No hits at threshold 0\.8/);
  });
  it('--json prints the verdict and the merged hits', async () => {
    const { out } = await run(['screen', 'Hamas', '--json', '--limit', '1']);
    const answer = JSON.parse(out);
    assert.deepEqual([answer.verdict.risk_level, answer.verdict.risk_score], ['high', 45]);
    assert.equal(answer.hits.length, 1);
    assert.equal(answer.hits[0].entityId, F.HAMAS.id);
    assert.equal(answer.hits[0].matchedName, 'HAMAS');
    assert.equal(answer.hits[0].status, 'potential', 'a one-word organisation name confirms nothing');
  });
  it('--file/--out writes one row per input name with the best hit, its lists and the risk level', async () => {
    const input = path.join(dir, 'names.csv');
    const output = path.join(dir, 'results.csv');
    writeFileSync(input, 'name,entity_type,dob,country\n"PUTIN, Vladimir",person,1952,RU\nGeorge Bush,person,,\nSea Star 1,vessel,,\n\n');
    const { err } = await run(['screen', '--file', input, '--out', output, '--workers', '1']);
    assert.match(err, /screened 3 names, 1 flagged at 0\.8, 0 rejected/);
    const rows = parse(readFileSync(output, 'utf8'), { columns: true }) as Record<string, string>[];
    assert.equal(rows.length, 3);
    assert.deepEqual([rows[0].line, rows[0].name, rows[0].flagged, rows[0].hit_count, rows[0].best_entity_id, rows[0].matched_lists], ['2', 'PUTIN, Vladimir', 'true', '1', F.PUTIN.id, 'ofac_sdn']);
    assert.equal(Number(rows[0].best_score), engine.screen({ name: 'PUTIN, Vladimir', birthDate: '1952', country: 'RU', schema: 'person' })[0].score);
    assert.deepEqual([rows[1].flagged, rows[1].hit_count, rows[1].best_score], ['false', '0', '']);
    assert.equal(rows[2].flagged, 'false');
  });
  it('rejects a CSV without a name column and a bad threshold with a usage error (exit code 2)', async () => {
    const input = path.join(dir, 'bad.csv');
    writeFileSync(input, 'full_name\nx\n');
    await assert.rejects(run(['screen', '--file', input, '--workers', '1']), (e: CliUsageError) => e.exitCode === 2 && /header must have a "name" column/.test(e.message));
    await assert.rejects(run(['screen', 'x', '--threshold', '2']), (e: CliUsageError) => e.exitCode === 2 && /--threshold: "2" is not a number between 0 and 1/.test(e.message));
  });
});

describe('svc compare', () => {
  it('--file/--out adds score and match to every row', async () => {
    const input = path.join(dir, 'pairs.csv');
    const output = path.join(dir, 'scored.csv');
    writeFileSync(input, 'name1,name2,schema\nVladimir Putin,"PUTIN, Vladimir",Person\nGeorge Bush,George Habbash,Person\nSea Star 1,Sea Star 2,Vessel\nAeroscan LLC,OOO Aeroskan,Company\n');
    await run(['compare', '--file', input, '--out', output]);
    const rows = parse(readFileSync(output, 'utf8'), { columns: true }) as Record<string, string>[];
    assert.deepEqual(Object.keys(rows[0]), ['name1', 'name2', 'schema', 'score', 'match']);
    assert.deepEqual(rows.map((r) => r.match), ['true', 'false', 'false', 'true']);
    assert.equal(rows[0].name2, 'PUTIN, Vladimir');
    assert.equal(Number(rows[0].score), engine.compare('Vladimir Putin', 'PUTIN, Vladimir', 'Person').score);
  });
  it('scores one pair on the command line', async () => {
    const { out } = await run(['compare', 'Usama bin Ladin', 'Osama bin Laden', '--schema', 'Person']);
    assert.match(out, /^0\.\d+ match/);
  });
  it('quotes CSV fields that need it', () => {
    assert.equal(csvField('a,b'), '"a,b"');
    assert.equal(csvField('say "x"'), '"say ""x"""');
    assert.equal(csvField(0.5), '0.5');
  });
});
