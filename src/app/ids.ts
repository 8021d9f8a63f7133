import type pg from 'pg';

export type SequenceName = 'account_id_seq' | 'user_id_seq' | 'api_key_id_seq' | 'screening_id_seq' | 'subject_check_id_seq';

/** Allocates the next numeric id of a resource (the handler does the I/O; deciders get the id). */
export async function nextId(pool: pg.Pool, sequence: SequenceName): Promise<string> {
  const { rows } = await pool.query<{ id: string }>(`SELECT nextval($1::regclass)::text AS id`, [sequence]);
  return rows[0]!.id;
}

/**
 * Ids for the hot paths (a screening or a subject check per request), drawn from the sequence a
 * block at a time so most requests need no round trip for their id.
 *
 * Like the sequence itself (nextval is never rolled back), ids are unique but not gap-free: the
 * rest of a block is skipped when the process stops, and processes drawing blocks concurrently
 * hand out interleaved ranges, so an id's order is not exactly its request's order across processes.
 */
export class IdBlocks {
  private readonly blocks = new Map<SequenceName, { ids: string[]; refill?: Promise<void> }>();

  constructor(
    private readonly pool: pg.Pool,
    private readonly blockSize = 32,
  ) {}

  async next(sequence: SequenceName): Promise<string> {
    let block = this.blocks.get(sequence);
    if (!block) {
      block = { ids: [] };
      this.blocks.set(sequence, block);
    }
    for (;;) {
      const id = block.ids.shift();
      if (id !== undefined) return id;
      // Concurrent callers share one refill.
      block.refill ??= this.refill(sequence, block).finally(() => {
        block.refill = undefined;
      });
      await block.refill;
    }
  }

  private async refill(sequence: SequenceName, block: { ids: string[] }): Promise<void> {
    const { rows } = await this.pool.query<{ id: string }>(
      'SELECT nextval($1::regclass)::text AS id FROM generate_series(1, $2::int)',
      [sequence, this.blockSize],
    );
    block.ids.push(...rows.map((r) => r.id).sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : BigInt(a) > BigInt(b) ? 1 : 0)));
  }
}
