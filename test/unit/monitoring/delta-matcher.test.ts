import { describe, it, test } from 'node:test';
import assert from 'node:assert/strict';
import { computeDelta } from '../../../src/screening/delta';
import { ScreeningEngine } from '../../../src/screening/engine';
import type { ListEntity, ListVersion } from '../../../src/screening/model';
import { entityRecordHash } from '../../../src/agents/lists/list-agents';
import { qualifierHeadroom, SubjectIndex, type MonitoredSubject } from '../../../src/app/monitoring/reverse-index';
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

describe("a re-screen after a list update assesses the new hit on the subject's own facts, as a screening does (issue 27)", () => {
  const listed = entity('5', 'ZORRIBAN, Kestrel', 'person', { birthDates: [{ date: '1970-01-01', year: 1970, raw: '01 Jan 1970' }] });
  const delta = computeDelta(before, [...before, listed], { from: version('ofac_sdn@old'), to: version('ofac_sdn@new') });
  const engine = ScreeningEngine.build([...before, listed], [version('ofac_sdn@new')]);
  const subject = (screeningId: string, facts?: MonitoredSubject['facts']): MonitoredSubject => ({
    screeningId, accountId: '1', query: 'Kestrel Zorriban', entityType: 'individual', ...(facts ? { facts } : {}),
  });
  const newHitOf = async (s: MonitoredSubject) => {
    const { intents } = await matchDelta({ delta, engine, index: SubjectIndex.build([s]), hitsByEntity: new Map() });
    const intent = intents.find((i) => i.kind === 'new_hit' && i.entityId === 'ofac_sdn:5');
    assert.ok(intent?.hit, `a new hit for ${JSON.stringify(s.facts ?? {})}: ${JSON.stringify(intents.map((i) => i.kind))}`);
    return intent.hit;
  };

  it('given a subject screened with a date of birth no listed date agrees with, when the entity is listed, then its new hit is contradicted (a namesake), never confirmed', async () => {
    const hit = await newHitOf(subject('20', { dateOfBirth: '1980-05-05' }));
    assert.equal(hit.assessment, 'identity_contradicted');
    assert.equal(hit.confirmation, undefined);
    assert.match(hit.identityNote ?? '', /1980-05-05/);
  });

  it('given a subject screened with the listed date of birth, when the entity is listed, then its new hit is confirmed by the date of birth', async () => {
    const hit = await newHitOf(subject('21', { dateOfBirth: '1970-01-01' }));
    assert.equal(hit.assessment, 'identity_corroborated');
    assert.equal(hit.confirmation?.basis, 'date_of_birth');
  });

  it('given a subject screened with an identifier the listing carries, when the entity is listed, then its new hit is confirmed by the identifier', async () => {
    const withPassport = entity('6', 'ZORRIBAN, Kestrel', 'person', { identifiers: [{ type: 'passport', value: 'X1234567' }] });
    const d = computeDelta(before, [...before, withPassport], { from: version('ofac_sdn@old'), to: version('ofac_sdn@new') });
    const e = ScreeningEngine.build([...before, withPassport], [version('ofac_sdn@new')]);
    const { intents } = await matchDelta({ delta: d, engine: e, index: SubjectIndex.build([subject('22', { identifiers: [{ type: 'passport', value: 'X 123 4567' }] })]), hitsByEntity: new Map() });
    const hit = intents.find((i) => i.kind === 'new_hit')?.hit;
    assert.equal(hit?.assessment, 'identity_corroborated', JSON.stringify(hit?.identityNote));
    assert.equal(hit?.confirmation?.basis, 'identifier');
  });

  it("the reverse index's bound leaves room for the qualifiers the subject's facts can earn (a date of birth, an identifier, a nationality)", () => {
    assert.equal(qualifierHeadroom({}), 0);
    assert.equal(qualifierHeadroom({ jurisdiction: 'RU' }), qualifierHeadroom({ facts: { nationality: 'RU' } }));
    assert.ok(qualifierHeadroom({ facts: { dateOfBirth: '1970-01-01' } }) > 0);
    assert.ok(qualifierHeadroom({ facts: { dateOfBirth: '1970', identifiers: [{ type: 'passport', value: 'X1234567' }] } }) > qualifierHeadroom({ facts: { dateOfBirth: '1970' } }));
    // the most of any subject sharing the name counts
    const index = SubjectIndex.build([subject('23'), subject('24', { dateOfBirth: '1970-01-01' })]);
    assert.equal(index.qualifierHeadroom(0), qualifierHeadroom({ facts: { dateOfBirth: '1970-01-01' } }));
  });
});
