/**
 * A person check's documents (issue 30): which identifiers the internal lists compare whole, how their
 * numbers are masked in the sentences a check records, and the in-process holder that carries them.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { matchingDocuments } from '../../../src/app/person-checks/person-check-service';
import { withDocumentsMasked } from '../../../src/agents/person/internal-lists';
import { HeldDocuments } from '../../../src/agents/person/held-documents';

describe('person-check documents', () => {
  it('compares whole the identifiers named as a list import names its columns; a partial or unknown one is not compared', () => {
    assert.deepEqual(
      matchingDocuments([
        { type: 'ssn', value: ' 123-45-6789 ' },
        { type: 'passport', value: 'X1234567' },
        { type: 'drivers_license', value: 'D123-4567' },
        { type: 'ssn_last4', value: '6789' },
        { type: 'loyalty_card', value: '99887766' },
      ]),
      [
        { type: 'national_id', value: '123-45-6789', country: 'US' },
        { type: 'passport', value: 'X1234567' },
        { type: 'drivers_license', value: 'D123-4567' },
      ],
    );
    assert.deepEqual(matchingDocuments(undefined), []);
  });

  it('masks a number in a sentence however it is punctuated, keeping its last four', () => {
    const text = 'national id 123-45-6789 equals listed 123456789; passport x1234567 differs from X 123 4567. Phone +1 702 555 0100.';
    assert.equal(
      withDocumentsMasked(text, ['123456789', 'X1234567']),
      'national id *****6789 equals listed *****6789; passport *****4567 differs from *****4567. Phone +1 702 555 0100.',
    );
    assert.equal(withDocumentsMasked('nothing to hide', ['12']), 'nothing to hide', 'under four letters or digits: nothing to mask');
  });

  it('holds a check\'s documents until released, the oldest dropped beyond its capacity, none held as none', () => {
    const held = new HeldDocuments(2);
    held.hold('SVC-00000001-P', [{ type: 'passport', value: 'X1234567' }]);
    held.hold('SVC-00000002-P', []);
    assert.deepEqual(held.of('SVC-00000002-P'), []);
    held.hold('SVC-00000003-P', [{ type: 'national_id', value: '123456789' }]);
    assert.equal(held.of('SVC-00000001-P'), undefined, 'the oldest went');
    assert.equal(held.size, 2);
    held.release('SVC-00000003-P');
    assert.equal(held.of('SVC-00000003-P'), undefined);
  });
});
