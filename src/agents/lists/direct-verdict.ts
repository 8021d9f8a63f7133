/**
 * A screening's list hits and verdict without the pipeline (issue 27 §4): what S1/S3 would answer for
 * a name and its facts on the same lists, for `svc screen`, `svc screen --file`, S3 batch jobs and
 * the benchmarks. The same parts the pipeline runs, in one call:
 *
 * - the list agents' rows, screened once for the subject over every agent's topics (the agents ask
 *   the engine one topic set each; one query with their union and as many rows gives the same rows
 *   unless a single name matches more than ROWS_PER_QUERY × 4 listed rows), each agent's share filed
 *   in its category: export-control rows count as export control (debarment), not sanctions;
 * - one hit per real-world entity, the identity assessed (src/reports/confirmation.ts);
 * - the subject jurisdiction's country risk (FATF status, sanctions programmes) from the row's country;
 * - the one scorer (computeRiskScore) on the facts the risk_score step records.
 *
 * Pure apart from the engine's work: no I/O, no clock.
 */
import { computeRiskScore, type RiskAssessment } from '../../reports/risk-score';
import { emptyHits, type CountryRiskFinding, type HitCategory, type ReportHit } from '../../reports/model';
import type { SanctionsProgrammeFinding } from '../../screening/lists/country-sanctions';
import type { CountryRisk, ListSourceId, ListTopic } from '../../screening/model';
import { subjectCountryRisk, verdictFacts } from '../finalisation/finalisers';
import type { AgentSubject } from '../runtime/agent';
import { HIT_THRESHOLD, hitsOfRows, LIST_AGENT_SPECS, ROWS_PER_QUERY, rowOfSpec, screenRows, type NameScreener } from './list-agents';

/** What a verdict needs besides the engine: the FATF table and the sanctions programmes by country (as the service has them). */
export interface VerdictContext {
  countryRisk: readonly CountryRisk[];
  countrySanctions?: (iso2: string) => SanctionsProgrammeFinding[];
}

export interface DirectVerdictOptions {
  /** Minimum matcher score of a row (default the list agents' HIT_THRESHOLD, 0.80). */
  threshold?: number;
  /** Only these lists, or these topics (operator filters of `svc screen`). */
  sources?: readonly ListSourceId[];
  topics?: readonly ListTopic[];
  /** Hits kept per category (default the list agents' 25). */
  hitsPerCategory?: number;
}

export interface DirectVerdict {
  hits: Record<HitCategory, ReportHit[]>;
  countryRisk?: CountryRiskFinding;
  assessment: RiskAssessment;
}

/** The subject's hits on our lists, by category, as the list agents report them. */
export function screenListHits(engine: NameScreener, subject: AgentSubject, options: DirectVerdictOptions = {}): Record<HitCategory, ReportHit[]> {
  const hits = emptyHits();
  const specs = LIST_AGENT_SPECS.filter((spec) => !options.topics || spec.topics.some((t) => options.topics!.includes(t)));
  if (specs.length === 0) return hits;
  const topics = [...new Set(specs.flatMap((s) => s.topics))].filter((t) => !options.topics || options.topics.includes(t));
  const screened = screenRows(engine, subject, {
    topics,
    threshold: options.threshold ?? HIT_THRESHOLD,
    rowsPerQuery: ROWS_PER_QUERY * specs.length,
    ...(options.sources ? { sources: [...options.sources] } : {}),
  });
  for (const spec of specs) {
    const rows = screened.rows.filter((row) => rowOfSpec(spec, row));
    if (rows.length) hits[spec.category].push(...hitsOfRows(spec, engine, subject, { ...screened, rows }, options.hitsPerCategory));
  }
  return hits;
}

/** Verdicts of subjects with no hit, by jurisdiction: kept by a caller screening many names in one context. */
export type NoHitVerdicts = Map<string, Omit<DirectVerdict, 'hits'>>;

/**
 * The hits, the subject's country risk and the verdict S1/S3 would give the same subject on the same
 * lists. Most names of a book have no hit, and their verdict depends on the jurisdiction alone (the
 * scorer is pure): a caller passing `noHit` (one per context) has it worked out once per country.
 */
export function directVerdict(engine: NameScreener, subject: AgentSubject, context: VerdictContext, options: DirectVerdictOptions = {}, noHit?: NoHitVerdicts): DirectVerdict {
  const hits = screenListHits(engine, subject, options);
  const score = () => {
    const countryRisk = subjectCountryRisk(subject.jurisdiction, [...context.countryRisk], context.countrySanctions);
    const facts = verdictFacts({ countryRisk: countryRisk ? [countryRisk] : [], table: context.countryRisk });
    return { ...(countryRisk ? { countryRisk } : {}), assessment: computeRiskScore({ hits, ...facts }) };
  };
  if (!noHit || Object.values(hits).some((h) => h.length > 0)) return { hits, ...score() };
  const key = subject.jurisdiction ?? '';
  let verdict = noHit.get(key);
  if (!verdict) noHit.set(key, (verdict = score()));
  return { hits, ...verdict };
}
