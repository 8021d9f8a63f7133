/**
 * Monitoring when an account's own list changes (issue 21): the reverse match of official list
 * updates, for one list version's delta and one account's enrolled subjects only (tenant isolation).
 *
 * - EntryAdded / EntryChanged: the changed entries are indexed alone and every enrolled subject of the
 *   account is screened against them with the internal-list policy (name + DOB, nationality and
 *   identifiers from the screening's request): a match on an entry the subject has no live hit on is a
 *   `new_hit`; a changed entry the subject has a live hit on is a `changed_hit` (with the new score when
 *   it still matches, with the diff either way).
 * - EntryRemoved: every live hit on the entry gets a `removed_hit` alert ("entry removed"): the hit is
 *   flagged for the analyst to close, never deleted; the risk is recomputed without it.
 * The screening decider applies its usual rules: alert ids are recorded once, a false positive stays
 * cleared while its entry record is unchanged, a changed record re-opens it.
 */
import type { ReportHit } from '../../reports/model';
import { entityRecordHash } from '../../agents/lists/list-agents';
import { screenInternalLists } from '../../agents/lists/internal-lists';
import type { AgentSubject } from '../../agents/runtime/agent';
import type { EntryChanged, WatchlistEvent } from '../../commands/watchlist';
import type { EventStore } from '../../infrastructure/eventstore/port';
import { INTERNAL_LIST_SOURCE, toListEntity, watchlistVersionId, type WatchlistEntry } from '../../screening/watchlists/model';
import type { AlertIntent } from '../monitoring/delta-matcher';
import type { MonitoringService } from '../monitoring/monitoring-service';
import { buildInternalListIndex } from './watchlist-index';
import { watchlistHeaderAtVersion } from './watchlist-service';

export interface WatchlistMonitoringResult {
  subjects: number;
  intents: number;
  alertsRaised: number;
  reopened: number;
}

interface RequestedSubject {
  query: string;
  entityType: AgentSubject['entityType'];
  entityTypeDefaulted?: boolean;
  jurisdiction?: string;
  dateOfBirth?: string;
  nationality?: string;
  identifiers?: { type: string; value: string }[];
  address?: AgentSubject['address'];
}

export class WatchlistMonitoring {
  constructor(private readonly deps: { store: Pick<EventStore, 'readStream'>; monitoring: Pick<MonitoringService, 'enrolledSubjects' | 'liveHitsOn' | 'raiseAlerts'>; now: () => Date }) {}

  /** The subject as the screening was requested (the monitoring read model keeps only the name). */
  private async requestedSubject(screeningId: string): Promise<RequestedSubject | undefined> {
    const events = await this.deps.store.readStream(`screening-${screeningId}`);
    const requested = events.find((e) => e.type === 'ScreeningRequested');
    return (requested?.data as { subject?: RequestedSubject } | undefined)?.subject;
  }

  async onChange(accountId: string, watchlistId: string, events: readonly WatchlistEvent[]): Promise<WatchlistMonitoringResult> {
    const entryEvents = events.filter((e) => e.type === 'EntryAdded' || e.type === 'EntryChanged' || e.type === 'EntryRemoved');
    if (entryEvents.length === 0) return { subjects: 0, intents: 0, alertsRaised: 0, reopened: 0 };
    const version = entryEvents[entryEvents.length - 1]!.data.version;
    const listVersion = watchlistVersionId(watchlistId, version);
    const entityId = (entryId: string) => `${INTERNAL_LIST_SOURCE}:${watchlistId}:${entryId}`;
    const subjects = (await this.deps.monitoring.enrolledSubjects()).filter((s) => s.accountId === accountId);
    if (subjects.length === 0) return { subjects: 0, intents: 0, alertsRaised: 0, reopened: 0 };
    const enrolled = new Set(subjects.map((s) => s.screeningId));

    const upserted = new Map<string, { entry: WatchlistEntry; changed: boolean }>();
    const removed = new Map<string, { primaryName: string; reason?: string }>();
    for (const e of entryEvents) {
      if (e.type === 'EntryRemoved') {
        upserted.delete(e.data.entryId);
        removed.set(e.data.entryId, { primaryName: e.data.primaryName, ...(e.data.reason ? { reason: e.data.reason } : {}) });
      } else {
        removed.delete(e.data.entry.entryId);
        upserted.set(e.data.entry.entryId, { entry: e.data.entry, changed: e.type === 'EntryChanged' });
      }
    }
    const liveHits = await this.deps.monitoring.liveHitsOn([...upserted.keys(), ...removed.keys()].map(entityId));
    const liveOf = (id: string) => (liveHits.get(id) ?? []).filter((h) => h.status !== 'removed' && enrolled.has(h.screeningId));
    const intents: AlertIntent[] = [];

    for (const [entryId, gone] of removed) {
      for (const hit of liveOf(entityId(entryId))) {
        intents.push({ screeningId: hit.screeningId, accountId, kind: 'removed_hit', entityId: entityId(entryId), listVersion, diff: { removed: { entryId, primaryName: gone.primaryName, ...(gone.reason ? { reason: gone.reason } : {}) } } });
      }
    }

    if (upserted.size > 0) {
      // The list's name, severity and status at that version (its entries are not needed here).
      const snapshot = await watchlistHeaderAtVersion(this.deps.store, watchlistId, version);
      if (snapshot && snapshot.list.status === 'active') {
        const entries = [...upserted.values()].map((u) => u.entry);
        const index = buildInternalListIndex([{ list: snapshot.list, entries }], this.deps.now().toISOString());
        const changedEvents = new Map(entryEvents.filter((e): e is EntryChanged => e.type === 'EntryChanged').map((e) => [e.data.entry.entryId, e]));
        for (const subject of subjects) {
          const requested = await this.requestedSubject(subject.screeningId);
          const agentSubject: AgentSubject = {
            workflow: `screening-${subject.screeningId}`,
            accountId,
            name: subject.query,
            entityType: subject.entityType,
            ...(requested?.entityTypeDefaulted ? { entityTypeDefaulted: true } : {}),
            ...(subject.jurisdiction ? { jurisdiction: subject.jurisdiction } : {}),
            ...(requested?.dateOfBirth ? { birthDate: requested.dateOfBirth } : {}),
            ...(requested?.nationality ? { nationality: requested.nationality } : {}),
            ...(requested?.identifiers?.length ? { identifiers: requested.identifiers } : {}),
            // the address weighs in the policy as in the screening itself (the same dwelling, another place)
            ...(requested?.address ? { address: requested.address } : {}),
          };
          const hits = new Map<string, ReportHit>(screenInternalLists(index, agentSubject).map((h) => [h.entityId, h]));
          for (const [entryId, { entry, changed }] of upserted) {
            const id = entityId(entryId);
            const live = liveOf(id).find((h) => h.screeningId === subject.screeningId);
            const hit = hits.get(id);
            const recordHash = entityRecordHash(toListEntity(snapshot.list, entry));
            if (live && changed) {
              const previous = changedEvents.get(entryId);
              intents.push({
                screeningId: subject.screeningId,
                accountId,
                kind: 'changed_hit',
                entityId: id,
                listVersion,
                diff: { changed: { entryId, primaryName: entry.primaryName, ...(previous ? { version: previous.data.version } : {}), stillMatches: hit !== undefined } },
                entityRecordHash: recordHash,
                ...(hit ? { rescored: hit } : {}),
              });
            } else if (!live && hit) {
              intents.push({ screeningId: subject.screeningId, accountId, kind: 'new_hit', entityId: id, listVersion, diff: { added: { entryId, primaryName: entry.primaryName } }, entityRecordHash: recordHash, hit });
            }
          }
        }
      }
    }
    const raised = intents.length ? await this.deps.monitoring.raiseAlerts(intents, { failOnError: true }) : { alertsRaised: 0, reopened: 0 };
    return { subjects: subjects.length, intents: intents.length, ...raised };
  }
}
