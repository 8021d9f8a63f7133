import { api, download } from '../api';
import { announce, append, badge, clear, field, formatDate, h, riskTone } from '../dom';
import type { PageContext } from '../router';

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
  explanation: string;
  qualifiers: { kind: string; effect: number; detail: string }[];
  programs: string[];
  source_url: string | null;
  disposition: { status: string; reason: string; analyst: string; analyst_name: string; at: string } | null;
}

interface Screening {
  subject: { date_of_birth: string | null; nationality: string | null; identifiers: { type: string; value: string }[] };
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
  country_risk: { country: string; status: string; as_of: string } | null;
  list_versions: { list: string; version: string; content_hash: string; published_at: string | null; age_days?: number | null; max_age_days?: number | null; stale?: boolean }[];
  /** One per list older than its maximum age when the screening ran (docs/lists.md). */
  list_warnings?: string[];
  matcher_version: string | null;
  edd_analysis: string | null;
  ma_analysis: string | null;
}

const categoryNames: Record<string, string> = { sanctions: 'Sanctions', pep: 'PEP', adverse_media: 'Adverse media', offshore_leaks: 'Offshore leaks', debarment: 'Debarment' };

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

export async function renderReport({ main, params }: PageContext): Promise<void> {
  const { data } = await api<{ screening: Screening; dispositions_enabled: boolean }>('GET', `/api/portal/screenings/${encodeURIComponent(params.id!)}`);
  render(main, data.screening, data.dispositions_enabled);
}

function render(main: HTMLElement, s: Screening, dispositionsEnabled: boolean): void {
  clear(main);
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
          await download(`/api/portal/screenings/${s.id}/report.pdf`, `screening-${s.id}.pdf`);
          announce('PDF downloaded');
        } catch (e) {
          error.textContent = (e as Error).message;
          error.hidden = false;
        }
      },
    },
    'Download PDF',
  );

  const byList = new Map<string, Hit[]>();
  for (const hit of s.hits) byList.set(hit.list, [...(byList.get(hit.list) ?? []), hit]);
  // Sources this deployment has no adapter for are the same on every report: one line, details on demand.
  // Sources that were configured but failed this time are what the analyst must see.
  const notSearched = s.sources.filter((x) => !x.queried);
  const notConfigured = notSearched.filter((x) => (x.error ?? '').startsWith('not configured'));
  const failed = notSearched.filter((x) => !(x.error ?? '').startsWith('not configured'));

  append(main, [
    h('p', null, h('a', { href: '#/history' }, '← All screenings')),
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
          `${s.kind.toUpperCase()} screening #${s.id} · ${s.entity_type}${s.jurisdiction ? ` · ${s.jurisdiction}` : ''} · requested ${formatDate(s.created_at)}`,
          s.completed_at ? ` · completed ${formatDate(s.completed_at)}` : '',
        ),
        h('p', null, badge(s.status, s.status === 'completed' ? 'low' : s.status === 'failed' ? 'critical' : 'medium')),
        // The subject's own facts, to hold against each hit's list record below.
        h(
          'dl',
          { class: 'facts subject-facts', 'aria-label': 'The subject as requested' },
          h('dt', null, 'Date of birth'),
          h('dd', null, s.subject.date_of_birth ?? 'not given'),
          h('dt', null, 'Nationality'),
          h('dd', null, s.subject.nationality ?? 'not given'),
          h('dt', null, 'Identifiers'),
          h('dd', null, s.subject.identifiers.length ? s.subject.identifiers.map((i) => `${i.type.replace(/_/g, ' ')} ${i.value}`).join('; ') : 'none given'),
        ),
        s.summary ? h('p', { class: 'summary' }, s.summary) : null,
        (s.list_warnings ?? []).map((w) => h('p', { class: 'alert error list-warning', role: 'status' }, w)),
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
      [...byList.entries()].map(([list, hits]) =>
        h(
          'section',
          { class: 'hit-group', 'data-list': list },
          h('h3', null, `${list} `, h('span', { class: 'muted' }, `(${categoryNames[hits[0]!.category] ?? hits[0]!.category}, ${hits.length} hit${hits.length === 1 ? '' : 's'})`)),
          hits.map((hit) => hitCard(s, hit, dispositionsEnabled, (updated) => render(main, updated, dispositionsEnabled))),
        ),
      ),
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
    timeline(s),
    s.edd_analysis || s.ma_analysis ? h('section', { class: 'card' }, h('h2', null, 'Analysis'), h('pre', { class: 'analysis' }, s.edd_analysis ?? s.ma_analysis ?? '')) : null,
    h(
      'section',
      { class: 'card', 'aria-labelledby': 'audit-h' },
      h('h2', { id: 'audit-h' }, 'Audit'),
      s.country_risk ? h('p', null, `Country risk ${s.country_risk.country}: ${s.country_risk.status} (as of ${s.country_risk.as_of})`) : null,
      h('p', null, `Matcher ${s.matcher_version ?? '—'}`),
      h('h3', null, 'Lists used'),
      h(
        'ul',
        { class: 'plain small list-ages' },
        s.list_versions.map((v) =>
          h(
            'li',
            null,
            `${v.list}: version ${v.version}${v.published_at ? `, published ${v.published_at.slice(0, 10)}` : ', publication date unknown'}`,
            typeof v.age_days === 'number' ? ` (${v.age_days.toLocaleString('en-US')} days old when screened)` : '',
            v.stale ? h('strong', null, ` stale: over the ${v.max_age_days}-day maximum`) : '',
          ),
        ),
      ),
    ),
  ]);
}

/** The case's history, oldest first: requested, completed, then every decision with who took it. */
function timeline(s: Screening): HTMLElement {
  const entries: { at: string; text: string }[] = [{ at: s.created_at, text: `${s.kind.toUpperCase()} screening requested` }];
  if (s.completed_at) entries.push({ at: s.completed_at, text: `Completed: ${s.hits.length} hit${s.hits.length === 1 ? '' : 's'}, risk ${s.risk_level ?? 'not scored'}${s.risk_score !== null ? ` (${s.risk_score})` : ''}` });
  for (const hit of s.hits) {
    if (!hit.disposition) continue;
    entries.push({
      at: hit.disposition.at,
      text: `${hit.disposition.analyst_name} marked “${hit.entity_name}” (${hit.list}) ${hit.disposition.status === 'true_match' ? 'a true match' : 'a false positive'}: ${hit.disposition.reason}`,
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

function hitCard(s: Screening, hit: Hit, dispositionsEnabled: boolean, onUpdated: (s: Screening) => void): HTMLElement {
  const aliasNote = hit.matched_name_kind === 'primary' ? 'primary name' : hit.matched_name_kind.replace(/_/g, ' ');
  const card = h(
    'article',
    { class: 'hit', 'data-hit-id': hit.hit_id, 'aria-label': `${hit.entity_name}, score ${Math.round(hit.score * 100)}` },
    h(
      'div',
      { class: 'hit-head' },
      h('h4', null, hit.entity_name),
      h('span', { class: 'score' }, `${Math.round(hit.score * 100)}%`),
      badge(hit.match_strength, hit.match_strength === 'confirmed' ? 'critical' : 'medium'),
      hit.disposition ? badge(hit.disposition.status === 'true_match' ? 'True match' : 'False positive', hit.disposition.status === 'true_match' ? 'critical' : 'neutral') : null,
    ),
    h(
      'dl',
      { class: 'facts' },
      h('dt', null, 'Matched alias'),
      h('dd', { class: 'matched-alias' }, `${hit.matched_name} (${aliasNote})`),
      h('dt', null, 'Why this score'),
      h('dd', { class: 'explanation' }, hit.explanation),
      hit.qualifiers.length
        ? [h('dt', null, 'Adjustments'), h('dd', null, h('ul', { class: 'plain' }, hit.qualifiers.map((q) => h('li', null, `${q.detail} (score ${q.effect >= 0 ? '+' : '−'}${Math.abs(q.effect).toFixed(2)})`))))]
        : null,
      hit.programs.length ? [h('dt', null, 'Programmes'), h('dd', null, hit.programs.join(', '))] : null,
      h('dt', null, 'Entity'),
      h('dd', null, `${hit.entity_type} · ${hit.entity_id}`, hit.source_url ? [' · ', h('a', { href: hit.source_url, target: '_blank', rel: 'noopener noreferrer' }, 'source record')] : null),
      hit.disposition
        ? [
            h('dt', null, 'Decision'),
            h('dd', { class: 'decision' }, `${hit.disposition.status === 'true_match' ? 'True match' : 'False positive'} by ${hit.disposition.analyst_name} on ${formatDate(hit.disposition.at)}: ${hit.disposition.reason}`),
          ]
        : null,
    ),
  );
  if (dispositionsEnabled && s.status === 'completed') card.append(dispositionForm(s, hit, onUpdated));
  return card;
}

function dispositionForm(s: Screening, hit: Hit, onUpdated: (s: Screening) => void): HTMLElement {
  const status = h('select', { name: 'status' }, h('option', { value: 'true_match' }, 'True match'), h('option', { value: 'false_positive' }, 'False positive'));
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
