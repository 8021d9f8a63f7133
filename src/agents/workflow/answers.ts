/** What arrives from the workers on svc.agents.results, as the workflow runner records it. */
import type { AgentResult } from '../../infrastructure/bus/avro';
import type { AgentAnswer } from './definition';

/** An answer on svc.agents.results that cannot be decoded or whose result is not a JSON object. */
export class UndecodableAnswer extends Error {
  override readonly name = 'UndecodableAnswer';
  constructor(override readonly cause: unknown) {
    super(`undecodable agent answer: ${cause instanceof Error ? cause.message : String(cause)}`);
  }
}

/** The parsed `result` of an AgentResult: a JSON object, else a SyntaxError. */
export function answerOf(r: AgentResult): AgentAnswer {
  const parsed = JSON.parse(r.result) as unknown;
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new SyntaxError('agent result is not a JSON object');
  return {
    phase: r.phase,
    agent: r.agent,
    queried: r.queried,
    ...(r.error !== null ? { error: r.error } : {}),
    result: parsed as Record<string, unknown>,
    startedAt: r.startedAt,
    finishedAt: r.finishedAt,
  };
}
