/** Validation of one screening query (CLI name, batch row): what is accepted, mapped and refused. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseBirthDate, parseScreeningInput, parseThresholdValue } from '../../../src/screening/query-input';

const TODAY = '2026-11-26';

describe('parseBirthDate', () => {
  it('takes a full date, a year-month, a year and a day-first date, in the form the engine reads', () => {
    assert.deepEqual(parseBirthDate('1952-10-07', TODAY), { date: '1952-10-07' });
    assert.deepEqual(parseBirthDate('1952-10', TODAY), { date: '1952-10' });
    assert.deepEqual(parseBirthDate(' 1952 ', TODAY), { date: '1952' });
    assert.deepEqual(parseBirthDate('7/10/1952', TODAY), { date: '1952-10-07' });
    assert.deepEqual(parseBirthDate('29.02.1960', TODAY), { date: '1960-02-29' });
  });
  it('takes an ISO date without leading zeros (issue 27: 1969-7-16 is a date)', () => {
    assert.deepEqual(parseBirthDate('1969-7-16', TODAY), { date: '1969-07-16' });
    assert.deepEqual(parseBirthDate('1969-7', TODAY), { date: '1969-07' });
    assert.deepEqual(parseBirthDate('1969-07-6', TODAY), { date: '1969-07-06' });
    assert.match((parseBirthDate('1968-13-30', TODAY) as { problem: string }).problem, /no month 13/);
    assert.match((parseBirthDate('1969-2-30', TODAY) as { problem: string }).problem, /not a real calendar date/);
  });
  it('takes a range of years, earlier year first', () => {
    assert.deepEqual(parseBirthDate('1950..1955', TODAY), { range: [1950, 1955] });
    assert.deepEqual(parseBirthDate('1950-1955', TODAY), { range: [1950, 1955] });
    assert.deepEqual(parseBirthDate('1950..1950', TODAY), { date: '1950' });
    assert.match((parseBirthDate('1955..1950', TODAY) as { problem: string }).problem, /earlier year to the later/);
  });
  it('refuses impossible, future, too old and unreadable dates with a message naming the value', () => {
    assert.match((parseBirthDate('31/02/1960', TODAY) as { problem: string }).problem, /"31\/02\/1960" is not a real calendar date/);
    assert.match((parseBirthDate('1961-02-29', TODAY) as { problem: string }).problem, /not a real calendar date/);
    assert.match((parseBirthDate('1960-13', TODAY) as { problem: string }).problem, /no month 13/);
    assert.match((parseBirthDate('2026-11-27', TODAY) as { problem: string }).problem, /in the future/);
    assert.match((parseBirthDate('2027', TODAY) as { problem: string }).problem, /between 1900 and 2026/);
    assert.match((parseBirthDate('1899-12-31', TODAY) as { problem: string }).problem, /between 1900 and 2026/);
    assert.match((parseBirthDate('yesterday', TODAY) as { problem: string }).problem, /is not a date: use YYYY/);
    assert.deepEqual(parseBirthDate('2026-11-26', TODAY), { date: '2026-11-26' });
  });
});

describe('parseScreeningInput', () => {
  it('maps a country name or code to ISO alpha-2 and an entity type to the engine schema', () => {
    const r = parseScreeningInput({ name: ' Vladimir Putin ', dob: '1952', country: 'Russian Federation', type: 'Individual' }, TODAY);
    assert.deepEqual(r, { ok: true, query: { name: 'Vladimir Putin', birthDate: '1952', country: 'RU', schema: 'person' }, notes: [], warnings: [] });
    const org = parseScreeningInput({ name: 'Hamas', country: 'GBR', type: 'company' }, TODAY);
    assert.deepEqual(org.ok && org.query, { name: 'Hamas', country: 'GB', schema: 'organization' });
    const vessel = parseScreeningInput({ name: 'Sea Star 2', country: 'uk', type: 'VESSEL', dob: '' }, TODAY);
    assert.deepEqual(vessel.ok && vessel.query, { name: 'Sea Star 2', country: 'GB', schema: 'vessel' });
  });
  it('reports every problem of the issue example at once', () => {
    const r = parseScreeningInput({ name: 'X', dob: '31/02/1960', country: 'Narnia', type: 'boat' }, TODAY);
    assert.equal(r.ok, false);
    assert.deepEqual(
      !r.ok && r.problems.map((p) => [p.field, p.value]),
      [
        ['dob', '31/02/1960'],
        ['country', 'Narnia'],
        ['entity_type', 'boat'],
      ],
    );
    assert.match(!r.ok ? r.problems[1].message : '', /unknown country "Narnia"/);
    assert.match(!r.ok ? r.problems[2].message : '', /one of person .* vessel, aircraft/);
  });
  it('lenient (a batch row): a bad optional field is left out with a warning, the name is screened; only the name refuses', () => {
    const r = parseScreeningInput({ name: 'Neil Armstrong', dob: '1968-13-30', country: 'Narnia', type: 'boat' }, TODAY, { lenient: true });
    assert.ok(r.ok);
    assert.deepEqual(r.query, { name: 'Neil Armstrong' });
    assert.deepEqual(r.warnings.map((w) => [w.field, w.value]), [['dob', '1968-13-30'], ['country', 'Narnia'], ['entity_type', 'boat']]);
    assert.match(r.warnings[0]!.message, /no month 13; screened without it$/);
    const unpadded = parseScreeningInput({ name: 'Neil Armstrong', dob: '1930-8-5' }, TODAY, { lenient: true });
    assert.deepEqual(unpadded.ok && [unpadded.query.birthDate, unpadded.warnings], ['1930-08-05', []]);
    assert.deepEqual(parseScreeningInput({ name: ' ', dob: '1968-13-30' }, TODAY, { lenient: true }).ok, false);
  });
  it('refuses a missing or letterless name', () => {
    assert.deepEqual(parseScreeningInput({ name: '  ' }, TODAY), { ok: false, problems: [{ field: 'name', value: '  ', message: 'a name is required' }] });
    assert.equal(parseScreeningInput({ name: '--- !!' }, TODAY).ok, false);
  });
  it('leaves a range out of the query and says so in a note', () => {
    const r = parseScreeningInput({ name: 'John Smith', dob: '1950..1960' }, TODAY);
    assert.equal(r.ok && r.query.birthDate, undefined);
    assert.match(r.ok ? r.notes[0] : '', /birth years 1950\.\.1960: .* not used/);
  });
});

describe('parseThresholdValue', () => {
  it('takes 0 to 1 and refuses anything else', () => {
    assert.equal(parseThresholdValue('0.85'), 0.85);
    assert.equal(parseThresholdValue('1'), 1);
    for (const bad of ['1.5', '-0.1', 'high', '', 'NaN']) assert.match((parseThresholdValue(bad) as { problem: string }).problem, /not a number between 0 and 1/);
  });
});
