import { api } from '../api';
import { badge, field, formatDate, h, riskTone, scrollTable } from '../dom';
import { navigate, type PageContext } from '../router';
import { session } from '../session';
import { subjectCheckTone } from './subject-check';

interface Row {
  id: string | number;
  href: string;
  name: string;
  type: string;
  status: string;
  risk_level: string | null;
  risk_score: number | null;
  /** S2 subject checks: the overall result instead of a risk level. */
  result?: { text: string; tone: string };
  created_at: string;
}

const SUBJECT_CHECK_STATUSES = ['running', 'needs_review', 'escalated', 'completed', 'failed'];

/** Past screenings, person checks and S2 subject checks: filter by name, risk level (or status) and type; paginated. */
export async function renderHistory({ main, query }: PageContext): Promise<void> {
  const q = query.get('q') ?? '';
  const risk = query.get('risk') ?? '';
  const type = query.get('type') ?? '';
  const status = query.get('status') ?? '';
  const subjectChecks = type === 'subject_check';
  const page = Math.max(1, Number(query.get('page') ?? '1') || 1);
  const limit = 20;
  const personChecks = Boolean(session.overview?.features.person_checks);

  const name = h('input', { type: 'search', name: 'q', value: q, maxlength: 300, autocomplete: 'off' });
  const riskSelect = h('select', { name: 'risk' }, h('option', { value: '' }, 'Any'), ['low', 'medium', 'high', 'critical'].map((r) => h('option', { value: r }, r)));
  riskSelect.value = risk;
  const typeSelect = h(
    'select',
    { name: 'type' },
    h('option', { value: '' }, 'All screenings'),
    ['cdd', 'edd', 'ma', 'sow'].map((t) => h('option', { value: t }, t === 'ma' ? 'M&A' : t.toUpperCase())),
    personChecks ? h('option', { value: 'person_check' }, 'Person checks') : null,
    h('option', { value: 'subject_check' }, 'S2 subject checks'),
  );
  typeSelect.value = type;
  // Subject checks have no risk level: their filter is the status (the select appears with that type).
  const statusSelect = h('select', { name: 'status' }, h('option', { value: '' }, 'Any'), SUBJECT_CHECK_STATUSES.map((v) => h('option', { value: v }, v.replace(/_/g, ' '))));
  statusSelect.value = status;

  const go = (p: number) => {
    const params = new URLSearchParams();
    if (name.value.trim()) params.set('q', name.value.trim());
    const checks = typeSelect.value === 'subject_check';
    if (riskSelect.value && !checks) params.set('risk', riskSelect.value);
    if (typeSelect.value) params.set('type', typeSelect.value);
    if (statusSelect.value && checks) params.set('status', statusSelect.value);
    if (p > 1) params.set('page', String(p));
    const qs = params.toString();
    navigate(`#/history${qs ? `?${qs}` : ''}`);
  };

  main.append(
    h('h1', null, 'Screenings and checks'),
    h(
      'form',
      {
        class: 'card inline-form filters',
        role: 'search',
        'aria-label': 'Filter screenings and checks',
        onsubmit: (e: Event) => {
          e.preventDefault();
          go(1);
        },
      },
      field('Name contains', name),
      subjectChecks ? null : field('Risk level', riskSelect),
      field('Type', typeSelect),
      subjectChecks ? field('Status', statusSelect) : null,
      h('button', { type: 'submit', class: 'button primary' }, 'Search'),
    ),
  );

  let rows: Row[] = [];
  let total = 0;
  if (subjectChecks) {
    const params = new URLSearchParams({ page: String(page), limit: String(limit) });
    if (q) params.set('q', q);
    if (status) params.set('status', status);
    const { data, meta } = await api<{ subject_checks: any[] }>('GET', `/api/portal/subject-checks?${params}`);
    rows = data.subject_checks.map((c) => ({
      id: c.id,
      href: `#/subject-checks/${c.id}`,
      name: c.name,
      type: 'S2 subject check',
      status: String(c.status).replace(/_/g, ' '),
      risk_level: null,
      risk_score: null,
      result: c.overall_result ? { text: String(c.overall_result).replace(/_/g, ' '), tone: subjectCheckTone(c.status, c.overall_result) } : undefined,
      created_at: c.created_at,
    }));
    total = meta.pagination?.total ?? rows.length;
  } else if (type === 'person_check') {
    // The person-check list has no name or risk filter of its own: fetch a page and filter here.
    const { data } = await api<{ person_checks: any[]; pagination: { total: number } }>('GET', `/api/person-checks?page=${page}&limit=${limit}`);
    rows = data.person_checks
      .map((c) => ({ id: c.id, href: `#/person-checks/${encodeURIComponent(c.id)}`, name: c.full_name, type: 'Person check', status: c.status, risk_level: c.risk_level, risk_score: c.risk_score, created_at: c.created_at }))
      .filter((r) => (!q || r.name.toLowerCase().includes(q.toLowerCase())) && (!risk || r.risk_level === risk));
    total = data.pagination.total;
  } else {
    const params = new URLSearchParams({ page: String(page), limit: String(limit) });
    if (q) params.set('q', q);
    if (risk) params.set('risk_level', risk);
    if (type) params.set('type', type);
    const { data, meta } = await api<{ screenings: any[] }>('GET', `/api/portal/screenings?${params}`);
    rows = data.screenings.map((s) => ({
      id: s.id,
      href: `#/screenings/${s.id}`,
      name: s.search_query,
      type: s.kind === 'ma' ? 'M&A' : String(s.kind).toUpperCase(),
      status: s.status,
      risk_level: s.risk_level,
      risk_score: s.risk_score,
      created_at: s.created_at,
    }));
    total = meta.pagination?.total ?? rows.length;
  }
  const pages = Math.max(1, Math.ceil(total / limit));

  main.append(
    h(
      'section',
      { class: 'card', 'aria-labelledby': 'results-h' },
      h('h2', { id: 'results-h' }, `${total} result${total === 1 ? '' : 's'}`),
      rows.length === 0
        ? h('p', null, 'Nothing matches these filters.')
        : scrollTable(h(
            'table',
            null,
            h('caption', { class: 'visually-hidden' }, 'Results'),
            h('thead', null, h('tr', null, ['Name', 'Type', subjectChecks ? 'Result' : 'Risk', 'Status', 'Requested'].map((c) => h('th', { scope: 'col' }, c)))),
            h(
              'tbody',
              null,
              rows.map((r) =>
                h(
                  'tr',
                  null,
                  h('th', { scope: 'row' }, h('a', { href: r.href }, r.name)),
                  h('td', null, r.type),
                  h('td', null, r.result ? badge(r.result.text, r.result.tone) : r.risk_level ? badge(`${r.risk_level}${r.risk_score !== null ? ` · ${r.risk_score}` : ''}`, riskTone(r.risk_level)) : '—'),
                  h('td', null, r.status),
                  h('td', null, formatDate(r.created_at)),
                ),
              ),
            ),
          )),
      h(
        'nav',
        { class: 'pagination', 'aria-label': 'Pages' },
        h('button', { type: 'button', class: 'button secondary', disabled: page <= 1, onclick: () => go(page - 1) }, '← Previous'),
        h('span', { 'aria-current': 'page' }, `Page ${page} of ${pages}`),
        h('button', { type: 'button', class: 'button secondary', disabled: page >= pages, onclick: () => go(page + 1) }, 'Next →'),
      ),
    ),
  );
}
