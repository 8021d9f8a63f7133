/**
 * The account's own lists in phase 1 (issue 21): the sanctions agent also screens the subject
 * against the account's active internal watchlists, indexed with the same engine as the official
 * lists, and reports hits with source "internal list: <name>".
 *
 * Internal lists hold ordinary names, so the engine is asked for name candidates only and
 * scoreWatchlistCandidate (src/screening/watchlists/match-policy.ts) decides the score from the
 * name plus date of birth, address and identifier agreement. The subject's given name is also tried
 * in its nickname forms (Bob ⇒ Robert). Entries that share a document, phone, e-mail or date of
 * birth with the subject are candidates too, whatever their names (src/screening/watchlists/fact-index.ts):
 * the policy's rules for another name (the same document, a changed surname) need them. Inactive
 * entries are kept on the list but never screened. The run records which list versions it used
 * (`data.internalLists`), so replay and `svc audit reproduce` screen against the same entries.
 */
import type { ReportHit } from '../../reports/model';
import type { ListVersion, MatchResult, ScreeningQuery } from '../../screening/model';
import { subjectFactKeys, type FactLookup } from '../../screening/watchlists/fact-index';
import { scoreWatchlistCandidate, type WatchlistCandidateScore, type WatchlistSubject } from '../../screening/watchlists/match-policy';
import { internalListLabel, INTERNAL_LIST_SOURCE, toListEntity, type Watchlist, type WatchlistEntry } from '../../screening/watchlists/model';
import { givenNameVariants } from '../person/nicknames';
import { STRONG_NAME_SCORE, type HitConfirmation } from '../../reports/confirmation';
import type { Agent, AgentOutcome, AgentSubject } from '../runtime/agent';
import { expectedSchema, HIT_THRESHOLD, type NameScreener, subjectIdentifiers, toReportHit } from './list-agents';

/** One account's internal lists, indexed: what the agent screens against. */
export interface InternalListIndex {
  lists: Pick<Watchlist, 'id' | 'name' | 'severity' | 'version'>[];
  /** Engine entity id (`internal_list:<watchlistId>:<entryId>`) → its list and entry. */
  entries: ReadonlyMap<string, { list: Pick<Watchlist, 'id' | 'name' | 'severity' | 'version'>; entry: WatchlistEntry }>;
  engine: NameScreener;
  /** The entries by document, phone, e-mail and date of birth (engine entity ids), whatever their names. */
  facts: FactLookup;
  versions: readonly ListVersion[];
}

/** Where the agent gets an account's index (src/app/watchlists/watchlist-index.ts). */
export interface InternalListSource {
  /** The account's active lists now, or exactly the given versions (reproduce). undefined: no lists. */
  indexFor(accountId: string, versions?: readonly string[]): Promise<InternalListIndex | undefined>;
}

/** Name candidates the engine returns before the policy weighs the rest (a name alone never reaches a hit). */
const NAME_CANDIDATE_THRESHOLD = 0.72;
const HITS_PER_RUN = 25;

/** The subject's names to try: as given, its aliases, and its first given name in nickname forms. */
export function internalQueryNames(subject: Pick<AgentSubject, 'name' | 'aliases' | 'entityType'>): { name: string; variant?: string }[] {
  const out: { name: string; variant?: string }[] = [];
  const seen = new Set<string>();
  const add = (name: string, variant?: string) => {
    const k = name.trim().toLowerCase();
    if (!k || seen.has(k)) return;
    seen.add(k);
    out.push({ name, ...(variant ? { variant } : {}) });
  };
  add(subject.name);
  for (const alias of subject.aliases ?? []) add(alias);
  if (subject.entityType === 'individual') {
    const tokens = subject.name.trim().split(/\s+/);
    if (tokens.length >= 2) {
      for (const variant of givenNameVariants(tokens[0]!).slice(0, 12)) {
        const cased = variant.charAt(0).toUpperCase() + variant.slice(1);
        add([cased, ...tokens.slice(1)].join(' '), `nickname ${tokens[0]} → ${cased}`);
      }
    }
  }
  return out;
}

/** The subject as the internal-list policy reads it: the phone and e-mail go as identifiers of those types. */
export function policySubject(subject: AgentSubject): WatchlistSubject {
  const identifiers = subjectIdentifiers(subject);
  return {
    name: subject.name,
    entityType: subject.entityType,
    ...(subject.birthDate ? { birthDate: subject.birthDate } : {}),
    ...(subject.nationality ? { nationality: subject.nationality } : {}),
    ...(subject.address ? { address: subject.address } : {}),
    ...(subject.address?.country ? { country: subject.address.country } : {}),
    ...(identifiers.length ? { identifiers } : {}),
  };
}

/** A candidate found by its facts, as the engine would have returned it (the policy's comparison in place of the engine's). */
function factResult(list: Pick<Watchlist, 'id' | 'name' | 'severity' | 'version'>, entry: WatchlistEntry, scored: WatchlistCandidateScore): MatchResult {
  const entity = toListEntity(list, entry);
  // an entry listed by its identifiers alone has no name to have matched
  const matched = entity.names.find((n) => n.value === scored.matchedName) ?? entity.names[0] ?? { value: '', kind: 'primary' as const };
  return {
    entity,
    score: scored.score,
    explanation: { matchedName: matched.value, matchedNameKind: matched.kind, nameScore: scored.nameScore, alignment: [], qualifiers: scored.qualifiers, summary: scored.summary },
  };
}

/**
 * What confirmed an internal-list hit: the policy confirms only on strong agreement of identity facts
 * (never the name alone), so its strongest agreeing fact is the basis.
 */
function internalConfirmation(scored: WatchlistCandidateScore): HitConfirmation | undefined {
  if (scored.strength !== 'confirmed') return undefined;
  const identifier = scored.agreed.find((f) => f.kind === 'identifier');
  const dob = scored.agreed.find((f) => f.kind === 'dob');
  const detail = scored.agreed.map((f) => f.detail).join('; ');
  return { basis: identifier || !dob ? 'identifier' : 'date_of_birth', detail: `the internal-list policy's evidence: ${detail}` };
}

/** Screens one subject against an account's index: hits (best per entry) with the policy's explanation. */
export function screenInternalLists(index: InternalListIndex, subject: AgentSubject): ReportHit[] {
  const { schema, given } = expectedSchema(subject);
  const best = new Map<string, { result: MatchResult; score: number; summary: string; qualifiers: ReportHit['explanation']['qualifiers']; scored: WatchlistCandidateScore }>();
  const who = policySubject(subject);
  for (const q of internalQueryNames(subject)) {
    const query: ScreeningQuery = { name: q.name, ...(given ? { schema } : {}) };
    for (const result of index.engine.screen(query, { threshold: NAME_CANDIDATE_THRESHOLD, limit: 50, sources: [INTERNAL_LIST_SOURCE] })) {
      const found = index.entries.get(result.entity.id);
      if (!found || found.entry.status === 'inactive') continue;
      const nameScore = result.explanation.nameScore;
      const scored = scoreWatchlistCandidate(who, found.entry, {
        nameScore,
        matchedName: result.explanation.matchedName,
        exact: nameScore >= 0.99,
        ...(q.variant ? { variant: q.variant } : {}),
      });
      const previous = best.get(result.entity.id);
      if (!previous || scored.score > previous.score) best.set(result.entity.id, { result, score: scored.score, summary: scored.summary, qualifiers: scored.qualifiers, scored });
    }
  }
  // the same document, phone, e-mail or date of birth, whatever the name: the policy compares the names itself
  for (const entityId of index.facts.candidates(subjectFactKeys(who))) {
    if (best.has(entityId)) continue;
    const found = index.entries.get(entityId);
    if (!found || found.entry.status === 'inactive') continue;
    const scored = scoreWatchlistCandidate(who, found.entry);
    if (scored.score < HIT_THRESHOLD) continue;
    best.set(entityId, { result: factResult(found.list, found.entry, scored), score: scored.score, summary: scored.summary, qualifiers: scored.qualifiers, scored });
  }
  const hits: ReportHit[] = [];
  for (const [entityId, b] of [...best].sort((x, y) => y[1].score - x[1].score || x[0].localeCompare(y[0]))) {
    if (b.score < HIT_THRESHOLD) continue;
    const { list, entry } = index.entries.get(entityId)!;
    const base = toReportHit('sanctions', { ...b.result, score: b.score }, { versions: index.versions });
    const label = internalListLabel(list.name);
    const confirmation = internalConfirmation(b.scored);
    hits.push({
      ...base,
      hitId: `sanctions:${entityId}`,
      sourceLabel: label,
      listAuthority: 'other',
      score: b.score,
      status: confirmation ? 'confirmed' : 'potential',
      assessment: confirmation ? 'identity_corroborated' : b.score >= STRONG_NAME_SCORE ? 'strong_name_match' : 'name_match',
      ...(confirmation ? { confirmation, identityNote: `identity corroborated: ${confirmation.detail}` } : { identityNote: 'the internal-list policy found some agreement, not enough to confirm the identity' }),
      explanation: { summary: `${label} (${list.severity}): ${b.summary}${entry.reason ? ` Listed because: ${entry.reason}` : ''}`, qualifiers: b.qualifiers },
      internalList: { watchlistId: list.id, name: list.name, version: list.version, severity: list.severity, entryId: entry.entryId, reason: entry.reason },
      ...(base.sources ? { sources: base.sources.map((s) => ({ ...s, sourceLabel: label, listAuthority: 'other' as const })) } : {}),
    });
    if (hits.length >= HITS_PER_RUN) break;
  }
  return hits;
}

/**
 * The sanctions agent with the account's internal lists beside the official ones. Without an
 * account (operator tools) or without lists it is the agent unchanged; a failure to read the lists
 * makes the whole agent answer `queried: false` rather than a silently partial "clean".
 */
export function withInternalLists(base: Agent, source: InternalListSource | undefined): Agent {
  if (!source) return base;
  return {
    ...base,
    label: `${base.label}; the account's internal lists`,
    async run(subject, context): Promise<AgentOutcome> {
      if (!subject.accountId) return base.run(subject, context);
      const [ours, index] = await Promise.all([base.run(subject, context), source.indexFor(subject.accountId, subject.internalListVersions)]);
      if (!ours.queried || !index) return ours;
      const hits = screenInternalLists(index, subject);
      return { ...ours, hits: [...ours.hits, ...hits], data: { ...(ours.data ?? {}), internalLists: internalListsUsed(index) } };
    },
  };
}

/** The list versions a run screened against, as recorded in its result (`data.internalLists`): replay and reproduce read them back. */
export function internalListsUsed(index: InternalListIndex): ReturnType<typeof internalListsOfResult> {
  const versions = new Map(index.versions.map((v) => [v.id, v]));
  return index.lists.map((l) => {
    const v = versions.get(`watchlist-${l.id}@v${l.version}`);
    return { watchlistId: l.id, name: l.name, version: l.version, severity: l.severity, versionId: v?.id ?? '', contentHash: v?.contentHash ?? '', entityCount: v?.entityCount ?? 0, loadedAt: v?.loadedAt ?? '' };
  });
}

/** The internal-list versions one recorded sanctions result used (its `internalLists` data). */
export function internalListsOfResult(result: Record<string, unknown> | undefined): { watchlistId: string; name: string; version: number; severity: string; versionId: string; contentHash: string; entityCount: number; loadedAt: string }[] {
  const used = result?.internalLists;
  return Array.isArray(used) ? (used as ReturnType<typeof internalListsOfResult>) : [];
}
