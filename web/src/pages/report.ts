import { api, download } from '../api';
import { announce, append, badge, clear, field, formatDate, h, readerTimeZone, riskTone, scrollTable } from '../dom';
import type { PageContext } from '../router';
import { countryName } from '../country-input';

interface Hit {
  hit_id: string;
  category: string;
  list: string;
  list_version: string;
  entity_id: string;
  entity_name: string;
  entity_type: string;
  matched_name: string;
  matched_name_kind: string;
  score: number;
  match_strength: string;
  /** The machine's assessment alone (identity_corroborated, strong_name_match, name_match, identity_contradicted) and its words. */
  machine_standing: string;
  assessment_label: string;
  /** The standing once decided ("analyst-confirmed", "dismissed"), in the words of the server's one definition. */
  standing_label: string;
  explanation: string;
  /** The explanation in words (no raw scores). */
  why: string;
  qualifiers: { kind: string; effect: number; detail: string; words: string }[];
  programs: string[];
  source_url: string | null;
  disposition: { status: string; reason: string; analyst: string; analyst_name: string; at: string } | null;
  /** One real-world entity: every list row with its list date, and what the records say of it. */
  sources?: { list: string; list_label: string | null; entity_id: string | null; list_version: string | null; list_published_at: string | null }[];
  date_of_birth?: string[];
  nationality?: string[];
  /** Documents and registration numbers only. */
  identifiers?: { type: string; value: string; country?: string | null; words: string }[];
  aliases?: string[];
  type_mismatch?: { expected: string; listed: string; type_given: boolean };
  internal_list?: { watchlist_id: string; name: string; severity: string; version: number; as_of: string | null };
}

interface Screening {
  subject: { date_of_birth: string | null; nationality: string | null; identifiers: { type: string; value: string; words: string }[] };
  id: number;
  uuid: string;
  kind: string;
  search_query: string;
  entity_type: string;
  jurisdiction: string | null;
  risk_level: string | null;
  risk_score: number | null;
  status: string;
  summary: string | null;
  created_at: string;
  completed_at: string | null;
  hits: Hit[];
  sources: { agent: string; phase: string; queried: boolean; error: string | null; duration_ms: number | null }[];
  country_risk: CountryRiskView | null;
  country_risks?: (CountryRiskView & { basis: 'jurisdiction' | 'nationality' })[];
  list_versions: { list: string; label?: string; version: string; content_hash: string; published_at: string | null; age_days?: number | null; max_age_days?: number | null; stale?: boolean }[];
  /** One per list older than its maximum age when the screening ran (docs/lists.md). */
  list_warnings?: string[];
  matcher_version: string | null;
  /** Who holds the case (absent while running or when the deployment has no case desk). */
  assignee?: { email: string; me: boolean } | null;
  case_history?: HistoryEntry[];
  edd_analysis: string | null;
  ma_analysis: string | null;
}

interface Programme {
  authority: 'us' | 'uk' | 'un';
  programme: string;
  scope: 'comprehensive' | 'sectoral' | 'targeted';
  region?: string;
  basis: string;
  in_force_since: string;
  reviewed_as_of: string;
  source_url: string;
  list?: string;
  list_published_at?: string;
  designations?: number;
}

interface CountryRiskView {
  country: string;
  status: string;
  as_of: string;
  sanctions_scope?: 'comprehensive' | 'sectoral' | 'targeted' | 'none';
  sanctions_programmes?: Programme[];
}

const FATF_WORDS: Record<string, string> = {
  high_risk_call_for_action: 'FATF black list (high-risk jurisdiction, call for action)',
  increased_monitoring: 'FATF grey list (increased monitoring)',
  none: 'not on an FATF list',
};
const SCOPE_WORDS: Record<string, string> = {
  comprehensive: 'Comprehensive embargo',
  sectoral: 'Sectoral sanctions',
  targeted: 'Targeted sanctions (listed persons)',
  none: 'No sanctions programme',
};
const AUTHORITY_WORDS: Record<string, string> = { us: 'US (OFAC)', uk: 'UK', un: 'UN Security Council' };
const NAME_KIND_WORDS: Record<string, string> = { primary: 'primary name', strong_alias: 'alias', weak_alias: 'weak alias', original_script: 'name in the original script', former: 'former name' };
const ENTITY_WORDS: Record<string, string> = { person: 'Person', organization: 'Organisation', company: 'Company', vessel: 'Vessel', aircraft: 'Aircraft', unknown: 'Kind not stated' };
const SEVERITY_WORDS: Record<string, string> = { block: 'block', review: 'review', note: 'note' };

const isPerson = (entityType: string) => entityType === 'individual' || entityType === 'person';

/** One country of the subject with its real basis: FATF, and every sanctions programme targeting it with its basis and dates. */
function countryRiskSection(c: CountryRiskView, basis: string, index: number): HTMLElement {
  const programmes = c.sanctions_programmes;
  const scope = c.sanctions_scope ?? (programmes ? 'none' : undefined);
  const headingId = `country-h-${index}`;
  return h(
    'section',
    { class: 'card country-risk', 'aria-labelledby': headingId, 'data-country': c.country },
    h('h2', { id: headingId }, `Country risk: ${countryName(c.country)} (${c.country})`, h('span', { class: 'muted small basis' }, ` · ${basis}`)),
    h(
      'dl',
      { class: 'facts' },
      h('dt', null, 'FATF'),
      h('dd', null, `${FATF_WORDS[c.status] ?? c.status} (statement of ${formatDate(c.as_of)})`),
      scope ? [h('dt', null, 'Sanctions'), h('dd', { class: 'sanctions-scope' }, badge(SCOPE_WORDS[scope] ?? scope, scope === 'comprehensive' ? 'critical' : scope === 'sectoral' ? 'high' : scope === 'targeted' ? 'medium' : 'neutral'))] : null,
    ),
    programmes && programmes.length > 0
      ? scrollTable(
          h(
            'table',
            { class: 'programmes' },
            h('caption', { class: 'visually-hidden' }, `Sanctions programmes targeting ${countryName(c.country)}`),
            h('thead', null, h('tr', null, ['Programme', 'Scope', 'Basis', 'Since', 'Designations'].map((t) => h('th', { scope: 'col' }, t)))),
            h(
              'tbody',
              null,
              programmes.map((p) =>
                h(
                  'tr',
                  null,
                  h('th', { scope: 'row' }, h('a', { href: p.source_url, target: '_blank', rel: 'noopener noreferrer' }, p.programme), h('div', { class: 'muted small' }, AUTHORITY_WORDS[p.authority] ?? p.authority)),
                  h('td', null, `${p.scope}${p.region ? ` (${p.region} only)` : ''}`),
                  h('td', null, p.basis),
                  h('td', null, p.in_force_since, h('div', { class: 'muted small' }, `reviewed ${p.reviewed_as_of}`)),
                  h('td', null, p.designations !== undefined ? `${p.designations}${p.list_published_at ? ` (list of ${p.list_published_at})` : ''}` : 'list not in service'),
                ),
              ),
            ),
          ),
        )
      : null,
  );
}

/** The subject's countries: the jurisdiction and the nationality, each once (one card when they are the same country). */
function countryRiskCards(s: Screening): HTMLElement[] {
  const risks = s.country_risks ?? (s.country_risk ? [{ ...s.country_risk, basis: 'jurisdiction' as const }] : []);
  return risks.map((c, i) => {
    const alsoNationality = c.basis === 'jurisdiction' && s.subject.nationality === c.country;
    const basis = c.basis === 'nationality' ? "the subject's nationality (shown, not scored)" : alsoNationality ? "the subject's jurisdiction and nationality" : "the subject's jurisdiction";
    return countryRiskSection(c, basis, i);
  });
}

interface HistoryEntry {
  at: string;
  kind: string;
  by?: string;
  hit_id?: string;
  decision?: string;
  previous?: string;
  reason?: string;
  assignee?: string;
  previous_assignee?: string;
  risk_level?: string;
  from?: string;
  to?: string;
  risk_score?: number;
  alert?: string;
  list_version?: string;
}

/** A disposition in words, as the badge, the decision line and the timeline say it. */
const DECISION_WORDS: Record<string, string> = { true_match: 'True match', false_positive: 'False positive', needs_more_information: 'Needs more information' };
const decisionWords = (status: string) => DECISION_WORDS[status] ?? status;
const decisionTone = (status: string) => (status === 'true_match' ? 'critical' : status === 'needs_more_information' ? 'medium' : 'neutral');

/** The machine's assessment as a badge: only a corroborated identity is shown in the alarm colour. */
function machineBadge(hit: Hit): HTMLElement {
  const tone = hit.machine_standing === 'identity_corroborated' ? 'critical' : hit.machine_standing === 'identity_contradicted' ? 'neutral' : 'medium';
  const el = badge(hit.assessment_label, tone);
  el.classList.add('machine-assessment');
  el.title = "The machine's assessment";
  return el;
}

/** The analyst's decision as a badge: "analyst-confirmed" or "dismissed" once decided, else what is awaited. */
function decisionBadge(status: string, standingLabel: string): HTMLElement {
  const el = badge(status === 'needs_more_information' ? decisionWords(status) : standingLabel, decisionTone(status));
  el.classList.add('analyst-decision');
  el.title = "The analyst's decision";
  return el;
}

/** The sections hits are shown in: the official lists by kind, then the firm's own lists. */
const SECTIONS: { key: string; title: string; test: (hit: Hit) => boolean }[] = [
  { key: 'sanctions', title: 'Sanctions', test: (hit) => hit.category === 'sanctions' && !hit.internal_list },
  { key: 'pep', title: 'Politically exposed persons', test: (hit) => hit.category === 'pep' },
  { key: 'debarment', title: 'Debarment and export control', test: (hit) => hit.category === 'debarment' },
  { key: 'offshore_leaks', title: 'Offshore leaks', test: (hit) => hit.category === 'offshore_leaks' },
  { key: 'adverse_media', title: 'Adverse media', test: (hit) => hit.category === 'adverse_media' },
  { key: 'internal', title: 'Your internal lists', test: (hit) => Boolean(hit.internal_list) },
];

/** A match weak enough to be folded away until asked for (still listed, counted and decidable). */
const isWeak = (hit: Hit) => hit.score < 0.9 && hit.disposition?.status !== 'true_match';
/** Folding pays off on a long case (a bank and its subsidiaries), not on one or two hits. */
const FOLD_FROM_HITS = 6;

/** A semicircle gauge: the score as an arc, the level as colour and text (never colour alone). */
function gauge(score: number | null, level: string | null): HTMLElement {
  const value = Math.max(0, Math.min(100, score ?? 0));
  const r = 80;
  const circumference = Math.PI * r;
  const ns = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(ns, 'svg');
  svg.setAttribute('viewBox', '0 0 200 115');
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('class', 'gauge-svg');
  const arc = (cls: string, dash: string) => {
    const p = document.createElementNS(ns, 'path');
    p.setAttribute('d', `M 20 100 A ${r} ${r} 0 0 1 180 100`);
    p.setAttribute('class', cls);
    p.setAttribute('stroke-dasharray', dash);
    svg.appendChild(p);
  };
  arc('gauge-track', `${circumference} ${circumference}`);
  arc(`gauge-value tone-${riskTone(level)}`, `${(value / 100) * circumference} ${circumference}`);
  const text = document.createElementNS(ns, 'text');
  text.setAttribute('x', '100');
  text.setAttribute('y', '92');
  text.setAttribute('class', 'gauge-number');
  text.textContent = score === null ? '—' : String(score);
  svg.appendChild(text);
  return h(
    'div',
    { class: 'gauge', role: 'img', 'aria-label': score === null ? 'Risk not scored yet' : `Risk score ${score} out of 100, ${level} risk` },
    svg,
    h('div', { class: `gauge-level tone-text-${riskTone(level)}` }, level ? `${level.toUpperCase()} RISK` : 'NOT SCORED'),
  );
}

export async function renderReport({ main, params, query }: PageContext): Promise<void> {
  const { data } = await api<{ screening: Screening; dispositions_enabled: boolean }>('GET', `/api/portal/screenings/${encodeURIComponent(params.id!)}`);
  render(main, data.screening, data.dispositions_enabled, query.get('from') === 'queue');
}

/** The subject as requested, with the facts that fit its kind (a company has no date of birth). */
function subjectFacts(s: Screening): HTMLElement {
  const ids = s.subject.identifiers.length ? s.subject.identifiers.map((i) => i.words).join('; ') : 'none given';
  const country = s.subject.nationality ? `${countryName(s.subject.nationality)} (${s.subject.nationality})` : 'not given';
  return h(
    'dl',
    { class: 'facts subject-facts', 'aria-label': 'The subject as requested' },
    isPerson(s.entity_type)
      ? [h('dt', null, 'Date of birth'), h('dd', null, s.subject.date_of_birth ?? 'not given'), h('dt', null, 'Nationality'), h('dd', null, country)]
      : [h('dt', null, 'Country'), h('dd', null, country)],
    h('dt', null, 'Identifiers'),
    h('dd', null, ids),
  );
}

/** One banner for every list older than its maximum age, naming them, with the way to the Sources page. */
function staleListBanner(s: Screening): HTMLElement | null {
  const stale = s.list_versions.filter((v) => v.stale);
  const count = stale.length || (s.list_warnings ?? []).length;
  if (count === 0) return null;
  const names = stale.map((v) => v.label ?? v.list);
  return h(
    'div',
    { class: 'alert error list-warning', role: 'status' },
    h('strong', null, count === 1 ? 'One list was out of date' : `${count} lists were out of date`),
    ` when this screening ran${names.length ? `: ${names.join(', ')}` : ''}. A designation made since may be missing. `,
    h('a', { href: '#/sources' }, 'See the lists on the Sources page'),
    '.',
  );
}

function render(main: HTMLElement, s: Screening, dispositionsEnabled: boolean, fromQueue: boolean): void {
  clear(main);
  const rerender = (updated: Screening) => render(main, updated, dispositionsEnabled, fromQueue);
  const error = h('div', { class: 'alert error', role: 'alert', hidden: true });
  const pdfButton = h(
    'button',
    {
      type: 'button',
      class: 'button primary',
      disabled: s.status !== 'completed',
      onclick: async () => {
        error.hidden = true;
        try {
          // The PDF's times in the reader's zone, as on this page.
          await download(`/api/portal/screenings/${s.id}/report.pdf?time_zone=${encodeURIComponent(readerTimeZone())}`, `screening-${s.id}.pdf`);
          announce('PDF downloaded');
        } catch (e) {
          error.textContent = (e as Error).message;
          error.hidden = false;
        }
      },
    },
    'Download PDF',
  );

  // Sources this deployment has no adapter for are the same on every report: one line, details on demand.
  // Sources that were configured but failed this time are what the analyst must see.
  const notSearched = s.sources.filter((x) => !x.queried);
  const notConfigured = notSearched.filter((x) => (x.error ?? '').startsWith('not configured'));
  const failed = notSearched.filter((x) => !(x.error ?? '').startsWith('not configured'));
  const canDecide = dispositionsEnabled && s.status === 'completed';
  const selection = new Set<string>();
  const bulk = canDecide && s.hits.length > 1 ? bulkDecisionForm(s, selection, rerender) : null;

  append(main, [
    h('p', null, fromQueue ? h('a', { href: '#/' }, '← Work queue') : h('a', { href: '#/history' }, '← All screenings')),
    h(
      'div',
      { class: 'report-head' },
      h(
        'div',
        null,
        h('h1', null, s.search_query),
        h(
          'p',
          { class: 'muted' },
          `${s.kind === 'ma' ? 'M&A' : s.kind.toUpperCase()} screening #${s.id} · ${ENTITY_WORDS[s.entity_type] ?? s.entity_type}${s.jurisdiction ? ` · ${s.jurisdiction}` : ''} · requested ${formatDate(s.created_at)}`,
          s.completed_at ? ` · completed ${formatDate(s.completed_at)}` : '',
        ),
        h('p', null, badge(s.status, s.status === 'completed' ? 'low' : s.status === 'failed' ? 'critical' : 'medium')),
        s.assignee !== undefined && s.status === 'completed' ? assignmentForm(s, rerender) : null,
        // The subject's own facts, to hold against each hit's list record below.
        subjectFacts(s),
        s.summary ? h('p', { class: 'summary' }, s.summary) : null,
        staleListBanner(s),
        pdfButton,
        error,
      ),
      gauge(s.risk_score, s.risk_level),
    ),
    h(
      'section',
      { class: 'card', 'aria-labelledby': 'hits-h' },
      h('h2', { id: 'hits-h' }, `Hits (${s.hits.length})`),
      s.hits.length === 0 ? h('p', null, 'No list matched this name.') : null,
      s.hits.length > 0
        ? h('p', { class: 'muted small' }, `One card per listed person or company, every list it is on beside it.${s.hits.length >= FOLD_FROM_HITS ? ' Weaker matches (under 90 %) are folded away: open them to read or decide.' : ''}`)
        : null,
      bulk,
      SECTIONS.map((section) => {
        const hits = s.hits.filter(section.test).sort((a, b) => b.score - a.score);
        if (hits.length === 0) return null;
        const fold = s.hits.length >= FOLD_FROM_HITS;
        const strong = hits.filter((hit) => !fold || !isWeak(hit));
        const weak = fold ? hits.filter(isWeak) : [];
        const card = (hit: Hit) => hitCard(s, hit, canDecide, selection, bulk, rerender);
        return h(
          'section',
          { class: 'hit-group', 'data-section': section.key },
          h('h3', null, `${section.title} `, h('span', { class: 'muted' }, `(${hits.length} ${hits.length === 1 ? 'entity' : 'entities'})`)),
          strong.map(card),
          weak.length
            ? h('details', { class: 'weak-hits' }, h('summary', null, `${weak.length} weaker match${weak.length === 1 ? '' : 'es'} (under 90 %)`), weak.map(card))
            : null,
        );
      }),
    ),
    h(
      'section',
      { class: 'card', 'aria-labelledby': 'ns-h' },
      h('h2', { id: 'ns-h' }, `Sources not searched (${notSearched.length})`),
      notSearched.length === 0 ? h('p', null, 'Every planned source was searched.') : null,
      failed.length > 0
        ? h(
            'ul',
            { class: 'not-searched' },
            failed.map((x) => h('li', null, h('strong', null, x.agent.replace(/_/g, ' ')), ` (phase ${x.phase})`, x.error ? `: ${x.error}` : '')),
          )
        : null,
      notConfigured.length > 0
        ? h(
            'details',
            { class: 'not-configured' },
            h('summary', null, `${notConfigured.length} source${notConfigured.length === 1 ? ' is' : 's are'} not configured on this deployment (the same on every screening)`),
            h('p', { class: 'small' }, h('a', { href: '#/sources' }, 'What each source needs to be enabled'), ' is on the Sources page.'),
            h('ul', { class: 'plain small' }, notConfigured.map((x) => h('li', null, x.agent.replace(/_/g, ' ')))),
          )
        : null,
    ),
    countryRiskCards(s),
    timeline(s),
    s.edd_analysis || s.ma_analysis ? h('section', { class: 'card' }, h('h2', null, 'Analysis'), h('pre', { class: 'analysis' }, s.edd_analysis ?? s.ma_analysis ?? '')) : null,
    h(
      'section',
      { class: 'card', 'aria-labelledby': 'audit-h' },
      h('h2', { id: 'audit-h' }, 'Audit'),
      h('p', null, `Matcher ${s.matcher_version ?? '—'}`),
      h('h3', null, 'Lists used'),
      h(
        'ul',
        { class: 'plain small list-ages' },
        s.list_versions.map((v) =>
          h(
            'li',
            null,
            `${v.label ?? v.list}: ${v.published_at ? `published ${formatDate(v.published_at)}` : 'publication date unknown'}`,
            typeof v.age_days === 'number' ? ` (${v.age_days.toLocaleString('en-US')} days old when screened)` : '',
            v.stale ? h('strong', null, ` out of date: over its ${v.max_age_days}-day maximum`) : '',
            h('span', { class: 'muted record-id' }, ` · version ${v.version}`),
          ),
        ),
      ),
    ),
  ]);
}

/** One step of the case's history in words; people by e-mail (the server resolves them). */
function historyText(s: Screening, e: HistoryEntry): string {
  const hit = s.hits.find((x) => x.hit_id === e.hit_id);
  const what = hit ? `“${hit.entity_name}” (${hit.list})` : 'a hit';
  switch (e.kind) {
    case 'requested':
      return `${s.kind === 'ma' ? 'M&A' : s.kind.toUpperCase()} screening requested`;
    case 'completed':
      return `Completed: ${s.hits.length} hit${s.hits.length === 1 ? '' : 's'}, risk ${e.risk_level ?? 'not scored'}`;
    case 'failed':
      return `Failed: ${e.reason ?? ''}`;
    case 'disposition':
      return e.decision === 'needs_more_information'
        ? `${e.by} marked ${what} needs more information: ${e.reason}`
        : `${e.by} marked ${what} ${e.decision === 'true_match' ? 'a true match' : 'a false positive'}${e.previous === 'needs_more_information' ? ' (after asking for more information)' : ''}: ${e.reason}`;
    case 'risk_changed':
      return `Risk level changed from ${e.from} to ${e.to} (score ${e.risk_score})`;
    case 'assigned':
      return `${e.by} assigned the case to ${e.assignee}${e.previous_assignee ? ` (was ${e.previous_assignee})` : ''}`;
    case 'unassigned':
      return `${e.by} unassigned the case (was ${e.previous_assignee})`;
    case 'monitoring_alert':
      return `Monitoring alert (${(e.alert ?? '').replace(/_/g, ' ')}) on ${what}`;
    case 'reopened':
      return `${what} re-opened: its list record changed`;
    default:
      return e.kind.replace(/_/g, ' ');
  }
}

/** The case's history, oldest first: requested, completed, every decision, assignment and alert with who took it. */
function timeline(s: Screening): HTMLElement {
  if (s.case_history) {
    return h(
      'section',
      { class: 'card', 'aria-labelledby': 'timeline-h' },
      h('h2', { id: 'timeline-h' }, 'Case history'),
      h('ol', { class: 'timeline' }, s.case_history.map((e) => h('li', { 'data-kind': e.kind }, h('time', { datetime: e.at }, formatDate(e.at)), ' ', historyText(s, e)))),
    );
  }
  const entries: { at: string; text: string }[] = [{ at: s.created_at, text: `${s.kind.toUpperCase()} screening requested` }];
  if (s.completed_at) entries.push({ at: s.completed_at, text: `Completed: ${s.hits.length} hit${s.hits.length === 1 ? '' : 's'}, risk ${s.risk_level ?? 'not scored'}${s.risk_score !== null ? ` (${s.risk_score})` : ''}` });
  for (const hit of s.hits) {
    if (!hit.disposition) continue;
    entries.push({
      at: hit.disposition.at,
      text: `${hit.disposition.analyst_name} marked “${hit.entity_name}” (${hit.list}) ${hit.disposition.status === 'true_match' ? 'a true match' : hit.disposition.status === 'false_positive' ? 'a false positive' : 'needs more information'}: ${hit.disposition.reason}`,
    });
  }
  entries.sort((a, b) => a.at.localeCompare(b.at));
  return h(
    'section',
    { class: 'card', 'aria-labelledby': 'timeline-h' },
    h('h2', { id: 'timeline-h' }, 'Case history'),
    h('ol', { class: 'timeline' }, entries.map((e) => h('li', null, h('time', { datetime: e.at }, formatDate(e.at)), ' ', e.text))),
  );
}

/**
 * The hit's record beside the subject as requested, with the facts that fit the kind of subject
 * (date of birth and nationality for a person, the country for a company), each with a plain
 * "agrees / differs / not given" so the analyst sees at a glance what separates a namesake.
 */
function sideBySide(s: Screening, hit: Hit): HTMLElement {
  const compare = (subject: string | null, listed: string[] | undefined, same: (a: string, b: string) => boolean) => {
    if (!listed?.length) return 'not on the list record';
    if (!subject) return 'subject: not given';
    return listed.some((l) => same(subject, l)) ? 'agrees' : 'differs';
  };
  const dobSame = (a: string, b: string) => b.startsWith(a) || a.startsWith(b) || b.includes(a.slice(0, 4));
  const ids = (hit.identifiers ?? []).map((i) => i.words);
  const subjectIds = s.subject.identifiers.map((i) => i.words);
  const countries = (codes: string[] | undefined) => codes?.map((c) => (/^[A-Z]{2}$/.test(c) ? `${countryName(c)} (${c})` : c)).join(', ');
  const subjectCountry = s.subject.nationality ? `${countryName(s.subject.nationality)} (${s.subject.nationality})` : 'not given';
  const row = (label: string, subject: string, listed: string, verdict: string) =>
    h('tr', null, h('th', { scope: 'row' }, label), h('td', null, subject), h('td', null, listed), h('td', { class: `verdict ${verdict === 'differs' ? 'tone-text-high' : verdict === 'agrees' ? 'tone-text-low' : ''}` }, verdict));
  const person = isPerson(s.entity_type);
  // In a scroll region of its own: on a phone the four columns may be wider than the screen.
  return scrollTable(
    h(
      'table',
      { class: 'side-by-side' },
      h('caption', { class: 'visually-hidden' }, `The subject beside the list record of ${hit.entity_name}`),
      h('thead', null, h('tr', null, ['', 'Subject', 'List record', ''].map((c) => h('th', { scope: 'col' }, c)))),
      h(
        'tbody',
        null,
        row('Name', s.search_query, hit.entity_name, `${Math.round(hit.score * 100)} % name match`),
        person ? row('Date of birth', s.subject.date_of_birth ?? 'not given', hit.date_of_birth?.join(', ') ?? 'not stated', compare(s.subject.date_of_birth, hit.date_of_birth, dobSame)) : null,
        row(person ? 'Nationality' : 'Country', subjectCountry, countries(hit.nationality) ?? 'not stated', compare(s.subject.nationality, hit.nationality, (a, b) => a === b)),
        row(
          'Identifiers',
          subjectIds.join('; ') || 'none given',
          ids.join('; ') || 'none stated',
          compare(s.subject.identifiers[0]?.value ?? null, hit.identifiers?.map((i) => i.value), (a, b) => a.replace(/\W/g, '').toUpperCase() === b.replace(/\W/g, '').toUpperCase()),
        ),
      ),
    ),
  );
}

/** Every list the entity is on, by name, with the date of each list. */
function listedOn(hit: Hit): HTMLElement {
  if (hit.internal_list) {
    const l = hit.internal_list;
    return h('dd', { class: 'hit-sources' }, `Internal list “${l.name}” (severity ${SEVERITY_WORDS[l.severity] ?? l.severity}), version ${l.version}${l.as_of ? ` of ${formatDate(l.as_of)}` : ''}`);
  }
  const sources = hit.sources?.length ? hit.sources : [{ list: hit.list, list_label: hit.list, entity_id: hit.entity_id, list_version: hit.list_version, list_published_at: null }];
  return h(
    'dd',
    { class: 'hit-sources' },
    h('ul', { class: 'plain' }, sources.map((src) => h('li', null, `${src.list_label ?? src.list}${src.list_published_at ? `, list of ${formatDate(src.list_published_at)}` : ''}`))),
  );
}

function hitCard(s: Screening, hit: Hit, canDecide: boolean, selection: Set<string>, bulk: HTMLElement | null, onUpdated: (s: Screening) => void): HTMLElement {
  const undecided = !hit.disposition || hit.disposition.status === 'needs_more_information';
  const select =
    canDecide && bulk && undecided
      ? h('input', {
          type: 'checkbox',
          class: 'select-hit',
          'aria-label': `Select ${hit.entity_name} for a decision on several hits`,
          checked: selection.has(hit.hit_id),
          onchange: (e: Event) => {
            if ((e.target as HTMLInputElement).checked) selection.add(hit.hit_id);
            else selection.delete(hit.hit_id);
            bulk.dispatchEvent(new CustomEvent('selection'));
          },
        })
      : null;
  const lists = hit.internal_list ? [`Internal list “${hit.internal_list.name}”`] : [...new Set((hit.sources?.length ? hit.sources : [{ list_label: hit.list, list: hit.list }]).map((src) => src.list_label?.split(': ')[0] ?? src.list))];
  // The record, the match and the decision: open for strong matches, a click away for weak ones,
  // so a case with many weak hits reads as a short list of names.
  const details = h(
    'details',
    { class: 'hit-details', open: !isWeak(hit) || s.hits.length < FOLD_FROM_HITS },
    h('summary', null, 'Record, match and decision'),
    sideBySide(s, hit),
    h(
      'dl',
      { class: 'facts' },
      h('dt', null, 'Listed on'),
      listedOn(hit),
      hit.type_mismatch ? [h('dt', null, 'Kind'), h('dd', null, `screened as ${ENTITY_WORDS[hit.type_mismatch.expected] ?? hit.type_mismatch.expected}, listed as ${ENTITY_WORDS[hit.type_mismatch.listed] ?? hit.type_mismatch.listed}`)] : null,
      h('dt', null, 'Matched name'),
      h('dd', { class: 'matched-alias' }, `${hit.matched_name} (${NAME_KIND_WORDS[hit.matched_name_kind] ?? hit.matched_name_kind.replace(/_/g, ' ')})`),
      h('dt', null, 'Why it matched'),
      h('dd', { class: 'explanation' }, hit.why),
      hit.qualifiers.length ? [h('dt', null, 'Adjustments'), h('dd', null, h('ul', { class: 'plain' }, hit.qualifiers.map((q) => h('li', null, q.words))))] : null,
      hit.programs.length ? [h('dt', null, 'Programmes'), h('dd', null, hit.programs.join(', '))] : null,
      h('dt', null, 'Listed as'),
      h('dd', null, ENTITY_WORDS[hit.entity_type] ?? hit.entity_type, hit.source_url ? [' · ', h('a', { href: hit.source_url, target: '_blank', rel: 'noopener noreferrer' }, 'source record')] : null),
      hit.disposition
        ? [
            h('dt', null, hit.disposition.status === 'needs_more_information' ? 'Waiting for' : 'Decision'),
            h(
              'dd',
              { class: hit.disposition.status === 'needs_more_information' ? 'decision waiting' : 'decision' },
              `${decisionWords(hit.disposition.status)}${hit.disposition.status === 'needs_more_information' ? ' (still undecided)' : ''} by ${hit.disposition.analyst_name} on ${formatDate(hit.disposition.at)}: ${hit.disposition.reason}`,
            ),
          ]
        : null,
    ),
    // The record ids are for audit and the API: kept out of the way, and never wider than a phone.
    h(
      'details',
      { class: 'record-ids' },
      h('summary', null, 'Record ids'),
      h('ul', { class: 'plain small' }, (hit.sources?.length ? hit.sources : [{ list: hit.list, list_label: hit.list, entity_id: hit.entity_id, list_version: hit.list_version }]).map((src) => h('li', null, h('code', null, src.entity_id ?? hit.entity_id), ` (${src.list_label ?? src.list})`))),
    ),
  );
  if (canDecide) details.append(dispositionForm(s, hit, onUpdated));
  return h(
    'article',
    { class: 'hit', 'data-hit-id': hit.hit_id, 'aria-label': `${hit.entity_name}, ${Math.round(hit.score * 100)} % match` },
    h(
      'div',
      { class: 'hit-head' },
      select,
      h('h4', null, hit.entity_name),
      h('span', { class: 'score' }, `${Math.round(hit.score * 100)} %`),
      // The machine's assessment and the analyst's decision, each its own badge: a close name alone is never "confirmed".
      machineBadge(hit),
      hit.disposition ? decisionBadge(hit.disposition.status, hit.standing_label) : null,
    ),
    h('p', { class: 'hit-lists muted small' }, lists.join(' · ')),
    details,
  );
}

/** The decision select: no decision chosen until the analyst chooses one (a default would be a decision nobody took). */
function decisionSelect(): HTMLSelectElement {
  return h(
    'select',
    { name: 'status', required: true },
    h('option', { value: '' }, 'Choose a decision…'),
    h('option', { value: 'true_match' }, 'True match'),
    h('option', { value: 'false_positive' }, 'False positive'),
    h('option', { value: 'needs_more_information' }, 'Needs more information'),
  );
}

/**
 * One decision with one comment for the hits ticked on their cards (e.g. every subsidiary of a
 * bank: false positive, "not the bank onboarded"), recorded hit by hit in one request.
 */
function bulkDecisionForm(s: Screening, selection: Set<string>, onUpdated: (s: Screening) => void): HTMLElement {
  const status = decisionSelect();
  const reason = h('textarea', { name: 'reason', required: true, rows: 2, maxlength: 2000 });
  const error = h('div', { class: 'alert error', role: 'alert', hidden: true });
  const count = h('span', { class: 'selected-count', role: 'status' }, 'No hit selected: tick the hits below.');
  const submit = h('button', { type: 'submit', class: 'button secondary', disabled: true }, 'Record for the selected hits');
  const form = h(
    'form',
    {
      class: 'bulk-decision',
      'aria-label': 'One decision for several hits',
      onsubmit: async (e: Event) => {
        e.preventDefault();
        error.hidden = true;
        if (selection.size === 0) return;
        submit.disabled = true;
        try {
          const { data } = await api<{ screening: Screening }>('POST', `/api/portal/screenings/${s.id}/dispositions`, { hit_ids: [...selection], status: status.value, reason: reason.value.trim() });
          announce(`Decision recorded on ${selection.size} hit${selection.size === 1 ? '' : 's'}`);
          onUpdated(data.screening);
        } catch (err) {
          error.textContent = (err as Error).message;
          error.hidden = false;
          submit.disabled = false;
        }
      },
    },
    h('h3', null, 'Decide several hits at once'),
    h('p', { class: 'muted small' }, 'Tick the hits on their cards, choose one decision and write one comment: it is recorded on each of them.'),
    h('div', { class: 'inline-form' }, field('Decision for the selected hits', status), field('Comment for all of them (required)', reason, undefined, 'wide')),
    h('p', null, submit, ' ', count),
    error,
  );
  form.addEventListener('selection', () => {
    submit.disabled = selection.size === 0;
    count.textContent = selection.size === 0 ? 'No hit selected: tick the hits below.' : `${selection.size} hit${selection.size === 1 ? '' : 's'} selected.`;
  });
  return form;
}

/**
 * Who holds the case: the account's users by e-mail (never an id), "Unassigned" to release it. A
 * native select and button, so it is reachable and operable from the keyboard.
 */
function assignmentForm(s: Screening, onUpdated: (s: Screening) => void): HTMLElement {
  const select = h('select', { name: 'assignee' }, h('option', { value: '' }, 'Unassigned'));
  const current = s.assignee?.email ?? '';
  if (current) select.append(h('option', { value: current }, `${current}${s.assignee?.me ? ' (you)' : ''}`));
  select.value = current;
  const error = h('div', { class: 'alert error', role: 'alert', hidden: true });
  const submit = h('button', { type: 'submit', class: 'button secondary' }, 'Assign');
  // The choices: every user of the account, fetched once the form is on the page.
  void api<{ assignees: { email: string; me: boolean }[] }>('GET', '/api/portal/assignees')
    .then(({ data }) => {
      for (const a of data.assignees) {
        if (a.email === current) continue;
        select.append(h('option', { value: a.email }, `${a.email}${a.me ? ' (you)' : ''}`));
      }
    })
    .catch(() => undefined);
  return h(
    'form',
    {
      class: 'inline-form assignment',
      'aria-label': 'Assign this case',
      onsubmit: async (e: Event) => {
        e.preventDefault();
        error.hidden = true;
        submit.disabled = true;
        try {
          const { data } = await api<{ screening: Screening }>('PUT', `/api/portal/screenings/${s.id}/assignee`, { assignee: select.value || null });
          announce(data.screening.assignee ? `Assigned to ${data.screening.assignee.email}` : 'Case unassigned');
          onUpdated(data.screening);
        } catch (err) {
          error.textContent = (err as Error).message;
          error.hidden = false;
        } finally {
          submit.disabled = false;
        }
      },
    },
    field('Assigned to', select),
    submit,
    error,
  );
}

function dispositionForm(s: Screening, hit: Hit, onUpdated: (s: Screening) => void): HTMLElement {
  const status = decisionSelect();
  // A decision without a written reason cannot be audited: the comment is mandatory (browser and server).
  const reason = h('textarea', { name: 'reason', required: true, rows: 2, maxlength: 2000 });
  const error = h('div', { class: 'alert error', role: 'alert', hidden: true });
  const submit = h('button', { type: 'submit', class: 'button secondary' }, 'Record decision');
  return h(
    'form',
    {
      class: 'inline-form disposition',
      'aria-label': `Decision on ${hit.entity_name}`,
      onsubmit: async (e: Event) => {
        e.preventDefault();
        error.hidden = true;
        submit.disabled = true;
        try {
          const { data } = await api<{ screening: Screening }>('POST', `/api/portal/screenings/${s.id}/hits/${encodeURIComponent(hit.hit_id)}/disposition`, {
            status: status.value,
            reason: reason.value.trim(),
          });
          announce('Decision recorded');
          onUpdated(data.screening);
        } catch (err) {
          error.textContent = (err as Error).message;
          error.hidden = false;
        } finally {
          submit.disabled = false;
        }
      },
    },
    field('Decision', status),
    field('Comment (required)', reason),
    submit,
    error,
  );
}
