/**
 * A batch whose event ids partly exist already (or exist in another stream). A retry of a
 * committed batch carries exactly the same ids into the same stream and is a no-op; anything else
 * means ids were reused for different facts, so nothing is written and the caller is told.
 */
export class DuplicateEventIdsError extends Error {
  override readonly name = 'DuplicateEventIdsError';
  constructor(
    readonly streamName: string,
    readonly existingEventIds: string[],
    reason: string,
  ) {
    super(`Stream ${streamName}: ${reason} (${existingEventIds.slice(0, 5).join(', ')}${existingEventIds.length > 5 ? ', …' : ''})`);
  }
}

/** An event without metadata.eventId (PostgreSQL: or without data), or the same id twice in one batch. */
export class InvalidEventBatchError extends Error {
  override readonly name = 'InvalidEventBatchError';
}
