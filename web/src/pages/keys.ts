import { api } from '../api';
import { announce, badge, clear, field, formatDate, h, secretPanel, showFailure, scrollTable } from '../dom';
import type { PageContext } from '../router';
import { session } from '../session';

interface PortalKey {
  id: string;
  surface: 's1' | 's2' | 's3';
  name: string;
  prefix: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
  expires_at: string | null;
  webhook_url?: string | null;
}

const surfaces = [
  { id: 's1' as const, title: 'Screening API (S1)', prefix: 'svc_', use: 'Authorization: Bearer svc_… on /api/v1/screening/*' },
  { id: 's2' as const, title: 'Subject-check API (S2)', prefix: 'svca_', use: 'Authorization: Bearer svca_… on /api/v1/compliance/*' },
  { id: 's3' as const, title: 'Enterprise API (S3)', prefix: 'svcc_live_', use: 'X-API-Key: svcc_live_… on /api/v1/*' },
];

export async function renderKeys({ main }: PageContext): Promise<void> {
  main.append(h('h1', null, 'API keys'), h('p', { class: 'muted' }, 'A key is shown once, when it is created. Store it in a secret manager; rotate by creating a new key, switching over, then revoking the old one.'));
  const sections = h('div');
  main.append(sections);
  const starter = session.overview?.account.plan === 'starter';
  if (starter) main.insertBefore(h('div', { class: 'alert info', role: 'note' }, 'The Starter plan has no API access. Upgrade the plan to create API keys.'), sections);
  const { data } = await api<{ keys: Record<string, PortalKey[]>; caps: Record<string, number | null> }>('GET', '/api/portal/keys');
  for (const s of surfaces) sections.append(surfaceSection(s, data.keys[s.id] ?? [], data.caps[s.id] ?? null, !starter));
}

function surfaceSection(s: (typeof surfaces)[number], initial: PortalKey[], cap: number | null, canCreate: boolean): HTMLElement {
  let keys = initial;
  const headingId = `keys-${s.id}`;
  const tableBox = h('div');
  const reveal = h('div', { class: 'reveal' });
  const error = h('div', { class: 'alert error', role: 'alert', hidden: true });

  const renderTable = () => {
    clear(tableBox);
    const active = keys.filter((k) => !k.revoked_at);
    tableBox.append(h('p', { class: 'muted' }, cap === null ? `${active.length} active` : `${active.length} of ${cap} active keys`));
    if (keys.length === 0) {
      tableBox.append(h('p', null, 'No keys yet.'));
      return;
    }
    tableBox.append(
      scrollTable(h(
        'table',
        null,
        h('caption', { class: 'visually-hidden' }, `${s.title} keys`),
        h(
          'thead',
          null,
          h('tr', null, ['Name', 'Key', 'Created', 'Last used', s.id === 's1' ? 'Webhook' : null, 'Status', 'Actions'].filter(Boolean).map((c) => h('th', { scope: 'col' }, c as string))),
        ),
        h('tbody', null, keys.map((k) => keyRow(k))),
      )),
    );
  };

  const keyRow = (k: PortalKey): HTMLElement => {
    const actions = h('td');
    const row = h(
      'tr',
      { 'data-key-id': k.id },
      h('th', { scope: 'row' }, k.name),
      h('td', null, h('code', null, `${k.prefix}…`)),
      h('td', null, formatDate(k.created_at)),
      h('td', null, formatDate(k.last_used_at)),
      s.id === 's1' ? h('td', { class: 'wrap' }, k.webhook_url ?? '—') : null,
      h('td', null, k.revoked_at ? badge(`Revoked ${formatDate(k.revoked_at)}`, 'neutral') : badge('Active', 'low')),
      actions,
    );
    const showRevoke = () => {
      clear(actions);
      if (k.revoked_at) return;
      actions.append(
        h(
          'button',
          {
            type: 'button',
            class: 'button danger small',
            'aria-label': `Revoke key ${k.name}`,
            onclick: () => {
              clear(actions);
              const confirm = h(
                'button',
                {
                  type: 'button',
                  class: 'button danger small',
                  onclick: async () => {
                    confirm.disabled = true;
                    try {
                      const { data } = await api<{ key: PortalKey }>('DELETE', `/api/portal/keys/${k.id}`);
                      keys = keys.map((x) => (x.id === k.id ? data.key : x));
                      renderTable();
                      announce(`Key ${k.name} revoked`);
                    } catch (e) {
                      error.textContent = (e as Error).message;
                      error.hidden = false;
                      showRevoke();
                    }
                  },
                },
                `Confirm revoke`,
              );
              actions.append(confirm, ' ', h('button', { type: 'button', class: 'button secondary small', onclick: showRevoke }, 'Cancel'));
              confirm.focus();
            },
          },
          'Revoke',
        ),
      );
    };
    showRevoke();
    return row;
  };

  const name = h('input', { type: 'text', name: 'name', required: true, maxlength: 100, autocomplete: 'off' });
  const webhook = s.id === 's1' ? h('input', { type: 'url', name: 'webhook_url', placeholder: 'https://example.com/hooks/screening', autocomplete: 'off' }) : null;
  const submit = h('button', { type: 'submit', class: 'button primary' }, `Create ${s.prefix} key`);
  const form = h(
    'form',
    {
      class: 'inline-form',
      'aria-label': `Create a ${s.title} key`,
      onsubmit: async (event: Event) => {
        event.preventDefault();
        error.hidden = true;
        clear(reveal);
        submit.disabled = true;
        try {
          const body: Record<string, string> = { surface: s.id, name: name.value.trim() };
          if (webhook && webhook.value.trim()) body.webhook_url = webhook.value.trim();
          const { data } = await api<{ key: PortalKey; plaintext: string; webhook_signing_secret?: string }>('POST', '/api/portal/keys', body);
          keys = [...keys, data.key];
          renderTable();
          reveal.append(secretPanel(`New ${s.title} key "${data.key.name}"`, data.plaintext, 'Copy this key now. It is shown only once and cannot be recovered.'));
          if (data.webhook_signing_secret) {
            reveal.append(secretPanel('Webhook signing secret', data.webhook_signing_secret, 'Verify each delivery\'s X-Service-Signature with this secret. It is shown only once.'));
          }
          (reveal.querySelector('input') as HTMLInputElement | null)?.focus();
          announce('Key created. Copy it now: it is shown only once.');
          form.reset();
        } catch (e) {
          showFailure(error, form, e);
        } finally {
          submit.disabled = false;
        }
      },
    },
    field('Key name', name, 'For example the system that will use it.'),
    webhook ? field('Webhook URL (optional)', webhook, 'HTTPS. Completed screenings are POSTed here, signed with a secret shown once.', 'wide') : null,
    submit,
  );

  renderTable();
  return h(
    'section',
    { class: 'card', 'aria-labelledby': headingId, 'data-surface': s.id },
    h('h2', { id: headingId }, `${s.title} — `, h('code', null, `${s.prefix}…`), ' keys'),
    h('p', { class: 'muted' }, s.use),
    error,
    reveal,
    tableBox,
    canCreate ? form : null,
  );
}
