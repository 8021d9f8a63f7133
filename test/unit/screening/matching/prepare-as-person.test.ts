import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { prepareAsPerson, prepareName } from '../../../../src/screening/matching/prepare';

// prepareAsPerson(raw, prepareName(raw)) must always equal prepareName(raw, 'person'): it may only
// skip the second preparation, never change what the engine compares listed persons with.
const NAMES = [
  'Emily Gray', 'Jordan Joe Munoz', 'Dr. John A. Adams', 'President Vladimir Putin', 'Abd al-Rahman bin Ali',
  'Kim Jong Un', '金正恩', 'Henry II', 'Sea Star Three', 'Acme Trading LLC', 'Banco Nacional de Cuba', 'Intl Shipping Co',
  'John Smith (ex-John Smyth)', 'Mahan Air', 'Islamic Revolutionary Guard Corps', 'IRGC', 'Ivan Ivanovich Petrov',
  'Sberbank', 'Bank Melli Iran', 'Hotel Kosmos', 'Al Qaida', '', '  ',
];

describe('prepareAsPerson', () => {
  it('gives what preparing the name as a person gives, for plain names and organisation-like names alike', () => {
    for (const schema of [undefined, 'unknown'] as const) {
      for (const raw of NAMES) {
        const q = prepareName(raw, schema);
        assert.deepEqual(prepareAsPerson(raw, q), prepareName(raw, 'person'), `${raw} (${schema})`);
      }
    }
  });

  it('reuses the no-schema preparation of a plain personal name and prepares again when the reading differs', () => {
    const plain = prepareName('Emily Jane Gray');
    assert.equal(prepareAsPerson('Emily Jane Gray', plain), plain);
    for (const raw of ['Acme Trading LLC', 'Henry II', 'Intl Shipping Co', 'Banco Nacional de Cuba']) {
      const q = prepareName(raw);
      const p = prepareAsPerson(raw, q);
      assert.notEqual(p, q, raw);
      assert.notDeepEqual(p.tokens, q.tokens, raw);
    }
    // another string, or a name prepared with a schema, is prepared again
    assert.notEqual(prepareAsPerson('Emily Gray', plain), plain);
    const org = prepareName('Emily Jane Gray', 'organization');
    assert.notEqual(prepareAsPerson('Emily Jane Gray', org), org);
  });
});
