import assert from 'node:assert/strict';
import { test } from 'node:test';
import { StreamRevisionConflictError } from '../../../src/infrastructure/eventstore/port';
import { checkExpectedRevision } from '../../../src/infrastructure/eventstore/postgres/store';

test('expected revision rules: any, no_stream, stream_exists and exact revisions', () => {
  const cases: [Parameters<typeof checkExpectedRevision>[1], bigint | undefined, boolean][] = [
    ['any', undefined, true],
    ['any', 4n, true],
    ['no_stream', undefined, true],
    ['no_stream', 0n, false],
    ['stream_exists', undefined, false],
    ['stream_exists', 0n, true],
    [0n, undefined, false],
    [3n, 3n, true],
    [2n, 3n, false],
    [4n, 3n, false],
  ];
  for (const [expected, current, ok] of cases) {
    const run = () => checkExpectedRevision('s', expected, current);
    if (ok) assert.doesNotThrow(run, `${String(expected)} vs ${String(current)}`);
    else
      assert.throws(run, (err) => {
        assert.ok(err instanceof StreamRevisionConflictError);
        assert.equal(err.expected, expected);
        assert.equal(err.actual, current ?? 'no_stream');
        return true;
      });
  }
});
