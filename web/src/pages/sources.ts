import { api } from '../api';
import { badge, formatDate, h, scrollTable } from '../dom';
import type { PageContext } from '../router';

interface ListStatus {
  list: string;
  label: string;
  version: string;
  published_at: string | null;
  age_days: number | null;
  max_age_days: number | null;
  stale: boolean;
  loaded_at: string;
  entity_count: number;
}
interface SourceStatus {
  agent: string;
  label: string;
  configured: boolean;
  enable_with: string | null;
}

const plural = (n: number, one: string, many: string) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/**
 * A list's age against its own maximum: red past it, amber in its last fifth, green within it; a
 * list with no maximum set gets no verdict colour (its age is said, not judged).
 */
function ageBadge(l: ListStatus): HTMLElement | string {
  if (l.age_days === null) return l.stale ? badge('no publication date: out of date', 'high') : '—';
  const age = plural(l.age_days, 'day', 'days');
  if (l.max_age_days === null) return badge(`${age} (no maximum set)`, 'neutral');
  if (l.stale) return badge(`${age}: out of date`, 'high');
  if (l.age_days > l.max_age_days * 0.8) return badge(`${age}: due for an update`, 'medium');
  return badge(`${age}: current`, 'low');
}

/** One warning for every list past its maximum age, naming them. */
function staleBanner(lists: ListStatus[]): HTMLElement | null {
  const stale = lists.filter((l) => l.stale);
  if (stale.length === 0) return null;
  return h(
    'div',
    { class: 'alert error', role: 'alert' },
    h('strong', null, stale.length === 1 ? 'One list is older than its maximum age' : `${stale.length} lists are older than their maximum age`),
    `: ${stale.map((l) => l.label).join(', ')}. Results on ${stale.length === 1 ? 'it' : 'them'} carry a warning until an administrator updates the lists (the svc lists update command).`,
  );
}

/**
 * What this deployment searches: every list with its publication date and age, and every outside
 * source, configured or not, with what an operator sets to enable it. Reports refer here instead of
 * repeating "not configured" on every screening.
 */
export async function renderSources({ main }: PageContext): Promise<void> {
  const { data } = await api<{ lists: ListStatus[]; sources: SourceStatus[] }>('GET', '/api/portal/sources');
  const configured = data.sources.filter((s) => s.configured);
  const missing = data.sources.filter((s) => !s.configured);
  main.append(
    h('h1', null, 'Sources'),
    staleBanner(data.lists) ?? '',
    h('p', { class: 'muted' }, 'What every screening on this deployment searches. A source that is not configured is not searched: its absence of hits is not evidence of absence.'),
    h(
      'section',
      { class: 'card', 'aria-labelledby': 'lists-h' },
      h('h2', { id: 'lists-h' }, `Watch lists (${data.lists.length})`),
      scrollTable(
        h(
          'table',
          null,
          h('caption', { class: 'visually-hidden' }, 'Watch lists in service'),
          h('thead', null, h('tr', null, ['List', 'Published', 'Age', 'Maximum age', 'Entities', 'Loaded'].map((c) => h('th', { scope: 'col' }, c)))),
          h(
            'tbody',
            null,
            data.lists.map((l) =>
              h(
                'tr',
                null,
                h('th', { scope: 'row' }, l.label),
                h('td', null, l.published_at ? formatDate(l.published_at) : 'not stated'),
                h('td', null, ageBadge(l)),
                h('td', null, l.max_age_days === null ? 'none set' : `${l.max_age_days.toLocaleString('en-US')} days`),
                h('td', null, l.entity_count.toLocaleString('en')),
                h('td', null, formatDate(l.loaded_at)),
              ),
            ),
          ),
        ),
      ),
    ),
    h(
      'section',
      { class: 'card', 'aria-labelledby': 'configured-h' },
      h('h2', { id: 'configured-h' }, `Outside sources searched (${configured.length})`),
      configured.length === 0 ? h('p', null, 'None: screenings use the watch lists above only.') : h('ul', { class: 'plain' }, configured.map((s) => h('li', null, h('strong', null, s.label)))),
    ),
    h(
      'section',
      { class: 'card', 'aria-labelledby': 'missing-h' },
      h('h2', { id: 'missing-h' }, `Not configured (${missing.length})`),
      h('p', { class: 'muted' }, 'An administrator enables a source by setting the variables shown and restarting the service.'),
      scrollTable(
        h(
          'table',
          { class: 'sources-missing' },
          h('caption', { class: 'visually-hidden' }, 'Sources not configured'),
          h('thead', null, h('tr', null, ['Source', 'To enable'].map((c) => h('th', { scope: 'col' }, c)))),
          h(
            'tbody',
            null,
            missing.map((s) => h('tr', { 'data-agent': s.agent }, h('th', { scope: 'row' }, s.label), h('td', null, s.enable_with ? h('code', null, s.enable_with) : 'No adapter for this source in this release'))),
          ),
        ),
      ),
    ),
  );
}
