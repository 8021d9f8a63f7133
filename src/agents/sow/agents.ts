/**
 * The five SOW corroboration agents (steps 5-9, pipeline phase 2). Each one:
 *   - reads the screening's SOW declaration (from the event store, through `loadDeclaration`);
 *   - scores every declared source of its kind from the submitted evidence (./corroboration);
 *   - screens each source's counterparty (employer, company, decedent, broker, property seller)
 *     against our sanctions, debarment and offshore-leak lists;
 *   - records the outside registry that would confirm the source as `queried: false` with the
 *     reason (no such adapter is configured in this deployment) — nothing is invented.
 */
import type { ListTopic } from '../../screening/model';
import { HIT_THRESHOLD, type NameScreener } from '../lists/list-agents';
import type { Agent, AgentOutcome } from '../runtime/agent';
import { corroborateSource, EVIDENCE_RULES, SOW_AGENT_SOURCES, type SourceCorroboration } from './corroboration';
import type { StoredSowDeclaration } from './declaration';

export interface CounterpartyCheck {
  sourceIndex: number;
  name: string;
  listed: boolean;
  matches: { list: string; entityName: string; score: number; topics: string[] }[];
}

/** What a SOW agent records (AgentResultRecorded.result.sow). */
export interface SowAgentResult {
  source: string;
  label: string;
  declaredSources: number;
  corroborations: SourceCorroboration[];
  counterpartyChecks: CounterpartyCheck[];
  registry: { name: string; queried: false; reason: string };
}

export interface SowAgentDeps {
  screener: () => NameScreener;
  /** The declaration and the request time of the screening `workflow` (stream name). */
  loadDeclaration: (workflow: string) => Promise<{ declaration: StoredSowDeclaration; requestedAt: string } | undefined>;
}

const COUNTERPARTY_TOPICS: ListTopic[] = ['sanctions', 'debarment', 'export_control', 'offshore_leaks'];

export function screenCounterparty(screener: NameScreener, name: string, sourceIndex: number): CounterpartyCheck {
  const results = screener.screen({ name }, { topics: COUNTERPARTY_TOPICS, threshold: HIT_THRESHOLD, limit: 5 });
  const matches = results.map((r) => ({ list: r.entity.source, entityName: r.entity.primaryName, score: Math.round(r.score * 1000) / 1000, topics: [...r.entity.topics] }));
  return { sourceIndex, name, listed: matches.length > 0, matches };
}

/**
 * One corroboration source's work, pure apart from the list lookup: the agent records it in phase 2,
 * and the phase-5 steps compute the same thing from the same declaration (they see the in-memory
 * history, where the last phase-2 results may not be stored yet).
 */
export function corroborateKind(agentName: string, declaration: StoredSowDeclaration, requestedAt: string, screener: NameScreener): SowAgentResult {
  const sourceType = SOW_AGENT_SOURCES[agentName];
  if (!sourceType) throw new Error(`${agentName} is not a SOW corroboration agent`);
  const rule = EVIDENCE_RULES[sourceType];
  const corroborations: SourceCorroboration[] = [];
  const counterpartyChecks: CounterpartyCheck[] = [];
  declaration.sources.forEach((source, index) => {
    if (source.type !== sourceType) return;
    corroborations.push(corroborateSource(source, index, requestedAt));
    if (source.counterparty) counterpartyChecks.push(screenCounterparty(screener, source.counterparty, index));
  });
  return {
    source: sourceType,
    label: rule.label,
    declaredSources: corroborations.length,
    corroborations,
    counterpartyChecks,
    registry: { name: rule.registry, queried: false, reason: `not configured: no ${rule.registry} adapter in this deployment` },
  };
}

export function createSowAgent(agentName: string, deps: SowAgentDeps): Agent {
  const sourceType = SOW_AGENT_SOURCES[agentName];
  if (!sourceType) throw new Error(`${agentName} is not a SOW corroboration agent`);
  const rule = EVIDENCE_RULES[sourceType];
  return {
    name: agentName,
    label: `${rule.label} corroboration (submitted evidence and our lists)`,
    configured: () => true,
    async run(subject): Promise<AgentOutcome> {
      const loaded = await deps.loadDeclaration(subject.workflow);
      if (!loaded) return { queried: false, error: 'no SOW declaration found for this screening', hits: [] };
      const result = corroborateKind(agentName, loaded.declaration, loaded.requestedAt, deps.screener());
      return { queried: true, hits: [], data: { sow: result } };
    },
  };
}

export function createSowAgents(deps: SowAgentDeps): Agent[] {
  return Object.keys(SOW_AGENT_SOURCES).map((name) => createSowAgent(name, deps));
}
