import { api } from '../api';
import { append, badge, formatDate, h, scrollTable } from '../dom';
import type { PageContext } from '../router';

/** How an S2 check's status and result read as a badge tone (never colour alone: the text says it). */
export function subjectCheckTone(status: string, result: string | null): string {
  if (status === 'failed' || result === 'adverse_found') return 'critical';
  if (status === 'escalated') return 'high';
  if (status === 'needs_review' || status === 'running' || result === 'inconclusive') return 'medium';
  return 'low';
}

const words = (s: string | null | undefined) => (s ? s.replace(/_/g, ' ') : '—');

/** One S2 subject check (started through the S2 API): summary, status, tier scores, sources, monitoring. */
export async function renderSubjectCheck({ main, params }: PageContext): Promise<void> {
  const { data } = await api<{ subject_check: any }>('GET', `/api/portal/subject-checks/${encodeURIComponent(params.id!)}`);
  const c = data.subject_check;
  const tiers = Object.entries((c.tier_scores ?? {}) as Record<string, number>);
  const sources: any[] = c.sources ?? [];
  append(main, [
    h('p', null, h('a', { href: '#/history?type=subject_check' }, '← All subject checks')),
    h('h1', null, c.name),
    h(
      'p',
      { class: 'muted' },
      `S2 subject check ${c.id}${c.year_of_birth ? ` · born ${c.year_of_birth}` : ''}${c.countries.length ? ` · ${c.countries.join(', ')}` : ''} · requested ${formatDate(c.created_at)}`,
      c.completed_at ? ` · completed ${formatDate(c.completed_at)}` : '',
    ),
    h('p', null, badge(words(c.status), subjectCheckTone(c.status, c.overall_result)), ' ', c.overall_result ? `Result: ${words(c.overall_result)}` : ''),
    h(
      'section',
      { class: 'card', 'aria-labelledby': 'sc-summary-h' },
      h('h2', { id: 'sc-summary-h' }, 'Summary'),
      h('p', null, c.summary),
      h(
        'dl',
        { class: 'facts' },
        h('dt', null, 'Confidence'),
        h('dd', null, words(c.confidence_level)),
        h('dt', null, 'Red flags'),
        h('dd', null, c.red_flag_count ?? '—'),
        h('dt', null, 'Warnings'),
        h('dd', null, c.warning_count ?? '—'),
        h('dt', null, 'Sources searched'),
        h('dd', null, c.sources_searched === null ? '—' : `${c.sources_searched} of ${c.sources_total}`),
        h('dt', null, 'Monitoring'),
        h('dd', null, c.monitoring ? `Enrolled (${c.monitoring_alerts} alert${c.monitoring_alerts === 1 ? '' : 's'} so far)` : 'Not enrolled'),
        c.investigation_id ? [h('dt', null, 'Investigation'), h('dd', null, `${c.investigation_id}${c.priority ? ` · ${c.priority} priority` : ''}`)] : null,
      ),
    ),
    h(
      'section',
      { class: 'card', 'aria-labelledby': 'sc-tiers-h' },
      h('h2', { id: 'sc-tiers-h' }, 'Tier scores'),
      tiers.length === 0
        ? h('p', { class: 'muted' }, 'No tier scores: they are recorded when a check needs review or is escalated.')
        : h('dl', { class: 'facts' }, tiers.map(([tier, score]) => [h('dt', null, words(tier)), h('dd', null, String(score))])),
    ),
    h(
      'section',
      { class: 'card', 'aria-labelledby': 'sc-sources-h' },
      h('h2', { id: 'sc-sources-h' }, 'Sources'),
      sources.length === 0
        ? h('p', { class: 'muted' }, 'No source has answered yet.')
        : scrollTable(
            h(
              'table',
              null,
              h('caption', { class: 'visually-hidden' }, 'Sources of the check'),
              h('thead', null, h('tr', null, ['Source', 'Tier', 'Searched', 'Findings'].map((t) => h('th', { scope: 'col' }, t)))),
              h(
                'tbody',
                null,
                sources.map((x) =>
                  h(
                    'tr',
                    null,
                    h('th', { scope: 'row' }, words(x.agent)),
                    h('td', null, words(x.tier)),
                    h('td', null, x.queried ? 'Yes' : `No${x.error ? `: ${x.error}` : ''}`),
                    h('td', null, String(x.hits)),
                  ),
                ),
              ),
            ),
          ),
    ),
  ]);
}
