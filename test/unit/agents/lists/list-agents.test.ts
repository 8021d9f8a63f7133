/** The list agents: one hit per real-world entity, and an entity type that ranks but never hides (small engine, fixture entities). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createListAgents, expectedSchema, queriesFor, toReportHit } from '../../../../src/agents/lists/list-agents';
import { hitListIds } from '../../../../src/reports/hit-lists';
import type { AgentSubject } from '../../../../src/agents/runtime/agent';
import { ScreeningEngine } from '../../../../src/screening/engine';
import type { ListVersion } from '../../../../src/screening/model';
import { entity } from '../../screening/matching/fixtures';

const versions: ListVersion[] = [
  { id: 'ofac_sdn@test', source: 'ofac_sdn', contentHash: 'a', publishedAt: '2024-05-01', loadedAt: '2026-01-01T00:00:00Z', entityCount: 2, files: [] },
  { id: 'us_csl@test', source: 'us_csl', contentHash: 'b', publishedAt: '2022-05-16', loadedAt: '2026-01-01T00:00:00Z', entityCount: 2, files: [] },
];
const bank = entity({ source: 'ofac_sdn', sourceId: '306', schema: 'organization', primaryName: 'BANCO NACIONAL DE CUBA', countries: ['CU'], programs: ['CUBA'] });
const bankCsl = entity({ source: 'us_csl', sourceId: '306', schema: 'organization', primaryName: 'BANCO NACIONAL DE CUBA', programs: ['CUBA'], extra: { list: 'Specially Designated Nationals (SDN) - Treasury Department', entity_number: '306' } });
const person = entity({ source: 'ofac_sdn', sourceId: '7', schema: 'person', primaryName: 'PETROV, Ivan', birthDates: [{ date: '1970-01-02' }], nationalities: ['RU'] });
const personCsl = entity({ source: 'us_csl', sourceId: '7', schema: 'person', primaryName: 'PETROV, Ivan', extra: { list: 'Specially Designated Nationals (SDN) - Treasury Department', entity_number: '7' } });
const engine = ScreeningEngine.build([bank, bankCsl, person, personCsl], versions);
const sanctions = createListAgents(() => engine).find((a) => a.name === 'sanctions')!;
const run = async (s: Omit<AgentSubject, 'workflow'>) => {
  const outcome = await sanctions.run({ workflow: 'screening-1', ...s }, { signal: new AbortController().signal });
  assert.equal(outcome.queried, true);
  return outcome.hits;
};

describe('expectedSchema and queriesFor', () => {
  it('a given type is used as the query type', () => {
    assert.deepEqual(expectedSchema({ name: 'Banco Nacional de Cuba', entityType: 'individual' }), { schema: 'person', given: true });
    assert.equal(queriesFor({ workflow: 'w', name: 'Ivan Petrov', entityType: 'individual' })[0]!.schema, 'person');
  });
  it('with no type, the kind is read from the name, falling back to the surface default, and the query is untyped', () => {
    assert.deepEqual(expectedSchema({ name: 'Banco Nacional de Cuba', entityType: 'individual', entityTypeDefaulted: true }), { schema: 'organization', given: false });
    assert.deepEqual(expectedSchema({ name: 'Ivan Petrov', entityType: 'individual', entityTypeDefaulted: true }), { schema: 'person', given: false });
    assert.deepEqual(expectedSchema({ name: 'Thistlewood', entityType: 'company', entityTypeDefaulted: true }), { schema: 'organization', given: false });
    assert.equal('schema' in queriesFor({ workflow: 'w', name: 'Ivan Petrov', entityType: 'individual', entityTypeDefaulted: true })[0]!, false);
  });
});

describe('sanctions list agent', () => {
  it('reports the SDN row and the CSL row of one designation as one hit with both sources, dates and facts', async () => {
    const hits = await run({ name: 'Ivan Petrov', entityType: 'individual' });
    assert.equal(hits.length, 1);
    const hit = hits[0]!;
    assert.equal(hit.hitId, 'sanctions:ofac_sdn:7');
    assert.deepEqual(hit.sources?.map((s) => [s.entityId, s.publishedAt, s.listAuthority]), [['ofac_sdn:7', '2024-05-01', 'us'], ['us_csl:7', '2022-05-16', 'us']]);
    assert.deepEqual(hit.birthDates, ['1970-01-02']);
    assert.deepEqual(hit.nationalities, ['RU']);
  });
  it('files a merged hit under the issuer\'s own list whichever row scored best, and keeps every list row, the filing one first', () => {
    const cslBest = { entity: personCsl, score: 0.99, explanation: { matchedName: 'PETROV, Ivan', matchedNameKind: 'primary' as const, nameScore: 0.99, alignment: [], qualifiers: [], summary: 'csl' } };
    const sdnLower = { entity: person, score: 0.9, explanation: { matchedName: 'Petrov Ivan', matchedNameKind: 'strong_alias' as const, nameScore: 0.9, alignment: [], qualifiers: [], summary: 'sdn' } };
    const hit = toReportHit('sanctions', { best: cslBest, members: [cslBest, sdnLower], links: [{ kind: 'ofac_id', detail: 'OFAC entity number 7' }] }, { versions });
    assert.equal(hit.hitId, 'sanctions:ofac_sdn:7');
    assert.equal(hit.source, 'ofac_sdn');
    assert.equal(hit.score, 0.99, 'the score is the best row\'s');
    assert.deepEqual(hit.sources?.map((s) => s.entityId), ['ofac_sdn:7', 'us_csl:7']);
    assert.deepEqual(hitListIds(hit), ['ofac_sdn', 'us_csl']);
  });
  it('no type given: the bank is found and not marked', async () => {
    const hits = await run({ name: 'Banco Nacional de Cuba', entityType: 'individual', entityTypeDefaulted: true });
    assert.equal(hits.length, 1);
    assert.equal(hits[0]!.status, 'confirmed');
    assert.equal(hits[0]!.typeMismatch, undefined);
  });
  it('typed as an individual: the bank is still reported at confirmed strength, marked a type mismatch', async () => {
    const hits = await run({ name: 'Banco Nacional de Cuba', entityType: 'individual' });
    assert.equal(hits.length, 1);
    assert.deepEqual(hits[0]!.typeMismatch, { expected: 'person', listed: 'organization', typeGiven: true });
    assert.ok(hits[0]!.explanation.qualifiers.some((q) => q.kind === 'type_mismatch'));
  });
  it('typed as an individual: a weaker match on an organisation stays away', async () => {
    const hits = await run({ name: 'Banco Nacional', entityType: 'individual' });
    assert.ok(hits.every((h) => !h.typeMismatch || h.status === 'confirmed'), JSON.stringify(hits.map((h) => [h.entityName, h.score])));
  });
  it('no type given, a person-like name: a matching organisation is ranked after the people and marked', async () => {
    const e = ScreeningEngine.build([entity({ source: 'ofac_sdn', sourceId: '50', schema: 'vessel', primaryName: 'IVAN PETROV' }), person], versions);
    const agent = createListAgents(() => e).find((a) => a.name === 'sanctions')!;
    const outcome = await agent.run({ workflow: 'w', name: 'Ivan Petrov', entityType: 'individual', entityTypeDefaulted: true }, { signal: new AbortController().signal });
    assert.deepEqual(outcome.hits.map((h) => [h.entityId, Boolean(h.typeMismatch)]), [['ofac_sdn:7', false], ['ofac_sdn:50', true]]);
  });
});
