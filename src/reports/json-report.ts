/**
 * The structured screening report as JSON (S3 GET /api/v1/screening/:id/report, inside the S3
 * `{data, meta}` envelope). Same 13 sections, same content as the PDF: both come from
 * buildReportSections. Keys are snake_case like the rest of the public API.
 */

import type { ScreeningKind, ScreeningReport } from './model';
import { buildReportSections, SECTION_KEYS, SECTION_TITLES, type ReportSections } from './sections';

export const REPORT_FORMAT_VERSION = '1.0';

const TYPE_LABEL: Record<ScreeningKind, 'CDD' | 'EDD' | 'MA' | 'SOW'> = { cdd: 'CDD', edd: 'EDD', ma: 'MA', sow: 'SOW' };

export type JsonReportSection = {
  [K in keyof ReportSections]: { number: number; key: K; title: string; content: ReportSections[K] };
}[keyof ReportSections];

export interface JsonScreeningReport {
  report_format_version: string;
  /** When the report was produced (injected, so the same input gives the same output). */
  generated_at: string;
  screening: {
    id: number;
    uuid: string;
    sow_screening_id: string | null;
    screening_type: 'CDD' | 'EDD' | 'MA' | 'SOW';
    status: string;
    created_at: string;
    completed_at: string | null;
    risk_score: number;
    risk_level: string;
  };
  /** One per stale list the screening used (also on the cover section). */
  list_warnings: string[];
  sections: JsonReportSection[];
}

export function buildJsonReport(report: ScreeningReport, options: { generatedAt: Date | string }): JsonScreeningReport {
  const sections = buildReportSections(report);
  return {
    report_format_version: REPORT_FORMAT_VERSION,
    generated_at: new Date(options.generatedAt).toISOString(),
    screening: {
      id: report.id,
      uuid: report.uuid,
      sow_screening_id: report.sowScreeningId ?? null,
      screening_type: TYPE_LABEL[report.kind],
      status: report.status,
      created_at: report.createdAt,
      completed_at: report.completedAt ?? null,
      risk_score: report.verdict.riskScore,
      risk_level: report.verdict.riskLevel,
    },
    list_warnings: sections.cover.list_warnings,
    sections: SECTION_KEYS.map((key, index) => ({ number: index + 1, key, title: SECTION_TITLES[index]!, content: sections[key] }) as JsonReportSection),
  };
}
