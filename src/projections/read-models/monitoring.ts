import type pg from 'pg';
import type { ScreeningEvent, ScreeningSubject } from '../../commands/screening';
import { monitoredSubjectOfStart, type MonitoredSubjectOfCheck, type SubjectCheckEvent } from '../../commands/subject-check';
import type { RecordedEvent } from '../../shared/events';
import { columnsOf, firstPerKey, piecesOf } from '../batching';
import { quoteIdent, type Projection } from '../projection';

/**
 * What ongoing monitoring reads after a list update:
 * - `subjects`: every screening ever enrolled, with the subject's name (the reverse index is built
 *   from the enrolled rows);
 * - `hits`: the live hits of completed screenings by entity id, so removals and changes of a listed
 *   entity find the screenings that report it with one indexed lookup.
 * - `subject_check_subjects` and `subject_check_hits`: the same for S2 subject checks (their own id
 *   space, hence their own tables): the enrolled subjects and their hits on listed entities, one per
 *   entity (SubjectCheckMonitoringEnrolled carries the baseline, alerts keep it current).
 * Rows carry the stream position that last wrote them; an older event never overwrites a newer one.
 */
export const monitoringProjection: Projection = {
  name: 'monitoring',
  // 3: hits keep every list their entity is on (the work queue lists and filters by any of them).
  // 4: subjects keep the identity facts they were screened with (issue 27: a re-screen assesses new hits on them).
  // 5: so do subject checks' subjects (SubjectCheckMonitoringEnrolled version 2 carries them; for an enrolment
  //    recorded before, the facts its SubjectCheckStarted recorded).
  version: 5,
  handles: [
    'ScreeningCompleted',
    'MonitoringEnrolled',
    'MonitoringUnenrolled',
    'HitDispositioned',
    'HitReopened',
    'MonitoringAlertRaised',
    'SubjectCheckStarted',
    'SubjectCheckMonitoringEnrolled',
    'SubjectCheckMonitoringUnenrolled',
    'SubjectCheckMonitoringAlertRaised',
  ],
  async setup(client, schema) {
    const s = quoteIdent(schema);
    await client.query(`
      CREATE TABLE IF NOT EXISTS ${s}.subjects (
        screening_id bigint PRIMARY KEY,
        account_id bigint NOT NULL,
        query text NOT NULL,
        entity_type text NOT NULL,
        jurisdiction text,
        -- The screening's identity facts (date of birth, nationality, identifiers, address, phone,
        -- e-mail, whether the type was defaulted) as JSON; null when it was screened by name only.
        facts jsonb,
        enrolled boolean NOT NULL,
        enrolled_at timestamptz NOT NULL,
        unenrolled_at timestamptz,
        stream_position bigint NOT NULL
      );
      CREATE INDEX IF NOT EXISTS subjects_enrolled ON ${s}.subjects (screening_id) WHERE enrolled;
      CREATE TABLE IF NOT EXISTS ${s}.hits (
        screening_id bigint NOT NULL,
        hit_id text NOT NULL,
        entity_id text NOT NULL,
        category text NOT NULL,
        status text NOT NULL,
        entity_record_hash text NOT NULL,
        stream_position bigint NOT NULL,
        -- Every list the entity is on, filing list first (ScreeningCompleted hits.lists); null when
        -- the event did not record them: the entity id's list is then the only one known.
        lists text[],
        PRIMARY KEY (screening_id, hit_id)
      );
      CREATE INDEX IF NOT EXISTS hits_entity ON ${s}.hits (entity_id);
      CREATE TABLE IF NOT EXISTS ${s}.subject_check_subjects (
        subject_check_id bigint PRIMARY KEY,
        account_id bigint NOT NULL,
        name text NOT NULL,
        jurisdiction text,
        -- The check's identity facts (date of birth, nationality, identifiers, address, phone, e-mail)
        -- as JSON in the screenings' shape; null for an enrolment recorded before it carried them.
        facts jsonb,
        enrolled boolean NOT NULL,
        enrolled_at timestamptz NOT NULL,
        unenrolled_at timestamptz,
        stream_position bigint NOT NULL
      );
      CREATE INDEX IF NOT EXISTS subject_check_subjects_enrolled ON ${s}.subject_check_subjects (subject_check_id) WHERE enrolled;
      -- The facts each check was started with (only checks that have any): an enrolment recorded before it
      -- carried them (SubjectCheckMonitoringEnrolled version 1) takes them from here.
      CREATE TABLE IF NOT EXISTS ${s}.subject_check_started_facts (
        subject_check_id bigint PRIMARY KEY,
        facts jsonb NOT NULL
      );
      CREATE TABLE IF NOT EXISTS ${s}.subject_check_hits (
        subject_check_id bigint NOT NULL,
        entity_id text NOT NULL,
        hit_id text NOT NULL,
        tier text NOT NULL,
        status text NOT NULL,
        entity_record_hash text NOT NULL,
        stream_position bigint NOT NULL,
        PRIMARY KEY (subject_check_id, entity_id)
      );
      CREATE INDEX IF NOT EXISTS subject_check_hits_entity ON ${s}.subject_check_hits (entity_id);`);
  },
  async apply(client: pg.PoolClient, recorded: RecordedEvent, schema) {
    const s = quoteIdent(schema);
    const event = recorded as unknown as (ScreeningEvent | SubjectCheckEvent) & RecordedEvent;
    const position = recorded.streamPosition.toString();
    switch (event.type) {
      case 'ScreeningCompleted':
        await insertReportedHits(client, s, [recorded]);
        return;
      case 'MonitoringEnrolled': {
        const d = event.data;
        await client.query(
          `INSERT INTO ${s}.subjects (screening_id, account_id, query, entity_type, jurisdiction, facts, enrolled, enrolled_at, stream_position)
           VALUES ($1,$2,$3,$4,$5,$6::jsonb,true,$7,$8)
           ON CONFLICT (screening_id) DO UPDATE SET enrolled = true, enrolled_at = EXCLUDED.enrolled_at, unenrolled_at = NULL,
             facts = EXCLUDED.facts, stream_position = EXCLUDED.stream_position
           WHERE ${s}.subjects.stream_position < EXCLUDED.stream_position`,
          [d.screeningId, d.accountId, d.subject.query, d.subject.entityType, d.subject.jurisdiction ?? null, identityFactsJson(d.subject), d.enrolledAt, position],
        );
        return;
      }
      case 'MonitoringUnenrolled':
        await client.query(
          `UPDATE ${s}.subjects SET enrolled = false, unenrolled_at = $2, stream_position = $3 WHERE screening_id = $1 AND stream_position < $3`,
          [event.data.screeningId, event.data.unenrolledAt, position],
        );
        return;
      case 'HitDispositioned':
        await client.query(
          `UPDATE ${s}.hits SET status = $3, stream_position = $4 WHERE screening_id = $1 AND hit_id = $2 AND stream_position < $4`,
          [event.data.screeningId, event.data.hitId, event.data.disposition, position],
        );
        return;
      case 'HitReopened':
        await client.query(
          `UPDATE ${s}.hits SET status = 'open', stream_position = $3 WHERE screening_id = $1 AND hit_id = $2 AND stream_position < $3`,
          [event.data.screeningId, event.data.hitId, position],
        );
        return;
      case 'MonitoringAlertRaised': {
        const d = event.data;
        if (d.kind === 'removed_hit') {
          await client.query(
            `UPDATE ${s}.hits SET status = 'removed', stream_position = $3 WHERE screening_id = $1 AND hit_id = $2 AND stream_position < $3`,
            [d.screeningId, d.hitId, position],
          );
          return;
        }
        // A new hit, or a changed record of a reported one (its status is kept: re-opening is HitReopened's).
        await client.query(
          `INSERT INTO ${s}.hits (screening_id, hit_id, entity_id, category, status, entity_record_hash, stream_position)
           VALUES ($1,$2,$3,$4,'open',$5,$6)
           ON CONFLICT (screening_id, hit_id) DO UPDATE SET entity_record_hash = EXCLUDED.entity_record_hash,
             status = CASE WHEN ${s}.hits.status = 'removed' THEN 'open' ELSE ${s}.hits.status END,
             stream_position = EXCLUDED.stream_position
           WHERE ${s}.hits.stream_position < EXCLUDED.stream_position`,
          [d.screeningId, d.hitId, d.entityId, d.category, d.entityRecordHash ?? '', position],
        );
        return;
      }
      case 'SubjectCheckStarted': {
        const facts = checkFactsJson(monitoredSubjectOfStart(event.data));
        if (facts === null) return;
        await client.query(
          `INSERT INTO ${s}.subject_check_started_facts (subject_check_id, facts) VALUES ($1, $2::jsonb) ON CONFLICT (subject_check_id) DO NOTHING`,
          [event.data.subjectCheckId, facts],
        );
        return;
      }
      case 'SubjectCheckMonitoringEnrolled': {
        const d = event.data;
        const { rowCount } = await client.query(
          `INSERT INTO ${s}.subject_check_subjects (subject_check_id, account_id, name, jurisdiction, facts, enrolled, enrolled_at, stream_position)
           VALUES ($1,$2,$3,$4,COALESCE($5::jsonb, (SELECT facts FROM ${s}.subject_check_started_facts WHERE subject_check_id = $1)),true,$6,$7)
           ON CONFLICT (subject_check_id) DO UPDATE SET enrolled = true, enrolled_at = EXCLUDED.enrolled_at, unenrolled_at = NULL,
             name = EXCLUDED.name, jurisdiction = EXCLUDED.jurisdiction, facts = EXCLUDED.facts, stream_position = EXCLUDED.stream_position
           WHERE ${s}.subject_check_subjects.stream_position < EXCLUDED.stream_position`,
          [d.subjectCheckId, d.accountId, d.subject.name, d.subject.jurisdiction ?? null, checkFactsJson(d.subject), d.enrolledAt, position],
        );
        if (rowCount === 0) return; // an older enrolment than the row reflects
        // The enrolment's baseline replaces what an earlier enrolment left behind.
        await client.query(`DELETE FROM ${s}.subject_check_hits WHERE subject_check_id = $1 AND stream_position < $2`, [d.subjectCheckId, position]);
        for (const hit of d.hits) {
          await client.query(
            `INSERT INTO ${s}.subject_check_hits (subject_check_id, entity_id, hit_id, tier, status, entity_record_hash, stream_position)
             VALUES ($1,$2,$3,$4,'open',$5,$6) ON CONFLICT (subject_check_id, entity_id) DO NOTHING`,
            [d.subjectCheckId, hit.entityId, hit.hitId, hit.tier, hit.entityRecordHash, position],
          );
        }
        return;
      }
      case 'SubjectCheckMonitoringUnenrolled':
        await client.query(
          `UPDATE ${s}.subject_check_subjects SET enrolled = false, unenrolled_at = $2, stream_position = $3 WHERE subject_check_id = $1 AND stream_position < $3`,
          [event.data.subjectCheckId, event.data.unenrolledAt, position],
        );
        return;
      case 'SubjectCheckMonitoringAlertRaised': {
        const d = event.data;
        await client.query(
          `INSERT INTO ${s}.subject_check_hits (subject_check_id, entity_id, hit_id, tier, status, entity_record_hash, stream_position)
           VALUES ($1,$2,$3,$4,$5,$6,$7)
           ON CONFLICT (subject_check_id, entity_id) DO UPDATE SET hit_id = EXCLUDED.hit_id, tier = EXCLUDED.tier, status = EXCLUDED.status,
             entity_record_hash = CASE WHEN EXCLUDED.status = 'removed' THEN ${s}.subject_check_hits.entity_record_hash ELSE EXCLUDED.entity_record_hash END,
             stream_position = EXCLUDED.stream_position
           WHERE ${s}.subject_check_hits.stream_position < EXCLUDED.stream_position`,
          [d.subjectCheckId, d.entityId, d.hitId, d.tier, d.kind === 'removed_hit' ? 'removed' : 'open', d.entityRecordHash ?? '', position],
        );
        return;
      }
      default:
        return;
    }
  },
  /**
   * Each run of completions in the batch writes its hits in one insert; any other event goes
   * through apply(), in order (it may touch the same hits).
   */
  async applyBatch(client, events, schema) {
    const s = quoteIdent(schema);
    for (const piece of piecesOf(events, 'ScreeningCompleted', (event) => (event.data as { screeningId: string }).screeningId)) {
      if ('alone' in piece) await monitoringProjection.apply(client, piece.alone, schema);
      else await insertReportedHits(client, s, piece.together);
    }
  },
};

/**
 * The hits the given ScreeningCompleted events report, in one statement (a round trip each was most
 * of this read model's cost). A hit already there is left as it is; of a hit reported twice, the
 * first counts, as one insert per event would have it.
 */
async function insertReportedHits(client: pg.PoolClient, s: string, completions: readonly RecordedEvent[]): Promise<void> {
  const reported = completions.flatMap((recorded) => {
    const event = recorded as unknown as Extract<ScreeningEvent, { type: 'ScreeningCompleted' }> & RecordedEvent;
    const position = event.streamPosition.toString();
    // The lists go as JSON text: one array per hit, which a two-dimensional SQL array cannot hold (lengths differ).
    return event.data.hits.map((h) => [event.data.screeningId, h.hitId, h.entityId, h.category, h.entityRecordHash, position, h.lists ? JSON.stringify(h.lists) : null]);
  });
  const hits = firstPerKey(reported, ([screeningId, hitId]) => `${screeningId}/${hitId}`);
  if (hits.length === 0) return;
  await client.query(
    `INSERT INTO ${s}.hits (screening_id, hit_id, entity_id, category, status, entity_record_hash, stream_position, lists)
     SELECT h.screening_id, h.hit_id, h.entity_id, h.category, 'open', h.entity_record_hash, h.stream_position,
            CASE WHEN h.lists IS NULL THEN NULL ELSE ARRAY(SELECT json_array_elements_text(h.lists::json)) END
       FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::text[], $6::bigint[], $7::text[])
         AS h(screening_id, hit_id, entity_id, category, entity_record_hash, stream_position, lists)
     ON CONFLICT (screening_id, hit_id) DO NOTHING`,
    columnsOf(hits, 7),
  );
}

/** The subject's identity facts beyond its name, kind and jurisdiction, as the subjects row keeps them (null: none). */
export function identityFactsJson(subject: ScreeningSubject): string | null {
  const { query: _query, entityType: _type, jurisdiction: _jurisdiction, ...facts } = subject;
  return Object.keys(facts).length ? JSON.stringify(facts) : null;
}

/** A subject check's enrolled facts in the same shape (null: an enrolment without them, before version 2). */
function checkFactsJson(subject: MonitoredSubjectOfCheck): string | null {
  const { name, entityType, jurisdiction, ...facts } = subject;
  return identityFactsJson({ query: name, entityType, ...(jurisdiction ? { jurisdiction } : {}), ...(facts as Omit<ScreeningSubject, 'query' | 'entityType' | 'jurisdiction'>) });
}
