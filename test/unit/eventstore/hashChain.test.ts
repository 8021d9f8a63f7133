import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import fc from 'fast-check';
import { canonicalJson, chainEvents, computeEventHash, GENESIS_HASH, verifyHashChain } from '../../../src/infrastructure/eventstore/hashChain';
import type { Event } from '../../../src/shared/events';

const event = (type: string, data: Record<string, unknown>, eventId: string): Event => ({
  type,
  data,
  metadata: { eventId, occurredAt: '2026-01-01T00:00:00.000Z' },
});

test('canonicalJson sorts keys at every level, drops undefined and is whitespace-free', () => {
  assert.equal(canonicalJson({ b: 1, a: { d: [1, { z: 1, y: undefined, x: 'é' }], c: null } }), '{"a":{"c":null,"d":[1,{"x":"é","z":1}]},"b":1}');
  assert.equal(canonicalJson({ a: 1, b: 2 }), canonicalJson({ b: 2, a: 1 }));
  assert.throws(() => canonicalJson({ n: 1n }), TypeError);
  assert.equal(canonicalJson([undefined, new Date(0), '\u0001']), '[null,"1970-01-01T00:00:00.000Z","\\u0001"]');
});

test('the hash is SHA-256 over type, data, metadata without hash and the previous hash', () => {
  const e = event('AccountOpened', { name: 'Acme' }, 'e1');
  const expected = createHash('sha256')
    .update(
      `{"data":{"name":"Acme"},"metadata":{"eventId":"e1","occurredAt":"2026-01-01T00:00:00.000Z","previousHash":"${GENESIS_HASH}"},"previousHash":"${GENESIS_HASH}","type":"AccountOpened"}`,
    )
    .digest('hex');
  assert.equal(computeEventHash(e, GENESIS_HASH), expected);
  assert.equal(computeEventHash({ ...e, metadata: { ...e.metadata, hash: 'ignored' } }, GENESIS_HASH), expected);
  assert.notEqual(computeEventHash(e, 'f'.repeat(64)), expected);
});

test('chainEvents links each event to the previous one and verifyHashChain detects tampering', () => {
  const chained = chainEvents([event('A', { n: 1 }, '1'), event('B', { n: 2 }, '2'), event('C', { n: 3 }, '3')], GENESIS_HASH);
  assert.equal(chained[0]!.metadata.previousHash, GENESIS_HASH);
  assert.equal(chained[1]!.metadata.previousHash, chained[0]!.metadata.hash);
  assert.equal(chained[2]!.metadata.previousHash, chained[1]!.metadata.hash);
  assert.deepEqual(verifyHashChain(chained), { ok: true, lastHash: chained[2]!.metadata.hash });

  const jsonRoundTrip = JSON.parse(JSON.stringify(chained)) as Event[];
  assert.equal(verifyHashChain(jsonRoundTrip).ok, true, 'survives serialisation with reordered keys');

  const edited = chained.map((e, i) => (i === 1 ? { ...e, data: { n: 20 } } : e));
  assert.deepEqual(verifyHashChain(edited), { ok: false, index: 1, reason: 'hash does not match the event content' });
  const removed = [chained[0]!, chained[2]!];
  assert.deepEqual(verifyHashChain(removed), { ok: false, index: 1, reason: 'previousHash does not match the previous event' });
});

test('the hash equals SHA-256 of canonicalJson of the whole payload, for awkward data (the store hashes the data text it writes)', () => {
  const datas: unknown[] = [
    { 'z"q': 'quote', é: ['\u2028', null, { b: undefined, a: 1e21 }], n: -0.5 },
    {},
    { nested: { deeper: { deepest: [[], {}, ''] } } },
    undefined,
  ];
  for (const [i, data] of datas.entries()) {
    const e = { type: 'Tested', data, metadata: { eventId: `e${i}`, occurredAt: '2026-01-01T00:00:00.000Z', correlationId: 'c' } } as unknown as Event;
    const previous = String(i).repeat(64);
    const generic = createHash('sha256')
      .update(canonicalJson({ type: e.type, data: e.data, metadata: { ...e.metadata, previousHash: previous }, previousHash: previous }))
      .digest('hex');
    assert.equal(computeEventHash(e, previous), generic, `data #${i}`);
    const dataJson = data === undefined ? undefined : canonicalJson(data);
    assert.equal(chainEvents([e], previous, [dataJson])[0]!.metadata.hash, generic);
    assert.equal(chainEvents([e], previous)[0]!.metadata.hash, generic);
  }
});

/**
 * The canonical form by its definition, written plainly: keys in code-unit order at every level, each
 * value as JSON.stringify writes it. (Not JSON.stringify of a key-sorted copy: an object lists its
 * integer-like keys first, whatever order they were added in.)
 */
function canonicalByDefinition(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalByDefinition).join(',')}]`;
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  const record = value as Record<string, unknown>;
  return `{${Object.keys(record)
    .sort()
    .map((key) => `${JSON.stringify(key)}:${canonicalByDefinition(record[key])}`)
    .join(',')}}`;
}

function reversedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reversedKeys);
  if (value === null || typeof value !== 'object') return value;
  const record = value as Record<string, unknown>;
  return Object.fromEntries(Object.keys(record).reverse().map((key) => [key, reversedKeys(record[key])]));
}

test('canonicalJson writes any JSON value by the definition, its keys given in order or not (the stored chains depend on every byte)', () => {
  fc.assert(
    fc.property(fc.jsonValue(), (value) => {
      const expected = canonicalByDefinition(value);
      assert.equal(canonicalJson(value), expected);
      assert.equal(canonicalJson(reversedKeys(value)), expected);
      assert.deepEqual(JSON.parse(expected), JSON.parse(JSON.stringify(value)));
    }),
    { numRuns: 300 },
  );
  // Keys that sort differently by code unit than by locale, integer-like keys, and many distinct keys (past any cache of quoted keys).
  assert.equal(canonicalJson({ b: 1, B: 2, é: 3, e: 4, 10: 5, 9: 6, '': 7 }), '{"":7,"10":5,"9":6,"B":2,"b":1,"e":4,"é":3}');
  const many = Object.fromEntries(Array.from({ length: 6000 }, (_, i) => [`k"${6000 - i}`, i]));
  assert.equal(canonicalJson(many), canonicalByDefinition(many));
  assert.equal(canonicalJson(many), canonicalByDefinition(many), 'the same text once quoted keys are kept');
});
