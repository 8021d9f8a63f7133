import { SHARED_DATA_DIR } from '../../../support/shared-data';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, cp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ListRegistry } from '../../../../src/screening/lists';

const FIX = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../fixtures/lists');
const DATA = SHARED_DATA_DIR;

test('registry: a failed reload keeps the previous good version in service; versions are retrievable by id', async (t) => {
  const work = await mkdtemp(path.join(tmpdir(), 'lists-reg-'));
  t.after(() => rm(work, { recursive: true, force: true }));
  const listDir = path.join(work, 'sdn');
  await cp(path.join(FIX, 'ofac_tricky'), listDir, { recursive: true });
  const reg = new ListRegistry({ lists: [{ source: 'ofac_sdn', dir: listDir }], dataDir: path.join(work, 'data') });

  const first = await reg.loadAll({ progressBar: false });
  assert.deepEqual(first.failures, []);
  const v1 = reg.currentVersion('ofac_sdn')!;
  assert.equal(v1.entityCount, 4);

  // Same bytes again: unchanged, same version.
  const same = await reg.reload('ofac_sdn');
  assert.ok(same.ok && same.unchanged && same.version.id === v1.id);

  // A broken file: the reload fails with file/line/field and v1 stays current.
  await cp(path.join(FIX, 'ofac_bad', 'sdn.csv'), path.join(listDir, 'sdn.csv'));
  const bad = await reg.reload('ofac_sdn');
  assert.equal(bad.ok, false);
  if (!bad.ok) {
    assert.equal(bad.kept?.id, v1.id);
    assert.equal(bad.failure.line, 3);
    assert.equal(bad.failure.field, 'columns');
  }
  assert.equal(reg.currentVersion('ofac_sdn')!.id, v1.id);
  assert.equal(reg.snapshot().entities.length, 4);
  assert.equal(reg.snapshot().failures.length, 1);

  // A good new version (the tricky file minus one row): installed, with a delta against v1.
  const lines = (await import('node:fs/promises')).readFile(path.join(FIX, 'ofac_tricky', 'sdn.csv'), 'latin1');
  const text = (await lines).split('\r\n').filter((l) => !l.startsWith('13,')).join('\r\n');
  await writeFile(path.join(listDir, 'sdn.csv'), text, 'latin1');
  const release = reg.retain(v1.id);
  const good = await reg.reload('ofac_sdn');
  assert.ok(good.ok && !good.unchanged);
  if (good.ok) {
    assert.equal(good.previous?.id, v1.id);
    assert.deepEqual(good.delta?.removed.map((e) => e.sourceId), ['13']);
    assert.equal(good.delta?.added.length, 0);
  }
  const v2 = reg.currentVersion('ofac_sdn')!;
  assert.notEqual(v2.id, v1.id);
  assert.equal(reg.snapshot().failures.length, 0);

  // The old version stays reachable: in memory while retained, then from disk.
  assert.equal((await reg.getVersion(v1.id))?.length, 4);
  release();
  await reg.flush();
  const fromDisk = await reg.getVersion(v1.id);
  assert.equal(fromDisk?.length, 4);
  assert.ok(fromDisk!.every((e) => e.listVersion === v1.id));
  assert.equal((await reg.getVersion(v2.id))?.length, 3);
  assert.equal(await reg.getVersion('ofac_sdn@0000000000000000'), undefined);
  const known = (await reg.knownVersions()).map((v) => v.id).sort();
  assert.deepEqual(known, [v1.id, v2.id].sort());

  // A fresh registry on the same data dir can still serve the recorded version (audit re-run).
  const later = new ListRegistry({ lists: [], dataDir: path.join(work, 'data') });
  assert.equal((await later.getVersion(v1.id))?.[0].listVersion, v1.id);
});

test('registry without a data dir drops unreferenced old versions', async (t) => {
  const work = await mkdtemp(path.join(tmpdir(), 'lists-reg-'));
  t.after(() => rm(work, { recursive: true, force: true }));
  const reg = new ListRegistry({ lists: [{ source: 'un_sc', dir: `${DATA}/un`, files: ['UN_consolidated_2025-11-20.xml'] }] });
  await reg.loadAll({ progressBar: false });
  const old = reg.currentVersion('un_sc')!;
  const r = await reg.reload('un_sc', { files: ['UN_consolidated.xml'] });
  assert.ok(r.ok);
  if (r.ok) assert.deepEqual([r.delta?.added.length, r.delta?.removed.length, r.delta?.changed.length], [4, 1, 2]);
  assert.equal(await reg.getVersion(old.id), undefined);
  assert.equal((await reg.getVersion(reg.currentVersion('un_sc')!.id))?.length, 1003);
});
