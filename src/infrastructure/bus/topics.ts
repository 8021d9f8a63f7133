/**
 * Topic names (documented in docs/topics.md, generated from schemas/topics.json).
 *
 * Events: one topic per stream category, `svc.events.<category>`; the category is the stream
 * name up to its first '-' ("screening-42" → "screening", "account-7f3a" → "account"); a name
 * without '-' is its own category. Characters Kafka does not allow in topic names become '_'.
 */
export const EVENTS_TOPIC_PREFIX = 'svc.events.';
export const AGENT_TASKS_TOPIC_PREFIX = 'svc.agents.tasks.';
export const AGENT_RESULTS_TOPIC = 'svc.agents.results';

const unsafe = /[^A-Za-z0-9._-]/g;

export function streamCategory(streamName: string): string {
  const dash = streamName.indexOf('-');
  const category = dash > 0 ? streamName.slice(0, dash) : streamName;
  return category.replace(unsafe, '_') || '_';
}

export function eventTopicForStream(streamName: string): string {
  return `${EVENTS_TOPIC_PREFIX}${streamCategory(streamName)}`;
}

export function agentTaskTopic(agent: string): string {
  if (!agent) throw new Error('agent name is empty');
  return `${AGENT_TASKS_TOPIC_PREFIX}${agent.replace(unsafe, '_')}`;
}
