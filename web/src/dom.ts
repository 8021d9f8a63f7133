/**
 * A tiny element builder. Text always goes in as text nodes (never HTML), so names and payloads
 * from the lists or from webhook receivers cannot inject markup.
 */
export type Child = Node | string | number | null | undefined | false | Child[];
type Attrs = Record<string, unknown>;

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs?: Attrs | null, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith('on') && typeof value === 'function') {
      el.addEventListener(name.slice(2).toLowerCase(), value as EventListener);
    } else if (name === 'class') {
      el.className = String(value);
    } else if (name === 'for') {
      (el as unknown as HTMLLabelElement).htmlFor = String(value);
    } else if (name === 'value' && 'value' in el) {
      (el as unknown as HTMLInputElement).value = String(value);
    } else if (name === 'checked' && 'checked' in el) {
      (el as unknown as HTMLInputElement).checked = Boolean(value);
    } else if (value === true) {
      el.setAttribute(name, '');
    } else {
      el.setAttribute(name, String(value));
    }
  }
  append(el, children);
  return el;
}

export function append(parent: Node, children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(parent, child);
    else parent.appendChild(typeof child === 'string' || typeof child === 'number' ? document.createTextNode(String(child)) : child);
  }
}

export function clear(el: Element): void {
  while (el.firstChild) el.removeChild(el.firstChild);
}

let idCounter = 0;
export function uid(prefix = 'f'): string {
  idCounter += 1;
  return `${prefix}-${idCounter}`;
}

/** A labelled form field: label, control, optional hint and an error slot tied by aria-describedby. */
export function field(label: string, control: HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement, hint?: string, className = ''): HTMLDivElement {
  const id = control.id || uid('field');
  control.id = id;
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = `${id}-error`;
  control.setAttribute('aria-describedby', [hintId, errorId].filter(Boolean).join(' '));
  return h(
    'div',
    { class: `field ${className}`.trim() },
    h('label', { for: id }, label),
    control,
    hint ? h('p', { class: 'hint', id: hintId }, hint) : null,
    h('p', { class: 'field-error', id: errorId, role: 'status' }),
  );
}

/** The reader's time zone (the browser's), also asked of the PDF so its times read the same. */
export function readerTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

const timeFormat = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZoneName: 'short' });
const dayFormat = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });

/** An instant as people read it, in the reader's zone: "7 Mar 2026, 14:02 UTC" (a bare date: "3 May 2024"). */
export function formatDate(value: string | null | undefined): string {
  if (!value) return '—';
  const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (day) return dayFormat.format(new Date(Date.UTC(Number(day[1]), Number(day[2]) - 1, Number(day[3]))));
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return value;
  return timeFormat.format(d);
}

export function announce(message: string): void {
  const el = document.getElementById('announcer');
  if (!el) return;
  el.textContent = '';
  // A fresh text node after a tick is announced again even when the text repeats.
  setTimeout(() => (el.textContent = message), 30);
}

/** Copies text; falls back to selecting it when the clipboard API is unavailable (plain http). */
export async function copyText(text: string, source?: HTMLInputElement | HTMLTextAreaElement): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    if (source) {
      source.focus();
      source.select();
      try {
        return document.execCommand('copy');
      } catch {
        return false;
      }
    }
    return false;
  }
}

/** A one-time secret: read-only field, copy button and the "shown once" warning. */
export function secretPanel(title: string, secret: string, note: string): HTMLElement {
  const input = h('input', { type: 'text', readonly: true, value: secret, class: 'secret-value', spellcheck: 'false', autocomplete: 'off' });
  const status = h('span', { class: 'copy-status', role: 'status' });
  const button = h(
    'button',
    {
      type: 'button',
      class: 'button secondary',
      onclick: async () => {
        const ok = await copyText(secret, input);
        status.textContent = ok ? 'Copied' : 'Select the text and copy it';
      },
    },
    'Copy',
  );
  const id = uid('secret');
  input.id = id;
  input.setAttribute('aria-label', title);
  return h('div', { class: 'secret-panel', role: 'region', 'aria-label': title }, h('h3', null, title), h('p', { class: 'warning' }, note), h('div', { class: 'secret-row' }, input, button, status));
}

/**
 * A data table that scrolls sideways inside its own box when it is wider than the screen, so the
 * page itself never does (WCAG 1.4.10 reflow). While it scrolls, the box is a named, focusable
 * region, so a keyboard can scroll it (axe: scrollable-region-focusable); otherwise it is a plain
 * box and adds no tab stop.
 */
export function scrollTable(table: HTMLTableElement): HTMLDivElement {
  const box = h('div', { class: 'table-scroll' }, table);
  const label = table.caption?.textContent?.trim() || 'Table';
  const update = () => {
    if (box.scrollWidth > box.clientWidth + 1) {
      box.tabIndex = 0;
      box.setAttribute('role', 'region');
      box.setAttribute('aria-label', `${label} (scrolls sideways)`);
    } else {
      box.removeAttribute('tabindex');
      box.removeAttribute('role');
      box.removeAttribute('aria-label');
    }
  };
  if (typeof ResizeObserver === 'function') {
    const observer = new ResizeObserver(update);
    observer.observe(box);
    observer.observe(table);
  }
  return box;
}

export function badge(text: string, tone: string): HTMLSpanElement {
  return h('span', { class: `badge badge-${tone}` }, text);
}

export function riskTone(level: string | null | undefined): string {
  switch (level) {
    case 'critical':
      return 'critical';
    case 'high':
      return 'high';
    case 'medium':
      return 'medium';
    case 'low':
      return 'low';
    default:
      return 'neutral';
  }
}

/**
 * Shows a failed request: the message in the form's alert, and each field's own problems next to
 * that field (matched by the control's name), with aria-invalid so assistive technology says so.
 */
export function showFailure(alert: HTMLElement, form: HTMLElement, error: unknown): void {
  const fields = (error as { fields?: Record<string, string[]> }).fields ?? {};
  for (const el of Array.from(form.querySelectorAll('[aria-invalid]'))) el.removeAttribute('aria-invalid');
  for (const el of Array.from(form.querySelectorAll('.field-error'))) el.textContent = '';
  const unplaced: string[] = [];
  for (const [name, messages] of Object.entries(fields)) {
    const control = form.querySelector<HTMLElement>(`[name="${CSS.escape(name)}"]`);
    const slot = control ? document.getElementById(`${control.id}-error`) : null;
    if (!control || !slot) {
      unplaced.push(...messages);
      continue;
    }
    control.setAttribute('aria-invalid', 'true');
    slot.textContent = messages.join('; ');
  }
  const placed = Object.keys(fields).length > 0 && unplaced.length === 0;
  // Each problem is said once: next to its field when it has one (the field takes the focus and reads
  // its message out), at the top only for what belongs to no field, never with the API's field names.
  if (placed) {
    alert.hidden = true;
    alert.textContent = '';
  } else {
    alert.textContent = unplaced.length ? unplaced.join('; ') : (error as Error).message;
    alert.hidden = false;
  }
  form.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
}
