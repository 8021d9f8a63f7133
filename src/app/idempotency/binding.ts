/**
 * What binds an Idempotency-Key to the resource its request creates (docs/idempotency-and-strict-input.md).
 *
 * The key's record (PostgreSQL) and the command's events (the event store, PostgreSQL or EventStoreDB)
 * are not one transaction. So the order is: the ids a create draws are bound to the key *before* the
 * command appends; the command then creates its stream under that id with expected revision "no stream".
 * A process that dies after the append and before the answer is recorded leaves the binding behind; the
 * retry that takes the key over after the lease draws the same ids, finds the resource already in the
 * event store and answers it: one resource, one billing event, one webhook, whatever the crash point.
 */
export interface IdempotencyBinding {
  /** Fixed for the key's 24 h (a retry that takes a crashed request over sees the same one). */
  readonly bindingId: string;
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
