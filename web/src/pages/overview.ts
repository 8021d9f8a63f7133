import { formatDate, h, scrollTable } from '../dom';
import type { PageContext } from '../router';
import { loadSession, type Overview } from '../session';

const surfaceNames: Record<string, string> = { s1: 'Screening API (S1)', s2: 'Subject-check API (S2)', s3: 'Enterprise API (S3)' };

function meter(used: number, limit: number | null, label: string): HTMLElement {
  if (limit === null) return h('p', { class: 'meter-text' }, `${used} used · unlimited on this plan`);
  if (limit === 0) return h('p', { class: 'meter-text' }, 'Not included in this plan');
  const pct = Math.min(100, Math.round((used / limit) * 100));
  // Set through the CSSOM: the page's Content-Security-Policy refuses inline style attributes.
  const bar = h('span');
  bar.style.width = `${pct}%`;
  return h(
    'div',
    { class: 'meter-wrap' },
    h('div', { class: `meter ${pct >= 80 ? 'meter-high' : ''}`, role: 'meter', 'aria-valuemin': 0, 'aria-valuemax': limit, 'aria-valuenow': used, 'aria-label': label }, bar),
    h('p', { class: 'meter-text' }, `${used} of ${limit} used (${limit - used} left)`),
  );
}

/** The quotas at 80 % or more, each with what happens once (or now that) it is used up: first on the page. */
function quotaWarnings(quotas: Overview['quotas']): HTMLElement[] {
  const warned = quotas.filter((q) => q.warning);
  if (warned.length === 0) return [];
  const line = (q: Overview['quotas'][number]) => {
    const reached = q.warning!.level === 'reached';
    // The words say the level too: status is never colour alone.
    return h('p', { class: `alert ${reached ? 'error' : 'caution'}`, 'data-quota': q.quota, 'data-level': q.warning!.level }, h('strong', null, reached ? 'Used up: ' : 'Nearly used: '), q.warning!.message);
  };
  return [h('section', { class: 'card quota-warnings', 'aria-labelledby': 'quota-warn-h' }, h('h2', { id: 'quota-warn-h' }, 'Quota warnings'), warned.map(line))];
}

export async function renderOverview({ main }: PageContext): Promise<void> {
  const o = await loadSession();
  main.append(
    h('h1', null, o.account.name ?? `Account ${o.account.id}`),
    ...quotaWarnings(o.quotas),
    h(
      'div',
      { class: 'grid' },
      h(
        'section',
        { class: 'card', 'aria-labelledby': 'plan-h' },
        h('h2', { id: 'plan-h' }, 'Plan'),
        h('p', { class: 'big' }, o.account.plan[0]!.toUpperCase() + o.account.plan.slice(1)),
        h('dl', { class: 'facts' }, h('dt', null, 'Account id'), h('dd', null, o.account.id), h('dt', null, 'Customer since'), h('dd', null, formatDate(o.account.created_at))),
      ),
      h(
        'section',
        { class: 'card', 'aria-labelledby': 'quota-h' },
        h('h2', { id: 'quota-h' }, `Quota used in ${o.month}`),
        o.quotas.map((q) => h('div', { class: 'quota' }, h('h3', null, q.name), meter(q.used, q.limit, q.name))),
        h('p', { class: 'muted' }, `Quotas reset ${formatDate(o.quota_resets_at)}.`),
        h('p', null, `Screenings this month: ${o.screenings_this_month.total}`),
      ),
      h(
        'section',
        { class: 'card', 'aria-labelledby': 'keys-h' },
        h('h2', { id: 'keys-h' }, 'Active API keys'),
        h(
          'ul',
          { class: 'plain' },
          Object.entries(o.keys).map(([s, k]) => h('li', null, h('strong', null, surfaceNames[s] ?? s), ': ', k.cap === null ? `${k.active} active` : `${k.active} of ${k.cap} (per ${k.cap_scope})`)),
        ),
        h('p', null, h('a', { href: '#/keys' }, 'Manage keys')),
      ),
    ),
    h(
      'section',
      { class: 'card', 'aria-labelledby': 'rate-h' },
      h('h2', { id: 'rate-h' }, 'Rate limits'),
      scrollTable(h(
        'table',
        null,
        h('caption', { class: 'visually-hidden' }, 'Rate limits by surface'),
        h('thead', null, h('tr', null, h('th', { scope: 'col' }, 'Surface'), h('th', { scope: 'col' }, 'Limit'), h('th', { scope: 'col' }, 'Left now'))),
        h(
          'tbody',
          null,
          o.rate_limits.map((r) =>
            h(
              'tr',
              null,
              h('th', { scope: 'row' }, surfaceNames[r.surface] ?? r.surface),
              h('td', null, `${r.limit} ${r.description}`),
              h(
                'td',
                null,
                r.keys
                  ? r.keys.length
                    ? h('ul', { class: 'plain' }, r.keys.map((k) => h('li', null, `${k.name} (${k.prefix}…): ${k.remaining} of ${r.limit}`)))
                    : 'No active keys'
                  : `${r.remaining ?? '—'} of ${r.limit}`,
              ),
            ),
          ),
        ),
      )),
    ),
  );
}
