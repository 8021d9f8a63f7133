/**
 * One batch row screened and shaped for the output files. The same function runs in the main thread
 * (one worker) and in each worker thread, so a pooled batch writes byte-for-byte what a single-thread
 * batch writes.
 *
 * Results CSV, one line per readable input row (rejected rows go to the errors file):
 *   line, name, entity_type, dob, country  — the input as given (line = the row's line in the file)
 *   flagged      true when at least one hit reaches the threshold
 *   hit_count    how many listed entities reach the threshold
 *   best_score, best_entity_id, best_entity_name, matched_name (the name or alias that matched)
 *   matched_lists  the lists of every hit, best first, `;`-separated
 *   risk_score, risk_level  the shared scorer (computeRiskScore) on the row's hits
 *   explanation  the best hit's one-sentence explanation
 * JSON lines (optional), one line per flagged row with every hit and its full explanation.
 */
import { csvCell } from '../../shared/csv';
import { computeRiskScore, type ScorableHit } from '../../reports/risk-score';
import type { HitCategory } from '../../reports/model';
import type { ScreeningEngine } from '../../screening/engine';
import type { ListEntity, ListTopic, MatchResult, ScreeningQuery } from '../../screening/model';

export interface BatchRow {
  /** Line of the row in the input file (1 = the header). */
  line: number;
  /** The input fields as given. */
  input: { name: string; entity_type: string; dob: string; country: string };
  query: ScreeningQuery;
  /** Things the validator wants the reader to know (a DOB range not used…). */
  notes?: string[];
}

export interface BatchScreenOptions {
  threshold: number;
  sources?: string[];
  topics?: ListTopic[];
  /** Write the JSON-lines detail. */
  jsonl: boolean;
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
] as const;

/** RFC 4180 field: quoted when it holds a comma, quote or line break. */
/** A CSV cell, quoted per RFC 4180 and guarded against spreadsheet formulas (src/shared/csv.ts). */
export const csvField = csvCell;

export function csvLine(values: readonly unknown[]): string {
  let out = '';
  for (let i = 0; i < values.length; i++) out += (i ? ',' : '') + csvField(values[i]);
  return `${out}\n`;
}

/** The risk category a listed entity's hit counts in, as the list agents file it. */
export function hitCategory(topics: readonly ListTopic[]): HitCategory {
  if (topics.includes('sanctions')) return 'sanctions';
  if (topics.includes('pep')) return 'pep';
  if (topics.includes('offshore_leaks')) return 'offshore_leaks';
  return 'debarment';
}

/** The risk of a row with no hit (most rows): computeRiskScore is pure, so it is worked out once. */
let noHitRisk: { riskScore: number; riskLevel: string } | undefined;

export function riskOf(hits: readonly MatchResult[]): { riskScore: number; riskLevel: string } {
  if (!hits.length) return (noHitRisk ??= assess({}));
  const byCategory: Partial<Record<HitCategory, ScorableHit[]>> = {};
  for (const h of hits) {
    const category = hitCategory(h.entity.topics);
    (byCategory[category] ??= []).push({ hitId: h.entity.id, category, source: h.entity.source, score: h.score, entityName: h.entity.primaryName });
  }
  return assess(byCategory);
}

function assess(byCategory: Partial<Record<HitCategory, ScorableHit[]>>): { riskScore: number; riskLevel: string } {
  const assessment = computeRiskScore({ hits: byCategory });
  return { riskScore: assessment.riskScore, riskLevel: assessment.riskLevel };
}

function entitySummary(e: ListEntity) {
  return { id: e.id, source: e.source, sourceId: e.sourceId, listVersion: e.listVersion, primaryName: e.primaryName, schema: e.schema, topics: e.topics, programs: e.programs };
}

/** Every hit at the threshold, best first (no cap: hit_count is the real count). */
export function screenRow(engine: ScreeningEngine, row: BatchRow, options: BatchScreenOptions): MatchResult[] {
  return engine.screen(row.query, { threshold: options.threshold, limit: Number.MAX_SAFE_INTEGER, sources: options.sources, topics: options.topics });
}

export function resultCsvLine(row: BatchRow, hits: readonly MatchResult[]): string {
  const best = hits[0];
  const risk = riskOf(hits);
  const lists = [...new Set(hits.map((h) => h.entity.source))].join(';');
  const explanation = [best?.explanation.summary, ...(row.notes ?? [])].filter(Boolean).join(' ');
  return csvLine([
    row.line,
    row.input.name,
    row.input.entity_type,
    row.input.dob,
    row.input.country,
    hits.length > 0,
    hits.length,
    best ? best.score : '',
    best?.entity.id ?? '',
    best?.entity.primaryName ?? '',
    best?.explanation.matchedName ?? '',
    lists,
    risk.riskScore,
    risk.riskLevel,
    explanation,
  ]);
}

export function resultJsonLine(row: BatchRow, hits: readonly MatchResult[]): string {
  const risk = riskOf(hits);
  return `${JSON.stringify({
    line: row.line,
    input: row.input,
    query: row.query,
    risk_score: risk.riskScore,
    risk_level: risk.riskLevel,
    hits: hits.map((h) => ({ score: h.score, entity: entitySummary(h.entity), explanation: h.explanation })),
  })}\n`;
}

/** Screen a chunk of rows in order; the unit of work a worker receives. */
export function screenChunk(engine: ScreeningEngine, rows: readonly BatchRow[], options: BatchScreenOptions): ChunkResult {
  let csv = '';
  let jsonl = '';
  let flagged = 0;
  for (const row of rows) {
    const hits = screenRow(engine, row, options);
    if (hits.length) flagged++;
    csv += resultCsvLine(row, hits);
    if (options.jsonl && hits.length) jsonl += resultJsonLine(row, hits);
  }
  return { csv, jsonl, screened: rows.length, flagged };
}
