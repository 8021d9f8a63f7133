/**
 * Agents and the process managers: the agent workers this process runs, the screening, subject-check
 * and person-check orchestrators, and the supervisor that closes overdue work.
 */
import { sourceSettings } from '../config/config';
import { createExternalSources } from '../agents/sources';
import { agentsTakingTasks, createAgentCatalog } from '../agents/catalog';
import { agentTaskReader } from '../agents/runtime/worker';
import { runsOnWorkers } from '../agents/runtime/agent';
import { ScreeningOrchestrator } from '../agents/orchestrator/screening-orchestrator';
import { SubjectCheckOrchestrator } from '../agents/orchestrator/subject-check-orchestrator';
import { PersonCheckOrchestrator } from '../agents/orchestrator/person-check-orchestrator';
import { WorkSupervisor } from '../agents/orchestrator/supervisor';
import { workflowReader } from '../agents/workflow/consumer';
import { startWorkerConsumer, type TopicReader } from '../agents/worker-consumer';
import { analyseEdd, analyseMa, analyseSow, llmConfigFromEnv } from '../agents/analysis';
import { createPersonAgents } from '../agents/person/agents';
import { runningWorkQueries } from '../projections/read-models/running-work';
import { sowDeclarationLoader } from '../app/sow/sow-view';
import { WatchlistService } from '../app/watchlists/watchlist-service';
import { WatchlistIndexCache } from '../app/watchlists/watchlist-index';
import { CachedActiveWatchlistVersions } from '../app/watchlists/active-versions';
import { HeldDocuments } from '../agents/person/held-documents';
import { EventSourcedOffshoreLeakChecks } from '../app/usage/offshore-leak-checks';
import type { ListsInService } from './lists';
import type { CoreDeps } from './lifecycle';

export interface AgentsDeps extends CoreDeps {
  lists: ListsInService;
}

export type AgentCatalog = ReturnType<typeof createAgentCatalog>;

export interface Agents {
  catalog: AgentCatalog;
  sources: ReturnType<typeof createExternalSources>;
  agentLabels: Record<string, string>;
  /** Present where this process runs agents. */
  supervisor: WorkSupervisor | undefined;
  /** The accounts' active watchlist versions, kept in memory once it follows a projection runner here (service.ts). */
  watchlistVersions: CachedActiveWatchlistVersions;
  /** Person checks' whole documents, from the service that records a request to this process's list agent. */
  heldDocuments: HeldDocuments;
}

/** The agent catalog (always: its labels and configuration show on the portal), and the workers if wanted. */
export async function startAgents(deps: AgentsDeps, wantedAgents: 'all' | 'none' | string[], options: { workflows: boolean } = { workflows: true }): Promise<Agents> {
  const { store, lists } = deps;
  const sources = createExternalSources(sourceSettings(deps.config));
  // The accounts' own lists, read from the watchlists read model and indexed per account (issue 21).
  const watchlistVersions = new CachedActiveWatchlistVersions({ pool: deps.pool });
  const watchlists = new WatchlistService({ store, pool: deps.pool, clock: deps.clock, readModelsCaughtUp: async () => {} });
  const watchlistIndex = new WatchlistIndexCache({ watchlists, versions: watchlistVersions, store, now: () => deps.clock.now() });
  const catalog = createAgentCatalog({
    internalLists: watchlistIndex,
    screener: () => lists.engine(),
    sources,
    hasPepList: () => lists.engine().versions.some((v) => v.source === 'opensanctions_peps'),
    loadSowDeclaration: sowDeclarationLoader(store),
  });
  const agentLabels = Object.fromEntries([...catalog.values()].map((a) => [a.name, a.label]));
  const heldDocuments = new HeldDocuments();
  if (wantedAgents === 'none') return { catalog, sources, agentLabels, supervisor: undefined, watchlistVersions, heldDocuments };
  const wanted = wantedAgents === 'all' ? [...catalog.keys()] : wantedAgents;
  const unknown = wanted.filter((name) => !catalog.has(name));
  if (unknown.length) throw new Error(`unknown agents: ${unknown.join(', ')} (known: ${[...catalog.keys()].join(', ')})`);
  const { bus, registry, clock, logger } = deps;
  const { taken, skipped } = agentsTakingTasks(catalog, wanted);
  if (skipped.length) logger.info({ agents: skipped }, 'not configured here: no workflow sends these agents tasks, so this worker does not read their task topics');
  const tasks = agentTaskReader({ bus, registry, agents: taken, timeoutMs: deps.config.AGENT_TIMEOUT_MS, clock, logger, telemetry: deps.telemetry });
  const orchestrators = options.workflows ? startOrchestrators(deps, catalog, agentLabels, sources, watchlistIndex, heldDocuments) : undefined;
  // One consumer for the agents' tasks and the workflows (src/agents/worker-consumer.ts); stopped first,
  // before the runners (stops run last first).
  const consumer = await startWorkerConsumer(bus, orchestrators ? [tasks, orchestrators.workflows] : [tasks]);
  deps.stops.push(() => consumer.stop());
  const supervisor = orchestrators?.supervisor;
  return { catalog, sources, agentLabels, supervisor, watchlistVersions, heldDocuments };
}

function startOrchestrators(
  deps: AgentsDeps,
  catalog: AgentCatalog,
  agentLabels: Record<string, string>,
  sources: Agents['sources'],
  internalLists: WatchlistIndexCache,
  heldDocuments: HeldDocuments,
): { supervisor: WorkSupervisor; workflows: TopicReader } {
  const { config, logger, clock, store, bus, registry, lists, stops, telemetry } = deps;
  const env = sourceSettings(config);
  const llm = llmConfigFromEnv(env);
  const orchestrator = new ScreeningOrchestrator({
    store,
    bus,
    registry,
    clock,
    logger,
    telemetry,
    remoteAgents: new Set([...catalog.values()].filter(runsOnWorkers).map((a) => a.name)),
    localAgents: new Map([...catalog.values()].filter((a) => !runsOnWorkers(a)).map((a) => [a.name, a])),
    finalisation: {
      countryRisk: () => lists.countryRisk(),
      countrySanctions: (iso2) => lists.countrySanctions(iso2),
      sowScreener: () => lists.engine(),
      analyse: async (kind, report) => {
        const analyser = kind === 'edd' ? analyseEdd : kind === 'ma' ? analyseMa : analyseSow;
        const result = await analyser(report, { ...(llm ? { llm } : {}) });
        return { markdown: result.markdown, generatedBy: result.generatedBy };
      },
    },
    agentLabels,
    engineVersions: () => lists.engineVersions(),
    agentTimeoutMs: config.AGENT_TIMEOUT_MS,
    phaseDeadlineMs: config.PIPELINE_PHASE_DEADLINE_MS,
    retryBudget: config.PIPELINE_RETRY_BUDGET,
    offshoreLeakChecks: new EventSourcedOffshoreLeakChecks({ store, clock }),
  });
  stops.push(() => orchestrator.stop());
  const subjectCheckOrchestrator = new SubjectCheckOrchestrator({ store, bus, registry, clock, logger, telemetry, agentTimeoutMs: config.AGENT_TIMEOUT_MS });
  stops.push(() => subjectCheckOrchestrator.stop());
  // Person checks: the seven phases run in this process, beside the engine their list agents use.
  const personCheckOrchestrator = new PersonCheckOrchestrator({
    store,
    bus,
    registry,
    clock,
    logger,
    telemetry,
    agents: createPersonAgents({
      screener: () => lists.engine(),
      hasPepList: () => lists.engine().versions.some((v) => v.source === 'opensanctions_peps'),
      env,
      newsSource: sources.find((s) => s.name === 'adverse_media_search'),
      internalLists,
    }),
    agentTimeoutMs: config.AGENT_TIMEOUT_MS,
    stallDeadlineMs: config.PIPELINE_PHASE_DEADLINE_MS,
    heldDocuments,
  });
  stops.push(() => personCheckOrchestrator.stop());
  // The three workflows read as one (the worker's consumer takes them with the agents' tasks).
  const workflows = workflowReader([orchestrator.runner, subjectCheckOrchestrator.runner, personCheckOrchestrator.runner]);

  // Nothing in flight stays running: phases past their deadline (recorded in the store) are
  // re-dispatched or closed with the data gap, after a crash as well as while running.
  const running = runningWorkQueries(deps.pool);
  const supervisor = new WorkSupervisor({
    clock,
    logger,
    intervalMs: config.SUPERVISOR_INTERVAL_MS,
    work: [
      { kind: 'screening', candidates: running.screenings, minAgeMs: config.PIPELINE_PHASE_DEADLINE_MS, supervise: (id) => orchestrator.supervise(id) },
      { kind: 'person_check', candidates: running.personChecks, minAgeMs: config.PIPELINE_PHASE_DEADLINE_MS, supervise: (id) => personCheckOrchestrator.supervise(id) },
      { kind: 'subject_check', candidates: running.subjectChecks, minAgeMs: config.AGENT_TIMEOUT_MS, supervise: (id) => subjectCheckOrchestrator.supervise(id) },
    ],
  });
  // Started by startService once the read side has created the tables its queries read.
  stops.push(() => supervisor.stop());
  return { supervisor, workflows };
}
