/**
 * The list agents' faster paths give the answers the plain ones gave (bundled lists):
 * - the type-mismatch pass asks the engine about the other kinds first and runs the untyped query
 *   only when that finds some; the rows kept must be those of the untyped query as it always ran;
 * - grouping and hits reuse what they worked out for a row (links, folded names, record hash) in
 *   later screenings; a hit must be the same whether the row is met for the first time or again.
 * The reference below is the two-pass screenRows as it was before, kept here to compare against.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { createListAgents, entityRecordHash, queriesFor, expectedSchema, screenRows, TYPE_MISMATCH_THRESHOLD, HIT_THRESHOLD, type NameScreener } from '../../../src/agents/lists/list-agents';
import type { AgentSubject } from '../../../src/agents/runtime/agent';
import { ScreeningEngine } from '../../../src/screening/engine';
import { BUNDLED_LISTS_DIR, listsFromRoot } from '../../../src/screening/lists/index';
import { cachedEngine } from '../../support/index-cache';
import type { EntitySchema, ListTopic, MatchOptions, MatchResult } from '../../../src/screening/model';
import { entity } from '../../unit/screening/matching/fixtures';

const sameKind = (expected: EntitySchema, listed: EntitySchema) =>
  listed === 'unknown' || expected === 'unknown' ? true : expected === 'person' ? listed === 'person' : listed !== 'person';

/** screenRows before the faster mismatch pass: the typed query, then the untyped one at confirmed strength. */
function referenceScreenRows(engine: NameScreener, subject: AgentSubject, options: MatchOptions & { excludeSources?: readonly string[] }) {
  const { excludeSources, ...matchOptions } = options;
  const expected = expectedSchema(subject);
  const best = new Map<string, MatchResult>();
  const mismatched = new Set<string>();
  const keep = (result: MatchResult, mismatch: boolean) => {
    if (excludeSources?.includes(result.entity.source)) return;
    const previous = best.get(result.entity.id);
    if (previous && previous.score >= result.score) return;
    best.set(result.entity.id, result);
    if (mismatch) mismatched.add(result.entity.id);
    else mismatched.delete(result.entity.id);
  };
  for (const query of queriesFor(subject)) {
    for (const result of engine.screen(query, { ...matchOptions, limit: 80 })) keep(result, !sameKind(expected.schema, result.entity.schema));
    if (expected.given) {
      const { schema: _typed, ...untyped } = query;
      for (const result of engine.screen(untyped, { ...matchOptions, threshold: Math.max(TYPE_MISMATCH_THRESHOLD, matchOptions.threshold ?? 0), limit: 80 })) {
        if (sameKind(expected.schema, result.entity.schema)) continue;
        const previous = best.get(result.entity.id);
        if (!previous || previous.score < result.score) keep(result, true);
      }
    }
  }
  return { rows: [...best.values()], mismatched, expected };
}

const comparable = (r: ReturnType<typeof screenRows>) => ({
  rows: r.rows.map((m) => [m.entity.id, m.score, m.explanation.summary]),
  mismatched: [...r.mismatched].sort(),
  expected: r.expected,
});

const TOPICS: ListTopic[][] = [['sanctions'], ['pep'], ['offshore_leaks'], ['debarment', 'export_control']];
const NAMES = [
  'Vladimir Putin', 'Kim Jong Un', 'Ali Hassan', 'Rosneft', 'Banco Nacional de Cuba', 'Sberbank', 'Acme Trading Ltd',
  'Mohammed Ali', 'Hamas', 'Islamic Revolutionary Guard Corps', 'Margaret Thistlewood', 'Bank Melli Iran', 'Aeroflot',
  'Gazprom', 'Kalashnikov Concern', 'Ivan Petrov', 'Al Qaida', 'Wagner Group', 'Evgeny Prigozhin', 'China Shipping',
];
const SUBJECTS: Omit<AgentSubject, 'workflow'>[] = [
  ...NAMES.map((name) => ({ name, entityType: 'individual' as const })),
  ...NAMES.map((name) => ({ name, entityType: 'company' as const })),
  ...NAMES.slice(0, 6).map((name) => ({ name, entityType: 'individual' as const, entityTypeDefaulted: true })),
  { name: 'Vladimir Putin', entityType: 'individual', aliases: ['Rosneft', 'Putin V V'], birthDate: '1952-10-07', nationality: 'RU' },
  { name: 'Sberbank', entityType: 'company', aliases: ['Sberbank Rossii', 'Banco Nacional de Cuba'], jurisdiction: 'RU' },
];

let engine: ScreeningEngine;
before(async () => {
  const { load, engine: built } = await cachedEngine(listsFromRoot(BUNDLED_LISTS_DIR), { recentQueries: 256 });
  assert.deepEqual(load.failures, []);
  engine = built;
});

describe('list agents: the faster paths answer as the plain ones did (bundled lists)', () => {
  it('screenRows keeps the rows and type-mismatch marks of the two-pass screening, for every subject and topic', () => {
    let mismatches = 0;
    for (const s of SUBJECTS) {
      const subject = { workflow: 'w', ...s } as AgentSubject;
      for (const topics of TOPICS) {
        const options = { topics, threshold: HIT_THRESHOLD };
        const now = screenRows(engine, subject, options);
        assert.deepEqual(comparable(now), comparable(referenceScreenRows(engine, subject, options)), `${s.name} (${s.entityType}) on ${topics}`);
        mismatches += now.mismatched.size;
      }
    }
    // The set exercises both paths: subjects with rows of another kind at confirmed strength, and without.
    assert.ok(mismatches > 0, 'some subject matched another kind at confirmed strength');
  });

  it('a hit is the same when its rows are met again (kept links, folded names and record hashes)', async () => {
    const agents = createListAgents(() => engine);
    const signal = new AbortController().signal;
    for (const s of SUBJECTS.slice(0, 12)) {
      for (const agent of agents) {
        const first = await agent.run({ workflow: 'w', ...s }, { signal });
        const again = await agent.run({ workflow: 'w', ...s }, { signal });
        assert.deepEqual(again, first, `${agent.name}: ${s.name}`);
        for (const hit of first.hits) assert.equal(hit.entityRecordHash, entityRecordHash(engine.entity(hit.entityId)!));
      }
    }
  });
});

describe('the type-mismatch pass when rows of the expected kind fill the row limit', () => {
  it('an organisation ranked past 80 same-named people by the untyped query stays out, as it did', () => {
    // 85 people named like the bank (made-up rows) rank before it at the same score by id.
    const people = Array.from({ length: 85 }, (_, i) => entity({ source: 'ofac_sdn', sourceId: `1${String(i).padStart(3, '0')}`, schema: 'person', primaryName: 'BANCO NACIONAL DE CUBA' }));
    const bank = entity({ source: 'ofac_sdn', sourceId: '9999', schema: 'organization', primaryName: 'BANCO NACIONAL DE CUBA' });
    const crowded = ScreeningEngine.build([...people, bank], []);
    const subject: AgentSubject = { workflow: 'w', name: 'Banco Nacional de Cuba', entityType: 'individual' };
    const options = { topics: ['sanctions'] as ListTopic[], threshold: HIT_THRESHOLD };
    const now = screenRows(crowded, subject, options);
    assert.deepEqual(comparable(now), comparable(referenceScreenRows(crowded, subject, options)));
    assert.equal(now.mismatched.size, 0);
    // and with room under the limit the bank is reported as a mismatch
    const roomy = ScreeningEngine.build([...people.slice(0, 10), bank], []);
    const some = screenRows(roomy, subject, options);
    assert.deepEqual(comparable(some), comparable(referenceScreenRows(roomy, subject, options)));
    assert.deepEqual([...some.mismatched], ['ofac_sdn:9999']);
  });
});
