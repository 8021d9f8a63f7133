/**
 * Which agent answers each pipeline agent name (src/commands/screening/pipeline.ts):
 * our lists for real work, outside-source adapters behind configuration, and an honest
 * "not configured" for sources this deployment has no adapter or credentials for.
 */
import type { ReportHit } from '../reports/model';
import { type Agent, type AgentOutcome, notConfiguredAgent, runsOnWorkers } from './runtime/agent';
import { SUBJECT_CHECK_SOURCES } from '../commands/subject-check/assessment';
import { createListAgents, type NameScreener } from './lists/list-agents';
import { withInternalLists, type InternalListSource } from './lists/internal-lists';
import { toReportHit as sourceHitToReport } from './sources/to-report';
import type { ExternalSource, SourceSubject } from './sources/types';
import { countryToIso2 } from './sources/countries';
import { createSowAgents, type SowAgentDeps } from './sow/agents';

/** Adapts outside sources (several may serve one agent) to the agent contract. */
export function sourcesAgent(name: string, label: string, sources: ExternalSource[]): Agent {
  const enableWith = [...new Set(sources.map((s) => s.enableWith))].join('; or ');
  return {
    name,
    label,
    ...(enableWith ? { enableWith } : {}),
    configured: () => sources.some((s) => s.configured()),
    async run(subject, context): Promise<AgentOutcome> {
      const configured = sources.filter((s) => s.configured());
      if (configured.length === 0) {
        return { queried: false, error: `not configured: ${sources.map((s) => s.label).join(', ') || 'no adapter'}`, hits: [] };
      }
      const sourceSubject: SourceSubject = { name: subject.name, entityType: subject.entityType };
      if (subject.jurisdiction) {
        sourceSubject.jurisdiction = subject.jurisdiction;
        const iso2 = countryToIso2(subject.jurisdiction);
        if (iso2) sourceSubject.jurisdictionIso2 = iso2;
      }
      if (subject.birthDate) sourceSubject.birthDate = subject.birthDate;
      const outcomes = await Promise.all(configured.map((s) => s.query(sourceSubject, { signal: context.signal })));
      const answered = outcomes.filter((o) => o.queried);
      if (answered.length === 0) {
        return { queried: false, error: outcomes.map((o, i) => `${configured[i]!.name}: ${o.queried ? '' : o.error}`).join('; '), hits: [] };
      }
      const hits: ReportHit[] = [];
      const registry = [];
      let ukRegistry;
      for (const [i, outcome] of outcomes.entries()) {
        if (!outcome.queried) continue;
        for (const match of outcome.matches) {
          if (match.kind === 'hit') {
            const hit = sourceHitToReport(configured[i]!.name, match, configured[i]!.label);
            if (hit) hits.push(hit);
          } else {
            registry.push(match.record);
            if (match.ukRegistry) ukRegistry = match.ukRegistry;
          }
        }
      }
      return { queried: true, hits, registry, ...(ukRegistry ? { data: { ukRegistry } } : {}) };
    },
  };
}

/** Combines our list agent with an optional outside service for the same category. */
function withOptionalSource(base: Agent, extra: Agent | undefined): Agent {
  if (!extra) return base;
  return {
    name: base.name,
    label: `${base.label}; ${extra.label}`,
    async run(subject, context) {
      const [ours, theirs] = await Promise.all([base.run(subject, context), extra.run(subject, context)]);
      if (!ours.queried) return ours;
      if (!theirs.queried) return { ...ours, data: { ...(ours.data ?? {}), notQueried: { [extra.label]: theirs.error } } };
      return { ...ours, hits: [...ours.hits, ...theirs.hits] };
    },
  };
}

export function createAgentCatalog(deps: {
  screener: () => NameScreener;
  sources: ExternalSource[];
  hasPepList: () => boolean;
  /** SOW corroboration agents read the screening's declaration through this (without it they say "not configured"). */
  loadSowDeclaration?: SowAgentDeps['loadDeclaration'];
  /** The accounts' internal watchlists (issue 21): the sanctions agent screens them too. */
  internalLists?: InternalListSource;
}): Map<string, Agent> {
  const byName = (name: string) => deps.sources.filter((s) => s.name === name);
  const configured = (name: string) => deps.sources.some((s) => s.name === name && s.configured());
  const lists = new Map(createListAgents(deps.screener).map((a) => [a.name, a]));
  const catalog = new Map<string, Agent>();
  const add = (agent: Agent) => catalog.set(agent.name, agent);

  const commercial = sourcesAgent('commercial_screening', 'Commercial sanctions/PEP screening API', byName('commercial_screening'));
  add(withInternalLists(withOptionalSource(lists.get('sanctions')!, configured('commercial_screening') ? commercial : undefined), deps.internalLists));
  const pepLists = lists.get('pep')!;
  add({
    name: 'pep',
    label: pepLists.label,
    enableWith: 'OPENSANCTIONS_DIR (OpenSanctions PEP data, CC BY-NC: needs a licence for commercial use); or SCREENING_API_URL and SCREENING_API_KEY',
    configured: () => deps.hasPepList() || configured('commercial_screening'),
    async run(subject, context) {
      if (!deps.hasPepList() && !configured('commercial_screening')) {
        return { queried: false, error: 'not configured: no PEP list loaded (set OPENSANCTIONS_DIR; CC BY-NC data) and no commercial screening API', hits: [] };
      }
      const ours = deps.hasPepList() ? await pepLists.run(subject, context) : { queried: true as const, hits: [] as ReportHit[] };
      return ours;
    },
  });
  add(withOptionalSource(lists.get('offshore_leaks')!, configured('icij_offshore_api') ? sourcesAgent('icij_offshore', 'ICIJ Offshore Leaks API', byName('icij_offshore_api')) : undefined));
  add(lists.get('debarment')!);
  add(sourcesAgent('adverse_media', 'News and adverse-media search', byName('adverse_media_search')));
  add(sourcesAgent('entity_enrichment', 'Entity enrichment (OpenCorporates, GLEIF)', [...byName('opencorporates'), ...byName('gleif')]));
  add(sourcesAgent('company_registries', 'Company registries (OpenCorporates, UK Companies House, GLEIF LEI)', [...byName('opencorporates'), ...byName('companies_house'), ...byName('gleif')]));
  const unavailable: [string, string][] = [
    ['osint', 'Open-source search-engine intelligence'],
    ['public_company', 'Public-company status'],
    ['market_data', 'Market-data enrichment'],
    ['financial_due_diligence', 'Financial due diligence sources'],
    ['securities_filings', 'Securities-filing data'],
    ['browser_verification', 'Browser-based registry verification'],
    ['litigation', 'Litigation search (public court sources)'],
    ['bankruptcy', 'Bankruptcy records'],
    ['consumer_complaints', 'Consumer-complaint databases'],
    ['esg', 'ESG screening'],
    ['adverse_media_engine', 'Adverse-media engine'],
    ['arbitration', 'Arbitration awards'],
    ['web_archive', 'Web-archive history'],
    ['beneficial_ownership', 'Beneficial-ownership registers'],
    ['sow_employment', 'Employment and salary corroboration'],
    ['sow_business_ownership', 'Business-ownership corroboration'],
    ['sow_inheritance', 'Inheritance documentation'],
    ['sow_investment_portfolio', 'Investment-portfolio corroboration'],
    ['sow_property_registries', 'Property and asset registries'],
  ];
  for (const [name, label] of unavailable) add(notConfiguredAgent(name, label, `no ${label.toLowerCase()} adapter is configured in this deployment`));
  // SOW steps 5-9: scored from the submitted evidence and our lists; outside registries recorded as not queried.
  if (deps.loadSowDeclaration) for (const agent of createSowAgents({ screener: deps.screener, loadDeclaration: deps.loadSowDeclaration })) add(agent);
  return catalog;
}

/**
 * Which of the agents a worker was asked to run (`--agents`) it takes tasks for: those some workflow
 * sends tasks to. The screening records an agent this deployment cannot query as not configured
 * itself (runsOnWorkers, the same test its runner applies); the subject check asks its five sources
 * on workers whatever their configuration. A worker reads no other task topic: each topic it names
 * costs it CPU on every fetch, busy or idle (docs/scaling.md), and `--agents all` names 26 of which a
 * deployment without outside sources uses 10.
 */
export function agentsTakingTasks(catalog: ReadonlyMap<string, Agent>, wanted: readonly string[]): { taken: Agent[]; skipped: string[] } {
  const askedOnWorkers = new Set(SUBJECT_CHECK_SOURCES.map((s) => s.agent));
  const takes = (agent: Agent) => runsOnWorkers(agent) || askedOnWorkers.has(agent.name);
  const agents = wanted.map((name) => {
    const agent = catalog.get(name);
    if (!agent) throw new Error(`unknown agent: ${name}`);
    return agent;
  });
  return { taken: agents.filter(takes), skipped: agents.filter((a) => !takes(a)).map((a) => a.name) };
}
