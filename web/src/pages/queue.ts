import { api } from '../api';
import { badge, field, formatDate, h, riskTone, scrollTable } from '../dom';
import { navigate, type PageContext } from '../router';

interface QueueItem {
  screening_id: number;
  search_query: string;
  entity_type: string;
  kind: string;
  surface: string;
  risk_level: string | null;
  risk_score: number | null;
  open_hits: number;
  needs_more_information_hits: number;
  assignee: Assignee | null;
  /** Every list the entities of its undecided hits are on, by name. */
  lists: QueueList[];
  monitoring: boolean;
  completed_at: string;
  age_days: number;
}

interface QueueList {
  id: string;
  name: string;
}

interface Assignee {
  email: string;
  me: boolean;
}

const LEVELS = ['critical', 'high', 'medium', 'low'] as const;
const SURFACES: Record<string, string> = { s1: 'Screenings API', s3: 'Enterprise API', portal: 'Portal' };

/**
 * Home: the work queue. Screenings with undecided hits, most severe first, then oldest; counts per
 * level (each a link that filters), filters by level, surface, list, assignee (me, unassigned, a
 * named user) and hits waiting for more information, one click into the case.
 */
export async function renderQueue({ main, query }: PageContext): Promise<void> {
  const level = query.get('level') ?? '';
  const surface = query.get('surface') ?? '';
  const list = query.get('list') ?? '';
  const assignee = query.get('assignee') ?? '';
  const waiting = query.get('needs_more_information') === 'true' ? 'true' : '';
  const page = Math.max(1, Number(query.get('page') ?? '1') || 1);
  const limit = 25;

  const params = new URLSearchParams({ page: String(page), limit: String(limit) });
  if (level) params.set('level', level);
  if (surface) params.set('surface', surface);
  if (list) params.set('list', list);
  if (assignee) params.set('assignee', assignee);
  if (waiting) params.set('needs_more_information', 'true');
  const { data, meta } = await api<{ items: QueueItem[]; counts: Record<string, number>; lists: QueueList[]; assignees: Assignee[] }>('GET', `/api/portal/queue?${params}`);
  const total = meta.pagination?.total ?? data.items.length;
  const pages = Math.max(1, Math.ceil(total / limit));

  const hashFor = (over: Record<string, string>, p = 1) => {
    const next = new URLSearchParams();
    const merged = { level, surface, list, assignee, needs_more_information: waiting, ...over };
    for (const [k, v] of Object.entries(merged)) if (v) next.set(k, v);
    if (p > 1) next.set('page', String(p));
    const qs = next.toString();
    return `#/${qs ? `?${qs}` : ''}`;
  };

  const levelSelect = h('select', { name: 'level' }, h('option', { value: '' }, 'Any'), LEVELS.map((l) => h('option', { value: l }, l)));
  levelSelect.value = level;
  const surfaceSelect = h('select', { name: 'surface' }, h('option', { value: '' }, 'Any'), Object.entries(SURFACES).map(([v, label]) => h('option', { value: v }, label)));
  surfaceSelect.value = surface;
  const listSelect = h('select', { name: 'list' }, h('option', { value: '' }, 'Any'), data.lists.map((l) => h('option', { value: l.id }, l.name)));
  listSelect.value = list;
  const assigneeSelect = h(
    'select',
    { name: 'assignee' },
    h('option', { value: '' }, 'Anyone'),
    h('option', { value: 'me' }, 'Me'),
    h('option', { value: 'unassigned' }, 'Unassigned'),
    data.assignees.filter((a) => !a.me).map((a) => h('option', { value: a.email }, a.email)),
  );
  assigneeSelect.value = assignee;
  const waitingSelect = h('select', { name: 'needs_more_information' }, h('option', { value: '' }, 'Any'), h('option', { value: 'true' }, 'Waiting for more information'));
  waitingSelect.value = waiting;
  const filtered = Boolean(level || surface || list || assignee || waiting);

  const totalOpen = LEVELS.reduce((n, l) => n + (data.counts[l] ?? 0), 0);
  main.append(
    h('h1', null, 'Work queue'),
    h('p', { class: 'muted' }, totalOpen === 0 ? 'Nothing waits for a decision.' : `${totalOpen} screening${totalOpen === 1 ? '' : 's'} with hits waiting for a decision, most severe first, then oldest.`),
    h(
      'ul',
      { class: 'level-counts', 'aria-label': 'Open cases per risk level' },
      LEVELS.map((l) =>
        h(
          'li',
          null,
          h('a', { href: hashFor({ level: level === l ? '' : l }), class: `level-count tone-text-${riskTone(l)}`, 'aria-current': level === l ? 'true' : false }, h('strong', null, String(data.counts[l] ?? 0)), ` ${l}`),
        ),
      ),
    ),
    h(
      'form',
      {
        class: 'card inline-form filters',
        role: 'search',
        'aria-label': 'Filter the work queue',
        onsubmit: (e: Event) => {
          e.preventDefault();
          navigate(hashFor({ level: levelSelect.value, surface: surfaceSelect.value, list: listSelect.value, assignee: assigneeSelect.value, needs_more_information: waitingSelect.value }));
        },
      },
      field('Risk level', levelSelect),
      field('Requested through', surfaceSelect),
      field('List', listSelect),
      field('Assigned to', assigneeSelect),
      field('Hit status', waitingSelect),
      h('button', { type: 'submit', class: 'button primary' }, 'Filter'),
    ),
    h(
      'section',
      { class: 'card', 'aria-labelledby': 'queue-h' },
      h('h2', { id: 'queue-h' }, `${total} open case${total === 1 ? '' : 's'}${filtered ? ' matching the filters' : ''}`),
      data.items.length === 0
        ? h('p', null, filtered ? 'No open case matches these filters.' : 'No open case. New screenings with hits and monitoring alerts appear here.')
        : scrollTable(
            h(
              'table',
              null,
              h('caption', { class: 'visually-hidden' }, 'Open cases'),
              h('thead', null, h('tr', null, ['Subject', 'Risk', 'Undecided hits', 'Assigned to', 'Lists', 'Waiting', 'Requested through'].map((c) => h('th', { scope: 'col' }, c)))),
              h(
                'tbody',
                null,
                data.items.map((item) =>
                  h(
                    'tr',
                    null,
                    h(
                      'th',
                      { scope: 'row' },
                      // Opened from here, the case leads back here (its back link and the menu say Work queue).
                      h('a', { href: `#/screenings/${item.screening_id}?from=queue` }, item.search_query),
                      h('div', { class: 'muted small' }, `${item.kind === 'ma' ? 'M&A' : item.kind.toUpperCase()} · ${item.entity_type}${item.monitoring ? ' · monitored' : ''}`),
                    ),
                    h('td', null, item.risk_level ? badge(`${item.risk_level}${item.risk_score !== null ? ` · ${item.risk_score}` : ''}`, riskTone(item.risk_level)) : '—'),
                    h(
                      'td',
                      null,
                      String(item.open_hits),
                      item.needs_more_information_hits > 0 ? h('div', null, badge(`${item.needs_more_information_hits} need${item.needs_more_information_hits === 1 ? 's' : ''} more information`, 'medium')) : null,
                    ),
                    h('td', { class: 'assignee' }, item.assignee ? `${item.assignee.email}${item.assignee.me ? ' (you)' : ''}` : h('span', { class: 'muted' }, 'Unassigned')),
                    h('td', { class: 'lists' }, item.lists.length === 1 ? item.lists[0]!.name : h('ul', { class: 'plain' }, item.lists.map((l) => h('li', null, l.name)))),
                    h('td', { title: formatDate(item.completed_at) }, item.age_days === 0 ? 'today' : `${item.age_days} day${item.age_days === 1 ? '' : 's'}`),
                    h('td', null, SURFACES[item.surface] ?? item.surface),
                  ),
                ),
              ),
            ),
          ),
      pages > 1
        ? h(
            'nav',
            { class: 'pagination', 'aria-label': 'Pages' },
            h('a', { class: 'button secondary', href: hashFor({}, page - 1), 'aria-disabled': page <= 1 ? 'true' : false }, '← Previous'),
            h('span', { 'aria-current': 'page' }, `Page ${page} of ${pages}`),
            h('a', { class: 'button secondary', href: hashFor({}, page + 1), 'aria-disabled': page >= pages ? 'true' : false }, 'Next →'),
          )
        : null,
    ),
  );
}
