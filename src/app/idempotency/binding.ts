/**
 * What binds an Idempotency-Key to the resource its request creates (docs/idempotency-and-strict-input.md).
 *
 * Two layers, so that no crash point and no event store lets one key create two resources:
 *
 * 1. The ids a create draws are bound to the key's record (PostgreSQL, `idempotency_keys.bound`)
 *    *before* the command appends. A retry that takes over a crashed request's lease draws the same
 *    ids and finds its resource already created.
 * 2. Inside the append itself: the create's command id, and so its events' ids (`<commandId>:<n>`),
 *    derive from the key (its scope and key, the record's binding id and the name of what is
 *    created), and every event of the create records the key's digest and the request's fingerprint
 *    (`metadata.idempotency`). Key, fingerprint and resource are written by the one append that
 *    creates the resource, in its transaction. The store's unique event ids then refuse a second
 *    create under the key: the PostgreSQL store everywhere (a unique index over every event id), the
 *    EventStoreDB adapter within the stream (which it deduplicates by id; see the adapters' README).
 *    And the command handler does not decide a command again whose events its stream already holds
 *    (handleCommand), so a retry answers what the first attempt recorded.
 */
import { createHash } from 'node:crypto';
import type { EventIdempotency } from '../../shared/events';

export interface IdempotencyBinding {
  /** Fixed for the key's 24 h (a retry that takes a crashed request over sees the same one). */
  readonly bindingId: string;
  /** SHA-256 (hex) of the key's scope and the key (what events record: never the key itself). */
  readonly keyDigest: string;
  /** The request's fingerprint, as the key's record holds it. */
  readonly requestHash: string;
  /**
   * The values bound to these names by the first attempt of this request; the missing ones are drawn
   * with `draw` and bound first (a concurrent attempt's binding wins, so both use the same values).
   */
  bind(names: readonly string[], draw: (count: number) => Promise<string[]>): Promise<string[]>;
}

/** One id for `name`: the key's bound one when the request carries a key, else simply drawn. */
export async function boundId(binding: IdempotencyBinding | undefined, name: string, draw: () => Promise<string>): Promise<string> {
  if (!binding) return draw();
  const [id] = await binding.bind([name], async (count) => {
    const ids: string[] = [];
    for (let i = 0; i < count; i++) ids.push(await draw());
    return ids;
  });
  return id!;
}

/** What a create's command metadata carries besides time, actor and correlation. */
export interface CreateCommandMeta {
  commandId: string;
  idempotency?: EventIdempotency;
}

/** The id of what a create makes, and the command metadata that records it under the key. */
export interface BoundCreate {
  id: string;
  meta: CreateCommandMeta;
}

/**
 * The command id of the create named `name` under this key: the same for every attempt of the
 * request during the key's 24 h, another after (a new binding id), another for each thing created.
 */
export function keyedCommandId(binding: IdempotencyBinding, name: string): string {
  return `idem-${createHash('sha256').update(`${binding.keyDigest}\n${binding.bindingId}\n${name}`).digest('hex').slice(0, 40)}`;
}

/** What the events of a create record of the key: its digest and the request's fingerprint. */
export function eventIdempotency(binding: IdempotencyBinding): EventIdempotency {
  return { key: binding.keyDigest, request: binding.requestHash };
}

/** The command metadata of the create `name`: keyed to the Idempotency-Key when there is one, else the request's own command id. */
export function createMeta(ctx: { commandId: string; idempotency?: IdempotencyBinding }, name: string): CreateCommandMeta {
  const binding = ctx.idempotency;
  if (!binding) return { commandId: ctx.commandId };
  return { commandId: keyedCommandId(binding, name), idempotency: eventIdempotency(binding) };
}

/**
 * A create's id and command metadata: with an Idempotency-Key the id is bound to the key (drawn once,
 * before anything is appended; binding it also keeps the key's record past a failure, since the
 * command may have appended) and the command id derives from it; without one the id is drawn.
 */
export async function bindCreate(ctx: { commandId: string; idempotency?: IdempotencyBinding }, name: string, draw: () => Promise<string>): Promise<BoundCreate> {
  return { id: await boundId(ctx.idempotency, name, draw), meta: createMeta(ctx, name) };
}
