/**
 * One batch row screened and shaped for the output files. The same function runs in the main thread
 * (one worker) and in each worker thread, so a pooled batch writes byte-for-byte what a single-thread
 * batch writes. A row gets the verdict S1/S3 would give the same name and facts (directVerdict,
 * src/agents/lists/direct-verdict.ts): merged hits, one per real-world entity, the row's country as
 * the subject's jurisdiction (country risk), export-control rows as export control.
 *
 * Results CSV, one line per input row that has a name (a row without one goes to the errors file):
 *   line, name, entity_type, dob, country  — the input as given (line = the row's line in the file)
 *   flagged      true when at least one hit reaches the threshold
 *   hit_count    how many listed entities reach the threshold (one per real-world entity)
 *   best_score, best_entity_id, best_entity_name, matched_name: the strongest hit (confirmed first, then by score)
 *   matched_lists  every list of every hit, `;`-separated
 *   risk_score, risk_level  the shared scorer on the row's hits and country
 *   explanation  the strongest hit's explanation: why it matched, what confirmed it or that nothing did
 *   match_strength  confirmed or potential, of the strongest hit (src/reports/confirmation.ts)
 *   confirmation  what confirmed it (`date_of_birth: …`), empty when nothing did
 *   risk_reason  the scorer's one sentence of why
 *   warnings     optional fields that could not be used (an impossible date…), screened without them
 * JSON lines (optional), one line per flagged row with every hit and the verdict.
 */
import { csvCell } from '../../shared/csv';
import { directVerdict, type DirectVerdict, type NoHitVerdicts, type VerdictContext } from '../../agents/lists/direct-verdict';
import type { AgentSubject } from '../../agents/runtime/agent';
import { confirmationOf, hitStatusOf } from '../../reports/confirmation';
import { HIT_CATEGORIES, type ReportHit } from '../../reports/model';
import type { ScreeningEngine } from '../../screening/engine';
import type { CountryRisk, ListTopic, ScreeningQuery } from '../../screening/model';

export interface BatchRow {
  /** Line of the row in the input file (1 = the header). */
  line: number;
  /** The input fields as given. */
  input: { name: string; entity_type: string; dob: string; country: string };
  query: ScreeningQuery;
  /** Things the validator wants the reader to know (a DOB range not used…). */
  notes?: string[];
  /** Optional fields that could not be used: the name was screened without them (also in the errors file). */
  warnings?: string[];
}

export interface BatchScreenOptions {
  threshold: number;
  sources?: string[];
  topics?: ListTopic[];
  /** Write the JSON-lines detail. */
  jsonl: boolean;
  /** The FATF table for the rows' country risk (a worker without it takes the one of the lists it loaded). */
  countryRisk?: CountryRisk[];
}

export interface ChunkResult {
  csv: string;
  jsonl: string;
  screened: number;
  flagged: number;
}

export const RESULT_COLUMNS = [
  'line',
  'name',
  'entity_type',
  'dob',
  'country',
  'flagged',
  'hit_count',
  'best_score',
  'best_entity_id',
  'best_entity_name',
  'matched_name',
  'matched_lists',
  'risk_score',
  'risk_level',
  'explanation',
  'match_strength',
  'confirmation',
  'risk_reason',
  'warnings',
] as const;

/** RFC 4180 field: quoted when it holds a comma, quote or line break. */
/** A CSV cell, quoted per RFC 4180 and guarded against spreadsheet formulas (src/shared/csv.ts). */
export const csvField = csvCell;

export function csvLine(values: readonly unknown[]): string {
  let out = '';
  for (let i = 0; i < values.length; i++) out += (i ? ',' : '') + csvField(values[i]);
  return `${out}\n`;
}

/** The row as the subject of a screening: the country is its jurisdiction; no type searches every kind, as the API's default. */
export function subjectOfRow(row: BatchRow): AgentSubject {
  const q = row.query;
  const typed = q.schema === 'person' ? 'individual' : q.schema === 'organization' ? 'company' : undefined;
  return {
    workflow: `batch-line-${row.line}`,
    name: q.name,
    entityType: typed ?? (q.schema === 'vessel' || q.schema === 'aircraft' ? 'organization' : 'individual'),
    ...(typed ? {} : { entityTypeDefaulted: true }),
    ...(q.birthDate ? { birthDate: q.birthDate } : {}),
    ...(q.country ? { jurisdiction: q.country } : {}),
    ...(q.identifiers?.length ? { identifiers: q.identifiers.map((i) => ({ type: i.type ?? 'other', value: i.value })) } : {}),
  };
}

/** The verdict context of options without one: their FATF table, no sanctions programmes. */
const contextOf = (options: BatchScreenOptions): VerdictContext => ({ countryRisk: options.countryRisk ?? [] });

/** The row's verdict: every hit at the threshold (one per real-world entity, no cap: hit_count is the real count). */
export function screenRow(engine: ScreeningEngine, row: BatchRow, options: BatchScreenOptions, context: VerdictContext = contextOf(options), noHit?: NoHitVerdicts): DirectVerdict {
  const filters = { ...(options.sources ? { sources: options.sources } : {}), ...(options.topics ? { topics: options.topics } : {}) };
  return directVerdict(engine, subjectOfRow(row), context, { threshold: options.threshold, hitsPerCategory: Number.MAX_SAFE_INTEGER, ...filters }, noHit);
}

/** Every hit of a verdict, the strongest first: confirmed before potential, then by score. */
export function rankedHits(verdict: DirectVerdict): ReportHit[] {
  const rank = (h: ReportHit) => (hitStatusOf(h) === 'confirmed' ? 1 : 0);
  return HIT_CATEGORIES.flatMap((c) => verdict.hits[c]).sort((a, b) => rank(b) - rank(a) || b.score - a.score);
}

export function resultCsvLine(row: BatchRow, verdict: DirectVerdict): string {
  const hits = rankedHits(verdict);
  const best = hits[0];
  const lists = [...new Set(hits.flatMap((h) => (h.sources?.length ? h.sources.map((s) => s.source) : [h.source])))].join(';');
  const explanation = [best?.explanation.summary, ...(row.notes ?? [])].filter(Boolean).join(' ');
  const confirmation = best ? confirmationOf(best) : undefined;
  return csvLine([
    row.line,
    row.input.name,
    row.input.entity_type,
    row.input.dob,
    row.input.country,
    hits.length > 0,
    hits.length,
    best ? best.score : '',
    best?.entityId ?? '',
    best?.entityName ?? '',
    best?.matchedName ?? '',
    lists,
    verdict.assessment.riskScore,
    verdict.assessment.riskLevel,
    explanation,
    best ? hitStatusOf(best) : '',
    confirmation ? `${confirmation.basis}: ${confirmation.detail}` : '',
    verdict.assessment.reason,
    (row.warnings ?? []).join(' '),
  ]);
}

export function resultJsonLine(row: BatchRow, verdict: DirectVerdict): string {
  return `${JSON.stringify({
    line: row.line,
    input: row.input,
    query: row.query,
    ...(row.warnings?.length ? { warnings: row.warnings } : {}),
    risk_score: verdict.assessment.riskScore,
    risk_level: verdict.assessment.riskLevel,
    risk_reason: verdict.assessment.reason,
    risk_flags: verdict.assessment.flags,
    ...(verdict.countryRisk ? { country_risk: verdict.countryRisk } : {}),
    hits: rankedHits(verdict),
  })}\n`;
}

/** Screen a chunk of rows in order; the unit of work a worker receives. */
export function screenChunk(engine: ScreeningEngine, rows: readonly BatchRow[], options: BatchScreenOptions, context: VerdictContext = contextOf(options)): ChunkResult {
  let csv = '';
  let jsonl = '';
  let flagged = 0;
  // most rows have no hit: their verdict depends on the country alone, worked out once per chunk
  const noHit: NoHitVerdicts = new Map();
  for (const row of rows) {
    const verdict = screenRow(engine, row, options, context, noHit);
    const flaggedRow = HIT_CATEGORIES.some((c) => verdict.hits[c].length > 0);
    if (flaggedRow) flagged++;
    csv += resultCsvLine(row, verdict);
    if (options.jsonl && flaggedRow) jsonl += resultJsonLine(row, verdict);
  }
  return { csv, jsonl, screened: rows.length, flagged };
}
