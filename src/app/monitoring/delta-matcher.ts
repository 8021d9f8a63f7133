/**
 * Matches a list delta against the enrolled subjects, without re-screening everyone:
 *
 * 1. removed entities: every subject that has a live hit on the entity gets a `removed_hit` alert;
 * 2. changed entities: every subject with a live hit on it gets a `changed_hit` alert carrying the
 *    field-by-field diff and the new record hash (the decider drops it when nothing it cares about
 *    changed, and re-opens a cleared false positive);
 * 3. added and changed entities: their names are looked up in the reverse index of enrolled subjects
 *    (SubjectIndex); only those candidate subjects are screened again, with the same list agents a
 *    screening runs, against the new list set, and a hit on one of the delta's entities is a `new_hit`.
 *
 * Pure apart from the (synchronous) engine calls: the monitoring service turns each intent into a
 * RecordMonitoringAlert command, and bench/monitoring.ts times it against a full re-screen.
 */
import type { ReportHit } from '../../reports/model';
import type { ListDelta } from '../../screening/delta';
import type { ListEntity, ListTopic } from '../../screening/model';
import type { Agent, AgentSubject } from '../../agents/runtime/agent';
import { agentSubjectOfScreening } from '../../agents/runtime/screening-subject';
import { createListAgents, entityRecordHash, HIT_THRESHOLD, type NameScreener } from '../../agents/lists/list-agents';
import type { HitStatus, MonitoringAlertKind } from '../../commands/screening';
import type { MonitoredSubject, SubjectIndex } from './reverse-index';
import { compareNames, type RarityFn } from '../../screening/matching/compare';
import type { PreparedName } from '../../screening/matching/prepare';

/** A hit a monitored screening already reports (from the monitoring read model). */
export interface ReportedHit {
  screeningId: string;
  hitId: string;
  entityId: string;
  status: HitStatus;
  entityRecordHash: string;
  category?: string;
}

/** Reported hits grouped by listed entity id (what matchDelta takes as hitsByEntity). */
export function hitsByEntityId(hits: Iterable<ReportedHit>): Map<string, ReportedHit[]> {
  const out = new Map<string, ReportedHit[]>();
  for (const hit of hits) {
    const list = out.get(hit.entityId) ?? [];
    list.push(hit);
    out.set(hit.entityId, list);
  }
  return out;
}

export interface AlertIntent {
  screeningId: string;
  accountId: string;
  kind: MonitoringAlertKind;
  entityId: string;
  /** The list version the change comes from (delta.toVersion). */
  listVersion: string;
  diff: Record<string, unknown>;
  entityRecordHash?: string;
  /** For new hits: what the screening would have reported. */
  hit?: ReportHit;
  /** For changes: the new score when the subject still matches the changed record. */
  rescored?: ReportHit;
}

export interface DeltaMatchStats {
  removedEntities: number;
  changedEntities: number;
  addedEntities: number;
  /** Distinct subjects screened again (the reverse index's candidates that pass the name bound). */
  subjectsRescreened: number;
  /** Subject/listed-name pairs compared by name only (the reverse index's raw candidates). */
  pairsCompared: number;
  intents: number;
}

/** Which list agent covers which topics (as src/agents/lists/list-agents.ts defines them). */
const AGENT_FOR_TOPIC: Record<ListTopic, string> = {
  sanctions: 'sanctions',
  pep: 'pep',
  offshore_leaks: 'offshore_leaks',
  debarment: 'debarment',
  export_control: 'debarment',
};

function summary(entity: ListEntity): Record<string, unknown> {
  return {
    id: entity.id,
    source: entity.source,
    primaryName: entity.primaryName,
    schema: entity.schema,
    programs: entity.programs,
    ...(entity.listedOn ? { listedOn: entity.listedOn } : {}),
  };
}

/** field → {before, after} for the fields the delta found different. */
export function entityDiff(change: ListDelta['changed'][number]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of change.fields) {
    out[field] = { before: change.before[field] ?? null, after: change.after[field] ?? null };
  }
  return out;
}

/**
 * Screens one subject with the agents that cover the given topics (the pipeline's own code), with the
 * facts it was screened with: its new and changed hits are then assessed exactly as a screening's
 * (confirmed only by an agreeing date of birth or identifier, or an exact distinctive name; a
 * conflicting date of birth contradicts the identity).
 */
export async function screenSubject(agents: readonly Agent[], subject: MonitoredSubject): Promise<ReportHit[]> {
  const hits: ReportHit[] = [];
  const signal = new AbortController().signal;
  for (const agent of agents) {
    const outcome = await agent.run(monitoredAgentSubject(subject), { signal });
    if (outcome.queried) hits.push(...outcome.hits);
  }
  return hits;
}

/** The subject as the list agents read it: the name, its kind, and every identity fact it was screened with. */
export function monitoredAgentSubject(subject: MonitoredSubject): AgentSubject {
  const { query, entityType, jurisdiction, facts } = subject;
  return agentSubjectOfScreening({ query, entityType, ...(jurisdiction ? { jurisdiction } : {}), ...(facts ?? {}) }, { workflow: `screening-${subject.screeningId}` });
}

export function agentsForTopics(engine: NameScreener, topics: Iterable<ListTopic>): Agent[] {
  const wanted = new Set([...topics].map((t) => AGENT_FOR_TOPIC[t]).filter(Boolean));
  return createListAgents(() => engine).filter((a) => wanted.has(a.name));
}

/**
 * The engine's name comparison with its own token rarity, on prepared names: the bound the engine
 * itself applies before qualifiers (ScreeningEngine.screen skips a name when 0.95 · nameScore + 0.2
 * is below the threshold). ScreeningEngine keeps its index private, so the rarity is read from it here.
 */
export function engineNameScorer(engine: unknown): ((q: PreparedName, c: PreparedName) => number) | undefined {
  const rarity = (engine as { index?: { rarity?: RarityFn } }).index?.rarity;
  if (typeof rarity !== 'function') return undefined;
  return (q, c) => compareNames(q, c, rarity, false).score;
}

/** Rounding slack on the bound (an exact strong name scores 1 whatever the qualifiers, and its name score is 1 anyway). */
const BOUND_SLACK = 0.001;
const NAME_ONLY_CAP = 0.95;

export async function matchDelta(input: {
  delta: ListDelta;
  /** The engine over the NEW list set (what a screening run now would use). */
  engine: NameScreener;
  /** Alert threshold of the list agents (HIT_THRESHOLD). */
  threshold?: number;
  index: SubjectIndex;
  /** Live hits of monitored screenings on the delta's removed/changed entities, by entity id. */
  hitsByEntity: ReadonlyMap<string, readonly ReportedHit[]>;
}): Promise<{ intents: AlertIntent[]; stats: DeltaMatchStats }> {
  const { delta, engine, index, hitsByEntity } = input;
  const listVersion = delta.toVersion ?? delta.source ?? 'unknown';
  const intents: AlertIntent[] = [];
  const subjectsById = new Map(index.subjects.map((s) => [s.screeningId, s]));
  const positionOf = new Map(index.subjects.map((s, i) => [s.screeningId, i]));
  const deltaEntities = new Map<string, ListEntity>([...delta.added.map((e) => [e.id, e] as const), ...delta.changed.map((c) => [c.id, c.after] as const)]);

  for (const entity of delta.removed) {
    for (const hit of hitsByEntity.get(entity.id) ?? []) {
      if (hit.status === 'removed') continue;
      const subject = subjectsById.get(hit.screeningId);
      if (!subject) continue; // not enrolled
      intents.push({ screeningId: hit.screeningId, accountId: subject.accountId, kind: 'removed_hit', entityId: entity.id, listVersion, diff: { removed: summary(entity) } });
    }
  }

  // Which subjects to screen again, and for which delta entities.
  const targets = new Map<number, Set<string>>();
  const topics = new Set<ListTopic>();
  const threshold = input.threshold ?? HIT_THRESHOLD;
  let pairsCompared = 0;
  const nameScore = engineNameScorer(engine);
  const consider = (entity: ListEntity) => {
    for (const t of entity.topics) topics.add(t);
    const reachedNames = new Set<number>();
    for (const { prepared, nameIds } of index.candidatesByName(entity)) {
      for (const n of nameIds) {
        if (reachedNames.has(n)) continue;
        if (nameScore) {
          // Only subjects whose name could still reach the threshold are screened in full.
          pairsCompared++;
          if (NAME_ONLY_CAP * nameScore(index.preparedName(n), prepared) + index.qualifierHeadroom(n) + BOUND_SLACK < threshold) continue;
        }
        reachedNames.add(n);
      }
    }
    for (const n of reachedNames) for (const i of index.subjectsOf(n)) {
      let set = targets.get(i);
      if (!set) targets.set(i, (set = new Set()));
      set.add(entity.id);
    }
  };
  const changedById = new Map(delta.changed.map((c) => [c.id, c]));
  const reportedChange = new Map<string, AlertIntent>(); // `${screeningId}|${entityId}`
  for (const change of delta.changed) {
    consider(change.after);
    for (const hit of hitsByEntity.get(change.id) ?? []) {
      if (hit.status === 'removed') continue;
      const subject = subjectsById.get(hit.screeningId);
      if (!subject) continue;
      const intent: AlertIntent = {
        screeningId: hit.screeningId,
        accountId: subject.accountId,
        kind: 'changed_hit',
        entityId: change.id,
        listVersion,
        diff: entityDiff(change),
        entityRecordHash: entityRecordHash(change.after),
      };
      intents.push(intent);
      reportedChange.set(`${hit.screeningId}|${change.id}`, intent);
      // Re-score it too: the record change may have changed the match.
      const i = positionOf.get(subject.screeningId)!;
      let set = targets.get(i);
      if (!set) targets.set(i, (set = new Set()));
      set.add(change.id);
    }
  }
  for (const entity of delta.added) consider(entity);

  const agents = agentsForTopics(engine, topics);
  for (const [i, entityIds] of targets) {
    const subject = index.subjects[i]!;
    const hits = await screenSubject(agents, subject);
    const best = new Map<string, ReportHit>();
    for (const hit of hits) {
      // one hit per real-world entity: the delta's row may be a secondary source of a merged hit
      const entityId = entityIds.has(hit.entityId) ? hit.entityId : hit.sources?.map((s) => s.entityId).find((id): id is string => !!id && entityIds.has(id));
      if (!entityId) continue;
      const prev = best.get(entityId);
      if (!prev || prev.score < hit.score) best.set(entityId, hit);
    }
    for (const [entityId, hit] of best) {
      const changeIntent = reportedChange.get(`${subject.screeningId}|${entityId}`);
      if (changeIntent) {
        changeIntent.rescored = hit;
        continue;
      }
      const change = changedById.get(entityId);
      intents.push({
        screeningId: subject.screeningId,
        accountId: subject.accountId,
        kind: 'new_hit',
        entityId,
        listVersion,
        diff: change ? { ...entityDiff(change), matched: true } : { added: summary(deltaEntities.get(entityId)!) },
        entityRecordHash: hit.entityRecordHash ?? '',
        hit,
      });
    }
  }
  return {
    intents,
    stats: {
      removedEntities: delta.removed.length,
      changedEntities: delta.changed.length,
      addedEntities: delta.added.length,
      subjectsRescreened: targets.size,
      pairsCompared,
      intents: intents.length,
    },
  };
}
