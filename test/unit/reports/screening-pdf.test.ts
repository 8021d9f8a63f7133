import { eventWords, humanTime } from '../../../src/reports/plain-words';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { renderScreeningReportPdf, screeningReportFilename } from '../../../src/reports/pdf/screening-report';
import { SECTION_TITLES, type HitsSection } from '../../../src/reports/sections';
import { emptyHits, RISK_SCALE } from '../../../src/reports/model';
import { pdfText } from './pdf-text';
import { buildJsonReport } from '../../../src/reports/json-report';
import { computeRiskScore } from '../../../src/reports/risk-score';
import { cleanSampleReport, sampleReport } from './sample-report';

const generatedAt = '2026-03-02T10:00:00.000Z';

describe('13-section screening report PDF', () => {
  it('has every numbered section, every hit name, the verdict, scale and audit trail', async () => {
    const report = sampleReport();
    const pdf = await renderScreeningReportPdf(report, { generatedAt });
    assert.equal(pdf.subarray(0, 5).toString(), '%PDF-');
    const { flat, pages } = pdfText(pdf, 'screening.pdf');
    SECTION_TITLES.forEach((title, i) => assert.ok(flat.includes(`${i + 1}. ${title}`), `section ${i + 1} "${title}"`));
    // Latin names as they are; non-Latin ones transliterated and labelled
    for (const name of ['ZALA AERO GROUP', 'Zala Aero', 'Alexander Vyacheslavovich ZAKHAROV', 'ZALA AERO SERVICES', 'Zala Aero drones used in strikes, investigation finds', 'TIANSHENG INDUSTRY AND TRADING CO., LTD.']) {
      assert.ok(flat.includes(name), `hit name ${name}`);
    }
    assert.ok(flat.includes('sdm hsyn ltkryty (Arabic script, transliterated)'), 'Arabic name transliterated');
    assert.ok(flat.includes('Zakharov Aleksandr Vyacheslavovich (Cyrillic script, transliterated)'), 'Cyrillic alias transliterated');
    assert.ok(flat.includes('TianShengGongMaoYouXianGongSi (Chinese script, transliterated)'), 'Chinese name transliterated');
    assert.ok(flat.includes(`Risk score ${report.verdict.riskScore} / 100: CRITICAL`));
    assert.ok(flat.includes('Confirmed sanctions match (the identity agrees): do not proceed without compliance review'), 'the flag notes stay, in section 3');
    // each hit says what confirmed it, or that nothing did, in the one wording (src/reports/confirmation.ts)
    assert.ok(flat.includes('CONFIRMED: identity corroborated'), 'the confirmed badge');
    assert.ok(flat.includes('Confirmed by: exact match on a distinctive name: "ZALA AERO GROUP"'), 'what confirmed it');
    assert.ok(flat.includes('POTENTIAL: partial name match, needs review'), 'the potential badge');
    assert.ok(!/95 or more/.test(flat), 'no score threshold stands for "confirmed"');
    for (const band of RISK_SCALE) assert.ok(flat.includes(`${band.min}-${band.max}`), `scale ${band.level}`);
    for (const c of report.verdict.breakdown) assert.ok(flat.includes(`+${c.points}`), c.rule);
    // audit trail: list versions with hashes, matcher version, event timestamps
    for (const v of report.audit.listVersions) assert.ok(flat.includes(v.contentHash), v.versionId);
    assert.ok(flat.includes('matcher-1.0.0'));
    // Every stored event in the appendix, in words with its time to the second, never its type name.
    for (const e of report.audit.events) assert.ok(flat.includes(`${humanTime(e.occurredAt, 'UTC', { seconds: true })}: ${eventWords(e.type)}`), e.type);
    for (const e of report.audit.events) assert.ok(!flat.includes(e.type), `no raw event type ${e.type}`);
    // analysis markdown rendered readably (markers gone)
    assert.ok(flat.includes('nested point with bold words inside'));
    assert.ok(!flat.includes('**'), 'no raw Markdown emphasis');
    assert.ok(!flat.includes('OPENCORPORATES_API_TOKEN'), 'what enables a source is the Sources page\'s business');
    assert.ok(flat.includes('not configured on this deployment'));
    // header and page numbers on every page
    assert.ok(pages >= 3);
    assert.ok(flat.includes(`Page ${pages} of ${pages}`));
    assert.equal(flat.split(`S1 #${report.id}`).length - 1, pages, 'header on every page');
    assert.ok(flat.includes('Generated 2 March 2026, 10:00 UTC'));
  });

  it('is deterministic for the same input and generation time', async () => {
    const a = await renderScreeningReportPdf(sampleReport(), { generatedAt });
    const b = await renderScreeningReportPdf(sampleReport(), { generatedAt });
    assert.ok(a.equals(b));
    const c = await renderScreeningReportPdf(sampleReport(), { generatedAt: '2026-03-03T10:00:00.000Z' });
    assert.ok(!a.equals(c));
  });

  it('renders a clean CDD screening with explicit "no hits" statements and no analysis', async () => {
    const report = cleanSampleReport('Jane Clean');
    const { flat } = pdfText(await renderScreeningReportPdf(report, { generatedAt }), 'clean.pdf');
    assert.ok(flat.includes('Risk score 0 / 100: LOW'));
    assert.ok(flat.includes('No sanctions list matched the subject'));
    assert.ok(flat.includes('Not part of a CDD screening'));
    assert.ok(flat.includes('No contribution'));
    assert.ok(!flat.includes('Confirmed sanctions match'));
  });

  it('survives hostile and unusual text: control characters, bidi overrides, Markdown, emoji, long tokens', async () => {
    const report = sampleReport();
    report.subject = { query: 'Evil\u0000\u202e Name <script>alert(1)</script> **bold** 😀 ' + 'x'.repeat(300), entityType: 'individual' };
    report.hits.sanctions[0]!.entityName = 'Robert\u0007 "); DROP TABLE hits;-- 李小龍 Ελληνικά עברית';
    const pdf = await renderScreeningReportPdf(report, { generatedAt });
    const { flat } = pdfText(pdf, 'hostile.pdf');
    assert.ok(flat.includes('Robert "); DROP TABLE hits;--'));
    assert.ok(flat.includes('LiXiaoLong (Chinese script, transliterated) Ellinika (Greek script, transliterated)'));
    assert.ok(flat.includes('(Hebrew script, transliterated)'));
    assert.ok(flat.includes('<script>alert(1)</script>'));
  });

  it('can print original scripts with a Unicode font when one is configured', async (t) => {
    const font = '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf';
    if (!fs.existsSync(font)) return t.skip('DejaVuSans not installed');
    const { flat } = pdfText(await renderScreeningReportPdf(sampleReport(), { generatedAt, unicodeFontPath: font }), 'unicode.pdf');
    assert.ok(flat.includes('Захаров Александр Вячеславович (Zakharov Aleksandr Vyacheslavovich)'));
    // DejaVu has no CJK glyphs: those are still transliterated rather than printed as empty boxes
    assert.ok(flat.includes('TianShengGongMaoYouXianGongSi (Chinese script, transliterated)'));
    assert.ok(flat.includes('1. Cover and verdict'));
  });

  it('names the download after the screening', () => {
    assert.equal(screeningReportFilename({ id: 1042, kind: 'edd' }), 'screening-edd-1042-report.pdf');
  });
});

describe('a merged hit (one real-world entity on several lists) in the PDF and the JSON report', () => {
  const merged = () => {
    const report = sampleReport();
    report.hits = emptyHits();
    report.hits.sanctions.push({
      hitId: 'sanctions:ofac_sdn:35096',
      category: 'sanctions',
      source: 'ofac_sdn',
      sourceLabel: 'OFAC SDN List',
      listAuthority: 'us',
      entityId: 'ofac_sdn:35096',
      entityName: 'PUTIN, Vladimir Vladimirovich',
      matchedName: 'PUTIN, Vladimir Vladimirovich',
      score: 0.95,
      status: 'confirmed',
      explanation: { summary: 'Exact match on primary "PUTIN, Vladimir Vladimirovich".', qualifiers: [] },
      programs: ['RUSSIA-EO14024'],
      sources: [
        { source: 'ofac_sdn', sourceLabel: 'OFAC SDN List', listAuthority: 'us', entityId: 'ofac_sdn:35096', listVersion: 'ofac_sdn@ab12', publishedAt: '2024-05-01' },
        { source: 'us_csl', sourceLabel: 'US Consolidated Screening List: Specially Designated Nationals (SDN) - Treasury Department', listAuthority: 'us', entityId: 'us_csl:35096', listVersion: 'us_csl@cd34', publishedAt: '2022-05-16' },
      ],
      birthDates: ['1952-10-07'],
      nationalities: ['RU'],
      identifiers: [{ type: 'passport', value: '100000001', country: 'RU', note: 'Passport' }],
      typeMismatch: { expected: 'organization', listed: 'person', typeGiven: false },
    });
    return report;
  };

  it('prints the date of birth, nationality, identifiers, the type mismatch and every list row with its date', async () => {
    const { flat } = pdfText(await renderScreeningReportPdf(merged(), { generatedAt }), 'merged.pdf');
    assert.ok(flat.includes('Date of birth'), 'DOB label');
    assert.ok(flat.includes('1952-10-07'));
    assert.ok(flat.includes('Nationality'));
    assert.ok(flat.includes('Passport 100000001 (RU)'));
    assert.ok(flat.includes('Listed on (2 list rows, one entity)'));
    assert.ok(flat.includes('OFAC SDN List, list of 1 May 2024'));
    assert.ok(flat.includes('list of 16 May 2022'));
    assert.ok(flat.includes('ofac_sdn: ofac_sdn:35096'), 'the record ids in the audit appendix');
    assert.ok(flat.includes('screened as organization (inferred: no type given), listed as person'));
  });

  it('the JSON report carries the same facts', () => {
    const json = buildJsonReport(merged(), { generatedAt });
    const section = json.sections.find((s) => s.key === 'sanctions')!;
    const hit = (section.content as HitsSection).hits[0]!;
    assert.deepEqual(hit.date_of_birth, ['1952-10-07']);
    assert.deepEqual(hit.nationality, ['RU']);
    assert.deepEqual(hit.sources?.map((s) => [s.list, s.list_published_at]), [['ofac_sdn', '2024-05-01'], ['us_csl', '2022-05-16']]);
    assert.deepEqual(hit.type_mismatch, { expected: 'organization', listed: 'person', type_given: false });
  });
});

describe('page 1 gives one verdict', () => {
  /** Page 1 text: everything before the first page footer. */
  const pageOne = (flat: string) => flat.slice(0, flat.indexOf('Page 1 of'));
  it('a lone confirmed SDN hit: CRITICAL, and the one sentence of why is the floor\'s reason', async () => {
    const base = sampleReport();
    const hits = [{ ...base.hits.sanctions[0]!, hitId: 'sanctions:ofac_sdn:20157', entityName: 'KIM, Jong Un', matchedName: 'KIM, Jong Un', score: 0.95 }];
    // The verdict as the pipeline's risk_score step computes it (src/reports/risk-score.ts) from this one hit.
    const found = emptyHits();
    found.sanctions.push(...hits);
    const assessment = computeRiskScore({ hits: found });
    const report = sampleReport({
      id: 9,
      subject: { query: 'Kim Jong Un', entityType: 'individual' },
      hits: found,
      countryRisk: [],
      enrichment: { registries: [] },
      agents: [],
      sourcesNotSearched: [],
      dataGaps: [],
      verdict: { riskScore: assessment.riskScore, riskLevel: assessment.riskLevel, scale: RISK_SCALE, breakdown: assessment.breakdown, uncappedScore: assessment.uncappedScore, flags: assessment.flags, reason: assessment.reason },
    });
    assert.deepEqual([report.verdict.riskScore, report.verdict.riskLevel], [70, 'critical']);
    const first = pageOne(pdfText(await renderScreeningReportPdf(report, { generatedAt }), 'kim.pdf').flat);
    assert.ok(first.includes('Risk score 70 / 100: CRITICAL'), first);
    assert.ok(first.includes('Why: Critical (70), do not proceed: confirmed match on a blocking sanctions list'), first);
    for (const other of ['LOW', 'MEDIUM', 'HIGH']) assert.ok(!first.includes(`: ${other}`), `no ${other} badge on page 1`);
  });
  it('a clean screening: LOW, and page 1 says nothing about proceeding or not', async () => {
    const report = sampleReport({ hits: emptyHits(), verdict: { riskScore: 0, riskLevel: 'low', scale: RISK_SCALE, breakdown: [], uncappedScore: 0, flags: [], reason: 'Low (0), no significant flags: no sanctions, PEP, debarment, offshore-leak or country-risk finding counts.' } });
    const first = pageOne(pdfText(await renderScreeningReportPdf(report, { generatedAt }), 'clean1.pdf').flat);
    assert.ok(first.includes('Risk score 0 / 100: LOW'));
    assert.ok(!/do not proceed/i.test(first), first);
  });
});
