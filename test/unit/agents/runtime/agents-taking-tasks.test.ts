/**
 * A worker reads the task topics of the agents some workflow sends tasks to, and no other: the
 * screening's runner keeps an agent this deployment cannot query to itself (runsOnWorkers), the
 * subject check sends its five sources to workers whatever their configuration. Every task topic a
 * worker names costs it CPU on every fetch (docs/scaling.md), so the rule is what a worker pays for.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { agentsTakingTasks, createAgentCatalog } from '../../../../src/agents/catalog';
import { runsOnWorkers } from '../../../../src/agents/runtime/agent';
import { notQueried, type ExternalSource } from '../../../../src/agents/sources/types';
import { SUBJECT_CHECK_SOURCES } from '../../../../src/commands/subject-check/assessment';

function source(name: string, configured: boolean): ExternalSource {
  return {
    name,
    label: name,
    phase: '1',
    tier: 'all',
    enableWith: `${name.toUpperCase()}_TOKEN`,
    configured: () => configured,
    query: async () => notQueried('not used here'),
  };
}

const catalogWith = (sources: ExternalSource[], hasPepList = true) =>
  createAgentCatalog({ screener: () => ({}) as never, sources, hasPepList: () => hasPepList, loadSowDeclaration: async () => undefined });

describe('agentsTakingTasks: the task topics a worker reads', () => {
  it('--agents all without outside sources: the list agents, the subject check\'s sources and the SOW agents; not the sources nobody can query', () => {
    const catalog = catalogWith([]);
    const { taken, skipped } = agentsTakingTasks(catalog, [...catalog.keys()]);
    const names = taken.map((a) => a.name);
    for (const name of ['sanctions', 'pep', 'offshore_leaks', 'debarment', 'adverse_media', 'sow_employment']) assert.ok(names.includes(name), `${name} is taken`);
    for (const name of ['osint', 'litigation', 'entity_enrichment', 'company_registries']) assert.ok(skipped.includes(name), `${name} is skipped`);
    assert.equal(taken.length + skipped.length, catalog.size, 'every wanted agent is either taken or skipped');
    assert.ok(taken.length < catalog.size / 2, `a worker reads ${taken.length} of ${catalog.size} task topics`);
  });

  it('takes every agent a screening sends to workers, and every source a subject check asks, whatever is configured', () => {
    for (const sources of [[], [source('opencorporates', true), source('adverse_media_search', true)], [source('adverse_media_search', false)]]) {
      for (const hasPepList of [true, false]) {
        const catalog = catalogWith(sources, hasPepList);
        const taken = new Set(agentsTakingTasks(catalog, [...catalog.keys()]).taken.map((a) => a.name));
        for (const agent of catalog.values()) if (runsOnWorkers(agent)) assert.ok(taken.has(agent.name), `${agent.name} is sent to workers and taken`);
        for (const { agent } of SUBJECT_CHECK_SOURCES) assert.ok(taken.has(agent), `${agent} (subject check) is taken without its list or source`);
      }
    }
  });

  it('an outside source configured here makes its agent a task topic to read; --agents keeps to the names given', () => {
    const catalog = catalogWith([source('opencorporates', true)]);
    const { taken, skipped } = agentsTakingTasks(catalog, ['sanctions', 'entity_enrichment', 'osint']);
    assert.deepEqual(taken.map((a) => a.name), ['sanctions', 'entity_enrichment']);
    assert.deepEqual(skipped, ['osint']);
    assert.throws(() => agentsTakingTasks(catalog, ['no_such_agent']), /unknown agent: no_such_agent/);
  });
});
