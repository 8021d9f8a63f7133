/**
 * Person checks screen the account's own lists too (issue 21): the phase-3 `sanctions_list` agent
 * also runs the sanctions agent's internal-list path (screenInternalLists, the same per-account
 * index and match policy), so a person check and a CDD screening of the same person find the same
 * entry with the same score. Each hit becomes a `sanctions` record with source "internal list:
 * <name>", tied to the subject by date of birth / location like any list record; its finding's
 * severity follows the list's severity (corroboration.ts) and the scorer counts it as an internal
 * hit. The list versions used are recorded in the agent's result (`data.internalLists`).
 */
import { internalListsUsed, screenInternalLists, type InternalListSource } from '../lists/internal-lists';
import { toListEntity } from '../../screening/watchlists/model';
import type { AgentSubject } from '../runtime/agent';
import { dobRelation, identityYearOnly, locationRelation } from './list-agents';
import type { PersonAgent, PersonAgentContext, PersonSubject, SourceRecord } from './types';

/** The person-check subject as the list agents read it: the full name, every other search name as an alias. */
export function agentSubjectOf(subject: PersonSubject, accountId: string, documents?: PersonAgentContext['documents']): AgentSubject {
  return {
    workflow: `person-check-${subject.personCheckId}`,
    accountId,
    name: subject.fullName,
    entityType: 'individual',
    aliases: subject.searchNames.filter((n) => n !== subject.fullName),
    ...(subject.dateOfBirth ? { birthDate: subject.dateOfBirth } : {}),
    ...(subject.phone ? { phone: subject.phone } : {}),
    ...(subject.email ? { email: subject.email } : {}),
    ...(subject.address ? { address: subject.address } : {}),
    ...(documents?.length ? { identifiers: documents.map((d) => ({ ...d })) } : {}),
  };
}

const DOCUMENTS_NOT_HELD =
  "the request's documents were not searched on the account's internal lists: only their last four characters are kept, and this run (resumed after a restart, or on another instance) did not receive them whole";

/** `base` plus the account's internal lists; without a source or an account it is `base` unchanged. */
export function withPersonInternalLists(base: PersonAgent, source: InternalListSource | undefined): PersonAgent {
  if (!source) return base;
  return {
    ...base,
    label: `${base.label}; the account's internal lists`,
    async run(subject, context) {
      if (!context.accountId) return base.run(subject, context);
      const [ours, index] = await Promise.all([base.run(subject, context), source.indexFor(context.accountId, context.internalListVersions)]);
      if (!ours.queried || !index) return ours;
      const retrievedAt = context.now().toISOString();
      const records: SourceRecord[] = [];
      for (const hit of screenInternalLists(index, agentSubjectOf(subject, context.accountId, context.documents))) {
        const ref = hit.internalList!;
        const found = index.entries.get(`internal_list:${ref.watchlistId}:${ref.entryId}`);
        if (!found) continue;
        const entity = toListEntity(found.list, found.entry);
        records.push({
          category: 'sanctions',
          sourceName: hit.sourceLabel ?? `internal list: ${ref.name}`,
          entityId: entity.id,
          retrievedAt,
          searchedName: subject.fullName,
          matchedName: hit.matchedName,
          nameScore: Math.round(hit.score * 1000) / 1000,
          nameWhy: hit.explanation.summary,
          ...dobRelation(subject, entity),
          ...locationRelation(subject, entity),
          title: `On the internal list "${ref.name}" (${ref.severity}): ${found.entry.primaryName}`,
          ...(ref.reason ? { detail: ref.reason.slice(0, 300) } : {}),
          internalList: ref,
          // The policy's verdict on the identity, as the screening's hit of the same entry carries it.
          ...(hit.assessment
            ? { identity: identityYearOnly({ assessment: hit.assessment, note: hit.identityNote ?? '', ...(hit.confirmation ? { confirmation: hit.confirmation } : {}) }, subject.dateOfBirth) }
            : {}),
        });
      }
      const notes = [...((ours.data?.notes as string[] | undefined) ?? []), ...(context.documentsNotHeld ? [DOCUMENTS_NOT_HELD] : [])];
      return { ...ours, records: [...ours.records, ...records], data: { ...(ours.data ?? {}), ...(notes.length ? { notes } : {}), internalLists: internalListsUsed(index) } };
    },
  };
}
