/**
 * The firm's own lists (issue 21): the account's internal watchlists, one list's entries, the CSV
 * import (mapping and per-row errors shown before anything is written) and the export.
 * Routes: #/watchlists and #/watchlists/:id. All text goes in as text nodes (dom.ts).
 */
import { api, apiText, ApiFailure, download } from '../api';
import { announce, append, badge, clear, field, h, scrollTable, showFailure } from '../dom';
import { navigate, type PageContext } from '../router';

export interface PortalWatchlist {
  id: string;
  name: string;
  purpose: string;
  severity: 'block' | 'review' | 'note';
  owner: string;
  status: 'active' | 'archived';
  version: number;
  entry_count: number;
  created_at?: string;
  updated_at?: string;
}

interface EntryAddress {
  line?: string;
  city?: string;
  postal_code?: string;
  country?: string;
}
interface EntryIdentifier {
  kind: string;
  value: string;
  country?: string;
}
export interface PortalEntry {
  entry_id: string;
  entity_type: string;
  primary_name: string;
  aliases: { name: string; script?: string }[];
  dates_of_birth: string[];
  nationalities: string[];
  addresses: EntryAddress[];
  identifiers: EntryIdentifier[];
  reason: string;
  added_by?: string;
  added_at?: string;
}

interface ImportProblem {
  line: number;
  field: string;
  reason: string;
}
interface ImportPreview {
  format: 'csv' | 'jsonl';
  /** column → entry field as it will be applied */
  mapping: Record<string, string>;
  unmapped_columns: string[];
  rows: number;
  valid_rows: number;
  sample: (Omit<PortalEntry, 'added_by' | 'added_at'> & { line: number })[];
  errors: ImportProblem[];
  error_count: number;
}
interface ImportResult {
  import_id: string;
  rows: number;
  added: number;
  changed: number;
  unchanged: number;
  removed: number;
  entry_count: number;
  version: number;
}

/** The fields an import column can go to (the service's import targets). */
const IMPORT_TARGETS: [string, string][] = [
  ['ignore', 'Not imported'],
  ['entry_id', 'Entry id (your reference)'],
  ['full_name', 'Full name'],
  ['first_name', 'First name'],
  ['middle_name', 'Middle name'],
  ['last_name', 'Last name'],
  ['alias', 'Other name (alias)'],
  ['entity_type', 'Entity type'],
  ['date_of_birth', 'Date of birth'],
  ['nationality', 'Nationality'],
  ['address_line', 'Address line'],
  ['city', 'City'],
  ['postal_code', 'Postcode'],
  ['country', 'Country'],
  ['passport', 'Passport'],
  ['national_id', 'National id'],
  ['tax_id', 'Tax id'],
  ['registration_number', 'Registration number'],
  ['imo', 'IMO number'],
  ['phone', 'Phone'],
  ['email', 'E-mail'],
  ['other_id', 'Other identifier'],
  ['reason', 'Reason'],
];

const SEVERITIES: [PortalWatchlist['severity'], string][] = [
  ['block', 'Block: a confirmed hit makes the risk critical'],
  ['review', 'Review: a confirmed hit makes the risk at least high'],
  ['note', 'Note: a confirmed hit makes the risk at least medium'],
];
const IDENTIFIER_KINDS: [string, string][] = [
  ['passport', 'Passport'],
  ['national_id', 'National id'],
  ['tax_id', 'Tax id'],
  ['registration_number', 'Company registration number'],
  ['imo', 'IMO number (vessel)'],
  ['phone', 'Phone'],
  ['email', 'E-mail'],
  ['other', 'Other'],
];
const ENTITY_TYPES: [string, string][] = [
  ['person', 'Person'],
  ['organization', 'Organisation'],
  ['vessel', 'Vessel'],
  ['aircraft', 'Aircraft'],
  ['unknown', 'Unknown'],
];

const severityTone = (s: string) => (s === 'block' ? 'critical' : s === 'review' ? 'high' : 'medium');
const severityLabel = (s: string) => SEVERITIES.find(([v]) => v === s)?.[0] ?? s;
const listWords = (raw: string) =>
  raw
    .split(/[;\n]/)
    .map((s) => s.trim())
    .filter(Boolean);

function select(name: string, options: [string, string][], value?: string): HTMLSelectElement {
  const el = h('select', { name }, options.map(([v, label]) => h('option', { value: v }, label)));
  if (value) el.value = value;
  return el;
}

function listFields(w?: PortalWatchlist) {
  return {
    name: h('input', { type: 'text', name: 'name', required: true, maxlength: 200, autocomplete: 'off', value: w?.name ?? '' }),
    purpose: h('textarea', { name: 'purpose', rows: 2, maxlength: 2000 }, w?.purpose ?? ''),
    severity: select('severity', SEVERITIES, w?.severity ?? 'review'),
    owner: h('input', { type: 'text', name: 'owner', required: true, maxlength: 200, autocomplete: 'off', value: w?.owner ?? '' }),
  };
}

// ------------------------------------------------------------------ #/watchlists

export async function renderWatchlists({ main }: PageContext): Promise<void> {
  main.append(
    h('h1', null, 'Internal lists'),
    h(
      'p',
      { class: 'muted' },
      'Your firm\'s own watchlists (former customers exited for fraud, counterparties under investigation, a group blocklist). Every screening checks them beside the official lists; a change re-checks your monitored subjects.',
    ),
  );
  const tableBox = h('div');
  const error = h('div', { class: 'alert error', role: 'alert', hidden: true });
  const { data } = await api<{ watchlists: PortalWatchlist[] }>('GET', '/api/portal/watchlists?limit=100');
  const lists = data.watchlists;
  const renderTable = () => {
    clear(tableBox);
    if (!lists.length) {
      tableBox.append(h('p', null, 'No internal lists yet. Create one below.'));
      return;
    }
    tableBox.append(
      scrollTable(
        h(
          'table',
          null,
          h('caption', { class: 'visually-hidden' }, 'Internal lists'),
          h('thead', null, h('tr', null, ['List', 'Severity', 'Entries', 'Version', 'Owner', 'Status'].map((c) => h('th', { scope: 'col' }, c)))),
          h(
            'tbody',
            null,
            lists.map((w) =>
              h(
                'tr',
                { 'data-watchlist-id': w.id },
                h('th', { scope: 'row' }, h('a', { href: `#/watchlists/${w.id}` }, w.name)),
                h('td', null, badge(severityLabel(w.severity), severityTone(w.severity))),
                h('td', null, String(w.entry_count)),
                h('td', null, `v${w.version}`),
                h('td', { class: 'wrap' }, w.owner || '—'),
                h('td', null, w.status === 'active' ? badge('Active', 'low') : badge('Archived', 'neutral')),
              ),
            ),
          ),
        ),
      ),
    );
  };
  renderTable();

  const f = listFields();
  const submit = h('button', { type: 'submit', class: 'button primary' }, 'Create list');
  const form = h(
    'form',
    {
      class: 'card',
      'aria-labelledby': 'create-list-h',
      onsubmit: async (event: Event) => {
        event.preventDefault();
        error.hidden = true;
        submit.disabled = true;
        try {
          const { data: created } = await api<PortalWatchlist>('POST', '/api/portal/watchlists', {
            name: f.name.value.trim(),
            purpose: f.purpose.value.trim(),
            severity: f.severity.value,
            owner: f.owner.value.trim(),
          });
          announce(`List ${created.name} created`);
          navigate(`#/watchlists/${created.id}`);
        } catch (e) {
          showFailure(error, form, e);
        } finally {
          submit.disabled = false;
        }
      },
    },
    h('h2', { id: 'create-list-h' }, 'Create a list'),
    error,
    h(
      'div',
      { class: 'form-grid' },
      field('List name', f.name, 'For example "Exited for fraud".'),
      field('Severity', f.severity, 'How a confirmed hit counts in the risk level.'),
      field('Owner', f.owner, 'The team or person who answers for it.'),
      field('Purpose (optional)', f.purpose, 'Why the list exists; shown with its hits.', 'wide'),
    ),
    submit,
  );
  main.append(h('section', { class: 'card', 'aria-label': 'Your internal lists' }, tableBox), form);
}

// ------------------------------------------------------------------ #/watchlists/:id

export async function renderWatchlist({ main, params }: PageContext): Promise<void> {
  const id = params.id!;
  let list = (await api<PortalWatchlist>('GET', `/api/portal/watchlists/${encodeURIComponent(id)}`)).data;
  let entries: PortalEntry[] = [];

  const heading = h('h1', null, list.name);
  const summary = h('dl', { class: 'summary' });
  const renderSummary = () => {
    heading.textContent = list.name;
    document.title = `${list.name} · Internal lists · Compliance screening portal`;
    clear(summary);
    const row = (term: string, value: Node | string) => [h('dt', null, term), h('dd', null, value)];
    summary.append(
      ...row('Severity', badge(severityLabel(list.severity), severityTone(list.severity))),
      ...row('Status', list.status === 'active' ? badge('Active', 'low') : badge('Archived', 'neutral')),
      ...row('Entries', String(list.entry_count)),
      ...row('Version', `v${list.version}`),
      ...row('Owner', list.owner || '—'),
      ...row('Purpose', list.purpose || '—'),
    );
  };
  renderSummary();

  const exportButton = h(
    'button',
    {
      type: 'button',
      class: 'button secondary',
      onclick: async () => {
        try {
          await download(`/api/portal/watchlists/${encodeURIComponent(list.id)}/export.csv`, `${list.name.replace(/[^\w.-]+/g, '_') || 'list'}.csv`);
          announce('Export downloaded');
        } catch (e) {
          topError.textContent = (e as Error).message;
          topError.hidden = false;
        }
      },
    },
    'Export as CSV',
  );
  const topError = h('div', { class: 'alert error', role: 'alert', hidden: true });

  // list settings: rename, severity, purpose, owner; archive in two steps
  const settings = (() => {
    const f = listFields(list);
    const error = h('div', { class: 'alert error', role: 'alert', hidden: true });
    const save = h('button', { type: 'submit', class: 'button primary' }, 'Save list');
    const archiveBox = h('p');
    const showArchive = () => {
      clear(archiveBox);
      if (list.status !== 'active') {
        archiveBox.append('This list is archived: screenings no longer check it.');
        return;
      }
      archiveBox.append(
        h(
          'button',
          {
            type: 'button',
            class: 'button danger',
            onclick: () => {
              clear(archiveBox);
              const confirm = h(
                'button',
                {
                  type: 'button',
                  class: 'button danger',
                  onclick: async () => {
                    confirm.disabled = true;
                    try {
                      list = (await api<PortalWatchlist>('POST', `/api/portal/watchlists/${encodeURIComponent(list.id)}/archive`, {})).data;
                      renderSummary();
                      showArchive();
                      announce(`List ${list.name} archived`);
                    } catch (e) {
                      showFailure(error, form, e);
                      showArchive();
                    }
                  },
                },
                'Confirm archive',
              );
              archiveBox.append(confirm, ' ', h('button', { type: 'button', class: 'button secondary', onclick: showArchive }, 'Cancel'));
              confirm.focus();
            },
          },
          'Archive list',
        ),
      );
    };
    showArchive();
    const form = h(
      'form',
      {
        class: 'card',
        'aria-labelledby': 'list-settings-h',
        onsubmit: async (event: Event) => {
          event.preventDefault();
          error.hidden = true;
          save.disabled = true;
          try {
            list = (
              await api<PortalWatchlist>('PATCH', `/api/portal/watchlists/${encodeURIComponent(list.id)}`, {
                name: f.name.value.trim(),
                purpose: f.purpose.value.trim(),
                severity: f.severity.value,
                owner: f.owner.value.trim(),
              })
            ).data;
            renderSummary();
            announce('List saved');
          } catch (e) {
            showFailure(error, form, e);
          } finally {
            save.disabled = false;
          }
        },
      },
      h('h2', { id: 'list-settings-h' }, 'List settings'),
      error,
      h(
        'div',
        { class: 'form-grid' },
        field('List name', f.name),
        field('Severity', f.severity, 'How a confirmed hit counts in the risk level.'),
        field('Owner', f.owner),
        field('Purpose', f.purpose, undefined, 'wide'),
      ),
      save,
      archiveBox,
    );
    return form;
  })();

  // entries
  const entriesBox = h('div');
  const entriesError = h('div', { class: 'alert error', role: 'alert', hidden: true });
  const editorBox = h('div');
  const loadEntries = async () => {
    const res = await api<{ entries: PortalEntry[] }>('GET', `/api/portal/watchlists/${encodeURIComponent(list.id)}/entries?limit=200`);
    entries = res.data.entries;
    renderEntries();
  };
  const reloadList = async () => {
    list = (await api<PortalWatchlist>('GET', `/api/portal/watchlists/${encodeURIComponent(list.id)}`)).data;
    renderSummary();
  };
  const renderEntries = () => {
    clear(entriesBox);
    entriesBox.append(h('p', { class: 'muted' }, entries.length < list.entry_count ? `Showing the first ${entries.length} of ${list.entry_count} entries.` : `${entries.length} entries.`));
    if (!entries.length) return;
    entriesBox.append(
      scrollTable(
        h(
          'table',
          null,
          h('caption', { class: 'visually-hidden' }, `Entries of ${list.name}`),
          h('thead', null, h('tr', null, ['Name', 'Type', 'Date of birth', 'Address', 'Identifiers', 'Reason', 'Actions'].map((c) => h('th', { scope: 'col' }, c)))),
          h('tbody', null, entries.map(entryRow)),
        ),
      ),
    );
  };
  const entryRow = (e: PortalEntry): HTMLElement => {
    const actions = h('td');
    const showActions = () => {
      clear(actions);
      actions.append(
        h('button', { type: 'button', class: 'button secondary small', 'aria-label': `Edit ${e.primary_name}`, onclick: () => openEditor(e) }, 'Edit'),
        ' ',
        h(
          'button',
          {
            type: 'button',
            class: 'button danger small',
            'aria-label': `Remove ${e.primary_name}`,
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
                      await api('DELETE', `/api/portal/watchlists/${encodeURIComponent(list.id)}/entries/${encodeURIComponent(e.entry_id)}`);
                      entries = entries.filter((x) => x.entry_id !== e.entry_id);
                      await reloadList();
                      renderEntries();
                      announce(`${e.primary_name} removed`);
                    } catch (err) {
                      entriesError.textContent = (err as Error).message;
                      entriesError.hidden = false;
                      showActions();
                    }
                  },
                },
                `Confirm remove`,
              );
              actions.append(confirm, ' ', h('button', { type: 'button', class: 'button secondary small', onclick: showActions }, 'Cancel'));
              confirm.focus();
            },
          },
          'Remove',
        ),
      );
    };
    showActions();
    const names = [e.primary_name, ...e.aliases.map((a) => a.name)];
    return h(
      'tr',
      { 'data-entry-id': e.entry_id },
      h('th', { scope: 'row', class: 'wrap' }, names[0], names.length > 1 ? h('span', { class: 'muted small' }, ` (also ${names.slice(1).join('; ')})`) : null),
      h('td', null, e.entity_type),
      h('td', null, e.dates_of_birth.join(', ') || '—'),
      h('td', { class: 'wrap' }, e.addresses.map((a) => [a.line, a.postal_code, a.city, a.country].filter(Boolean).join(', ')).join(' · ') || '—'),
      h('td', { class: 'wrap' }, e.identifiers.map((i) => `${i.kind.replace(/_/g, ' ')} ${i.value}${i.country ? ` (${i.country})` : ''}`).join(' · ') || '—'),
      h('td', { class: 'wrap' }, e.reason || '—'),
      actions,
    );
  };

  /** The add/edit form of one entry (an existing one when `e` is given). */
  const openEditor = (e?: PortalEntry) => {
    clear(editorBox);
    const address = e?.addresses[0] ?? {};
    const c = {
      primaryName: h('input', { type: 'text', name: 'primary_name', required: true, maxlength: 300, autocomplete: 'off', value: e?.primary_name ?? '' }),
      entityType: select('entity_type', ENTITY_TYPES, e?.entity_type ?? 'person'),
      aliases: h('input', { type: 'text', name: 'aliases', maxlength: 1000, autocomplete: 'off', value: e?.aliases.map((a) => a.name).join('; ') ?? '' }),
      dob: h('input', { type: 'text', name: 'dates_of_birth', maxlength: 200, autocomplete: 'off', value: e?.dates_of_birth.join('; ') ?? '', placeholder: 'YYYY-MM-DD' }),
      nationalities: h('input', { type: 'text', name: 'nationalities', maxlength: 100, autocomplete: 'off', value: e?.nationalities.join('; ') ?? '', placeholder: 'GB; IE' }),
      line: h('input', { type: 'text', name: 'addresses.0.line', maxlength: 300, autocomplete: 'off', value: address.line ?? '' }),
      city: h('input', { type: 'text', name: 'addresses.0.city', maxlength: 100, autocomplete: 'off', value: address.city ?? '' }),
      postalCode: h('input', { type: 'text', name: 'addresses.0.postal_code', maxlength: 20, autocomplete: 'off', value: address.postal_code ?? '' }),
      country: h('input', { type: 'text', name: 'addresses.0.country', maxlength: 2, autocomplete: 'off', value: address.country ?? '', placeholder: 'GB' }),
      reason: h('textarea', { name: 'reason', rows: 2, maxlength: 2000 }, e?.reason ?? ''),
    };
    const idRows = h('div');
    const addIdRow = (i?: EntryIdentifier) => {
      const n = idRows.childElementCount;
      const kind = select(`identifiers.${n}.kind`, IDENTIFIER_KINDS, i?.kind);
      const value = h('input', { type: 'text', name: `identifiers.${n}.value`, maxlength: 100, autocomplete: 'off', value: i?.value ?? '' });
      const country = h('input', { type: 'text', name: `identifiers.${n}.country`, maxlength: 2, autocomplete: 'off', value: i?.country ?? '' });
      idRows.append(h('div', { class: 'form-grid', 'data-identifier-row': String(n) }, field(`Identifier ${n + 1} type`, kind), field(`Identifier ${n + 1}`, value), field(`Identifier ${n + 1} country (optional)`, country)));
    };
    for (const i of e?.identifiers ?? []) addIdRow(i);
    if (!e?.identifiers.length) addIdRow();
    const error = h('div', { class: 'alert error', role: 'alert', hidden: true });
    const save = h('button', { type: 'submit', class: 'button primary' }, e ? 'Save entry' : 'Add entry');
    const headingId = 'entry-editor-h';
    const form = h(
      'form',
      {
        class: 'card',
        'aria-labelledby': headingId,
        onsubmit: async (event: Event) => {
          event.preventDefault();
          error.hidden = true;
          save.disabled = true;
          const identifiers: EntryIdentifier[] = [];
          for (const row of Array.from(idRows.children)) {
            const [kind, value, country] = Array.from(row.querySelectorAll<HTMLInputElement | HTMLSelectElement>('select, input'));
            if (value!.value.trim()) identifiers.push({ kind: kind!.value, value: value!.value.trim(), ...(country!.value.trim() ? { country: country!.value.trim().toUpperCase() } : {}) });
          }
          const addr = { line: c.line.value.trim(), city: c.city.value.trim(), postal_code: c.postalCode.value.trim(), country: c.country.value.trim().toUpperCase() };
          const body = {
            entity_type: c.entityType.value,
            primary_name: c.primaryName.value.trim(),
            aliases: listWords(c.aliases.value).map((name) => ({ name })),
            dates_of_birth: listWords(c.dob.value),
            nationalities: listWords(c.nationalities.value).map((x) => x.toUpperCase()),
            addresses: Object.values(addr).some(Boolean) ? [Object.fromEntries(Object.entries(addr).filter(([, v]) => v))] : [],
            identifiers,
            reason: c.reason.value.trim(),
          };
          try {
            const path = `/api/portal/watchlists/${encodeURIComponent(list.id)}/entries`;
            const res = e
              ? await api<{ entry: PortalEntry; watchlist: PortalWatchlist }>('PATCH', `${path}/${encodeURIComponent(e.entry_id)}`, body)
              : await api<{ entry: PortalEntry; watchlist: PortalWatchlist }>('POST', path, body);
            entries = e ? entries.map((x) => (x.entry_id === e.entry_id ? res.data.entry : x)) : [...entries, res.data.entry];
            await reloadList();
            renderEntries();
            clear(editorBox);
            announce(`${res.data.entry.primary_name} ${e ? 'saved' : 'added'}`);
            entriesBox.querySelector<HTMLElement>(`[data-entry-id="${CSS.escape(res.data.entry.entry_id)}"] button`)?.focus();
          } catch (err) {
            showFailure(error, form, err);
          } finally {
            save.disabled = false;
          }
        },
      },
      h('h3', { id: headingId }, e ? `Edit ${e.primary_name}` : 'Add an entry'),
      error,
      h(
        'div',
        { class: 'form-grid' },
        field('Name', c.primaryName, 'The full name as the firm knows it.'),
        field('Entity type', c.entityType),
        field('Other names (optional)', c.aliases, 'Separate several with a semicolon.'),
        field('Dates of birth (optional)', c.dob, 'YYYY-MM-DD, YYYY-MM or YYYY; several separated by semicolons.'),
        field('Nationalities (optional)', c.nationalities, 'Two-letter codes separated by semicolons.'),
        field('Address line (optional)', c.line),
        field('City', c.city),
        field('Postcode', c.postalCode),
        field('Country', c.country, 'Two-letter code.'),
      ),
      idRows,
      h('p', null, h('button', { type: 'button', class: 'button secondary small', onclick: () => addIdRow() }, 'Add another identifier')),
      field('Reason', c.reason, 'Why the firm lists it; shown with a hit.', 'wide'),
      save,
      ' ',
      h('button', { type: 'button', class: 'button secondary', onclick: () => clear(editorBox) }, 'Cancel'),
    );
    editorBox.append(form);
    c.primaryName.focus();
  };

  main.append(
    h('p', null, h('a', { href: '#/watchlists' }, '← All internal lists')),
    heading,
    topError,
    h('section', { class: 'card', 'aria-label': 'List summary' }, summary, h('p', null, exportButton)),
    settings,
    h(
      'section',
      { class: 'card', 'aria-labelledby': 'entries-h' },
      h('h2', { id: 'entries-h' }, 'Entries'),
      entriesError,
      entriesBox,
      h('p', null, h('button', { type: 'button', class: 'button primary', onclick: () => openEditor() }, 'Add an entry')),
      editorBox,
    ),
    importSection(() => list, async () => {
      await reloadList();
      await loadEntries();
    }),
  );
  await loadEntries();
}

// ------------------------------------------------------------------ import

function importSection(current: () => PortalWatchlist, refresh: () => Promise<void>): HTMLElement {
  const file = h('input', { type: 'file', name: 'file', accept: '.csv,.jsonl,.ndjson,text/csv,application/x-ndjson' });
  const error = h('div', { class: 'alert error', role: 'alert', hidden: true });
  const result = h('div', { role: 'status' });
  const previewBox = h('div');
  let content = '';
  let fileName = '';
  let format: 'csv' | 'jsonl' = 'csv';
  /** the columns as the user set them (sent as the mapping; the service recognises the rest) */
  let columns: Record<string, string> = {};

  const base = () => `/api/portal/watchlists/${encodeURIComponent(current().id)}/imports`;
  const headers = () => ({
    'content-type': format === 'csv' ? 'text/csv' : 'application/x-ndjson',
    'x-file-name': fileName.replace(/[^\x20-\x7e]/g, '_').slice(0, 255) || `upload.${format}`,
    ...(Object.keys(columns).length ? { 'x-import-mapping': JSON.stringify({ columns }) } : {}),
  });

  const preview = async () => {
    error.hidden = true;
    clear(result);
    const { data } = await apiText<ImportPreview>('POST', `${base()}/preview`, content, headers());
    showPreview(data);
  };

  const showPreview = (p: ImportPreview) => {
    clear(previewBox);
    const all = [...Object.keys(p.mapping), ...p.unmapped_columns.filter((c) => !(c in p.mapping))];
    const selects = all.map((column) => {
      const s = select(`mapping.${column}`, IMPORT_TARGETS, p.mapping[column] ?? 'ignore');
      s.addEventListener('change', () => (columns[column] = s.value));
      return field(`Column "${column}"`, s);
    });
    const commit = h('button', { type: 'button', class: 'button primary', disabled: p.error_count > 0 || p.valid_rows === 0 }, `Import ${p.valid_rows} rows`);
    commit.addEventListener('click', async () => {
      commit.disabled = true;
      error.hidden = true;
      try {
        const { data } = await apiText<{ watchlist: PortalWatchlist; import: ImportResult }>('POST', base(), content, headers());
        const d = data.import;
        clear(previewBox);
        result.append(
          h(
            'p',
            { class: 'alert info' },
            `Imported ${d.rows} rows: ${d.added} added, ${d.changed} changed, ${d.unchanged} unchanged${d.removed ? `, ${d.removed} removed` : ''}. The list holds ${d.entry_count} entries, version ${d.version}.`,
          ),
        );
        announce(`Imported ${d.rows} rows`);
        form.reset();
        content = '';
        columns = {};
        await refresh();
      } catch (e) {
        // rows refused at commit (the list changed since the check): show them as a check does
        showFailure(error, form, e);
        commit.disabled = false;
        if (e instanceof ApiFailure && e.status === 422) await preview().catch(() => undefined);
      }
    });
    const sampleRows = p.sample.slice(0, 10);
    append(previewBox, [
      h('h3', { id: 'import-mapping-h', tabindex: '-1' }, 'Detected columns'),
      h('p', { class: 'muted' }, `${p.rows} rows read, ${p.valid_rows} ready to import. If a column is read wrongly, choose its field and check again.`),
      h('div', { class: 'form-grid', role: 'group', 'aria-labelledby': 'import-mapping-h' }, selects),
      h('p', null, h('button', { type: 'button', class: 'button secondary', onclick: () => void preview().catch((e) => showFailure(error, form, e)) }, 'Check again with this mapping')),
      p.error_count
        ? [
            h('h3', null, `Rows that cannot be imported (${p.error_count})`),
            h('p', null, 'Nothing is imported while any row is wrong: correct the file (or the mapping) and check it again.'),
            scrollTable(
              h(
                'table',
                { 'data-import-errors': '' },
                h('caption', { class: 'visually-hidden' }, 'Rows that cannot be imported'),
                h('thead', null, h('tr', null, ['Line', 'Field', 'Problem'].map((c) => h('th', { scope: 'col' }, c)))),
                h('tbody', null, p.errors.map((e) => h('tr', null, h('td', null, String(e.line)), h('td', null, e.field), h('td', { class: 'wrap' }, e.reason)))),
              ),
            ),
            p.error_count > p.errors.length ? h('p', { class: 'muted' }, `The first ${p.errors.length} problems are shown.`) : null,
          ]
        : null,
      sampleRows.length
        ? [
            h('h3', null, 'First rows as they will be imported'),
            scrollTable(
              h(
                'table',
                { 'data-import-sample': '' },
                h('caption', { class: 'visually-hidden' }, 'First rows as they will be imported'),
                h('thead', null, h('tr', null, ['Line', 'Entry id', 'Name', 'Date of birth', 'Address', 'Identifiers'].map((c) => h('th', { scope: 'col' }, c)))),
                h(
                  'tbody',
                  null,
                  sampleRows.map((e) =>
                    h(
                      'tr',
                      null,
                      h('td', null, String(e.line)),
                      h('td', null, e.entry_id),
                      h('td', { class: 'wrap' }, e.primary_name, e.aliases.length ? ` (also ${e.aliases.map((a) => a.name).join('; ')})` : ''),
                      h('td', null, e.dates_of_birth.join(', ') || '—'),
                      h('td', { class: 'wrap' }, e.addresses.map((a) => [a.line, a.postal_code, a.city, a.country].filter(Boolean).join(', ')).join(' · ') || '—'),
                      h('td', { class: 'wrap' }, e.identifiers.map((i) => `${i.kind.replace(/_/g, ' ')} ${i.value}`).join(' · ') || '—'),
                    ),
                  ),
                ),
              ),
            ),
          ]
        : null,
      commit,
    ]);
    previewBox.querySelector<HTMLElement>('#import-mapping-h')?.focus();
    announce(p.error_count ? `${p.error_count} problems: nothing can be imported yet` : `${p.valid_rows} rows ready to import`);
  };

  const check = h('button', { type: 'submit', class: 'button primary' }, 'Check the file');
  const form = h(
    'form',
    {
      class: 'card',
      'aria-labelledby': 'import-h',
      onsubmit: async (event: Event) => {
        event.preventDefault();
        error.hidden = true;
        clear(previewBox);
        clear(result);
        const chosen = file.files?.[0];
        if (!chosen) {
          showFailure(error, form, new ApiFailure(400, 'Choose a CSV or JSON-lines file first.', { file: ['Choose a file.'] }));
          return;
        }
        check.disabled = true;
        try {
          content = await chosen.text();
          fileName = chosen.name;
          format = /\.(jsonl|ndjson)$/i.test(chosen.name) ? 'jsonl' : 'csv';
          columns = {};
          await preview();
        } catch (e) {
          showFailure(error, form, e);
        } finally {
          check.disabled = false;
        }
      },
    },
    h('h2', { id: 'import-h' }, 'Import entries'),
    h(
      'p',
      { class: 'muted' },
      'A CSV with a header row (full name or first/middle/last, date of birth, address lines, city, postcode, country, passport, national id, phone, e-mail… are recognised) or JSON lines. You see how each column is read and every row that cannot be imported before anything is written; the import is all or nothing, and a known entry id is updated rather than added twice.',
    ),
    error,
    field('File', file, 'CSV or JSON lines (.jsonl).'),
    check,
    previewBox,
    result,
  );
  return form;
}
