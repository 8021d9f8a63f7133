/**
 * Inside the list matching thread: its own engine over the entities it was given, and the list
 * agents over it, answering the main thread's requests in the order they come (matching-thread.ts).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { ScreeningEngine } from '../../screening/engine';
import type { FromMatchingThread, MatchingThreadData, ToMatchingThread } from './matching-thread';
import { createListAgents } from './list-agents';

const port = parentPort;
if (!port) throw new Error('matching-thread-worker runs only as a worker thread');

const data = workerData as MatchingThreadData;
let engine = ScreeningEngine.build(data.entities, data.versions, { recentQueries: data.recentQueries });
const agents = new Map(createListAgents(() => engine).map((agent) => [agent.name, agent]));
// Nothing aborts inside the thread: the caller's timeout gives up waiting instead.
const context = { signal: new AbortController().signal };

const reply = (message: FromMatchingThread) => port.postMessage(message);

port.on('message', (message: ToMatchingThread) => {
  switch (message.type) {
    case 'run': {
      const agent = agents.get(message.agent);
      if (!agent) {
        reply({ type: 'failed', id: message.id, error: `no list agent ${message.agent}` });
        return;
      }
      agent.run(message.subject, context).then(
        (outcome) => reply({ type: 'done', id: message.id, outcome }),
        (error: unknown) => reply({ type: 'failed', id: message.id, error: error instanceof Error ? error.message : String(error) }),
      );
      return;
    }
    case 'replace':
      engine = ScreeningEngine.build(message.entities, message.versions, { recentQueries: data.recentQueries });
      reply({ type: 'replaced', id: message.id });
      return;
    default: {
      const unexpected: never = message;
      throw new Error(`unexpected message ${JSON.stringify(unexpected)}`);
    }
  }
});
reply({ type: 'ready' });
