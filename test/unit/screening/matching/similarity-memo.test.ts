import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { SimilarityMemo } from '../../../../src/screening/matching/similarity-memo';

describe('SimilarityMemo', () => {
  it('gives back what was stored for a pair of class ids, in the order given', () => {
    const memo = new SimilarityMemo(8);
    memo.set(3, 7, { how: 'fuzzy', sim: 0.85 });
    memo.set(7, 3, { how: 'missing', sim: 0 });
    assert.deepEqual(memo.get(3, 7), { how: 'fuzzy', sim: 0.85 });
    assert.deepEqual(memo.get(7, 3), { how: 'missing', sim: 0 });
    assert.equal(memo.get(3, 8), undefined);
    memo.set(3, 7, { how: 'phonetic', sim: 0.85 });
    assert.deepEqual(memo.get(3, 7), { how: 'phonetic', sim: 0.85 });
    assert.equal(memo.size, 2);
  });

  it('keeps every pair until it is 60 % full, then starts afresh and stays bounded', () => {
    const memo = new SimilarityMemo(8); // 256 slots: 153 pairs
    for (let i = 1; i <= 153; i++) memo.set(i, i * 31, { how: 'exact', sim: 1 });
    assert.equal(memo.size, 153);
    for (let i = 1; i <= 153; i++) assert.deepEqual(memo.get(i, i * 31), { how: 'exact', sim: 1 }, `pair ${i}`);
    assert.equal(memo.restarts, 0);
    memo.set(1000, 1, { how: 'initial', sim: 0.75 });
    assert.equal(memo.restarts, 1);
    assert.equal(memo.size, 1);
    assert.equal(memo.get(1, 31), undefined);
    assert.deepEqual(memo.get(1000, 1), { how: 'initial', sim: 0.75 });
    for (let i = 1; i <= 2000; i++) memo.set(i, 5, { how: 'fuzzy', sim: 0.9 });
    assert.ok(memo.size <= 153, `size ${memo.size}`);
  });
});
