/**
 * The 13-section screening report a compliance officer files (S1 GET /api/v1/screening/:id/report).
 * Renders the same section data as the JSON report (../sections). Deterministic: the same
 * report and generatedAt give byte-identical PDFs.
 */

import type { ScreeningReport } from '../model';
import { buildReportSections, SECTION_TITLES, type HitsSection, type HitView, type ReportSections } from '../sections';
import { LEVEL_COLOURS, PdfWriter } from './writer';
import { listLabel } from '../../screening/lists/freshness';
import { countryInfo } from '../../screening/lists/countries';
import { eventWords, humanDate, humanTime, identifierWords, notSearchedWords, plainExplanation, qualifierWords, realIdentifiers } from '../plain-words';

export interface ScreeningPdfOptions {
  /** From the caller's clock: printed in the footer and the PDF metadata. */
  generatedAt: Date | string;
  /** Optional Unicode TrueType font (e.g. /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf) to print original scripts. */
  unicodeFontPath?: string;
  /** IANA zone the report's dates and times are written in (the reader's; default UTC). */
  timeZone?: string;
}

/** The download name for Content-Disposition. */
export function screeningReportFilename(report: Pick<ScreeningReport, 'id' | 'kind'>): string {
  return `screening-${report.kind}-${report.id}-report.pdf`;
}

const NAME_KIND: Record<string, string> = {
  primary: 'primary name',
  strong_alias: 'alias',
  weak_alias: 'weak alias',
  original_script: 'original-script name',
  former: 'former name',
};

/** Data interpolated into a Markdown-styled line must not be read as Markdown. */
function e(text: string | number | undefined): string {
  return String(text ?? '').replace(/([\\*_`[\]])/g, '\\$1');
}

function title(n: number): string {
  return SECTION_TITLES[n - 1]!;
}

export async function renderScreeningReportPdf(report: ScreeningReport, options: ScreeningPdfOptions): Promise<Buffer> {
  const generatedAt = new Date(options.generatedAt);
  const s = buildReportSections(report);
  const zone = options.timeZone ?? 'UTC';
  // Times as people read them, in the reader's zone; the exact instants are in the audit appendix.
  const when = (value: string | undefined | null) => humanTime(value, zone);
  const w = new PdfWriter({
    generatedLabel: when(generatedAt.toISOString()),
    // Every page names the report and its subject, so a page that comes loose from the file is still identifiable.
    header: `Screening report  |  S1 #${report.id}  |  ${shorten(report.subject.query, 60)}  |  ${report.uuid}${report.sowScreeningId ? `  |  ${report.sowScreeningId}` : ''}`,
    generatedAt,
    title: `Screening report ${report.id}: ${report.subject.query}`,
    unicodeFontPath: options.unicodeFontPath,
  });

  // 1. Cover and verdict
  w.title('Compliance screening report');
  w.paragraph(s.cover.screening_type, { style: 'bold', size: 12 });
  w.spacer(0.8);
  w.section(1, title(1));
  w.field('Subject', s.cover.subject_name);
  w.field('Screening', `no. ${report.id} (reference ${report.uuid})`);
  w.field('Status', report.status);
  w.field('Requested', when(report.createdAt));
  w.field('Completed', report.completedAt ? when(report.completedAt) : 'not completed');
  w.spacer(0.6);
  w.paragraph(`Risk score ${s.cover.risk_score} / 100: ${s.cover.risk_level.toUpperCase()}`, {
    style: 'bold',
    size: 18,
    colour: LEVEL_COLOURS[s.cover.risk_level],
  });
  w.paragraph(s.cover.risk_meaning, { style: 'bold', size: 12, colour: LEVEL_COLOURS[s.cover.risk_level] });
  w.spacer(0.4);
  // One verdict on page 1: the level, its colour and the scorer's one sentence of why. The flags'
  // fixed notes are not repeated here: beside a level they could contradict it (section 3 lists them).
  w.paragraph(`Why: ${s.cover.risk_reason}`, { style: 'bold', colour: LEVEL_COLOURS[s.cover.risk_level] });
  // A result on an out-of-date list says so where the verdict is read, not only in the audit trail.
  for (const warning of s.cover.list_warnings) w.paragraph(`! ${warning}`, { style: 'bold', colour: '#c92a2a' });
  if (s.cover.summary) {
    w.spacer(0.3);
    w.paragraph(s.cover.summary);
  }
  w.spacer(0.4);
  const counts = s.cover.hit_counts;
  w.field('Sanctions hits', counts.sanctions);
  w.field('PEP hits', counts.pep);
  w.field('Adverse-media hits', counts.adverse_media);
  w.field('Offshore-leak hits', counts.offshore_leaks);
  w.field('Debarment and enforcement hits', counts.debarment);
  w.spacer(0.6);
  w.paragraph(
    'This report records what the screening found in the sources listed in section 13 at the time shown. A potential match (the name matches but no date of birth, identifier or distinctive exact name corroborates the identity) is not a finding until an analyst decides it a true match; the absence of hits in a source that was not searched (section 12) is not evidence of absence.',
    { style: 'italic', size: 8.5, colour: '#444444' },
  );

  // 2. Subject
  w.newPage();
  w.section(2, title(2));
  w.field('Name searched', s.subject.query);
  w.field('Entity type', s.subject.entity_type);
  w.field('Jurisdiction', s.subject.jurisdiction ? `${s.subject.jurisdiction}${s.subject.jurisdiction_iso2 ? ` (${s.subject.jurisdiction_iso2})` : ''}` : 'not given');
  // The facts that confirm or clear a hit: what was given is compared with every listed record (section 4 on).
  w.subheading('Identity facts given');
  identityFacts(w, s.subject);
  if (s.subject.declared.length > 0) {
    w.subheading('Declared by the customer');
    for (const d of s.subject.declared) w.field(d.label, d.value);
  }

  // 3. Risk score and level
  w.section(3, title(3));
  w.paragraph(`Risk score ${s.risk.risk_score} / 100, level ${s.risk.risk_level}${s.risk.capped ? ` (capped at 100 from ${s.risk.uncapped_score})` : ''}.`, { style: 'bold' });
  w.subheading('Scale');
  const columns = [0, 90, 170];
  w.row(['Level', 'Score', 'Meaning'], columns, { style: 'bold' });
  for (const b of s.risk.scale) {
    const current = b.level === s.risk.risk_level;
    w.row([`${current ? '> ' : ''}${b.level}`, `${b.min}-${b.max}`, `${b.meaning}${current ? '  (this screening)' : ''}`], columns, {
      style: current ? 'bold' : 'regular',
      colour: current ? LEVEL_COLOURS[b.level] : '#111111',
    });
  }
  // The one sentence of why is on page 1 (printed once); here, what adds up to it.
  w.subheading('Contributions and floors');
  if (s.risk.breakdown.length === 0) w.paragraph('No contribution: nothing was found that adds risk.');
  // Rule ids (sanctions.us.confirmed…) are for the JSON report and the API; the filed report says why in words.
  for (const c of s.risk.breakdown) w.bullet(`**${c.points >= 0 ? '+' : ''}${c.points}** ${e(c.reason)}`);
  if (s.cover.flags.length > 0) {
    w.subheading('Flags');
    for (const f of s.cover.flags) w.bullet(e(f.note));
  }

  // 4–8. Hits
  const hitSection = (n: number, section: HitsSection, empty: string) => {
    w.section(n, title(n));
    // Counted as the hits stand now, in the words of src/reports/confirmation.ts (a dismissed hit is not potential).
    w.paragraph(`${section.count} hit${section.count === 1 ? '' : 's'}${section.by_standing ? `: ${section.by_standing}` : ''}.`, { style: 'bold' });
    if (section.count === 0) w.paragraph(empty);
    section.hits.forEach((h, i) => hitBlock(w, i + 1, h, when));
    // Which sources of this section were not searched (the reasons are listed once, in section 12).
    if (section.not_searched.length > 0) {
      w.paragraph(`Not searched for this section: ${section.not_searched.map((ns) => ns.source).join('; ')} (reasons in section 12).`, { style: 'italic', colour: '#444444' });
    }
  };
  hitSection(4, s.sanctions, 'No sanctions list matched the subject at or above the minimum match score (80).');
  hitSection(5, s.pep, 'No politically exposed person matched the subject.');
  hitSection(6, s.adverse_media, 'No adverse-media article naming the subject was found.');
  hitSection(7, s.offshore_leaks, 'No offshore-leak record matched the subject.');
  hitSection(8, s.debarment, 'No debarment or enforcement list (e.g. BIS Denied Persons List) matched the subject.');

  // 9. Country risk
  w.section(9, title(9));
  if (s.country_risk.countries.length === 0) w.paragraph('No country of the subject was assessed: neither a jurisdiction nor a nationality was given or resolved.');
  for (const c of s.country_risk.countries) {
    const status =
      c.fatf_status === 'high_risk_call_for_action'
        ? `FATF black list: high-risk jurisdiction subject to a call for action${c.measure ? ` (${c.measure})` : ''}`
        : c.fatf_status === 'increased_monitoring'
          ? 'FATF grey list: jurisdiction under increased monitoring'
          : 'Not on an FATF list';
    w.bullet(`**${e(c.jurisdiction)} (${e(c.iso2)})**, ${e(BASIS_WORDS[c.basis] ?? c.basis.replace(/_/g, ' '))}: ${e(status)}. FATF statement of ${e(humanDate(c.as_of))}.`);
    if (c.sanctions_programmes) {
      const programmes = c.sanctions_programmes;
      w.paragraph(
        programmes.length === 0
          ? `Sanctions: no US, UK or UN programme targets ${c.jurisdiction}.`
          : `Sanctions: ${SCOPE_WORDS[c.sanctions_scope ?? 'none'] ?? c.sanctions_scope}. ${programmes.length} programme${programmes.length === 1 ? '' : 's'} target${programmes.length === 1 ? 's' : ''} ${c.jurisdiction}:`,
        { indent: 14 },
      );
      for (const p of programmes) {
        const listed = p.designations !== undefined ? ` ${p.designations} designation${p.designations === 1 ? '' : 's'} on the ${p.list_published_at ? `list of ${p.list_published_at}` : 'list in service'}.` : '';
        w.bullet(
          `**${e(p.programme)}** (${AUTHORITY_WORDS[p.authority]}, ${p.scope}${p.region ? `, ${e(p.region)} only` : ''}): ${e(p.basis)}. In force since ${p.in_force_since}; classification reviewed ${p.reviewed_as_of}.${listed} Source: ${p.source_url}`,
          1,
        );
      }
    }
  }

  // 10. Registry and enrichment
  w.section(10, title(10));
  const r = s.registry;
  if (r.canonical_name || r.ticker || r.registry_number || r.jurisdiction) {
    w.field('Canonical name', r.canonical_name);
    if (r.ticker) w.field('Ticker', r.ticker);
    w.field('Registry number', r.registry_number);
    w.field('Jurisdiction', r.jurisdiction);
  }
  if (r.records.length === 0) w.paragraph('No registry record was retrieved.');
  for (const rec of r.records) {
    w.subheading(`${rec.legal_name ?? '(no name)'} (${rec.source})`);
    if (rec.registration_number) w.field('Registration number', rec.registration_number, 10);
    if (rec.lei) w.field('LEI', rec.lei, 10);
    if (rec.jurisdiction) w.field('Jurisdiction', rec.jurisdiction, 10);
    if (rec.status) w.field('Status', rec.status, 10);
    if (rec.incorporation_date) w.field('Incorporated', rec.incorporation_date, 10);
    if (rec.address) w.field('Address', rec.address, 10);
    if (rec.officers) w.field('Officers / controllers', rec.officers.map((o) => `${o.name}${o.role ? ` (${o.role})` : ''}`).join('; '), 10);
    for (const [k, v] of Object.entries(rec.extra ?? {})) w.field(k.replace(/_/g, ' '), v, 10);
    if (rec.source_url) w.field('Source', rec.source_url, 10);
  }
  if (r.uk_registry) {
    w.subheading('UK Companies House facts used in scoring');
    w.field('Company number', r.uk_registry.company_number);
    w.field('Status', r.uk_registry.status);
    w.field('Dissolved or struck off', r.uk_registry.struck_off);
    w.field('PSC not registered or exempt', r.uk_registry.psc_not_registered_or_exempt);
    w.field('Controller countries', r.uk_registry.controller_countries?.join(', '));
  }

  // 11. Analysis
  w.section(11, title(11));
  if (s.analysis.kind === null) {
    w.paragraph(s.analysis.note);
  } else {
    w.paragraph(`Analysis type ${s.analysis.kind.toUpperCase()}, generated by ${s.analysis.generated_by}.`, { style: 'italic', colour: '#444444' });
    w.spacer(0.3);
    w.markdown(s.analysis.markdown);
  }

  // 12. Data gaps: each source not searched once, with why; other gaps without their internal codes.
  w.section(12, title(12));
  const otherGaps = s.data_gaps.gaps.filter((g) => !g.code.startsWith('not_searched:'));
  if (otherGaps.length === 0 && s.data_gaps.sources_not_searched.length === 0) w.paragraph('None: every source of the pipeline for this plan was searched.');
  if (s.data_gaps.sources_not_searched.length > 0) {
    w.subheading(`Sources not searched (${s.data_gaps.sources_not_searched.length})`);
    w.paragraph('No hit from these sources is not evidence of absence: they were not queried for this screening.', { style: 'italic', size: 8.5, colour: '#444444' });
    for (const ns of s.data_gaps.sources_not_searched) w.bullet(`**${e(ns.source)}**: ${e(notSearchedWords(ns.reason))}`);
  }
  if (otherGaps.length > 0) {
    w.subheading('Other data gaps');
    for (const g of otherGaps) w.bullet(e(notSearchedWords(g.description)));
  }

  // 13. Audit trail: what an officer needs to file (what was screened against, when, by which
  // matcher); the codes, hashes, sources' run times and every stored event are in the appendix.
  w.section(13, title(13));
  w.field('Screening', `no. ${s.audit.screening_id}`);
  w.field('Matcher version', s.audit.matcher_version);
  w.subheading('Lists screened against');
  if (s.audit.list_versions.length === 0) w.paragraph('No list version recorded.');
  for (const v of s.audit.list_versions) {
    w.bullet(
      `**${e(v.label ?? v.source)}**: published ${e(v.published_at ? humanDate(v.published_at) : 'on an unknown date')}` +
        `${v.age_days !== undefined ? ` (${v.age_days.toLocaleString('en-US')} days old${v.stale ? `, over the ${v.max_age_days}-day maximum: OUT OF DATE` : ''})` : ''}` +
        `${v.entity_count !== undefined ? `, ${v.entity_count.toLocaleString('en-US')} entities` : ''}`,
    );
  }
  w.paragraph('Version ids, content hashes, record ids, the sources\' run times and every stored event of this screening are in the audit appendix at the end.', { style: 'italic', size: 8.5, colour: '#444444' });

  signOff(w, s, when);
  auditAppendix(w, s, zone);
  return w.finish();
}

/**
 * The block an officer signs: every recorded decision with its reviewer, date and full comment, an
 * empty line to fill for each hit still undecided, and the overall decision and signature.
 */
function signOff(w: PdfWriter, s: ReturnType<typeof buildReportSections>, when: (value: string) => string): void {
  const hits = [s.sanctions, s.pep, s.adverse_media, s.offshore_leaks, s.debarment].flatMap((section) => section.hits);
  w.newPage();
  w.title('Review and sign-off', 16);
  if (hits.length === 0) w.paragraph('No hit to review.');
  hits.forEach((h, i) => {
    w.ensureSpace(60);
    w.paragraph(`${i + 1}. ${h.title ?? h.entity_name} (${h.list_label ?? listLabel(h.list)}, score ${h.score})`, { style: 'bold' });
    if (h.disposition) {
      w.field('Decision', DECISION_WORDS[h.disposition.decision] ?? h.disposition.decision, 14);
      w.field('Reviewer', h.disposition.by, 14);
      w.field('Date', when(h.disposition.at), 14);
      // The comment whole, however long: a filed decision is never cut.
      w.field('Comment', h.disposition.note ?? 'none recorded', 14);
      if (h.disposition.decision === 'needs_more_information') {
        // Asked for more information: still undecided, so the final decision is left to sign.
        w.paragraph('Final decision: true match / false positive (circle one)', { indent: 14 });
        w.paragraph('Reviewer: ______________________   Date: ____________   Signature: ______________________', { indent: 14 });
      }
    } else {
      w.paragraph('Undecided. Decision: true match / false positive / needs more information (circle one)', { indent: 14 });
      w.paragraph('Reviewer: ______________________   Date: ____________   Signature: ______________________', { indent: 14 });
    }
    w.spacer(0.3);
  });
  w.spacer(1);
  w.ensureSpace(110);
  w.subheading('Overall decision');
  w.paragraph(`Risk level on this report: ${s.cover.risk_level.toUpperCase()} (${s.cover.risk_meaning}).`);
  w.paragraph('Decision: proceed / proceed with enhanced due diligence / do not proceed (circle one)');
  w.spacer(0.8);
  w.paragraph('Compliance officer (name): ______________________________   Date: ______________');
  w.spacer(0.8);
  w.paragraph('Signature: ______________________________');
}

/**
 * For an auditor, after the signed pages: the codes the body leaves out (reference, version ids,
 * content hashes, record ids), each source's run and every stored event of the screening, with
 * times to the second in words and the stream position of each event.
 */
function auditAppendix(w: PdfWriter, s: ReturnType<typeof buildReportSections>, zone: string): void {
  const exact = (value: string) => humanTime(value, zone, { seconds: true });
  w.newPage();
  w.title('Audit appendix', 14);
  w.paragraph(`Screening no. ${s.audit.screening_id}, reference ${s.audit.screening_uuid}. Times in ${zone}.`, { size: 9 });
  if (s.audit.stream_head_hash) w.paragraph(`Event-stream head hash ${s.audit.stream_head_hash}`, { size: 9 });
  w.subheading('List versions');
  for (const v of s.audit.list_versions) {
    w.bullet(`${e(v.label ?? v.source)} (${e(v.source)}): version ${e(v.version_id)}, loaded ${e(exact(v.loaded_at))}, SHA-256 ${e(v.content_hash)}`);
  }
  const hits = [s.sanctions, s.pep, s.adverse_media, s.offshore_leaks, s.debarment].flatMap((section) => section.hits);
  if (hits.length > 0) {
    w.subheading('Record ids of the hits');
    for (const h of hits) {
      const rows = h.sources?.length ? h.sources.map((src) => `${src.list}: ${src.entity_id ?? h.entity_id}`) : [`${h.list}: ${h.entity_id}`];
      w.bullet(`${e(h.entity_name)}: ${e(rows.join('; '))}`);
    }
  }
  w.subheading('Sources');
  for (const a of s.audit.agents) {
    w.bullet(`${e(a.agent.replace(/_/g, ' '))} (phase ${e(a.phase)}): ${a.queried ? `searched, ${a.match_count} match${a.match_count === 1 ? '' : 'es'} in ${durationWords(a.duration_ms)}` : 'not searched (section 12 says why)'}`);
  }
  w.subheading('Events');
  for (const ev of s.audit.events) w.bullet(`${e(exact(ev.occurred_at))}: ${e(eventWords(ev.type))}${ev.position !== undefined ? ` (position ${e(ev.position)})` : ''}`);
}

/** "850 ms", "2.4 s". */
function durationWords(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/** Why a country was assessed, in words. */
const BASIS_WORDS: Record<string, string> = {
  subject_jurisdiction: "the subject's jurisdiction",
  subject_nationality: "the subject's nationality (shown, not scored)",
  hit_country: 'a country of a confirmed hit',
  registry_controller: "a country of the company's controllers",
};

const SCOPE_WORDS: Record<string, string> = {
  comprehensive: 'under a comprehensive embargo',
  sectoral: 'under sectoral sanctions',
  targeted: 'targeted sanctions only (listed persons)',
  none: 'no programme',
};
const AUTHORITY_WORDS: Record<string, string> = { us: 'United States, OFAC', uk: 'United Kingdom', un: 'UN Security Council' };

const DECISION_WORDS: Record<string, string> = {
  true_match: 'true match',
  false_positive: 'false positive',
  needs_more_information: 'needs more information (undecided)',
};

function shorten(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

function hitBlock(w: PdfWriter, index: number, h: HitView, when: (value: string) => string): void {
  w.ensureSpace(90);
  w.spacer(0.3);
  w.paragraph(`${index}. ${h.title ?? h.entity_name}`, { style: 'bold', size: 10.5 });
  const indent = 14;
  // Names and words here; the record ids and list codes are in the audit appendix.
  w.field('List', h.list_label ?? listLabel(h.list), indent);
  w.field('Matched name', `${h.matched_name} (${NAME_KIND[h.matched_name_kind ?? ''] ?? h.matched_name_kind ?? 'name'})`, indent);
  w.field('Score', `${h.score} / 100: ${h.badge}`, indent);
  // Once decided, the badge is the analyst's: the machine's own assessment stays beside it.
  if (h.disposition && h.disposition.decision !== 'needs_more_information') w.field("Machine's assessment", h.machine_label, indent);
  w.field(h.confirmation ? 'Confirmed by' : 'Identity', h.confirmation ? h.confirmation.detail : (h.identity_note ?? 'not corroborated'), indent);
  if (h.programs.length > 0) w.field('Programs', h.programs.join(', '), indent);
  if (h.position) w.field('Position', h.position, indent);
  if (h.investigation) w.field('Investigation', h.investigation, indent);
  if (h.published_at) w.field('Published', humanDate(h.published_at), indent);
  // The facts that fit the listed entity: a date and place of birth are a person's; a company has a country.
  const person = Boolean(h.date_of_birth?.length || h.place_of_birth?.length);
  if (h.date_of_birth) w.field('Date of birth', h.date_of_birth.join('; '), indent);
  if (h.place_of_birth) w.field('Place of birth', h.place_of_birth.join('; '), indent);
  if (h.nationality) w.field(person ? 'Nationality' : 'Country', h.nationality.join(', '), indent);
  else if (h.countries) w.field('Countries', h.countries.join(', '), indent);
  const identifiers = realIdentifiers(h.identifiers);
  if (identifiers.length) w.field('Identifiers', identifiers.slice(0, 12).map(identifierWords).join('; '), indent);
  if (h.aliases) w.field('Also known as', h.aliases.slice(0, 12).join('; ') + (h.aliases.length > 12 ? ` (+${h.aliases.length - 12} more)` : ''), indent);
  if (h.type_mismatch) w.field('Type mismatch', `screened as ${h.type_mismatch.expected}${h.type_mismatch.type_given ? '' : ' (inferred: no type given)'}, listed as ${h.type_mismatch.listed}`, indent);
  if (h.sources && h.sources.length > 0) {
    const lines = h.sources.map((s) => `${s.list_label ?? s.list}${s.list_published_at ? `, list of ${humanDate(s.list_published_at)}` : ''}`);
    w.field(h.sources.length > 1 ? `Listed on (${h.sources.length} list rows, one entity)` : 'Listed on', lines.join('; '), indent);
  }
  w.field('Why it matched', plainExplanation(h.explanation.summary), indent);
  for (const q of h.explanation.qualifiers) w.field('Adjustment', qualifierWords(q), indent);
  if (h.source_url) w.field('Source', h.source_url, indent);
  w.field('Decision', h.disposition ? `${DECISION_WORDS[h.disposition.decision] ?? h.disposition.decision} by ${h.disposition.by}, ${when(h.disposition.at)} (comment in the sign-off)` : 'undecided: to be decided in the sign-off block at the end', indent);
}

/** As entered, a country named beside its code ("Russia (RU)"). */
function countryWords(code: string): string {
  const country = countryInfo(code);
  return country ? `${country.name} (${country.iso2})` : code;
}

/**
 * The identity facts given, as fit the subject's kind (issue 31 item 6): a person's date of birth,
 * nationality and identifiers; a company's or organisation's registration number and other
 * identifiers (its jurisdiction is printed above), never a "Date of birth" or "Nationality" row. A
 * date or country a caller entered for a company anyway is printed as entered (item 17), saying which field it came in.
 */
function identityFacts(w: PdfWriter, subject: ReportSections['subject']): void {
  const identifiers = subject.identifiers ?? [];
  const person = subject.entity_type === 'individual';
  if (person) {
    w.field('Date of birth', subject.date_of_birth ?? 'not given');
    w.field('Nationality', subject.nationality ? countryWords(subject.nationality) : 'not given');
    w.field('Identifiers', identifiers.length ? identifiers.map(identifierWords).join('; ') : 'none given');
  } else {
    const registration = identifiers.filter((i) => i.type === 'registration_number');
    const others = identifiers.filter((i) => i.type !== 'registration_number');
    w.field('Registration number', registration.length ? registration.map((i) => i.value).join('; ') : 'not given');
    w.field('Other identifiers', others.length ? others.map(identifierWords).join('; ') : 'none given');
    if (subject.nationality) w.field('Country entered (as nationality)', countryWords(subject.nationality));
    if (subject.date_of_birth) w.field('Date entered (as date of birth)', subject.date_of_birth);
  }
  if (subject.address) w.field('Address', subject.address);
  if (subject.phone) w.field('Phone', subject.phone);
  if (subject.email) w.field('E-mail', subject.email);
  // A company is told from a namesake by its identifiers; a person by a date of birth or an identifier.
  if (identifiers.length === 0 && !(person && subject.date_of_birth)) {
    const facts = person ? 'no date of birth or identifier was' : 'no registration number or other identifier was';
    w.paragraph(`Name only: ${facts} given, so only an exact match on a distinctive name or an analyst's true-match decision can settle a hit's identity.`, { style: 'italic', size: 8.5, colour: '#444444' });
  }
}
