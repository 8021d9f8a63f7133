/**
 * Deep freezing of what the event stores hand out (FREEZE_EVENTS, on outside production).
 *
 * A recorded event is a fact: every reader (read models, deciders, the report builder, the audit
 * trail) gets the same objects from the PostgreSQL store's tail, so a reader that writes into one
 * changes what the next reader sees, and a replay or an audit can then disagree with the record.
 * Frozen, such a write throws a TypeError at the line that does it (ESM is strict mode), in every
 * test, instead of surfacing later as a report that differs when built twice.
 */

/** Freezes `value` and everything reachable from it (plain JSON: objects and arrays); returns it. */
export function deepFreeze<T>(value: T): T {
  // Iterative, so a deeply nested payload cannot overflow the stack; a frozen object was frozen
  // whole before (only this function freezes them here), so it is not walked again.
  if (value === null || typeof value !== 'object' || Object.isFrozen(value)) return value;
  const pending: object[] = [value as object];
  while (pending.length > 0) {
    const current = pending.pop()!;
    // A typed array or Buffer with elements cannot be frozen (and JSON never makes one).
    if (ArrayBuffer.isView(current)) continue;
    Object.freeze(current);
    for (const key of Object.keys(current)) {
      const child = (current as Record<string, unknown>)[key];
      if (child !== null && typeof child === 'object' && !Object.isFrozen(child)) pending.push(child);
    }
  }
  return value;
}

/** `deepFreeze` when `enabled`, else the value as it is (the event stores' FREEZE_EVENTS switch). */
export function freezeIf<T>(enabled: boolean, value: T): T {
  return enabled ? deepFreeze(value) : value;
}
