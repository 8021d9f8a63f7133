/**
 * The person-check (FCRA background check) PDF: S1 person checks and the S3 portal
 * GET /api/person-checks/:id/pdf. Identifiers are masked (last four characters only, date of
 * birth as year only) and the report ends with the FCRA adverse-action notice.
 */

import type { FindingSeverity, PersonCheckFinding, PersonCheckReport } from '../model';
import { LEVEL_COLOURS, PdfWriter } from './writer';

export const PERSON_CHECK_SECTION_TITLES = [
  'Subject',
  'Purpose and consent',
  'Result and confidence',
  'Findings by severity',
  'Sources searched and not searched',
  'FCRA notice: adverse action',
] as const;

const PURPOSE_LABEL: Record<PersonCheckReport['purpose'], string> = {
  employment: 'Employment',
  business_due_diligence: 'Business due diligence',
  volunteer_screening: 'Volunteer screening',
  licensing: 'Licensing',
};

const SEVERITY_ORDER: FindingSeverity[] = ['red_flag', 'warning', 'info'];
const SEVERITY_LABEL: Record<FindingSeverity, string> = { red_flag: 'Red flags', warning: 'Warnings', info: 'Information' };
const SEVERITY_COLOUR: Record<FindingSeverity, string> = { red_flag: '#c92a2a', warning: '#b7791f', info: '#1b4f91' };
const CORROBORATION_LABEL: Record<PersonCheckFinding['corroboration'], string> = {
  name_dob: 'name and date of birth',
  name_location: 'name and location',
  name_only: 'name only (weak: confirm identity before relying on it)',
};

/** Keeps only the last four characters of an identifier: "123-45-6789" → "*******6789". */
export function maskIdentifier(value: string): string {
  const compact = value.replace(/\s+/g, '');
  if (compact.length <= 4) return '*'.repeat(compact.length);
  return `${'*'.repeat(compact.length - 4)}${compact.slice(-4)}`;
}

/** A date of birth shown as its year only: "1980-04-12" → "1980-**-**". */
export function maskDateOfBirth(value: string): string {
  const year = /^(\d{4})/.exec(value.trim());
  return year ? `${year[1]}-**-**` : '****-**-**';
}

export const FCRA_NOTICE = [
  'This report is a consumer report under the Fair Credit Reporting Act (15 U.S.C. 1681 et seq.). It may be used only for the permissible purpose certified above, and only with the consumer\'s consent where required.',
  'Before taking any adverse action based in whole or in part on this report (for example declining employment, a licence or a volunteer position), the user must give the consumer a pre-adverse action notice with a copy of this report and "A Summary of Your Rights Under the Fair Credit Reporting Act" (FCRA section 604(b)(3)), and allow a reasonable time for the consumer to dispute the information.',
  'If the adverse action is then taken, the user must give the consumer an adverse action notice (FCRA section 615(a)) stating: the name, address and telephone number of the consumer reporting agency that furnished the report; that the agency did not make the decision and cannot explain why it was made; the consumer\'s right to a free copy of the report from the agency within 60 days; and the consumer\'s right to dispute the accuracy or completeness of any information with the agency.',
  'Findings matched on name only may concern a different person. Verify identity with independent identifiers before relying on any finding, and apply any stricter state or local law (for example fair-chance hiring rules).',
];

export interface PersonCheckPdfOptions {
  generatedAt: Date | string;
  unicodeFontPath?: string;
}

export function personCheckReportFilename(report: Pick<PersonCheckReport, 'id'>): string {
  return `person-check-${report.id}.pdf`;
}

export async function renderPersonCheckPdf(report: PersonCheckReport, options: PersonCheckPdfOptions): Promise<Buffer> {
  const generatedAt = new Date(options.generatedAt);
  const w = new PdfWriter({
    header: `Person check report  |  ${report.id}`,
    generatedAt,
    title: `Person check ${report.id}`,
    unicodeFontPath: options.unicodeFontPath,
  });
  const title = (n: number) => PERSON_CHECK_SECTION_TITLES[n - 1]!;

  w.title('Person background check report');
  w.paragraph(`Check ${report.id}, requested ${report.createdAt}${report.completedAt ? `, completed ${report.completedAt}` : ''}.`, { colour: '#444444' });

  // 1. Subject
  w.section(1, title(1));
  w.field('Full name', report.subject.fullName);
  if (report.subject.aliases && report.subject.aliases.length > 0) w.field('Aliases', report.subject.aliases.join('; '));
  w.field('Date of birth', report.subject.dateOfBirth ? maskDateOfBirth(report.subject.dateOfBirth) : undefined);
  w.field('Locations', report.subject.locations?.join('; '));
  for (const id of report.subject.identifiers ?? []) w.field(`Identifier (${id.type})`, maskIdentifier(id.value));
  if (report.subject.associatedDomain) w.field('Associated domain', report.subject.associatedDomain);
  w.paragraph('Identifiers are masked: only the last four characters and the year of birth are shown.', { style: 'italic', size: 8.5, colour: '#444444' });

  // 2. Purpose and consent
  w.section(2, title(2));
  w.field('Permissible purpose', PURPOSE_LABEL[report.purpose]);
  w.field('FCRA consent obtained', report.consent.fcraConsent);
  if (report.consent.recordedAt) w.field('Consent recorded at', report.consent.recordedAt);
  if (report.consent.permissiblePurposeCertified !== undefined) w.field('Permissible purpose certified by the user', report.consent.permissiblePurposeCertified);

  // 3. Result and confidence
  w.section(3, title(3));
  const resultColour = report.result === 'adverse_found' ? '#c92a2a' : report.result === 'clean' ? '#1b7f3b' : '#b7791f';
  w.paragraph(`Result: ${report.result.replace(/_/g, ' ').toUpperCase()}`, { style: 'bold', size: 14, colour: resultColour });
  w.field('Confidence', report.confidence);
  if (report.riskScore !== undefined) w.field('Risk score', `${report.riskScore} / 100`);
  if (report.riskLevel) w.paragraph(`Risk level: ${report.riskLevel}`, { style: 'bold', colour: LEVEL_COLOURS[report.riskLevel] });
  if (report.riskLevel && report.riskReason) w.paragraph(`Why: ${report.riskReason}`, { colour: LEVEL_COLOURS[report.riskLevel] });
  const counts = Object.fromEntries(SEVERITY_ORDER.map((s) => [s, report.findings.filter((f) => f.severity === s).length])) as Record<FindingSeverity, number>;
  w.field('Red flags', counts.red_flag);
  w.field('Warnings', counts.warning);
  w.field('Information', counts.info);

  // 4. Findings by severity
  w.section(4, title(4));
  if (report.findings.length === 0) w.paragraph('No finding in the sources searched.');
  for (const severity of SEVERITY_ORDER) {
    const findings = report.findings.filter((f) => f.severity === severity);
    if (findings.length === 0) continue;
    w.ensureSpace(60);
    w.paragraph(`${SEVERITY_LABEL[severity]} (${findings.length})`, { style: 'bold', size: 11, colour: SEVERITY_COLOUR[severity] });
    findings.forEach((f, i) => {
      w.ensureSpace(70);
      w.spacer(0.2);
      w.paragraph(`${i + 1}. ${f.title}`, { style: 'bold' });
      w.field('Category', f.category.replace(/_/g, ' '), 14);
      w.field('Matched on', CORROBORATION_LABEL[f.corroboration], 14);
      if (f.detail) w.field('Detail', f.detail, 14);
      if (f.recordDate) w.field('Record date', f.recordDate, 14);
      w.field('Source', f.source, 14);
      if (f.sourceUrl) w.field('Source URL', f.sourceUrl, 14);
    });
  }

  // 5. Sources
  w.section(5, title(5));
  w.subheading(`Searched (${report.sourcesSearched.length})`);
  if (report.sourcesSearched.length === 0) w.paragraph('None.');
  for (const s of report.sourcesSearched) {
    w.bullet(`${esc(s.source)}${s.matchCount !== undefined ? `: ${s.matchCount} match${s.matchCount === 1 ? '' : 'es'}` : ''}${s.durationMs !== undefined ? `, ${s.durationMs} ms` : ''}`);
  }
  w.subheading(`Not searched (${report.sourcesNotSearched.length})`);
  if (report.sourcesNotSearched.length === 0) w.paragraph('None.');
  for (const s of report.sourcesNotSearched) w.bullet(`**${esc(s.source)}**: ${esc(s.reason)}`);
  if (report.sourcesNotSearched.length > 0) w.paragraph('A source that was not searched can hold records about the subject: "clean" covers only the sources searched.', { style: 'italic', size: 8.5, colour: '#444444' });

  // 6. FCRA notice
  w.section(6, title(6));
  for (const p of FCRA_NOTICE) {
    w.paragraph(p, { size: 9 });
    w.spacer(0.3);
  }

  if (report.audit && (report.audit.events.length > 0 || report.audit.matcherVersion)) {
    w.subheading('Audit');
    if (report.audit.matcherVersion) w.field('Matcher version', report.audit.matcherVersion);
    for (const e of report.audit.events) w.bullet(`${esc(e.occurredAt)}  ${esc(e.type)}`);
  }

  return w.finish();
}

function esc(text: string): string {
  return text.replace(/([\\*_`[\]])/g, '\\$1');
}
