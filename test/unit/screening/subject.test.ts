/** What a screened name says about itself: screenable at all, and organisation or not (src/screening/subject.ts). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { inferSchemaFromName, screenableName } from '../../../src/screening/subject';

describe('screenableName', () => {
  for (const junk of ['', '   ', '...', '!!! ???', '—', '😀', 'LLC', 'Ltd.', 'L.L.C.', 'GmbH', 'S.A.', 'Co Ltd', 'Mr.', 'The', 'Inc. & Co.']) {
    it(`refuses ${JSON.stringify(junk)}`, () => {
      const verdict = screenableName(junk);
      assert.equal(verdict.ok, false);
      assert.ok(!verdict.ok && verdict.reason.length > 10, 'says why');
    });
  }
  for (const name of ['Acme LLC', 'Bank', 'Kim Jong Un', 'Li Na', 'Sea Star 2', 'ООО Ромашка', '中国银行', 'X5 Group']) {
    it(`accepts ${JSON.stringify(name)}`, () => assert.deepEqual(screenableName(name), { ok: true }));
  }
});

describe('inferSchemaFromName', () => {
  it('reads legal forms and institution words as an organisation', () => {
    for (const name of ['Banco Nacional de Cuba', 'Sberbank', 'Acme LLC', 'Maersk Shipping', 'Islamic Revolutionary Guard Corps Ministry', 'Rosneft Oil Company', 'Volga Group']) {
      assert.equal(inferSchemaFromName(name), 'organization', name);
    }
  });
  it('leaves a person-like name unclassified', () => {
    for (const name of ['Vladimir Putin', 'Kim Jong Un', 'John Banks', 'Ali Hassan']) assert.equal(inferSchemaFromName(name), undefined, name);
  });
});
