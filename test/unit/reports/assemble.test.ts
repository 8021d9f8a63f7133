import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { assembleScreeningReport, normaliseHits, outcomeToFindings, type ReportParts } from '../../../src/reports/assemble';
import { buildJsonReport } from '../../../src/reports/json-report';
import type { ReportHit } from '../../../src/reports/model';
import { sampleReport } from './sample-report';

const allHits = (): ReportHit[] => Object.values(sampleReport().hits).flat();

function parts(overrides: Partial<ReportParts> = {}): ReportParts {
  const s = sampleReport();
  return {
    id: s.id,
    uuid: s.uuid,
    kind: 'cdd',
    createdAt: s.createdAt,
    completedAt: s.completedAt,
    subject: { query: 'Zala Aero Group', entityType: 'company', jurisdiction: 'Russia' },
    hits: allHits(),
    countryRisk: s.countryRisk,
    enrichment: { registries: s.enrichment.registries, ukRegistry: s.enrichment.ukRegistry },
    agents: s.agents,
    listVersions: s.audit.listVersions,
    matcherVersion: s.audit.matcherVersion,
    events: s.audit.events,
    ...overrides,
  };
}

describe('assembleScreeningReport', () => {
  it('computes the verdict from the hits with the scoring rules', () => {
    const report = assembleScreeningReport(parts());
    assert.equal(report.verdict.uncappedScore, sampleReport().verdict.uncappedScore);
    assert.equal(report.verdict.riskScore, 100);
    assert.equal(report.verdict.riskLevel, 'critical');
    assert.deepEqual(report.verdict.flags, ['confirmed_sanctions_hit', 'pep', 'fatf_black_list']);
    assert.equal(report.status, 'completed');
  });

  it('lists agents that were not queried, and tier exclusions, as sources not searched', () => {
    const report = assembleScreeningReport(parts({ excludedByTier: [{ source: 'litigation', reason: 'not in plan tier' }] }));
    assert.deepEqual(report.sourcesNotSearched, [
      { source: 'opencorporates', reason: 'not configured: set OPENCORPORATES_API_TOKEN' },
      { source: 'litigation', reason: 'not in plan tier' },
    ]);
  });

  it('writes a factual CDD summary when none is given', () => {
    const report = assembleScreeningReport(parts());
    assert.equal(
      report.verdict.summary,
      'Screening of "Zala Aero Group": 3 sanctions hits (1 confirmed), 1 PEP hit, 1 adverse-media hit, 1 offshore-leak hit, 1 debarment hit. Risk score 100/100, critical (do not proceed). 1 source could not be searched.',
    );
  });

  it('a screening with nothing found is low, with no flags', () => {
    const report = assembleScreeningReport(parts({ hits: [], countryRisk: [], enrichment: {} }));
    assert.deepEqual([report.verdict.riskScore, report.verdict.riskLevel, report.verdict.flags], [0, 'low', []]);
    assert.equal(buildJsonReport(report, { generatedAt: '2026-01-01T00:00:00Z' }).sections.length, 13);
  });
});

describe('normaliseHits', () => {
  it('drops hits under 0.80, keeps the best of duplicates, sorts by score and re-derives status', () => {
    const base = sampleReport().hits.sanctions[1]!; // potential 0.91
    const normalised = normaliseHits([
      { ...base, score: 0.5, hitId: 'weak' },
      base,
      { ...base, score: 0.97, status: 'potential' },
      { ...sampleReport().hits.sanctions[2]!, score: 0.93 },
    ]);
    assert.deepEqual(
      normalised.sanctions.map((h) => [h.hitId, h.score, h.status]),
      [
        [base.hitId, 0.97, 'confirmed'],
        ['sanctions:un_sc:IQi.001', 0.93, 'potential'],
      ],
    );
  });
});

describe('outcomeToFindings', () => {
  it('splits an outcome into audit entry, hits and registry facts', () => {
    const f = outcomeToFindings(
      { name: 'companies_house', label: 'UK Companies House', phase: '1b' },
      {
        queried: true,
        matches: [
          { kind: 'registry', record: { source: 'companies_house', legalName: 'X LTD' }, ukRegistry: { companyNumber: '1', status: 'dissolved' } },
          { kind: 'hit', category: 'pep', entityId: 'p1', entityName: 'P', matchedName: 'P', score: 0.9, summary: 's', programs: [] },
          { kind: 'hit', category: 'pep', entityId: 'p2', entityName: 'Q', matchedName: 'Q', score: 0.6, summary: 's', programs: [] },
        ],
        warnings: ['w'],
      },
      { durationMs: 12 },
    );
    assert.deepEqual(f.audit, { agent: 'companies_house', phase: '1b', queried: true, durationMs: 12, matchCount: 3 });
    assert.deepEqual(f.hits.map((h) => h.entityId), ['p1']);
    assert.equal(f.registries[0]!.legalName, 'X LTD');
    assert.equal(f.ukRegistry?.status, 'dissolved');
    assert.deepEqual(f.warnings, ['w']);
  });

  it('records a failed source with its error and nothing else', () => {
    const f = outcomeToFindings({ name: 'gleif', phase: '1b' }, { queried: false, error: 'network error ENOTFOUND', matches: [] }, { durationMs: 3 });
    assert.deepEqual(f.audit, { agent: 'gleif', phase: '1b', queried: false, error: 'network error ENOTFOUND', durationMs: 3, matchCount: 0 });
    assert.deepEqual([f.hits, f.registries], [[], []]);
  });
});
