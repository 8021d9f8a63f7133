/**
 * The summary's sentence about matches, counted from the hits as they stand now (issue 31 item 3).
 * The summary step writes it when the screening completes; the report fold writes it again from the
 * current standings, so an analyst's decision (a false positive, a true match) changes the counts
 * the summary, the portal, the JSON report and the PDF show. Words come from BADGES
 * (src/reports/confirmation.ts), the one place that says what "confirmed" means.
 */
import { BADGES, standingOf, type AssessableHit, type HitStanding } from './confirmation';

/** The order standings are counted in: the analyst's decisions, then the machine's assessments from strongest. */
const STANDING_ORDER: readonly HitStanding[] = ['analyst_confirmed', 'identity_corroborated', 'strong_name_match', 'name_match', 'identity_contradicted', 'dismissed'];

export interface SummarisableHit extends AssessableHit {
  entityName: string;
  source: string;
  sourceLabel?: string;
}

/** How many hits stand at each standing (hits below the minimum match score are not matches and not counted). */
export function standingCounts(hits: readonly AssessableHit[]): Partial<Record<HitStanding, number>> {
  const counts: Partial<Record<HitStanding, number>> = {};
  for (const hit of hits) {
    const standing = standingOf(hit);
    if (standing) counts[standing] = (counts[standing] ?? 0) + 1;
  }
  return counts;
}

/** "analyst-confirmed 1, strong name match 2, dismissed 1": each standing's label with its count, strongest first. */
export function standingCountsText(counts: Partial<Record<HitStanding, number>>): string {
  return STANDING_ORDER.filter((s) => counts[s]).map((s) => `${BADGES[s].label} ${counts[s]}`).join(', ');
}

/**
 * One sentence on the matches: how many, by standing, and the strongest three that still stand
 * (a dismissed hit is counted, not named). `offshoreNotSearched`: offshore leaks were not searched,
 * so "no match" must not claim them.
 */
export function matchesSentence(hits: readonly SummarisableHit[], offshoreNotSearched: boolean): string {
  const counted = hits.filter((h) => standingOf(h) !== undefined);
  if (counted.length === 0) {
    return `No ${offshoreNotSearched ? 'sanctions, PEP or debarment' : 'sanctions, PEP, debarment or offshore-leak'} match at or above the minimum match score.`;
  }
  const standing = counted
    .filter((h) => standingOf(h) !== 'dismissed')
    .sort((a, b) => b.score - a.score)
    .slice(0, 3)
    .map((h) => `${h.entityName} on ${h.sourceLabel ?? h.source} (${Math.round(h.score * 100)}, ${BADGES[standingOf(h)!].label})`);
  const counts = standingCountsText(standingCounts(counted));
  const named = standing.length > 0 ? `: ${standing.join('; ')}` : ": none stands after the analysts' decisions";
  return `${counted.length} match${counted.length === 1 ? '' : 'es'} (${counts})${named}.`;
}

/**
 * The sentences the summary step writes after the matches one (src/agents/finalisation/finalisers.ts);
 * summaries recorded before it counted in words say "source(s)".
 */
const AFTER_MATCHES = / (?:Offshore leaks were not searched: |\d+ (?:sources?|source\(s\)) could not be searched; )/;

/**
 * A recorded summary with its matches sentence replaced by `sentence`: the first sentence ("… was
 * screened against N sources.") and the coverage sentences after it are kept as recorded. A summary
 * of another shape (not written by the summary step) is returned unchanged.
 */
export function withMatchesSentence(summary: string, sentence: string): string {
  const head = /^[\s\S]*? was screened against \d+ sources?\./.exec(summary);
  if (!head) return summary;
  const rest = summary.slice(head[0].length);
  const tail = AFTER_MATCHES.exec(rest);
  return `${head[0]} ${sentence}${tail ? rest.slice(tail.index) : ''}`;
}

/** A recorded summary with its matches sentence as the hits stand now (offshore leaks not searched: from the agents' answers). */
export function currentSummary(summary: string, hits: readonly SummarisableHit[], agents: readonly { agent: string; queried: boolean }[]): string {
  const offshoreNotSearched = agents.some((a) => a.agent === 'offshore_leaks' && !a.queried);
  return withMatchesSentence(summary, matchesSentence(hits, offshoreNotSearched));
}
