/**
 * The list agents' matching on a worker thread of its own.
 *
 * Name matching is the largest piece of pure computation a screening does (about a sixth of the
 * service's main thread at 16 clients), and the main thread, which also serves HTTP, runs the
 * pipeline and talks to PostgreSQL, is what saturates first. The thread holds its own engine over the
 * same list entities (built there, in parallel with the main thread's) and runs the four list agents
 * (sanctions, PEP, offshore leaks, debarment) exactly as the main thread would.
 *
 * List updates: replace() hands the thread the new entities at the moment the main engine is swapped;
 * requests sent after it are answered with the new lists (the worker takes messages in order).
 * A thread that dies is not restarted: matching falls back to the main thread's engine (fallback
 * agents), and the failure is logged, so screenings go on either way.
 */
import { Worker } from 'node:worker_threads';
import type { ListEntity, ListVersion } from '../../screening/model';
import type { Logger } from '../../shared/logger';
import type { Agent, AgentOutcome, AgentSubject } from '../runtime/agent';
import { listAgentSpecs } from './list-agents';

export type ToMatchingThread =
  | { type: 'run'; id: number; agent: string; subject: AgentSubject }
  | { type: 'replace'; id: number; entities: ListEntity[]; versions: ListVersion[] };

export type FromMatchingThread =
  | { type: 'ready' }
  | { type: 'done'; id: number; outcome: AgentOutcome }
  | { type: 'replaced'; id: number }
  | { type: 'failed'; id: number; error: string };

export interface MatchingThreadData {
  entities: ListEntity[];
  versions: ListVersion[];
  recentQueries: number;
}

interface Pending {
  resolve(outcome: AgentOutcome | undefined): void;
  reject(error: Error): void;
}

export class ListMatchingThread {
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private alive = true;

  private constructor(
    private readonly worker: Worker,
    private readonly logger: Logger,
  ) {
    worker.on('message', (message: FromMatchingThread) => this.onMessage(message));
    worker.on('error', (error) => this.die(error));
    worker.on('exit', (code) => this.die(new Error(`list matching thread exited (code ${code})`)));
  }

  /**
   * Starts the thread and resolves once its engine is built. Call it before building the main
   * thread's engine, so that the two index builds overlap.
   */
  static async start(data: MatchingThreadData, logger: Logger): Promise<ListMatchingThread> {
    // A .mjs entry registers the TypeScript loader inside the thread (loader hooks are per thread).
    const worker = new Worker(new URL('./matching-thread-entry.mjs', import.meta.url), { workerData: data, name: 'list-matching' });
    const ready = new Promise<void>((resolve, reject) => {
      const onMessage = (message: FromMatchingThread) => {
        if (message.type !== 'ready') return;
        worker.off('message', onMessage);
        worker.off('error', reject);
        resolve();
      };
      worker.on('message', onMessage);
      worker.once('error', reject);
      worker.once('exit', (code) => reject(new Error(`list matching thread exited during start (code ${code})`)));
    });
    const thread = new ListMatchingThread(worker, logger);
    await ready;
    return thread;
  }

  get running(): boolean {
    return this.alive;
  }

  /** The agent's outcome from the thread (rejects if the thread is gone). */
  async run(agent: string, subject: AgentSubject): Promise<AgentOutcome> {
    const outcome = await this.request({ type: 'run', id: this.nextId++, agent, subject });
    return outcome!;
  }

  /** New lists: resolves once the thread's engine is rebuilt over them. */
  async replace(entities: ListEntity[], versions: ListVersion[]): Promise<void> {
    if (!this.alive) return;
    await this.request({ type: 'replace', id: this.nextId++, entities, versions });
  }

  async stop(): Promise<void> {
    if (!this.alive) return;
    this.alive = false;
    this.rejectAll(new Error('list matching thread stopped'));
    await this.worker.terminate();
  }

  private request(message: ToMatchingThread): Promise<AgentOutcome | undefined> {
    if (!this.alive) return Promise.reject(new Error('list matching thread is not running'));
    return new Promise((resolve, reject) => {
      this.pending.set(message.id, { resolve, reject });
      this.worker.postMessage(message);
    });
  }

  private onMessage(message: FromMatchingThread): void {
    if (message.type === 'ready') return;
    const pending = this.pending.get(message.id);
    if (!pending) return;
    this.pending.delete(message.id);
    if (message.type === 'done') pending.resolve(message.outcome);
    else if (message.type === 'replaced') pending.resolve(undefined);
    else pending.reject(new Error(message.error));
  }

  private die(error: Error): void {
    if (!this.alive) return;
    this.alive = false;
    this.logger.error({ err: { message: error.message } }, 'list matching thread failed: matching continues on the main thread');
    this.rejectAll(error);
  }

  private rejectAll(error: Error): void {
    for (const pending of this.pending.values()) pending.reject(error);
    this.pending.clear();
  }
}

/**
 * The list agents answered by the thread; while it runs, and the fallback agents (same names, the
 * main thread's engine) once it is gone or when a request is lost with it.
 */
export function threadedListAgents(thread: ListMatchingThread, fallback: Agent[]): Agent[] {
  const byName = new Map(fallback.map((agent) => [agent.name, agent]));
  return listAgentSpecs.map((spec) => {
    const local = byName.get(spec.name);
    if (!local) throw new Error(`no fallback list agent ${spec.name}`);
    return {
      name: spec.name,
      label: spec.label,
      async run(subject: AgentSubject, context) {
        if (!thread.running) return local.run(subject, context);
        try {
          return await thread.run(spec.name, subject);
        } catch (error) {
          if (thread.running) throw error; // the agent itself failed there: the same as failing here
          return local.run(subject, context);
        }
      },
    };
  });
}
