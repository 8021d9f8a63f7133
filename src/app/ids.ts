import type pg from 'pg';

export type SequenceName = 'account_id_seq' | 'user_id_seq' | 'api_key_id_seq' | 'screening_id_seq' | 'subject_check_id_seq';

/** Allocates the next numeric id of a resource (the handler does the I/O; deciders get the id). */
export async function nextId(pool: pg.Pool, sequence: SequenceName): Promise<string> {
  const { rows } = await pool.query<{ id: string }>(`SELECT nextval($1::regclass)::text AS id`, [sequence]);
  return rows[0]!.id;
}
