import { api } from '../api';
import { announce, badge, clear, field, formatDate, h, secretPanel, scrollTable, showFailure } from '../dom';
import type { Cleanup, PageContext } from '../router';

interface Endpoint {
  id: string;
  surface: 's1' | 's2' | 's3';
  key_id: string | null;
  key_name: string | null;
  key_revoked: boolean;
  url: string;
  enabled: boolean;
  consecutive_failures: number;
  disabled_at: string | null;
}

interface Attempt {
  attemptNumber: number;
  startedAt: string;
  durationMs: number | null;
  statusCode: number | null;
  error: string | null;
  outcome: string;
}

interface Delivery {
  deliveryId: string;
  surface: string;
  event: string;
  status: string;
  attemptCount: number;
  maxAttempts: number;
  nextAttemptAt: string | null;
  lastStatusCode: number | null;
  lastError: string | null;
  createdAt: string;
  body: string;
  attempts: Attempt[];
}

/** What the user set up, in their words: the API a webhook reports on (never "surface"). */
const apiNames: Record<string, string> = { s1: 'Screenings API (one endpoint per key)', s2: 'Subject-check API', s3: 'Enterprise API' };
const statusTone: Record<string, string> = { succeeded: 'low', pending: 'medium', delivering: 'medium', failed: 'critical', dropped: 'neutral' };

export async function renderWebhooks({ main }: PageContext): Promise<Cleanup> {
  let refresh: ReturnType<typeof setTimeout> | undefined;
  let gone = false;
  const error = h('div', { class: 'alert error', role: 'alert', hidden: true });
  const reveal = h('div', { class: 'reveal' });
  const endpointsBox = h('div');
  const logBox = h('section', { class: 'card', 'aria-labelledby': 'log-h' });
  main.append(h('h1', null, 'Webhooks'), error, reveal);

  const showError = (e: unknown) => {
    error.textContent = (e as Error).message;
    error.hidden = false;
  };

  const [{ data: hooks }, { data: keyData }] = await Promise.all([
    api<{ endpoints: Endpoint[]; s3_available: boolean }>('GET', '/api/portal/webhooks'),
    api<{ keys: Record<string, { id: string; name: string; prefix: string; revoked_at: string | null }[]> }>('GET', '/api/portal/keys'),
  ]);
  let endpoints = hooks.endpoints;

  const reload = async () => {
    endpoints = (await api<{ endpoints: Endpoint[] }>('GET', '/api/portal/webhooks')).data.endpoints;
    renderEndpoints();
  };

  const pathFor = (e: Pick<Endpoint, 'surface' | 'key_id'>) => (e.surface === 's1' ? `/api/portal/webhooks/s1/${e.key_id}` : `/api/portal/webhooks/${e.surface}`);

  const renderEndpoints = () => {
    clear(endpointsBox);
    if (endpoints.length === 0) {
      endpointsBox.append(h('p', null, 'No webhook endpoints yet.'));
      return;
    }
    endpointsBox.append(
      scrollTable(h(
        'table',
        null,
        h('caption', { class: 'visually-hidden' }, 'Configured webhook endpoints'),
        h('thead', null, h('tr', null, ['Reports on', 'URL', 'State', 'Actions'].map((c) => h('th', { scope: 'col' }, c)))),
        h(
          'tbody',
          null,
          endpoints.map((e) => {
            const actions = h('td', { class: 'actions' });
            const label = e.surface === 's1' ? `Screenings API, key “${e.key_name ?? e.key_id}”` : apiNames[e.surface]!;
            // A failed action on this endpoint is said on its own row, not at the top of the page.
            const rowError = h('p', { class: 'field-error', role: 'alert' });
            const showRowError = (err: unknown) => {
              rowError.textContent = `${label}: ${(err as Error).message}`;
            };
            actions.append(
              h(
                'button',
                {
                  type: 'button',
                  class: 'button secondary small',
                  'aria-label': `Send a test delivery to ${label}`,
                  onclick: async () => {
                    try {
                      const { data } = await api<{ status: string; delivery_id?: string }>('POST', `${pathFor(e)}/test`);
                      announce(data.status === 'enqueued' ? 'Test delivery queued' : `Test delivery ${data.status}`);
                      await loadLog(e.surface);
                    } catch (err) {
                      showRowError(err);
                    }
                  },
                },
                // The visible words are part of the accessible name (WCAG 2.5.3, label in name).
                'Send a test delivery',
              ),
            );
            if (!e.enabled) {
              actions.append(
                ' ',
                h(
                  'button',
                  {
                    type: 'button',
                    class: 'button primary small',
                    'aria-label': `Re-enable ${label}`,
                    onclick: async () => {
                      try {
                        await api('POST', `${pathFor(e)}/reenable`);
                        announce('Endpoint re-enabled');
                        await reload();
                      } catch (err) {
                        showRowError(err);
                      }
                    },
                  },
                  'Re-enable',
                ),
              );
            }
            actions.append(rowError);
            return h(
              'tr',
              { 'data-surface': e.surface },
              h('th', { scope: 'row' }, label, e.key_revoked ? ' (key revoked)' : ''),
              h('td', { class: 'wrap' }, e.url),
              h(
                'td',
                null,
                e.enabled ? badge('Enabled', 'low') : badge(`Disabled ${formatDate(e.disabled_at)}`, 'critical'),
                e.consecutive_failures ? h('div', { class: 'muted' }, `${e.consecutive_failures} consecutive failures`) : null,
              ),
              actions,
            );
          }),
        ),
      )),
    );
  };

  // ---- configure
  // No preselected choice: an endpoint set up for the wrong API would receive the wrong events.
  const surfaceSelect = h(
    'select',
    { name: 'surface', required: true },
    h('option', { value: '' }, 'Choose the API it reports on…'),
    (keyData.keys.s1 ?? []).filter((k) => !k.revoked_at).map((k) => h('option', { value: `s1:${k.id}` }, `Screenings API, key “${k.name}” (${k.prefix}…)`)),
    h('option', { value: 's2' }, 'Subject-check API (one endpoint for the account)'),
    hooks.s3_available ? h('option', { value: 's3' }, 'Enterprise API (one endpoint for the account)') : null,
  );
  const url = h('input', { type: 'url', name: 'url', required: true, placeholder: 'https://example.com/hooks', autocomplete: 'off' });
  const save = h('button', { type: 'submit', class: 'button primary' }, 'Save webhook');
  // A refused URL is said in the form, next to its field.
  const formError = h('div', { class: 'alert error', role: 'alert', hidden: true });
  const form = h(
    'form',
    {
      class: 'inline-form',
      'aria-label': 'Configure a webhook URL',
      onsubmit: async (ev: Event) => {
        ev.preventDefault();
        formError.hidden = true;
        clear(reveal);
        save.disabled = true;
        try {
          const [surface, keyId] = surfaceSelect.value.split(':');
          const path = surface === 's1' ? `/api/portal/webhooks/s1/${keyId}` : `/api/portal/webhooks/${surface}`;
          const { data } = await api<{ url: string; signing_secret: string }>('PUT', path, { url: url.value.trim() });
          reveal.append(secretPanel('Webhook signing secret', data.signing_secret, `Deliveries to ${data.url} are signed with this secret (X-Service-Signature, HMAC-SHA256). It is shown only once.`));
          (reveal.querySelector('input') as HTMLInputElement | null)?.focus();
          announce('Webhook saved. Copy the signing secret now: it is shown only once.');
          form.reset();
          await reload();
        } catch (e) {
          // A refused URL is said once, next to its field (showFailure); a failure of no field at the top of the form.
          showFailure(formError, form, e);
        } finally {
          save.disabled = false;
        }
      },
    },
    formError,
    field('Endpoint for', surfaceSelect, 'The API whose events it receives.'),
    field('HTTPS URL', url, 'Must resolve to a public address.', 'wide'),
    save,
  );

  main.append(
    h('section', { class: 'card', 'aria-labelledby': 'ep-h' }, h('h2', { id: 'ep-h' }, 'Endpoints'), endpointsBox, h('h3', null, 'Add or change an endpoint'), form),
    logBox,
  );
  renderEndpoints();

  // ---- delivery log
  const logSurface = h('select', { name: 'log-surface' }, ['s1', 's2', 's3'].map((s) => h('option', { value: s }, apiNames[s]!)));
  const logStatus = h(
    'select',
    { name: 'log-status' },
    h('option', { value: '' }, 'Any status'),
    ['pending', 'delivering', 'succeeded', 'failed', 'dropped'].map((s) => h('option', { value: s }, s)),
  );
  const logTable = h('div', { 'aria-live': 'polite' });
  const more = h('button', { type: 'button', class: 'button secondary', hidden: true }, 'Load older deliveries');
  let cursor: string | null = null;

  const loadLog = async (surface?: string, append = false) => {
    if (refresh) clearTimeout(refresh);
    if (surface) logSurface.value = surface;
    const q = new URLSearchParams({ surface: logSurface.value, limit: '20' });
    if (logStatus.value) q.set('status', logStatus.value);
    if (append && cursor) q.set('cursor', cursor);
    const { data } = await api<{ deliveries: Delivery[]; next_cursor: string | null }>('GET', `/api/portal/webhooks/deliveries?${q}`);
    cursor = data.next_cursor;
    more.hidden = !cursor;
    // Keep open the deliveries the reader expanded when the log refreshes.
    const open = new Set(Array.from(logTable.querySelectorAll<HTMLDetailsElement>('details[open]')).map((d) => d.dataset.deliveryId));
    if (!append) clear(logTable);
    if (!append && data.deliveries.length === 0) {
      logTable.append(h('p', null, 'No deliveries.'));
      return;
    }
    for (const d of data.deliveries) {
      const item = deliveryItem(d);
      if (open.has(d.deliveryId)) item.open = true;
      logTable.append(item);
    }
    // While something is still being delivered, follow it (first page only, every 2 s).
    if (!append && !gone && data.deliveries.some((d) => d.status === 'pending' || d.status === 'delivering')) {
      refresh = setTimeout(() => void loadLog().catch(() => undefined), 2000);
    }
  };
  more.addEventListener('click', () => void loadLog(undefined, true).catch(showError));

  logBox.append(
    h('h2', { id: 'log-h' }, 'Delivery log'),
    h(
      'form',
      {
        class: 'inline-form',
        'aria-label': 'Filter deliveries',
        onsubmit: (e: Event) => {
          e.preventDefault();
          void loadLog().catch(showError);
        },
      },
      field('Deliveries of', logSurface),
      field('Status', logStatus),
      h('button', { type: 'submit', class: 'button secondary' }, 'Show'),
    ),
    logTable,
    more,
  );
  const firstSurface = endpoints[0]?.surface;
  await loadLog(firstSurface);
  return () => {
    gone = true;
    if (refresh) clearTimeout(refresh);
  };
}

function deliveryItem(d: Delivery): HTMLDetailsElement {
  return h(
    'details',
    { class: 'delivery', 'data-delivery-id': d.deliveryId },
    h(
      'summary',
      null,
      badge(d.status, statusTone[d.status] ?? 'neutral'),
      ' ',
      h('strong', null, d.event),
      ` · ${formatDate(d.createdAt)} · attempts ${d.attemptCount}/${d.maxAttempts}`,
      d.lastStatusCode !== null ? ` · HTTP ${d.lastStatusCode}` : '',
      d.lastError ? ` · ${d.lastError}` : '',
    ),
    h('p', { class: 'muted' }, `Delivery ${d.deliveryId}`, d.nextAttemptAt ? ` · next attempt ${formatDate(d.nextAttemptAt)}` : ''),
    d.attempts.length
      ? scrollTable(h(
          'table',
          null,
          h('caption', null, 'Attempts'),
          h('thead', null, h('tr', null, ['#', 'Started', 'Outcome', 'HTTP', 'Duration', 'Error'].map((c) => h('th', { scope: 'col' }, c)))),
          h(
            'tbody',
            null,
            d.attempts.map((a) =>
              h('tr', null, h('td', null, a.attemptNumber), h('td', null, formatDate(a.startedAt)), h('td', null, a.outcome), h('td', null, a.statusCode ?? '—'), h('td', null, a.durationMs !== null ? `${a.durationMs} ms` : '—'), h('td', { class: 'wrap' }, a.error ?? '')),
            ),
          ),
        ))
      : h('p', null, 'No attempt yet.'),
    h('h4', null, 'Exact payload (the stored body bytes)'),
    // A named region: it scrolls, so it takes keyboard focus, and a bare <pre> may not carry a name.
    h('pre', { class: 'payload', tabindex: 0, role: 'region', 'aria-label': 'Exact payload' }, d.body),
  );
}
