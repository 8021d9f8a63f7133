/**
 * The screening PDF as a document an officer signs and files: no blank page, each section once, the
 * list of sources not searched once, no internal rule ids or codes, a header naming the report and
 * the subject on every page, and a review and sign-off block. Page 1 of each case is rendered to
 * test-artifacts/*.png for a person to look at.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { renderScreeningReportPdf } from '../../../src/reports/pdf/screening-report';
import { SECTION_TITLES } from '../../../src/reports/sections';
import { emptyHits, RISK_SCALE, type ScreeningReport } from '../../../src/reports/model';
import { pdfPages, savePageOnePng } from './pdf-text';
import { notSearchedWords } from '../../../src/reports/plain-words';
import { cleanSampleReport, sampleReport } from './sample-report';

const generatedAt = '2026-11-26T10:00:00.000Z';

/** What pdftotext gives for a page holding only the running header and footer. */
function bodyWords(page: string, report: ScreeningReport): number {
  const body = page
    .split('\n')
    .filter((line) => !line.includes(`S1 #${report.id}`) && !/Page \d+ of \d+/.test(line))
    .join(' ');
  return body.split(/\s+/).filter(Boolean).length;
}

function count(haystack: string, needle: string): number {
  return haystack.split(needle).length - 1;
}

const INTERNAL_CODE = /\b(?:sanctions|pep|debarment|fatf|offshore_leaks|adverse_media|uk_registry)\.[a-z_]+(?:\.[a-z_]+)?\b|\bnot_searched:|\buk_list_not_loaded\b/;

function checkFileable(report: ScreeningReport, pages: string[]): string {
  const flat = pages.join('\n').replace(/\s+/g, ' ');
  pages.forEach((page, i) => {
    assert.ok(bodyWords(page, report) >= 8, `page ${i + 1} of ${pages.length} is blank apart from header and footer`);
    assert.ok(page.includes(`S1 #${report.id}`), `page ${i + 1} header names the report`);
    assert.ok(page.replace(/\s+/g, ' ').includes(report.subject.query.slice(0, 20)), `page ${i + 1} header names the subject`);
    assert.ok(page.includes(`Page ${i + 1} of ${pages.length}`), `page ${i + 1} footer`);
  });
  SECTION_TITLES.forEach((title, i) => assert.equal(count(flat, `${i + 1}. ${title}`), 1, `section ${i + 1} "${title}" exactly once`));
  assert.equal(count(flat, 'Review and sign-off'), 1);
  assert.doesNotMatch(flat, INTERNAL_CODE);
  for (const ns of report.sourcesNotSearched) assert.equal(count(flat, `${ns.source}: ${notSearchedWords(ns.reason)}`), 1, `"${ns.source}" is listed once, with why in words`);
  return flat;
}

describe('screening PDF an officer files', () => {
  it('sanctioned subject: verdict, decided and undecided hits in the sign-off block', async () => {
    const report = sampleReport();
    const [first, ...rest] = report.hits.sanctions;
    report.hits.sanctions = [
      { ...first!, disposition: { decision: 'true_match', by: 'Jane Officer (jane@acme.test)', at: '2026-11-25T09:30:00.000Z', note: 'DOB and nationality agree' } },
      ...rest,
    ];
    const pdf = await renderScreeningReportPdf(report, { generatedAt });
    const pages = pdfPages(pdf, 'sanctioned.pdf');
    const flat = checkFileable(report, pages);
    assert.ok(flat.includes(`Risk score ${report.verdict.riskScore} / 100: ${report.verdict.riskLevel.toUpperCase()}`));
    assert.ok(flat.includes('Decision: true match Reviewer: Jane Officer (jane@acme.test) Date: 25 November 2026, 09:30 UTC Comment: DOB and nationality agree'));
    const undecided = report.hits.sanctions.length - 1 + report.hits.pep.length + report.hits.adverse_media.length + report.hits.offshore_leaks.length + report.hits.debarment.length;
    assert.equal(count(flat, 'Undecided. Decision: true match / false positive / needs more information'), undecided);
    assert.ok(flat.includes('Compliance officer (name):'));
    assert.ok(fs.existsSync(savePageOnePng(pdf, 'report-sanctioned')));
  });

  it('a hit waiting for more information: the question with reviewer and comment, and still a line to sign the final decision; country risk names the programmes', async () => {
    const report = sampleReport();
    const [first, ...rest] = report.hits.sanctions;
    report.hits.sanctions = [
      { ...first!, disposition: { decision: 'needs_more_information', by: 'ann@acme.test', at: '2026-11-25T09:30:00.000Z', note: 'Ask for the passport copy' } },
      ...rest,
    ];
    report.countryRisk = [
      {
        ...report.countryRisk[0]!,
        iso2: 'IR',
        jurisdiction: 'Iran',
        sanctionsScope: 'comprehensive',
        sanctions: [
          {
            authority: 'us',
            programme: 'OFAC Iran sanctions',
            scope: 'comprehensive',
            basis: 'Iranian Transactions and Sanctions Regulations, 31 CFR part 560',
            inForceSince: '1995-05-06',
            reviewedAsOf: '2026-11-26',
            sourceUrl: 'https://ofac.treasury.gov/sanctions-programs-and-country-information/iran-sanctions',
            list: 'ofac_sdn',
            listPublishedAt: '2024-05-03',
            designations: 2812,
          },
        ],
      },
    ];
    const pdf = await renderScreeningReportPdf(report, { generatedAt });
    const flat = checkFileable(report, pdfPages(pdf, 'needs-more-information.pdf'));
    assert.ok(flat.includes('Decision: needs more information (undecided) Reviewer: ann@acme.test Date: 25 November 2026, 09:30 UTC Comment: Ask for the passport copy'), flat);
    assert.ok(flat.includes('Final decision: true match / false positive (circle one)'));
    assert.ok(flat.includes('Sanctions: under a comprehensive embargo. 1 programme targets Iran:'));
    assert.ok(flat.includes('OFAC Iran sanctions (United States, OFAC, comprehensive): Iranian Transactions and Sanctions Regulations, 31 CFR part 560. In force since 1995-05-06; classification reviewed 2026-11-26. 2812 designations on the list of 2024-05-03.'), flat.slice(flat.indexOf('Country risk'), flat.indexOf('Country risk') + 900));
  });

  it('clean subject: no hit to review, the sources not searched once', async () => {
    const report = cleanSampleReport('Eleanor Whitfield-Crane');
    const pdf = await renderScreeningReportPdf(report, { generatedAt });
    const flat = checkFileable(report, pdfPages(pdf, 'clean.pdf'));
    assert.ok(flat.includes('No hit to review.'));
    assert.ok(flat.includes('Risk level on this report: LOW (No significant flags).'));
    assert.ok(fs.existsSync(savePageOnePng(pdf, 'report-clean')));
  });

  it('company with undecided potential hits: a signature line for each', async () => {
    const base = sampleReport();
    const potential = base.hits.sanctions.map((h) => ({ ...h, score: 0.86, status: 'potential' as const, disposition: undefined }));
    const report = sampleReport({
      subject: { query: 'Tiansheng Industry and Trading Co., Ltd.', entityType: 'company' },
      hits: { ...emptyHits(), sanctions: potential },
    });
    const pdf = await renderScreeningReportPdf(report, { generatedAt });
    const flat = checkFileable(report, pdfPages(pdf, 'company.pdf'));
    assert.equal(count(flat, 'Reviewer: ______________________ Date: ____________ Signature:'), potential.length);
    assert.ok(fs.existsSync(savePageOnePng(pdf, 'report-company')));
  });

  it('never leaves a page holding only a bullet, wherever the page breaks fall', async () => {
    // Long lists of sources not searched push bullets across every possible position of a page foot.
    for (let n = 4; n <= 40; n += 3) {
      const report = sampleReport({
        sourcesNotSearched: Array.from({ length: n }, (_, i) => ({
          source: `Outside source number ${i + 1}`,
          reason: `not configured: no adapter for outside source number ${i + 1} is configured in this deployment (set SOURCE_${i + 1}_URL)`,
        })),
      });
      const pages = pdfPages(await renderScreeningReportPdf(report, { generatedAt }), `sweep-${n}.pdf`);
      pages.forEach((page, i) => assert.ok(bodyWords(page, report) >= 8, `${n} sources: page ${i + 1} of ${pages.length} is blank`));
    }
  });
});
