/**
 * Shared by the S2 tests: HTTP helpers, counting what was written (events, limiter rows), and
 * scripted agent workers. The service runs only some real agent workers (e.g. sanctions on the real
 * or fixture lists); the test answers the other agents' tasks from the bus itself, the way a worker
 * would, so every lifecycle outcome (coverage too low, an ambiguous hit, a PEP hit, a corrupt result,
 * a check that stays running) can be produced on demand through the real pipeline.
 *
 * Scripts are chosen by the subject's last name:
 *   default      pep and adverse_media "not configured", offshore_leaks and debarment searched, no hit
 *   Sparse       every scripted source fails (queried: false): coverage 1/5 → needs_review
 *   Ambiguous    offshore_leaks has a potential hit (0.85) → needs_review ambiguous_match
 *   Political    pep has a confirmed hit (0.97) → escalated (pep)
 *   Broken       pep answers with a result that is not JSON → failed
 *   Pending      no scripted source answers: the check stays running
 */
import { AGENT_RESULT, AGENT_TASK, AvroRegistry, type AgentResult, type AgentTask } from '../../../../src/infrastructure/bus/avro';
import type { BusConsumer, MessageBus } from '../../../../src/infrastructure/bus/port';
import { AGENT_RESULTS_TOPIC, agentTaskTopic } from '../../../../src/infrastructure/bus/topics';
import type { AgentSubject } from '../../../../src/agents/runtime/agent';
import type { TestService } from '../../../support/service';

export const SCRIPTED_AGENTS = ['pep', 'adverse_media', 'offshore_leaks', 'debarment'] as const;

export interface Http {
  status: number;
  body: any;
  headers: Headers;
  text: string;
}

export async function call(base: string, method: string, path: string, options: { bearer?: string; body?: unknown; raw?: string; headers?: Record<string, string> } = {}): Promise<Http> {
  const headers: Record<string, string> = { ...(options.headers ?? {}) };
  if (options.bearer !== undefined) headers.authorization = `Bearer ${options.bearer}`;
  let body: string | undefined;
  if (options.raw !== undefined) {
    body = options.raw;
    headers['content-type'] ??= 'application/json';
  } else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const res = await fetch(`${base}${path}`, { method, headers, ...(body !== undefined ? { body } : {}) });
  const text = await res.text();
  let parsed: any;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: res.status, body: parsed, headers: res.headers, text };
}

export function subject(lastName: string, extra: Record<string, unknown> = {}) {
  return { first_name: 'Margaret', last_name: lastName, locations: [{ country: 'GB', city: 'Leeds' }], purpose: 'employment', consent: { certified: true }, ...extra };
}

/**
 * Everything an S2 request could have written: events appended on behalf of a caller (the pipeline's
 * own events, actor `system`, keep arriving asynchronously for checks started earlier and are left
 * out) and the rate-limit counters.
 */
export async function writes(svc: TestService): Promise<{ events: number; counters: string }> {
  const events = (await svc.service.store.readAll()).filter((e) => e.metadata.actor?.surface !== 'system').length;
  const { rows } = await svc.db.pool.query<{ bucket: string; count: number }>('SELECT bucket, count FROM limit_counters ORDER BY bucket, window_start');
  return { events, counters: JSON.stringify(rows) };
}

export async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Polls GET until the check leaves `running` (or reaches `status`). */
export async function settled(base: string, bearer: string, id: number, status?: string): Promise<any> {
  return waitFor(`subject check ${id} to settle`, async () => {
    const res = await call(base, 'GET', `/api/v1/compliance/subject-checks/${id}`, { bearer });
    const check = res.body?.subject_check;
    if (!check) return undefined;
    if (status ? check.status === status : check.status !== 'running') return check;
    return undefined;
  });
}

const notConfigured = (agent: string) => ({ queried: false, error: `not configured: scripted ${agent}`, result: {} });
const searched = (hits: unknown[] = []) => ({ queried: true, error: null, result: { hits } });

function hit(category: string, source: string, score: number, name: string) {
  return {
    hitId: `${category}:${source}:1`,
    category,
    source,
    entityId: `${source}:1`,
    entityName: name,
    matchedName: name,
    score,
    status: score >= 0.95 ? 'confirmed' : 'potential',
    explanation: { summary: 'scripted', qualifiers: [] },
    programs: [],
  };
}

type Answer = { queried: boolean; error: string | null; result: object | string } | 'silent';

function script(agent: string, s: AgentSubject): Answer {
  const last = s.name.split(' ').at(-1) ?? '';
  if (last === 'Pending') return 'silent';
  if (last === 'Sparse') return notConfigured(agent);
  if (last === 'Broken' && agent === 'pep') return { queried: true, error: null, result: '{not json' };
  if (last === 'Ambiguous' && agent === 'offshore_leaks') return searched([hit('offshore_leaks', 'icij_offshore', 0.85, s.name)]);
  if (last === 'Political' && agent === 'pep') return searched([hit('pep', 'opensanctions_peps', 0.97, s.name)]);
  if (agent === 'pep' || agent === 'adverse_media') return notConfigured(agent);
  return searched();
}

/** Answers the scripted agents' tasks until stopped. */
export async function startScriptedAgents(bus: MessageBus): Promise<{ stop(): Promise<void>; tasks: AgentTask[] }> {
  const registry = AvroRegistry.load();
  const tasks: AgentTask[] = [];
  const consumers: BusConsumer[] = [];
  for (const agent of SCRIPTED_AGENTS) {
    consumers.push(
      await bus.subscribe({ groupId: `svc-agent-${agent}`, topics: [agentTaskTopic(agent)], fromBeginning: true }, async (message) => {
        const task = registry.decode<AgentTask>(AGENT_TASK, message);
        tasks.push(task);
        const answer = script(agent, JSON.parse(task.input) as AgentSubject);
        if (answer === 'silent') return;
        const now = new Date().toISOString();
        const result: AgentResult = {
          taskId: task.taskId,
          agent: task.agent,
          phase: task.phase,
          queried: answer.queried,
          error: answer.error,
          result: typeof answer.result === 'string' ? answer.result : JSON.stringify(answer.result),
          startedAt: now,
          finishedAt: now,
        };
        await bus.publish(AGENT_RESULTS_TOPIC, [registry.message(AGENT_RESULT, task.screeningId, result)]);
      }),
    );
  }
  return {
    tasks,
    async stop() {
      await Promise.all(consumers.map((c) => c.stop()));
    },
  };
}
