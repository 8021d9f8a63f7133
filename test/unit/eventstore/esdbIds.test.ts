import assert from 'node:assert/strict';
import { test } from 'node:test';
import { toUuid } from '../../../src/infrastructure/eventstore/esdb/store';

test('ESDB event ids: UUIDs kept, other ids mapped to a stable, valid, distinct UUID', () => {
  const uuid = '3F2504E0-4F89-41D3-9A0C-0305E82C3301';
  assert.equal(toUuid(uuid), uuid.toLowerCase());
  const a = toUuid('screening:42:requested');
  assert.match(a, /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  assert.equal(toUuid('screening:42:requested'), a);
  assert.notEqual(toUuid('screening:43:requested'), a);
});
