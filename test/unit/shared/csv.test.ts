import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { csvCell } from '../../../src/shared/csv';

describe('csvCell: one RFC 4180 cell, safe to open in a spreadsheet', () => {
  it('writes plain text and numbers as they are, and empty for null/undefined', () => {
    assert.equal(csvCell('Vladimir Putin'), 'Vladimir Putin');
    assert.equal(csvCell(0.93), '0.93');
    assert.equal(csvCell(-1), '-1');
    assert.equal(csvCell(true), 'true');
    assert.equal(csvCell(undefined), '');
    assert.equal(csvCell(null), '');
  });

  it('quotes commas, quotes and line breaks', () => {
    assert.equal(csvCell('Smith, John'), '"Smith, John"');
    assert.equal(csvCell('the "Bank"'), '"the ""Bank"""');
    assert.equal(csvCell('a\nb'), '"a\nb"');
  });

  it('prefixes text a spreadsheet would run as a formula', () => {
    assert.equal(csvCell('=HYPERLINK("http://x","y")'), `"'=HYPERLINK(""http://x"",""y"")"`);
    assert.equal(csvCell('@SUM(A1)'), "'@SUM(A1)");
    assert.equal(csvCell('+cmd|x'), "'+cmd|x");
    assert.equal(csvCell('-A1'), "'-A1");
    assert.equal(csvCell('\tx'), "'\tx");
  });

  it('leaves phone numbers and signed numbers in text alone', () => {
    assert.equal(csvCell('+44 20 7946 0000'), '+44 20 7946 0000');
    assert.equal(csvCell('-5'), '-5');
  });
});
