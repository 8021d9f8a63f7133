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

/** An identifier as a person check shows it: its last four letters or digits (as the stream keeps the request's). */
function masked(value: string): string {
  return `*****${value.replace(/[^A-Za-z0-9]/g, '').slice(-4)}`;
}

/**
 * The sentence with every document number in it masked: the policy's explanation names the numbers it
 * compared (the subject's and the entry's), and a person check records its sentences in its stream,
 * where no whole identifier may go (FCRA). Numbers written with other punctuation are masked too.
 */
export function withDocumentsMasked(text: string, values: readonly string[]): string {
  let out = text;
  for (const value of [...values].sort((a, b) => b.length - a.length)) {
    const significant = value.replace(/[^A-Za-z0-9]/g, '');
    if (significant.length < 4) continue;
    // the value's letters and digits in order, with any punctuation or spaces between them
    const pattern = new RegExp(significant.split('').join('[^A-Za-z0-9]*'), 'gi');
    out = out.replace(pattern, masked(value));
  }
  return out;
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
        // the numbers the explanation may name: the request's documents and the entry's identifiers (not phones or e-mails, kept whole as given)
        const numbers = [...(context.documents ?? []).map((d) => d.value), ...(found.entry.identifiers ?? []).filter((i) => i.kind !== 'phone' && i.kind !== 'email').map((i) => i.value)];
        const mask = (text: string) => withDocumentsMasked(text, numbers);
        const identity = hit.assessment
          ? identityYearOnly({ assessment: hit.assessment, note: mask(hit.identityNote ?? ''), ...(hit.confirmation ? { confirmation: { ...hit.confirmation, detail: mask(hit.confirmation.detail) } } : {}) }, subject.dateOfBirth)
          : undefined;
        records.push({
          category: 'sanctions',
          sourceName: hit.sourceLabel ?? `internal list: ${ref.name}`,
          entityId: entity.id,
          retrievedAt,
          searchedName: subject.fullName,
          matchedName: hit.matchedName,
          nameScore: Math.round(hit.score * 1000) / 1000,
          nameWhy: mask(hit.explanation.summary),
          ...dobRelation(subject, entity),
          ...locationRelation(subject, entity),
          title: `On the internal list "${ref.name}" (${ref.severity}): ${found.entry.primaryName}`,
          ...(ref.reason ? { detail: ref.reason.slice(0, 300) } : {}),
          internalList: ref,
          // The policy's verdict on the identity, as the screening's hit of the same entry carries it.
          ...(identity ? { identity } : {}),
        });
      }
      const notes = [...((ours.data?.notes as string[] | undefined) ?? []), ...(context.documentsNotHeld ? [DOCUMENTS_NOT_HELD] : [])];
      return { ...ours, records: [...ours.records, ...records], data: { ...(ours.data ?? {}), ...(notes.length ? { notes } : {}), internalLists: internalListsUsed(index) } };
    },
  };
}
