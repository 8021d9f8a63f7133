/**
 * Where the screening workflow gets each agent's answer (agentPlacement in src/agents/catalog.ts):
 * list agents this process serves run in the workflow's step; an agent that calls an outside service,
 * or one this process does not serve, is asked over the bus; a source nobody can query answers here.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { agentPlacement, createAgentCatalog } from '../../../src/agents/catalog';
import type { ExternalSource } from '../../../src/agents/sources/types';

const LIST_AGENTS = ['sanctions', 'pep', 'offshore_leaks', 'debarment'];

function catalog(configuredSources: string[] = []) {
  const source = (name: string): ExternalSource => ({
    name,
    label: name,
    phase: '1',
    tier: 'all',
    enableWith: `${name.toUpperCase()}_URL`,
    configured: () => configuredSources.includes(name),
    query: async () => ({ queried: false, error: 'not used', matches: [] }),
  });
  return createAgentCatalog({ screener: () => ({ screen: () => [] }), sources: [source('commercial_screening'), source('adverse_media_search')], hasPepList: () => true });
}

describe('agent placement', () => {
  it('given a process serving every agent: the list agents run here, a configured outside source goes over the bus', () => {
    const agents = catalog(['adverse_media_search']);
    const { local, remote } = agentPlacement(agents, new Set(agents.keys()));
    for (const agent of LIST_AGENTS) assert.ok(local.has(agent), `${agent} runs here`);
    assert.ok(remote.has('adverse_media'), 'a news search calls out: a worker answers it');
    assert.ok(!local.has('adverse_media'));
  });

  it('given a process that does not serve them: the list agents are asked of workers', () => {
    const agents = catalog();
    const { local, remote } = agentPlacement(agents, new Set(['osint']));
    for (const agent of LIST_AGENTS) assert.ok(remote.has(agent) && !local.has(agent), `${agent} goes over the bus`);
  });

  it('given the commercial screening API configured: sanctions and PEP call out, so they go over the bus', () => {
    const agents = catalog(['commercial_screening']);
    const { local, remote } = agentPlacement(agents, new Set(agents.keys()));
    assert.ok(remote.has('sanctions') && remote.has('pep'));
    assert.ok(local.has('offshore_leaks') && local.has('debarment'));
  });

  it('a source no one can query answers here wherever it is served, and every agent is placed once', () => {
    const agents = catalog();
    const { local, remote } = agentPlacement(agents, new Set());
    assert.ok(local.has('adverse_media') && local.has('osint'), 'not configured: recorded here as not queried');
    assert.deepEqual([...local.keys(), ...remote].sort(), [...agents.keys()].sort());
  });
});
