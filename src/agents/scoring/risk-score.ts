/**
 * Moved to src/reports/risk-score.ts (the scorer is domain logic the report model uses). This
 * re-export stays only for src/app/screenings/report-builder.ts and src/app/batch-screening, which
 * are being changed in parallel; point their imports at src/reports/risk-score.ts and delete this file.
 */
export * from '../../reports/risk-score';
