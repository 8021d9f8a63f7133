/**
 * The PDF an officer files, read back with pdftotext (issue 31): the subject's facts and countries
 * are there; no internal identity (`user:u…`), raw event type, environment-variable name or ISO
 * timestamp on page 1; a decision comment is never cut; each paragraph, the "Why" first, is printed
 * once; the agents' and events' internals are in a short appendix after the sign-off, in words.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { renderScreeningReportPdf } from '../../../src/reports/pdf/screening-report';
import { computeRiskScore } from '../../../src/reports/risk-score';
import { emptyHits, RISK_SCALE, type ReportHit, type ScreeningReport } from '../../../src/reports/model';
import { screeningEventTypes } from '../../../src/commands/screening';
import { pdfPages } from './pdf-text';
import { sampleReport } from './sample-report';

const COMMENT =
  'Escalated to MLRO: the passport copy the client sent matches the SDN record (passport 100000001, date of birth 7 October 1952); relationship declined and the suspicious activity report filed the same day.';

function officerReport(): ScreeningReport {
  const putin: ReportHit = {
    hitId: 'sanctions:ofac_sdn:35096',
    category: 'sanctions',
    source: 'ofac_sdn',
    sourceLabel: 'OFAC SDN List',
    listAuthority: 'us',
    entityId: 'ofac_sdn:35096',
    entityName: 'PUTIN, Vladimir Vladimirovich',
    matchedName: 'Vladimir Putin',
    matchedNameKind: 'strong_alias',
    score: 0.97,
    status: 'confirmed',
    explanation: {
      summary: 'Exact match on strong alias "Vladimir Putin" (name 1, tokens exact); date of birth 1952-10-07 agrees; score 0.97. Same entity on 2 list rows, linked by OFAC entity number 35096.',
      qualifiers: [{ kind: 'dob_match', effect: 0.05, detail: 'date of birth 1952-10-07 agrees' }],
    },
    programs: ['RUSSIA-EO14024'],
    birthDates: ['1952-10-07'],
    nationalities: ['RU'],
    identifiers: [
      { type: 'passport', value: '100000001', country: 'RU' },
      { type: 'other', value: 'Subject to Directive 1' },
      { type: 'other', value: 'For more information on directives, please visit the following link: https://ofac.treasury.gov/' },
    ],
    sources: [
      { source: 'ofac_sdn', sourceLabel: 'OFAC SDN List', listAuthority: 'us', entityId: 'ofac_sdn:35096', publishedAt: '2024-05-03' },
      { source: 'us_csl', sourceLabel: 'US Consolidated Screening List', listAuthority: 'us', entityId: 'us_csl:06f3f6a1b2c3d4e5f60718293a4b5c6d7e8f9', publishedAt: '2022-05-16' },
    ],
    disposition: { decision: 'true_match', by: 'ann@northgate.test', at: '2026-03-07T14:02:11.000Z', note: COMMENT },
  };
  const hits = { ...emptyHits(), sanctions: [putin] };
  const countryRisk = [{ iso2: 'RU', jurisdiction: 'Russia', fatfStatus: 'none' as const, asOf: '2026-02-13', basis: 'subject_nationality', sanctionsScope: 'sectoral' as const, sanctions: [] }];
  const assessment = computeRiskScore({ hits, countryRisk: [] });
  const base = sampleReport();
  return {
    ...base,
    kind: 'cdd',
    subject: { query: 'Vladimir Putin', entityType: 'individual', dateOfBirth: '1952-10-07', nationality: 'RU', identifiers: [{ type: 'passport', value: '100000001' }] },
    hits,
    countryRisk,
    verdict: { riskScore: assessment.riskScore, riskLevel: assessment.riskLevel, scale: RISK_SCALE, breakdown: assessment.breakdown, uncappedScore: assessment.uncappedScore, reason: assessment.reason, summary: 'Vladimir Putin (individual) was screened against 4 sources.' },
    analysis: undefined,
    enrichment: { registries: [] },
    agents: [
      { agent: 'sanctions', phase: '1', queried: true, durationMs: 38, matchCount: 2, startedAt: '2026-03-07T14:00:01.000Z' },
      { agent: 'opensanctions_pep', phase: '1', queried: false, error: 'not configured: set OPENSANCTIONS_DIR', durationMs: 0, matchCount: 0 },
    ],
    dataGaps: [{ code: 'not_searched:opensanctions_pep', description: 'opensanctions_pep was not searched: not configured: set OPENSANCTIONS_DIR' }],
    sourcesNotSearched: [{ source: 'PEP lists (OpenSanctions)', reason: 'not configured: set OPENSANCTIONS_DIR' }],
    audit: {
      ...base.audit,
      events: screeningEventTypes
        .filter((type) => !['PhaseRetried', 'PhaseSkipped', 'ScreeningFailed'].includes(type))
        .map((type, i) => ({ type, occurredAt: `2026-03-07T14:0${Math.min(9, i)}:1${i % 10}.000Z`, eventId: `e${i}`, position: String(i) })),
    },
  } as ScreeningReport;
}

const ISO_INSTANT = /\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;
const ENV_NAME = /\b[A-Z][A-Z0-9]+(?:_[A-Z0-9]+)+\b/;

describe('the PDF an officer files (pdftotext)', () => {
  it('given a decided sanctions hit on a person with nationality Russia, then the facts are there and no internal code is', async () => {
    const report = officerReport();
    const pages = pdfPages(await renderScreeningReportPdf(report, { generatedAt: '2026-03-07T15:00:00.000Z', timeZone: 'Europe/London' }), 'officer.pdf');
    const flat = pages.join('\n').replace(/\s+/g, ' ');

    // The subject and its countries (nationality included: Russia's country risk is assessed).
    assert.ok(flat.includes('Name searched: Vladimir Putin'));
    assert.ok(flat.includes('Entity type: individual'));
    // The identity facts that were entered, in the Subject section (section 2, before the risk section).
    const from = flat.indexOf('Identity facts given');
    const to = flat.indexOf('Risk score ', from);
    assert.ok(from > 0 && to > from, 'section 2 before section 3');
    const subject = flat.slice(from, to);
    assert.ok(subject.includes('Date of birth: 1952-10-07'), subject);
    assert.ok(subject.includes('Nationality: Russia (RU)'), subject);
    assert.ok(subject.includes('Identifiers: Passport 100000001'), subject);
    assert.doesNotMatch(subject, /Name only:/, 'facts were given: not read as a name-only screening');
    assert.match(flat, /Russia \(RU\), the subject's nationality \(shown, not scored\): Not on an FATF list\. FATF statement of 13 February 2026\./);
    // The hit's record: real identifiers only, list names with human dates, adjustments in words.
    assert.ok(flat.includes('Identifiers: Passport 100000001 (RU)'));
    assert.ok(!flat.includes('Subject to Directive 1'), 'list remarks are not identifiers');
    assert.ok(flat.includes('OFAC SDN List, list of 3 May 2024; US Consolidated Screening List, list of 16 May 2022'));
    assert.ok(flat.includes('Adjustment: date of birth 1952-10-07 agrees (+5 points)'));
    assert.ok(!/Qualifier|dob_match/.test(flat), 'no qualifier codes');
    assert.ok(!/score 0\.97|name 1, tokens/.test(flat), 'no raw matcher scores in the explanation');
    assert.ok(flat.includes('Why it matched: Exact match on the alias "Vladimir Putin"; date of birth 1952-10-07 agrees.'));

    // No internal identity, raw event type, setting name; times in words.
    assert.doesNotMatch(flat, /user:u/);
    for (const type of screeningEventTypes) assert.ok(!flat.includes(type), `raw event type ${type}`);
    assert.doesNotMatch(flat, ENV_NAME);
    assert.doesNotMatch(pages[0]!, ISO_INSTANT, 'page 1 has no ISO timestamp');
    assert.ok(pages[0]!.includes('7 March 2026, 14:00 GMT') || pages[0]!.replace(/\s+/g, ' ').includes('Requested:'), pages[0]);

    // The decision comment whole, once (not cut into the scorer's reasons); the "Why" once.
    assert.equal(flat.split(COMMENT).length - 1, 1, 'the full comment, once');
    assert.doesNotMatch(flat, /Escalated to M[^L]/);
    assert.equal(flat.split('Why:').length - 1, 1, 'the one sentence of why is printed once');
    assert.ok(flat.includes('true match by ann@northgate.test on 2026-03-07'));
    // The analyst's decision and the machine's assessment, each shown: the badge is the analyst's.
    assert.ok(flat.includes('Score: 97 / 100: CONFIRMED by an analyst (true match)'), flat);
    assert.match(flat, /Machine's assessment: (strong name match|identity corroborated)/);
    assert.ok(flat.includes('1 hit: analyst-confirmed 1.'), 'the section counts the hit as it stands');

    // Each paragraph once (the running header and footer aside).
    const paragraphs = pages
      .flatMap((page) => page.split(/\n\s*\n/))
      .map((p) => p.replace(/\s+/g, ' ').trim())
      .filter((p) => p.length > 60 && !p.includes(`S1 #${report.id}`) && !/Page \d+ of \d+/.test(p));
    const repeated = paragraphs.filter((p, i) => paragraphs.indexOf(p) !== i);
    assert.deepEqual(repeated, []);

    // Agents and events: a short appendix after the sign-off, in words, with times to the second.
    const signOff = pages.findIndex((p) => p.includes('Review and sign-off'));
    const appendix = pages.findIndex((p) => p.includes('Audit appendix'));
    assert.ok(signOff >= 0 && appendix > signOff, 'the appendix follows the sign-off');
    assert.ok(appendix >= pages.length - 2, 'the appendix is short (at most two pages)');
    const appendixText = pages.slice(appendix).join(' ').replace(/\s+/g, ' ');
    assert.ok(appendixText.includes('Screening requested (position 0)'));
    assert.ok(appendixText.includes('7 March 2026, 14:00:10 GMT: Screening requested'));
    assert.ok(appendixText.includes('us_csl: us_csl:06f3f6a1b2c3d4e5f60718293a4b5c6d7e8f9'), 'record ids are kept, in the appendix');
    assert.ok(!pages.slice(0, signOff).join(' ').includes('us_csl:06f3f6'), 'and only there');
  });

  it("given a company with a registration number and an LEI, then its Subject section shows a company's facts and no person's rows", async () => {
    const base = officerReport();
    const render = async (subject: ScreeningReport['subject']) => {
      const pages = pdfPages(await renderScreeningReportPdf({ ...base, subject }, { generatedAt: '2026-03-07T15:00:00.000Z', timeZone: 'Europe/London' }), 'company.pdf');
      const flat = pages.join('\n').replace(/\s+/g, ' ');
      const from = flat.indexOf('Identity facts given');
      const to = flat.indexOf('Risk score ', from);
      assert.ok(from > 0 && to > from, 'section 2 before section 3');
      return flat.slice(flat.lastIndexOf('Name searched', from), to);
    };

    const company = await render({
      query: 'Sberbank Leasing',
      entityType: 'company',
      jurisdiction: 'Russia',
      jurisdictionIso2: 'RU',
      identifiers: [
        { type: 'registration_number', value: '1027739000728' },
        { type: 'lei', value: '253400M18U5TB02TW421' },
      ],
    });
    assert.ok(company.includes('Entity type: company'), company);
    assert.ok(company.includes('Jurisdiction: Russia (RU)'), company);
    assert.ok(company.includes('Registration number: 1027739000728'), company);
    assert.ok(company.includes('Other identifiers: LEI 253400M18U5TB02TW421'), company);
    assert.doesNotMatch(company, /Date of birth|Nationality/, "a company has no person's rows");
    assert.doesNotMatch(company, /Name only:/, 'identifiers were given');

    // An organisation given nothing but its name: the company rows say so, and the name-only note speaks of a company's facts.
    const organisation = await render({ query: 'Al-Haramain Foundation', entityType: 'organization' });
    assert.ok(organisation.includes('Registration number: not given'), organisation);
    assert.ok(organisation.includes('Other identifiers: none given'), organisation);
    assert.doesNotMatch(organisation, /Date of birth|Nationality/);
    assert.ok(organisation.includes('Name only: no registration number or other identifier was given'), organisation);

    // A date and country a caller entered for a company anyway: printed as entered, saying which field, not as a person's rows.
    const entered = await render({ query: 'Sberbank Leasing', entityType: 'company', dateOfBirth: '1991', nationality: 'RU' });
    assert.ok(entered.includes('Country entered (as nationality): Russia (RU) Date entered (as date of birth): 1991'), entered);
    assert.doesNotMatch(entered, /Date of birth:|Nationality:/);
    assert.ok(entered.includes('Name only: no registration number or other identifier was given'), 'a date does not tell a company from a namesake');

    // A person keeps a person's rows.
    const person = await render({ query: 'Li Wei', entityType: 'individual' });
    assert.ok(person.includes('Date of birth: not given Nationality: not given Identifiers: none given'), person);
    assert.doesNotMatch(person, /Registration number/);
  });

  it('given an undecided name-only hit at 97, then "confirmed" appears nowhere, and a false positive changes the counts', async () => {
    const strongName: ReportHit = {
      hitId: 'sanctions:ofac_sdn:1',
      category: 'sanctions',
      source: 'ofac_sdn',
      sourceLabel: 'OFAC SDN List',
      listAuthority: 'us',
      entityId: 'ofac_sdn:1',
      entityName: 'LI, Wei',
      matchedName: 'Li Wei',
      matchedNameKind: 'primary',
      score: 0.97,
      status: 'potential',
      assessment: 'strong_name_match',
      identityNote: 'name only: nothing corroborates the identity; needs an identity fact (date of birth or identifier)',
      explanation: { summary: 'Exact match on primary name "LI, Wei"; score 0.97.', qualifiers: [] },
      programs: ['SDGT'],
    };
    const nameOnly = (hit: ReportHit): ScreeningReport => {
      const hits = { ...emptyHits(), sanctions: [hit] };
      const assessment = computeRiskScore({ hits, countryRisk: [] });
      const base = officerReport();
      return {
        ...base,
        subject: { query: 'Li Wei', entityType: 'individual' },
        hits,
        countryRisk: [],
        verdict: {
          ...base.verdict,
          riskScore: assessment.riskScore,
          riskLevel: assessment.riskLevel,
          breakdown: assessment.breakdown,
          uncappedScore: assessment.uncappedScore,
          reason: assessment.reason,
          flags: assessment.flags,
          // As an older summary step recorded it: the report counts the hits again as they stand.
          summary: 'Li Wei (individual) was screened against 4 sources. 1 potential match(es), 1 confirmed: LI, Wei on OFAC SDN List (97).',
        },
      };
    };
    const render = async (report: ScreeningReport) =>
      pdfPages(await renderScreeningReportPdf(report, { generatedAt: '2026-03-07T15:00:00.000Z', timeZone: 'Europe/London' }), 'name-only.pdf').join('\n').replace(/\s+/g, ' ');

    const undecided = await render(nameOnly(strongName));
    assert.doesNotMatch(undecided, /confirmed/i, undecided.match(/.{0,80}confirmed.{0,40}/i)?.[0]);
    assert.ok(undecided.includes('Score: 97 / 100: POTENTIAL: strong name match, identity not corroborated'));
    assert.ok(undecided.includes('1 match (strong name match 1): LI, Wei on OFAC SDN List (97, strong name match).'), 'the summary in the words of the one definition');
    assert.ok(undecided.includes('Identity facts given Date of birth: not given Nationality: not given Identifiers: none given'));

    const dismissed = await render(nameOnly({ ...strongName, disposition: { decision: 'false_positive', by: 'ann@northgate.test', at: '2026-03-07T14:02:11.000Z', note: 'other person' } }));
    assert.doesNotMatch(dismissed, /confirmed/i);
    assert.ok(dismissed.includes('1 match (dismissed 1): none stands after the analysts\' decisions.'), 'the summary counts the decision');
    assert.ok(dismissed.includes('1 hit: dismissed 1.'));
    assert.ok(dismissed.includes("Machine's assessment: strong name match"));
  });
});
