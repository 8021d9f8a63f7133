import { SHARED_DATA_DIR } from '../../../support/shared-data';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadList } from '../../../../src/screening/lists';
import { computeDelta, entityFingerprint, summariseDelta } from '../../../../src/screening/delta';
import type { ListEntity } from '../../../../src/screening/model';

const DATA = SHARED_DATA_DIR;

const entity = (over: Partial<ListEntity> = {}): ListEntity => ({
  id: 'x:1', source: 'x', sourceId: '1', listVersion: 'x@a', topics: ['sanctions'], schema: 'person', primaryName: 'DOE, John',
  names: [{ value: 'DOE, John', kind: 'primary' }, { value: 'John Doe', kind: 'strong_alias' }, { value: 'JD', kind: 'weak_alias' }],
  birthDates: [], birthPlaces: [], nationalities: ['US'], countries: [], addresses: [], identifiers: [], programs: ['SDGT'], ...over,
});

test('fingerprint ignores listVersion, array order and whitespace; detects real field changes', () => {
  const a = entity();
  const b = entity({ listVersion: 'x@b', names: [...a.names].reverse(), primaryName: 'DOE,  John ' });
  assert.equal(entityFingerprint(a), entityFingerprint(b));
  const c = entity({ programs: ['SDGT', 'IRGC'], nationalities: ['GB'] });
  const d = computeDelta([a, entity({ id: 'x:2', sourceId: '2' })], [c, entity({ id: 'x:3', sourceId: '3' })]);
  assert.deepEqual(d.added.map((e) => e.id), ['x:3']);
  assert.deepEqual(d.removed.map((e) => e.id), ['x:2']);
  assert.equal(d.changed.length, 1);
  assert.deepEqual(d.changed[0].fields, ['nationalities', 'programs']);
  assert.equal(d.changed[0].before, a);
  assert.equal(d.changed[0].after, c);
  assert.equal(d.unchanged, 0);
});

test('real OFAC SDN snapshots: 2018-12 (7,379) → 2021-07 (8,976)', async () => {
  const from = await loadList({ source: 'ofac_sdn', dir: `${DATA}/ofac_sdn_2018-12` });
  const to = await loadList({ source: 'ofac_sdn', dir: `${DATA}/ofac_sdn` });
  const d = computeDelta(from.entities, to.entities, { from: from.version, to: to.version });
  const s = summariseDelta(d);
  console.log('OFAC SDN delta 2018-12 → 2021-07:', s);
  assert.equal(d.fromVersion, from.version.id);
  assert.equal(d.toVersion, to.version.id);
  assert.equal(s.added - s.removed, to.entities.length - from.entities.length);
  assert.equal(s.added + s.changed + s.unchanged, to.entities.length);
  assert.equal(s.removed + s.changed + s.unchanged, from.entities.length);
  // Measured on these files (the README gives only the totals).
  assert.deepEqual({ added: s.added, removed: s.removed, changed: s.changed, unchanged: s.unchanged }, { added: 1858, removed: 261, changed: 842, unchanged: 6276 });
  const c906 = d.changed.find((c) => c.id === 'ofac_sdn:906');
  assert.ok(c906?.fields.includes('primaryName'));
  assert.notEqual(c906!.before.primaryName, c906!.after.primaryName);
});

test('real UN snapshots: 2025-11-20 (1,000) → 2026-02-27 (1,003)', async () => {
  const from = await loadList({ source: 'un_sc', dir: `${DATA}/un`, files: ['UN_consolidated_2025-11-20.xml'] });
  const to = await loadList({ source: 'un_sc', dir: `${DATA}/un` });
  const d = computeDelta(from.entities, to.entities, { from: from.version, to: to.version });
  const s = summariseDelta(d);
  console.log('UN delta 2025-11-20 → 2026-02-27:', s, 'added:', d.added.map((e) => e.primaryName), 'removed:', d.removed.map((e) => e.primaryName));
  assert.equal(s.added - s.removed, 3);
  assert.deepEqual({ added: s.added, removed: s.removed, changed: s.changed, unchanged: s.unchanged }, { added: 4, removed: 1, changed: 2, unchanged: 997 });
  assert.deepEqual(d.added.map((e) => e.primaryName).sort(), ['ABDUL RAHIM HAMDAN DAGALO', 'AL-FATEH ABDULLAH IDRIS', 'GEDO HAMDAN AHMED', 'TIJANI IBRAHIM MOUSSA MOHAMED']);
  assert.deepEqual(d.removed.map((e) => e.primaryName), ['MUNIR AL QUBAYSI']);
  assert.deepEqual(s.fieldsChanged, { remarks: 2 });
});
