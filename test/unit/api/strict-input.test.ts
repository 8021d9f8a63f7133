/**
 * The pure parts of strict input and idempotency: the duplicate-key scan (including a property checked
 * against an independent oracle), canonical JSON, and the body verifier.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { canonicalJson } from '../../../src/api/http/idempotency';
import { findDuplicateKey, StrictBodyError, verifyJsonBody } from '../../../src/api/http/strict-input';


describe('findDuplicateKey', () => {
  it('finds a key named twice in one object, at any depth', () => {
    assert.equal(findDuplicateKey('{"a":1,"a":2}'), 'a');
    assert.equal(findDuplicateKey('{"x":{"b":[1,{"c":1,"c":2}]}}'), 'c');
    assert.equal(findDuplicateKey('[{"a":1},{"a":2}]'), undefined, 'the same key in two objects is fine');
    assert.equal(findDuplicateKey('{"a":{"a":{"a":1}}}'), undefined, 'nested objects have their own keys');
  });

  it('compares keys after unescaping', () => {
    assert.equal(findDuplicateKey('{"a":1,"\\u0061":2}'), 'a');
    assert.equal(findDuplicateKey('{"\\"":1,"\\u0022":2}'), '"');
    assert.equal(findDuplicateKey('{"é":1,"\\u00e9":2}'), 'é');
  });

  it('is not fooled by keys inside string values or escaped quotes', () => {
    assert.equal(findDuplicateKey('{"a":"{\\"a\\":1,\\"a\\":2}","b":"a"}'), undefined);
    assert.equal(findDuplicateKey('{"a":"x\\\\","a":1}'), 'a', 'an escaped backslash ends the string');
    assert.equal(findDuplicateKey('{"list":["a","a"],"k":"a"}'), undefined, 'array items are values, not keys');
  });

  it('leaves text that is not JSON to the parser', () => {
    assert.equal(findDuplicateKey('{"a":1,"a'), undefined);
    assert.equal(findDuplicateKey('not json'), undefined);
  });

  it('handles deep nesting without recursion', () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    assert.equal(findDuplicateKey(deep), undefined);
    assert.equal(findDuplicateKey(`${'{"a":'.repeat(10_000)}{"z":1,"z":2}${'}'.repeat(10_000)}`), 'z');
  });

  it('agrees with a count of the keys as written, on generated objects (property)', () => {
    // Objects written from explicit key lists (possibly repeating a key), so the oracle knows the truth.
    type Node = { keys: string[]; children: Node[] };
    const node: fc.Memo<Node> = fc.memo((depth) =>
      fc.record({
        keys: fc.array(fc.constantFrom('a', 'b', 'é', '"', '\\', 'a b', ''), { maxLength: 4 }),
        children: depth > 1 ? fc.array(node(depth - 1), { maxLength: 2 }) : fc.constant([]),
      }),
    );
    const write = (n: Node): string => {
      const members = n.keys.map((k, i) => `${JSON.stringify(k)}:${i < n.children.length ? write(n.children[i]!) : '"v"'}`);
      return `{${members.join(',')}}`;
    };
    const repeats = (n: Node): boolean => new Set(n.keys).size !== n.keys.length || n.children.slice(0, n.keys.length).some(repeats);
    fc.assert(
      fc.property(node(3), (n) => {
        const text = write(n);
        JSON.parse(text); // well-formed
        assert.equal(findDuplicateKey(text) !== undefined, repeats(n), text);
      }),
      { seed: 19, numRuns: 500 },
    );
  });
});

describe('verifyJsonBody', () => {
  it('refuses bytes that are not UTF-8 and duplicate keys, accepts the rest', () => {
    assert.throws(() => verifyJsonBody(Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d])), (e: unknown) => e instanceof StrictBodyError && /UTF-8/.test(e.message));
    assert.throws(() => verifyJsonBody(Buffer.from('{"a":1,"a":2}')), (e: unknown) => e instanceof StrictBodyError && /"a" twice/.test(e.message));
    assert.doesNotThrow(() => verifyJsonBody(Buffer.from('{"name":"Jöhn \u202e\u200b Smith","x":"\\ud800"}', 'utf8')));
  });
});

describe('canonicalJson', () => {
  it('ignores key order and whitespace, keeps array order and types', () => {
    assert.equal(canonicalJson(JSON.parse('{ "b": [2, 1], "a": {"y": null, "x": "1"} }')), '{"a":{"x":"1","y":null},"b":[2,1]}');
    assert.notEqual(canonicalJson({ a: 1 }), canonicalJson({ a: '1' }));
    assert.notEqual(canonicalJson([1, 2]), canonicalJson([2, 1]));
  });
});
