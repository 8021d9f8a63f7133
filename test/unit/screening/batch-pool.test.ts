/**
 * The batch pool loading the lists itself: the workers share the lists out, load them, share them
 * with one another and build their engines; what they screen is exactly what one engine built from
 * loadAllLists on the same configuration screens, and a list that cannot be loaded is reported.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { startWorkerPool } from '../../../src/app/batch-screening/batch';
import { screenChunk, type BatchRow } from '../../../src/app/batch-screening/rows';
import { ScreeningEngine } from '../../../src/screening/engine';
import { loadAllLists } from '../../../src/screening/lists/index';
import { listsConfig, type ListsConfig } from '../../../src/screening/lists/config';

const bundled = listsConfig();
const pick = (source: string) => bundled.lists.find((l) => l.source === source)!;
// small bundled lists, and one whose directory does not exist
const config: ListsConfig = {
  lists: [pick('ofac_cons'), pick('un_sc'), { source: 'us_dpl', dir: '/nonexistent/us_dpl' }, pick('icij_offshore')],
};

const names = ['Banco Nacional de Cuba', 'Rosneft', 'Ali Hassan', 'John Smith', 'Kim Jong Un', 'Mohammed Omar', 'Sberbank', 'Jane Doe'];
const rows: BatchRow[] = names.map((name, i) => ({ line: i + 2, input: { name, entity_type: '', dob: '', country: '' }, query: { name } }));

describe('batch pool loading the lists in its workers', () => {
  it('screens what one engine over loadAllLists screens, and reports the list it could not load', async () => {
    const load = await loadAllLists(config, { progressBar: false });
    assert.equal(load.failures.length, 1);
    const engine = ScreeningEngine.build(load.entities, load.versions);
    const options = { threshold: 0.8, jsonl: true };
    const expected = screenChunk(engine, rows, options);
    assert.ok(expected.flagged > 0, 'the sample has hits');
    const pool = await startWorkerPool({ lists: config, workers: 2, options });
    try {
      assert.deepEqual(
        pool.listFailures.map((f) => f.source),
        ['us_dpl'],
      );
      const got = await Promise.all([pool.screen(rows.slice(0, 4)), pool.screen(rows.slice(4))]);
      assert.equal(got[0].csv + got[1].csv, expected.csv);
      assert.equal(got[0].jsonl + got[1].jsonl, expected.jsonl);
    } finally {
      await pool.close();
    }
  });
});
