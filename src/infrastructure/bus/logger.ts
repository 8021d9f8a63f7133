/** The slice of a pino logger the bus adapters use (a pino Logger satisfies it). */
export interface BusLogger {
  error(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  info(obj: object, msg?: string): void;
  debug(obj: object, msg?: string): void;
}

/** Backoff before redelivering a message whose handler threw. */
export interface RedeliveryBackoff {
  /** Delay before the first redelivery (ms). */
  initialMs: number;
  /** Cap for the doubling delay (ms). */
  maxMs: number;
}

export const defaultRedeliveryBackoff: RedeliveryBackoff = { initialMs: 100, maxMs: 5_000 };

/** The delay before redelivery `attempt` (doubling from initialMs, capped): the shared retry schedule. */
export { backoffDelay } from '../../shared/backoff';

export function describeError(error: unknown): { message: string; stack?: string; name?: string } {
  if (error instanceof Error) return { name: error.name, message: error.message, stack: error.stack };
  return { message: String(error) };
}
