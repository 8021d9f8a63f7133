import type { ReportHit, RegistryRecord } from '../../reports/model';

/** What every agent is asked about: one subject, whichever workflow (screening, person or subject check) asks. */
export interface AgentSubject {
  /** Stream of the workflow that asked (screening-42, person-check-…, subject-check-7). */
  workflow: string;
  /** The account the workflow belongs to: the sanctions agent screens that account's own lists (issue 21). */
  accountId?: string;
  /**
   * The account's internal-list versions to screen against (`watchlist-<id>@v<n>`): given when the
   * run must reproduce an earlier one (audit reproduce); absent, the account's current active lists.
   */
  internalListVersions?: string[];
  /** Postal address, when the caller gave one (internal lists weigh address agreement). */
  address?: { line?: string; city?: string; region?: string; postalCode?: string; country?: string };
  name: string;
  entityType: 'individual' | 'company' | 'organization';
  /**
   * True when the caller gave no entity type and `entityType` is the surface's default: the list
   * agents then search every kind of entity and infer the expected one from the name.
   */
  entityTypeDefaulted?: boolean;
  /** Country or jurisdiction as submitted (name or code). */
  jurisdiction?: string;
  /** YYYY, YYYY-MM or YYYY-MM-DD. */
  birthDate?: string;
  /** ISO alpha-2 nationality, when the caller gave it (a stronger country signal than the jurisdiction). */
  nationality?: string;
  /** Passport, national id, registration number…: an agreeing one confirms, a conflicting one separates a namesake. */
  identifiers?: { type: string; value: string }[];
  /** Phone number as given (E.164 or national): compared with listed phone numbers; internal lists weigh it. */
  phone?: string;
  /** E-mail address as given: compared with listed e-mail addresses; internal lists weigh it. */
  email?: string;
  /** Other names to search too (aliases, nickname variants). */
  aliases?: string[];
  /** States or countries of residence (person checks). */
  locations?: string[];
}

/**
 * An agent's outcome. `queried: false` means the source was not searched (not configured,
 * failed, timed out) and says why; it never fails the workflow and is never read as "clean".
 */
export type AgentOutcome =
  | { queried: true; hits: ReportHit[]; registry?: RegistryRecord[]; data?: Record<string, unknown>; error?: undefined }
  | { queried: false; error: string; hits: []; registry?: undefined; data?: undefined };

export interface AgentContext {
  signal: AbortSignal;
}

export interface Agent {
  /** Stable name, used in topics (`svc.agents.tasks.<name>`), events and reports. */
  readonly name: string;
  /** Human label for reports ("OFAC, UN and US sanctions lists"). */
  readonly label: string;
  /**
   * False when this deployment cannot query the source (no adapter or no credentials): the process
   * manager then records the "not configured" outcome itself instead of a round trip to a worker.
   */
  configured?(): boolean;
  /**
   * What an operator sets to enable the source (e.g. "OPENCORPORATES_API_TOKEN"); absent when this
   * release has no adapter for it. Shown once on the portal's sources page, not on every report.
   */
  readonly enableWith?: string;
  run(subject: AgentSubject, context: AgentContext): Promise<AgentOutcome>;
}

export interface TimedOutcome {
  outcome: AgentOutcome;
  startedAt: string;
  finishedAt: string;
  durationMs: number;
}

/**
 * Runs an agent with its timeout. A throw or a timeout becomes `{queried: false, error}`:
 * one failing source never fails the screening (spec part 1), and nothing is invented.
 */
export async function runAgent(
  agent: Agent,
  subject: AgentSubject,
  options: { timeoutMs: number; now: () => Date },
): Promise<TimedOutcome> {
  const started = options.now();
  const startedMs = performance.now();
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<AgentOutcome>((resolve) => {
    timer = setTimeout(() => {
      controller.abort();
      resolve({ queried: false, error: `timed out after ${options.timeoutMs} ms`, hits: [] });
    }, options.timeoutMs);
  });
  let outcome: AgentOutcome;
  try {
    // The signal is made only if the agent reads it (Node builds a controller's AbortSignal on first
    // read, ~0.2 ms of service CPU per screening in the bench profile): the list agents and the
    // sources this deployment cannot query never read it.
    const context: AgentContext = {
      get signal() {
        return controller.signal;
      },
    };
    outcome = await Promise.race([agent.run(subject, context), timeout]);
  } catch (error) {
    outcome = { queried: false, error: error instanceof Error ? error.message : String(error), hits: [] };
  } finally {
    clearTimeout(timer);
  }
  const durationMs = Math.round((performance.now() - startedMs) * 1000) / 1000;
  return { outcome, startedAt: started.toISOString(), finishedAt: options.now().toISOString(), durationMs };
}

/**
 * Whether a workflow sends this agent's tasks to the workers (over its task topic) or records the
 * agent's "not configured" outcome itself, without a round trip. The screening's runner and the
 * agent workers ask it of the same catalog once, at start (agentsTakingTasks in ../catalog.ts).
 */
export function runsOnWorkers(agent: Agent): boolean {
  return agent.configured?.() !== false;
}

/** An agent for a source that needs configuration this deployment does not have. */
export function notConfiguredAgent(name: string, label: string, howToConfigure: string): Agent {
  return {
    name,
    label,
    configured: () => false,
    async run() {
      return { queried: false, error: `not configured: ${howToConfigure}`, hits: [] };
    },
  };
}
