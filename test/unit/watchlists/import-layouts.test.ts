/**
 * Imports as firms export them (issue 30): the vendor layouts recognised with no mapping, dates whose
 * order is decided by the whole column, two-digit years, rows listed by an identifier or a native
 * name alone, the nested vendor JSON form, and skipping bad rows beside all or nothing.
 */
import { strict as assert } from 'node:assert';
import { createReadStream, readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { describe, it } from 'node:test';
import { ImportUnreadable, parseImport, type ImportMapping } from '../../../src/app/watchlists/import-parser';
import { spoolImport } from '../../../src/app/watchlists/watchlist-import';
import type { WatchlistEntry, WatchlistEntryInput } from '../../../src/screening/watchlists/model';

const TRUTHSET = new URL('../../../bench/watchlists/truthset/', import.meta.url);
const TODAY = '2026-11-28';
const parse = (text: string, mapping: ImportMapping = {}, format: 'csv' | 'jsonl' = 'csv') => parseImport(Readable.from([Buffer.from(text)]), { format, mapping, maxBytes: 1e7, maxRows: 1e5, today: TODAY });

/** An entry's content, identifiers in one order (files list them in their own column order). */
function content(e: WatchlistEntryInput): unknown {
  const { entryId: _i, addedBy: _b, addedAt: _a, ...rest } = e as WatchlistEntry;
  return { ...rest, identifiers: [...e.identifiers].sort((a, b) => `${a.kind}${a.value}`.localeCompare(`${b.kind}${b.value}`)) };
}

describe('import: the vendor layout with no mapping and no hand edits', () => {
  const want: WatchlistEntry[] = JSON.parse(readFileSync(new URL('entries.json', TRUTHSET), 'utf8'));

  for (const [file, format] of [['watchlist.csv', 'csv'], ['watchlist.jsonl', 'jsonl']] as const) {
    it(`${file}: every row read as the list entry it is (names with suffixes, the state, the licence, SSN, gender, status, month-first and two-digit dates, a row with no name, a native-script name)`, async () => {
      const parsed = await parseImport(createReadStream(new URL(file, TRUTHSET)), { format, maxBytes: 1e7, maxRows: 1e5, today: TODAY });
      assert.deepEqual(parsed.errors, []);
      assert.equal(parsed.rowCount, want.length);
      assert.equal(parsed.dateOrders.DATE_OF_BIRTH?.order, 'mdy', 'month first: rows like 3/31/1954 prove it');
      if (format === 'csv') assert.deepEqual(parsed.unmappedColumns, [], 'all 26 vendor columns recognised');
      for (const row of parsed.rows) {
        const expected = want.find((e) => e.entryId === row.entryId);
        assert.ok(expected, row.entryId);
        assert.deepEqual(content(row.entry), content(expected), row.entryId);
      }
      const inactive = parsed.rows.filter((r) => r.entry.status === 'inactive').map((r) => r.entryId);
      assert.deepEqual(inactive, ['WL-9001', 'WL-9002']);
    });
  }

  it('recognises the vendor headers (labels, parts, identifiers) and says which it deliberately ignores', async () => {
    const parsed = await parse('RECORD_ID,PRIMARY_NAME_LAST,PRIMARY_NAME_FIRST,AKA_NAME_FULL,HOME_ADDR_LINE1,HOME_ADDR_STATE,MAILING_ADDR_LINE1,MAILING_ADDR_CITY,CELL_PHONE_NUMBER,SSN_LAST4\nr1,Smith,Ann,Annie Jones,1 Main St,Nevada,PO Box 9,Reno,702-555-0101,1234\n');
    assert.deepEqual(parsed.mapping, {
      RECORD_ID: 'entry_id', PRIMARY_NAME_LAST: 'last_name', PRIMARY_NAME_FIRST: 'first_name', AKA_NAME_FULL: 'alias', HOME_ADDR_LINE1: 'address_line', HOME_ADDR_STATE: 'region',
      MAILING_ADDR_LINE1: 'address_line', MAILING_ADDR_CITY: 'city', CELL_PHONE_NUMBER: 'phone',
    });
    assert.deepEqual(parsed.unmappedColumns, ['SSN_LAST4']);
    const entry = parsed.rows[0]!.entry;
    assert.equal(entry.primaryName, 'Ann Smith');
    assert.deepEqual(entry.aliases, [{ name: 'Annie Jones' }]);
    assert.deepEqual(entry.addresses, [{ line: '1 Main St', region: 'NV' }, { line: 'PO Box 9', city: 'Reno' }], 'one address per label');
  });

  it('reads a World-Check-style file: UID, LAST NAME, FIRST NAME, ALIASES, DOBS, PASSPORTS, SSN, CITIZENSHIP, E/I, FURTHER INFORMATION', async () => {
    const parsed = await parse(
      'UID,LAST NAME,FIRST NAME,ALIASES,LOW QUALITY ALIASES,CATEGORY,DOB,PASSPORTS,SSN,CITIZENSHIP,E/I,FURTHER INFORMATION\n' +
        '1001,PETROVA,Anna,Anya Petrova;Анна Петрова,Annie,CRIME - FINANCIAL,1970/05/04,77 1234567,,Russia,I,Charged with fraud 2019\n' +
        '1002,GLOBAL TRADE LLC,,,,SANCTIONS,,,123-45-6789,,E,Shell company\n',
    );
    assert.deepEqual(parsed.errors, []);
    assert.deepEqual(Object.keys(parsed.mapping).sort(), ['ALIASES', 'CITIZENSHIP', 'DOB', 'E/I', 'FIRST NAME', 'FURTHER INFORMATION', 'LAST NAME', 'PASSPORTS', 'SSN', 'UID']);
    const [anna, llc] = parsed.rows.map((r) => r.entry);
    assert.equal(anna!.primaryName, 'Anna PETROVA');
    assert.deepEqual(anna!.aliases, [{ name: 'Anya Petrova' }, { name: 'Анна Петрова', script: 'Cyrl' }]);
    assert.deepEqual([anna!.datesOfBirth, anna!.nationalities, anna!.entityType, anna!.reason], [['1970-05-04'], ['RU'], 'person', 'Charged with fraud 2019']);
    assert.deepEqual([llc!.entityType, llc!.primaryName, llc!.identifiers], ['organization', 'GLOBAL TRADE LLC', [{ kind: 'national_id', value: '123-45-6789', country: 'US' }]]);
  });

  it('reads plain first_name / surname / dob headers', async () => {
    const parsed = await parse('first_name,surname,dob,state,gender,status\nJohn,Smith,1970-01-02,TX,m,active\n');
    assert.deepEqual(parsed.rows[0]!.entry, {
      entityType: 'person', primaryName: 'John Smith', aliases: [], datesOfBirth: ['1970-01-02'], nationalities: [], addresses: [{ region: 'TX' }], identifiers: [], reason: '', gender: 'male',
    });
  });
});

describe('import: dates', () => {
  it('decides a column\'s day/month order from all its rows: 3/1/1970 is read month first when 3/31/1954 is in the column', async () => {
    const parsed = await parse('name,dob\nA One,3/1/1970\nB Two,3/31/1954\nC Three,12/11/73\nD Four,3/1/70\n');
    assert.equal(parsed.dateOrders.dob?.order, 'mdy');
    assert.equal(parsed.dateOrders.dob?.flagged, false);
    assert.deepEqual(parsed.rows.map((r) => r.entry.datesOfBirth[0]), ['1970-03-01', '1954-03-31', '1973-12-11', '1970-03-01']);
    assert.equal(parsed.twoDigitYears, '00-26 are 2000-2026, 27-99 are 1927-1999');
  });

  it('flags a column no row decides (read day first) and one whose rows prove both orders', async () => {
    const ambiguous = await parse('name,dob\nA One,03/04/1971\nB Two,05/06/1980\n');
    assert.deepEqual([ambiguous.dateOrders.dob?.order, ambiguous.dateOrders.dob?.decidedBy, ambiguous.dateOrders.dob?.flagged], ['dmy', 'default', true]);
    assert.match(ambiguous.dateOrders.dob!.note, /no row decides the order/);
    assert.equal(ambiguous.rows[0]!.entry.datesOfBirth[0], '1971-04-03');
    const mixed = await parse('name,dob\nA One,31/03/1971\nB Two,03/31/1980\nC Three,04/30/1990\nD Four,01/02/2000\n');
    assert.deepEqual([mixed.dateOrders.dob?.order, mixed.dateOrders.dob?.flagged], ['mdy', true]);
    assert.match(mixed.dateOrders.dob!.note, /both orders/);
    assert.equal(mixed.rows[3]!.entry.datesOfBirth[0], '2000-01-02');
  });

  it('takes the order the mapping or the header states, and the stated two-digit-year pivot', async () => {
    const stated = await parse('name,dob\nA One,03/04/1971\n', { dob_order: 'mdy' });
    assert.deepEqual([stated.rows[0]!.entry.datesOfBirth[0], stated.dateOrders.dob?.decidedBy, stated.dateOrders.dob?.flagged], ['1971-03-04', 'mapping', false]);
    const header = await parse('name,Date of Birth (MM/DD/YYYY)\nA One,03/04/1971\n');
    assert.deepEqual([header.rows[0]!.entry.datesOfBirth[0], header.dateOrders['Date of Birth (MM/DD/YYYY)']?.decidedBy], ['1971-03-04', 'header']);
    const pivot = await parse('name,dob\nA One,1990-01-01\nB Two,3/15/10\n', { century_pivot: 5 });
    assert.equal(pivot.rows[1]!.entry.datesOfBirth[0], '1910-03-15');
    assert.equal(pivot.twoDigitYears, '00-05 are 2000-2005, 06-99 are 1906-1999');
  });
});

describe('import: the nested vendor JSON form, malformed and hostile', () => {
  it('skips features that are not objects, reads nested objects as nothing, keeps __proto__ a plain key, and reports each bad line', async () => {
    const lines = [
      // features that are null, a number, an array and a string are skipped; a nested object value is no text
      JSON.stringify({ RECORD_ID: 'n1', FEATURES: [null, 7, ['NAME_LAST', 'X'], 'NAME_FIRST', { NAME_LAST: 'Okafor', NAME_FIRST: 'Daniel', NAME_MIDDLE: { $ne: 1 } }, { DATE_OF_BIRTH: '1970-03-01' }] }),
      // a __proto__ feature key and a constructor key pollute nothing
      '{"RECORD_ID":"n2","FEATURES":[{"NAME_FULL":"Ann Quill"},{"__proto__":{"admin":true},"constructor":{"prototype":{"admin":true}}}]}',
      // no name, no identifier: refused by line
      JSON.stringify({ RECORD_ID: 'n3', FEATURES: [{ DATE_OF_BIRTH: '1970-03-01' }] }),
      // not JSON, and JSON that is not an object
      '{"RECORD_ID":"n4","FEATURES":[{"NAME_FULL":"Unclosed"',
      '["RECORD_ID","n5"]',
    ];
    const parsed = await parse(`${lines.join('\n')}\n`, {}, 'jsonl');
    assert.deepEqual(parsed.rows.map((r) => [r.entryId, r.entry.primaryName]), [['n1', 'Daniel Okafor'], ['n2', 'Ann Quill']]);
    assert.deepEqual(parsed.rows[0]!.entry.datesOfBirth, ['1970-03-01']);
    assert.equal(({} as Record<string, unknown>).admin, undefined, 'no prototype was polluted');
    assert.deepEqual(parsed.errors.map((e) => [e.line, e.field]), [[3, 'full_name'], [4, 'row'], [5, 'row']]);
  });
});

describe('import: rows without a name', () => {
  it('accepts a row with a document, phone or e-mail and no name; refuses one with neither', async () => {
    const parsed = await parse('name,ssn,email,address\n,123-45-6789,fraud@example.com,1 Main St Reno NV 89501\n,,,9 Elm Rd\n');
    assert.equal(parsed.rows[0]!.entry.primaryName, '');
    assert.deepEqual(parsed.rows[0]!.entry.identifiers.map((i) => i.kind), ['national_id', 'email']);
    assert.deepEqual(parsed.errors, [{ line: 3, field: 'full_name', reason: 'no name: a row needs a name (full name, first/last name or an alias) or a document number, phone or e-mail' }]);
  });

  it('a native-script name mapped to alias is the entry\'s name', async () => {
    const parsed = await parse('ref,native\nr1,Иван Петров\n', { columns: { native: 'alias' } });
    assert.deepEqual([parsed.rows[0]!.entry.primaryName, parsed.rows[0]!.entry.aliases], ['Иван Петров', []]);
  });

  it('a file with no name or identifier column is refused, naming every one of its headers', async () => {
    const headers = Array.from({ length: 25 }, (_, i) => `Column ${i + 1}`);
    await assert.rejects(parse(`${headers.join(',')}\n${headers.map(() => 'x').join(',')}\n`), (e: Error) => {
      assert.ok(e instanceof ImportUnreadable);
      for (const h of headers) assert.ok(e.message.includes(h), h);
      return true;
    });
  });
});

describe('import: skipping bad rows beside all or nothing', () => {
  const file = 'id,name,dob\ne1,Ann One,1970-01-01\ne2,,1971-01-01\ne3,Cy Three,1972-13-45\ne1,Dup Four,1973-01-01\ne5,Eve Five,1974-01-01\n';
  it('all or nothing: every problem reported by line, and rows are no longer spooled once one is refused', async () => {
    const spooled = await spoolImport(Readable.from([Buffer.from(file)]), { format: 'csv', maxBytes: 1e6, maxRows: 100, today: TODAY });
    try {
      assert.deepEqual(spooled.errors.map((e) => [e.line, e.field]), [[3, 'full_name'], [4, 'date_of_birth'], [5, 'entry_id']]);
      assert.deepEqual([spooled.goodRows, spooled.badRows], [1, 3]);
    } finally {
      await spooled.dispose();
    }
  });
  it('skip: the good rows are spooled, the refused ones reported by line', async () => {
    const spooled = await spoolImport(Readable.from([Buffer.from(file)]), { format: 'csv', maxBytes: 1e6, maxRows: 100, today: TODAY, skipBadRows: true });
    try {
      assert.deepEqual([spooled.goodRows, spooled.badRows], [2, 3]);
      const rows = [];
      for await (const chunk of spooled.chunks(10)) rows.push(...chunk.map((r) => r.entryId));
      assert.deepEqual(rows, ['e1', 'e5']);
      assert.match(spooled.errors.find((e) => e.line === 5)!.reason, /duplicate of line 2/);
    } finally {
      await spooled.dispose();
    }
  });
  it('reads ambiguous dates back from the spool in the order their column proved', async () => {
    const spooled = await spoolImport(Readable.from([Buffer.from('name,dob\nA One,3/1/1970\nB Two,3/31/1954\n')]), { format: 'csv', maxBytes: 1e6, maxRows: 100, today: TODAY });
    try {
      const dates = [];
      for await (const chunk of spooled.chunks(10)) dates.push(...chunk.map((r) => r.entry.datesOfBirth[0]));
      assert.deepEqual(dates, ['1970-03-01', '1954-03-31']);
    } finally {
      await spooled.dispose();
    }
  });
});
