/**
 * The documents a person check was asked with, whole, held in this process only (issue 30).
 *
 * A person check's stream keeps an identifier's last four characters and nothing more (FCRA: a full
 * national id never enters the store), but the account's internal lists compare whole numbers. The
 * service that records the request hands the whole values to this holder, the phase-3 list agent of
 * the same process reads them, and the check's last phase drops them. Nothing here is logged,
 * recorded or sent on the bus. A check resumed after a restart, or run by another instance, finds
 * nothing held: its internal-list search runs without the documents and says so in the source's notes.
 */

/** A document as the internal-list policy compares it (kind passport, national_id, tax_id, drivers_license…). */
export interface HeldDocument {
  type: string;
  value: string;
  country?: string;
}

export class HeldDocuments {
  private readonly held = new Map<string, readonly HeldDocument[]>();

  /** At most `capacity` checks' documents (a check whose last phase never ran is dropped oldest first). */
  constructor(private readonly capacity = 10_000) {}

  /** None is held too (a request whose identifiers are no whole documents, `ssn_last4`): the list agent then knows nothing is missing. */
  hold(personCheckId: string, documents: readonly HeldDocument[]): void {
    this.held.delete(personCheckId);
    this.held.set(personCheckId, documents.map((d) => ({ ...d })));
    while (this.held.size > this.capacity) this.held.delete(this.held.keys().next().value!);
  }

  of(personCheckId: string): readonly HeldDocument[] | undefined {
    return this.held.get(personCheckId);
  }

  release(personCheckId: string): void {
    this.held.delete(personCheckId);
  }

  get size(): number {
    return this.held.size;
  }
}
