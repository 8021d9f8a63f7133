import type { Actor } from '../../../src/shared/events';
import type { CommandMetadata } from '../../../src/commands/decider';

export const NOW = '2026-03-01T10:00:00.000Z';
export const ownerActor: Actor = { surface: 'portal', accountId: '42', userId: 'u-owner' };

let counter = 0;
/** Command metadata with a fresh command id; `now` defaults to NOW. */
export function meta(overrides: Partial<CommandMetadata> = {}): CommandMetadata {
  counter += 1;
  return { now: NOW, actor: ownerActor, commandId: `cmd-${counter}`, correlationId: 'corr-1', ...overrides };
}
