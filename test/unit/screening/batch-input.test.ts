/**
 * The batch's JSON lines reader (src/app/batch-screening/input.ts): line numbers across chunk boundaries
 * (a character split between chunks, CRLF, a BOM, blank lines, no final line break), and an over-long line
 * reported and skipped without being held whole.
 */
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { describe, it } from 'node:test';
import { MAX_JSON_LINE_BYTES, readInput, type InputItem } from '../../../src/app/batch-screening/input';

async function items(chunks: Buffer[]): Promise<InputItem[]> {
  const out: InputItem[] = [];
  for await (const item of readInput(Readable.from(chunks), 'jsonl')) out.push(item);
  return out;
}

describe('batch input: JSON lines', () => {
  it('numbers lines across chunk boundaries, a split character, CRLF, a BOM, blank lines and no final break', async () => {
    const text = Buffer.from('\uFEFF{"name":"Zoë Ångström"}\r\n\r\n{"name":"Second","country":"GB"}\n  \n{"name":"Last","dob":1960}');
    // cut inside "ë" (2 bytes) and elsewhere
    const cut = text.indexOf(Buffer.from('ë')) + 1;
    const got = await items([text.subarray(0, cut), text.subarray(cut, cut + 7), text.subarray(cut + 7)]);
    assert.deepEqual(got, [
      { line: 1, record: { name: 'Zoë Ångström' } },
      { line: 3, record: { name: 'Second', country: 'GB' } },
      { line: 5, record: { name: 'Last', dob: '1960' } },
    ]);
  });

  it('reports an over-long line as unreadable and goes on with the next one', async () => {
    const long = Buffer.from(`{"name":"${'x'.repeat(MAX_JSON_LINE_BYTES + 10)}"}\n{"name":"After"}\n`);
    const got = await items([long.subarray(0, 100_000), long.subarray(100_000)]);
    assert.equal(got.length, 2);
    assert.ok('problems' in got[0]! && /longer than/.test(got[0].problems[0]!.message));
    assert.equal(got[0]!.line, 1);
    assert.deepEqual(got[1], { line: 2, record: { name: 'After' } });
  });

  it('reports lines that are not objects, and fields that are not strings, with the field named', async () => {
    const got = await items([Buffer.from('42\nnull\n{"name":"A","country":["GB"]}\n{"NAME":" B ","type":"vessel","extra":{"a":1}}\n')]);
    assert.deepEqual(
      got.map((g) => ('problems' in g ? [g.line, g.problems.map((p) => p.field)] : [g.line, g.record])),
      [
        [1, ['row']],
        [2, ['row']],
        [3, ['country']],
        [4, { name: 'B', type: 'vessel' }],
      ],
    );
  });
});
