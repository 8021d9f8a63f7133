import { test } from 'node:test';
import assert from 'node:assert/strict';
import { computeDelta } from '../../../src/screening/delta';
import { ScreeningEngine } from '../../../src/screening/engine';
import type { ListEntity, ListVersion } from '../../../src/screening/model';
import { entityRecordHash } from '../../../src/agents/lists/list-agents';
import { SubjectIndex, type MonitoredSubject } from '../../../src/app/monitoring/reverse-index';
import { matchDelta, type ReportedHit } from '../../../src/app/monitoring/delta-matcher';

function entity(sourceId: string, name: string, schema: 'person' | 'organization', extra: Partial<ListEntity> = {}): ListEntity {
  return {
    id: `ofac_sdn:${sourceId}`, source: 'ofac_sdn', sourceId, listVersion: 'v', topics: ['sanctions'], schema, primaryName: name,
    names: [{ value: name, kind: 'primary' }], birthDates: [], birthPlaces: [], nationalities: [], countries: [], addresses: [],
    identifiers: [], programs: ['SDGT'], ...extra,
  } as ListEntity;
}
const version = (id: string): ListVersion => ({ id, source: 'ofac_sdn', contentHash: id, loadedAt: '2026-01-01T00:00:00Z', files: [], entityCount: 0 }) as unknown as ListVersion;

const before = [
  entity('1', 'PETROVSKY, Anatoly', 'person'),
  entity('2', 'OCEAN STAR SHIPPING LLC', 'organization'),
  entity('3', 'KARIMOV, Rustam', 'person'),
];
const after = [
  entity('1', 'PETROVSKY, Anatoly', 'person', { programs: ['SDGT', 'RUSSIA-EO14024'] }), // changed
  // 2 removed
  entity('3', 'KARIMOV, Rustam', 'person'), // unchanged
  entity('4', 'VOLKONSKAYA, Irina Pavlovna', 'person'), // added
];
const subjects: MonitoredSubject[] = [
  { screeningId: '10', accountId: '1', query: 'Irina Volkonskaya', entityType: 'individual' },
  { screeningId: '11', accountId: '1', query: 'Ocean Star Shipping', entityType: 'company' },
  { screeningId: '12', accountId: '2', query: 'Anatoly Petrovsky', entityType: 'individual' },
  { screeningId: '13', accountId: '2', query: 'Margaret Thistlewood', entityType: 'individual' },
  { screeningId: '14', accountId: '2', query: 'Rustam Karimov', entityType: 'individual' },
];

test('the reverse index finds the subjects a listed name reaches, and only them', () => {
  const index = SubjectIndex.build(subjects);
  assert.deepEqual([...index.candidatesFor(after[2]!)].map((i) => subjects[i]!.screeningId), ['10']);
  assert.ok(index.candidatesFor(entity('9', 'THISTLEWOOD, Margaret', 'person')).has(3));
  assert.equal(index.candidatesFor(entity('9', 'NOBODY KNOWN', 'person')).size, 0);
});

test('a delta raises new, changed and removed alerts only for the subjects concerned', async () => {
  const delta = computeDelta(before, after, { from: version('ofac_sdn@old'), to: version('ofac_sdn@new') });
  assert.equal(delta.added.length, 1);
  assert.equal(delta.removed.length, 1);
  assert.equal(delta.changed.length, 1);
  const engine = ScreeningEngine.build(after, [version('ofac_sdn@new')]);
  const reported: ReportedHit[] = [
    { screeningId: '11', hitId: 'sanctions:ofac_sdn:2', entityId: 'ofac_sdn:2', status: 'open', entityRecordHash: entityRecordHash(before[1]!) },
    { screeningId: '12', hitId: 'sanctions:ofac_sdn:1', entityId: 'ofac_sdn:1', status: 'false_positive', entityRecordHash: entityRecordHash(before[0]!) },
  ];
  const hitsByEntity = new Map<string, ReportedHit[]>();
  for (const h of reported) hitsByEntity.set(h.entityId, [...(hitsByEntity.get(h.entityId) ?? []), h]);
  const { intents, stats } = await matchDelta({ delta, engine, index: SubjectIndex.build(subjects), hitsByEntity });
  const summary = intents.map((i) => `${i.screeningId}:${i.kind}:${i.entityId}`).sort();
  assert.deepEqual(summary, ['10:new_hit:ofac_sdn:4', '11:removed_hit:ofac_sdn:2', '12:changed_hit:ofac_sdn:1']);
  const newHit = intents.find((i) => i.kind === 'new_hit')!;
  assert.equal(newHit.hit?.hitId, 'sanctions:ofac_sdn:4');
  assert.ok(newHit.hit!.score >= 0.8);
  assert.equal(newHit.entityRecordHash, entityRecordHash(after[2]!));
  const changed = intents.find((i) => i.kind === 'changed_hit')!;
  assert.deepEqual(Object.keys(changed.diff), ['programs']);
  assert.deepEqual((changed.diff.programs as { after: string[] }).after, ['SDGT', 'RUSSIA-EO14024']);
  assert.equal(changed.entityRecordHash, entityRecordHash(after[0]!));
  assert.ok(changed.rescored, 'the changed record was re-scored against the subject');
  // Karimov is unchanged and Thistlewood matches nothing: neither is screened again.
  assert.ok(stats.subjectsRescreened <= 2, `screened ${stats.subjectsRescreened}`);
});
