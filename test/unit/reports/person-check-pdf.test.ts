import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { PersonCheckReport } from '../../../src/reports/model';
import {
  maskDateOfBirth,
  maskIdentifier,
  PERSON_CHECK_SECTION_TITLES,
  personCheckReportFilename,
  renderPersonCheckPdf,
} from '../../../src/reports/pdf/person-check-report';
import { pdfText } from './pdf-text';

function sample(): PersonCheckReport {
  return {
    id: 'SVC-1a2b3c4d-P',
    createdAt: '2026-03-02T09:00:00.000Z',
    completedAt: '2026-03-02T09:00:05.000Z',
    subject: {
      fullName: 'Jonathan Q. Sample',
      aliases: ['Jon Sample'],
      dateOfBirth: '1980-04-12',
      locations: ['TX', 'CA'],
      identifiers: [{ type: 'ssn', value: '123-45-6789' }],
      associatedDomain: 'sample.example',
    },
    purpose: 'employment',
    consent: { fcraConsent: true, recordedAt: '2026-03-01T12:00:00.000Z', permissiblePurposeCertified: true },
    result: 'adverse_found',
    confidence: 'medium',
    riskScore: 45,
    riskLevel: 'high',
    findings: [
      { id: 'f1', severity: 'info', category: 'web_presence', corroboration: 'name_only', title: 'Professional profile found', source: 'web_search' },
      { id: 'f2', severity: 'red_flag', category: 'criminal', corroboration: 'name_dob', title: 'Felony conviction: wire fraud (2019)', detail: 'US v. Sample, N.D. Tex.', source: 'federal_dockets', sourceUrl: 'https://courts.example/123', recordDate: '2019-06-01' },
      { id: 'f3', severity: 'warning', category: 'civil', corroboration: 'name_location', title: 'Judgment lien 2021', source: 'county_records' },
    ],
    sourcesSearched: [
      { source: 'federal_dockets', durationMs: 120, matchCount: 1 },
      { source: 'ofac_sdn', durationMs: 2, matchCount: 0 },
    ],
    sourcesNotSearched: [{ source: 'sex_offender_registry', reason: 'not configured: set NSOPW_API_URL' }],
    audit: { events: [{ type: 'PersonCheckRequested', occurredAt: '2026-03-02T09:00:00.000Z' }], matcherVersion: 'matcher-1.0.0' },
  };
}

describe('person-check PDF', () => {
  it('masks identifiers', () => {
    assert.equal(maskIdentifier('123-45-6789'), '*******6789');
    assert.equal(maskIdentifier('12'), '**');
    assert.equal(maskDateOfBirth('1980-04-12'), '1980-**-**');
    assert.equal(maskDateOfBirth('unknown'), '****-**-**');
  });

  it('has every section, the findings grouped by severity, masked identifiers and the FCRA notice', async () => {
    const report = sample();
    const { flat, pages } = pdfText(await renderPersonCheckPdf(report, { generatedAt: '2026-03-02T10:00:00Z' }), 'person.pdf');
    PERSON_CHECK_SECTION_TITLES.forEach((t, i) => assert.ok(flat.includes(`${i + 1}. ${t}`), t));
    assert.ok(flat.includes('Jonathan Q. Sample'));
    assert.ok(flat.includes('*******6789'));
    assert.ok(!flat.includes('123-45-6789'), 'full identifier never printed');
    assert.ok(flat.includes('1980-**-**'));
    assert.ok(!flat.includes('1980-04-12'), 'full date of birth never printed');
    assert.ok(flat.includes('Result: ADVERSE FOUND'));
    assert.ok(flat.includes('Permissible purpose: Employment'));
    // red flags first, then warnings, then information
    const order = ['Red flags (1)', 'Warnings (1)', 'Information (1)'].map((h) => flat.indexOf(h));
    assert.ok(order.every((i) => i >= 0) && order[0]! < order[1]! && order[1]! < order[2]!, `severity order ${order}`);
    for (const f of report.findings) assert.ok(flat.includes(f.title), f.title);
    assert.ok(flat.includes('name only (weak: confirm identity before relying on it)'));
    assert.ok(flat.includes('sex_offender_registry: not configured: set NSOPW_API_URL'));
    assert.ok(flat.includes('pre-adverse action notice'));
    assert.ok(flat.includes('A Summary of Your Rights Under the Fair Credit Reporting Act'));
    assert.ok(flat.includes(`Page ${pages} of ${pages}`));
    assert.ok(flat.includes('SVC-1a2b3c4d-P'));
  });

  it('is deterministic and names its download', async () => {
    const a = await renderPersonCheckPdf(sample(), { generatedAt: '2026-03-02T10:00:00Z' });
    const b = await renderPersonCheckPdf(sample(), { generatedAt: '2026-03-02T10:00:00Z' });
    assert.ok(a.equals(b));
    assert.equal(personCheckReportFilename({ id: 'SVC-1a2b3c4d-P' }), 'person-check-SVC-1a2b3c4d-P.pdf');
  });

  it('a clean check with no findings says so', async () => {
    const report: PersonCheckReport = { ...sample(), result: 'clean', findings: [], confidence: 'high', riskScore: 0, riskLevel: 'low' };
    const { flat } = pdfText(await renderPersonCheckPdf(report, { generatedAt: '2026-03-02T10:00:00Z' }), 'clean.pdf');
    assert.ok(flat.includes('Result: CLEAN'));
    assert.ok(flat.includes('No finding in the sources searched.'));
  });
});
