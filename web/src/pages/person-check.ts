import { api, download } from '../api';
import { append, badge, field, formatDate, h, riskTone, showFailure } from '../dom';
import { navigate, type PageContext } from '../router';
import { session } from '../session';

const purposes = [
  ['employment', 'Employment'],
  ['business_due_diligence', 'Business due diligence'],
  ['volunteer_screening', 'Volunteer screening'],
  ['licensing', 'Licensing'],
] as const;

const list = (value: string) =>
  value
    .split(/[,;\n]/)
    .map((s) => s.trim())
    .filter(Boolean);

export function renderPersonCheckForm({ main }: PageContext): void {
  if (!session.overview?.features.person_checks) {
    main.append(h('h1', null, 'Person check'), h('p', null, 'Person checks are not available on this deployment.'));
    return;
  }
  const first = h('input', { type: 'text', name: 'first_name', required: true, maxlength: 100, autocomplete: 'off' });
  const middle = h('input', { type: 'text', name: 'middle_name', maxlength: 100, autocomplete: 'off' });
  const last = h('input', { type: 'text', name: 'last_name', required: true, maxlength: 100, autocomplete: 'off' });
  const dob = h('input', { type: 'date', name: 'dob', min: '1900-01-01' });
  const aliases = h('input', { type: 'text', name: 'aliases', autocomplete: 'off' });
  const locations = h('input', { type: 'text', name: 'locations', autocomplete: 'off' });
  const purpose = h('select', { name: 'purpose', required: true }, h('option', { value: '' }, 'Choose…'), purposes.map(([v, l]) => h('option', { value: v }, l)));
  const consent = h('input', { type: 'checkbox', name: 'fcra_consent', required: true, id: 'fcra-consent' });
  const error = h('div', { class: 'alert error', role: 'alert', hidden: true });
  const status = h('p', { role: 'status', class: 'muted' });
  const submit = h('button', { type: 'submit', class: 'button primary' }, 'Run person check');

  main.append(
    h(
      'form',
      {
        class: 'card',
        'aria-labelledby': 'pc-h',
        onsubmit: async (e: Event) => {
          e.preventDefault();
          const formEl = e.currentTarget as HTMLFormElement;
          error.hidden = true;
          if (!consent.checked) {
            error.textContent = 'The subject\'s consent is required (FCRA) before a person check can run.';
            error.hidden = false;
            consent.focus();
            return;
          }
          submit.disabled = true;
          status.textContent = 'Running the check: this can take a few seconds…';
          try {
            const { data } = await api<{ person_check: { id: string } }>('POST', '/api/person-checks', {
              first_name: first.value.trim(),
              ...(middle.value.trim() ? { middle_name: middle.value.trim() } : {}),
              last_name: last.value.trim(),
              ...(dob.value ? { dob: dob.value } : {}),
              aliases: list(aliases.value),
              locations: list(locations.value),
              purpose: purpose.value,
              fcra_consent: true,
            });
            navigate(`#/person-checks/${encodeURIComponent(data.person_check.id)}`);
          } catch (err) {
            status.textContent = '';
            showFailure(error, formEl, err);
          } finally {
            submit.disabled = false;
          }
        },
      },
      h('h1', { id: 'pc-h' }, 'Person check'),
      h('p', { class: 'muted' }, 'Background check of a person across sanctions, court, corporate and public sources. Only for a permissible purpose, with the person\'s consent.'),
      error,
      h(
        'div',
        { class: 'form-grid' },
        field('First name', first),
        field('Middle name (optional)', middle),
        field('Last name', last),
        field('Date of birth (optional)', dob),
        field('Other names (optional)', aliases, 'Separate with commas.'),
        field('Locations (optional)', locations, 'US states or countries, separated with commas.'),
        field('Permissible purpose', purpose),
      ),
      h(
        'div',
        { class: 'consent' },
        consent,
        h('label', { for: 'fcra-consent' }, 'The subject has given written consent to this check (FCRA), and I have a permissible purpose.'),
      ),
      submit,
      status,
    ),
  );
  first.focus();
}

const severityOrder = [
  ['red_flag', 'Red flags', 'critical'],
  ['warning', 'Warnings', 'medium'],
  ['info', 'Information', 'neutral'],
] as const;

export async function renderPersonCheck({ main, params }: PageContext): Promise<void> {
  const { data } = await api<{ person_check: any }>('GET', `/api/person-checks/${encodeURIComponent(params.id!)}`);
  const c = data.person_check;
  const findings: any[] = c.findings ?? [];
  append(main, [
    h('p', null, h('a', { href: '#/history?type=person_check' }, '← All person checks')),
    h('h1', null, c.full_name),
    h(
      'p',
      { class: 'muted' },
      `Person check ${c.id} · ${c.purpose?.replace(/_/g, ' ') ?? ''} · requested ${formatDate(c.created_at)}`,
      c.completed_at ? ` · completed ${formatDate(c.completed_at)}` : '',
    ),
    h(
      'p',
      null,
      badge(c.status, c.status === 'completed' ? 'low' : c.status === 'failed' ? 'critical' : 'medium'),
      ' ',
      c.risk_level ? badge(`${c.risk_level} risk · ${c.risk_score}/100`, riskTone(c.risk_level)) : null,
      ' ',
      c.confidence_level ? `Confidence: ${c.confidence_level}` : '',
    ),
    c.status === 'completed'
      ? h('button', { type: 'button', class: 'button primary', onclick: () => void download(`/api/person-checks/${encodeURIComponent(c.id)}/pdf`, `person-check-${c.id}.pdf`) }, 'Download PDF')
      : null,
    severityOrder.map(([severity, title, tone]) => {
      const items = findings.filter((f) => f.severity === severity);
      return h(
        'section',
        { class: 'card', 'data-severity': severity, 'aria-labelledby': `sev-${severity}` },
        h('h2', { id: `sev-${severity}` }, badge(title, tone), ` ${items.length}`),
        items.length === 0
          ? h('p', { class: 'muted' }, 'None.')
          : h(
              'ul',
              { class: 'findings' },
              items.map((f) =>
                h(
                  'li',
                  null,
                  h('strong', null, f.title),
                  f.detail ? h('p', null, f.detail) : null,
                  h(
                    'p',
                    { class: 'muted small' },
                    `${f.category ?? ''} · matched “${f.matched_name ?? ''}” · corroboration: ${f.corroboration ?? '—'} · source: `,
                    f.source?.url ? h('a', { href: f.source.url, target: '_blank', rel: 'noopener noreferrer' }, f.source.name) : (f.source?.name ?? '—'),
                  ),
                ),
              ),
            ),
      );
    }),
  ]);
}
