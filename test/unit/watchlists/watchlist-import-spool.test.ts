/**
 * Pass one of a streamed import (src/app/watchlists/watchlist-import.ts): every row checked as it is
 * read, valid rows spooled and read back in chunks bounded by rows and by bytes, the spool deleted.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { spoolImport } from '../../../src/app/watchlists/watchlist-import';

const options = { format: 'csv' as const, maxBytes: 1 << 20, maxRows: 10_000 };

async function collect<T>(gen: AsyncGenerator<T[]>): Promise<T[][]> {
  const out: T[][] = [];
  for await (const chunk of gen) out.push(chunk);
  return out;
}

describe('streamed import, pass one', () => {
  it('spools valid rows and reads them back in file order, in chunks bounded by rows and by bytes', async () => {
    const rows = Array.from({ length: 25 }, (_, i) => `R${i},Person Number${String.fromCharCode(65 + i)},${i % 2 ? 'x'.repeat(1500) : 'short'}`);
    const file = await spoolImport(Readable.from([['ref,full name,reason', ...rows].join('\n') + '\n']), options);
    assert.deepEqual([file.rowCount, file.errorCount], [25, 0]);
    const byRows = await collect(file.chunks(10));
    assert.deepEqual(byRows.map((c) => c.length), [10, 10, 5]);
    assert.deepEqual(byRows.flat().map((r) => r.entryId), rows.map((_, i) => `R${i}`));
    assert.equal(byRows[0]![0]!.line, 2);
    // ~1.5 KB rows under a 4 KB bound: never more than the bound allows, however many rows the count permits.
    const byBytes = await collect(file.chunks(1000, 4096));
    assert.ok(byBytes.length > 3 && byBytes.every((c) => JSON.stringify(c).length < 4096 + 2000), `chunks ${byBytes.map((c) => c.length).join()}`);
    assert.equal(byBytes.flat().length, 25);
    await file.dispose();
    await assert.rejects(collect(file.chunks(10)));
  });

  it('names every bad row (parser and entry rules, duplicate ids) and counts past the reported ones', async () => {
    const body = ['ref,full name,date of birth', 'A1,Ada Quill,1980-02-01', 'A2,,1971-01-01', 'A1,Ada Again,1980-02-01', 'A3,Bob Smith,31/31/1999'].join('\n') + '\n';
    const file = await spoolImport(Readable.from([body]), options);
    assert.deepEqual(
      file.errors.map((e) => [e.line, e.field]),
      [
        [3, 'full_name'],
        [4, 'entry_id'],
        [5, 'date_of_birth'],
      ],
    );
    assert.equal(file.errorCount, 3);
    await file.dispose();
    const many = ['ref,full name', ...Array.from({ length: 1500 }, (_, i) => `B${i},`)].join('\n') + '\n';
    const refused = await spoolImport(Readable.from([many]), options);
    assert.deepEqual([refused.errors.length, refused.errorCount], [1000, 1500]);
    await refused.dispose();
  });

  it('deletes its spool when the body cannot be read', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'spool-test-'));
    const body = new Readable({
      read() {
        this.push('ref,full name\nA1,Ada Quill\n');
        this.destroy(new Error('connection reset'));
      },
    });
    await assert.rejects(spoolImport(body, { ...options, spoolDir: dir }), /connection reset|not readable/);
    assert.deepEqual(await readdir(dir), []);
    const ok = await spoolImport(Readable.from(['ref,full name\nA1,Ada Quill\n']), { ...options, spoolDir: dir });
    assert.equal((await readdir(dir)).length, 1, 'the spool lives in the given directory');
    await ok.dispose();
    assert.deepEqual(await readdir(dir), []);
    await rm(dir, { recursive: true });
  });
});
