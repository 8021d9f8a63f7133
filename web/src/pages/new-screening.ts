import { api, readEventStream } from '../api';
import { announce, clear, field, h, showFailure } from '../dom';
import { navigate, type Cleanup, type PageContext } from '../router';
import { session } from '../session';
import { countryCode, countryDatalist } from '../country-input';

interface PhasePlan {
  phase: string;
  name: string;
  mode: string;
  agents: { agent: string; label: string }[];
}

export function renderNewScreening({ main }: PageContext): Cleanup {
  const abort = new AbortController();
  /** The run's last message arrived: its stream is ending by itself and is left to close cleanly. */
  let concluded = false;
  const plan = session.overview?.account.plan ?? 'starter';
  const query = h('input', { type: 'text', name: 'query', required: true, minlength: 2, maxlength: 300, autocomplete: 'off' });
  const entityType = h(
    'select',
    { name: 'entity_type' },
    h('option', { value: 'individual' }, 'Individual'),
    h('option', { value: 'company' }, 'Company'),
    h('option', { value: 'organization' }, 'Organisation'),
  );
  let chosenEntityType = entityType.value;
  entityType.addEventListener('change', () => {
    chosenEntityType = entityType.value;
  });
  const jurisdiction = h('input', { type: 'text', name: 'jurisdiction', maxlength: 100, autocomplete: 'off', placeholder: 'e.g. RU, AE, Delaware' });
  // What tells the subject from a namesake: date of birth, nationality (searchable list), identifiers.
  const dateOfBirth = h('input', { type: 'text', name: 'date_of_birth', inputmode: 'numeric', maxlength: 10, autocomplete: 'off', placeholder: 'YYYY-MM-DD, YYYY-MM or YYYY' });
  const countryList = countryDatalist('country-options');
  const nationality = h('input', { type: 'text', name: 'nationality', list: 'country-options', maxlength: 80, autocomplete: 'off', placeholder: 'e.g. North Korea or KP' });
  const identifierType = h(
    'select',
    { name: 'identifiers.0.type' },
    [
      ['passport', 'Passport'],
      ['national_id', 'National id'],
      ['tax_id', 'Tax id'],
      ['registration_number', 'Company registration number'],
      ['imo', 'IMO number (vessel)'],
      ['lei', 'LEI'],
      ['other', 'Other'],
    ].map(([v, label]) => h('option', { value: v! }, label)),
  );
  const identifierValue = h('input', { type: 'text', name: 'identifiers.0.value', maxlength: 64, autocomplete: 'off' });
  // The address: the firm's own lists (internal watchlists) weigh it; the official lists do not.
  const addressLine = h('input', { type: 'text', name: 'address.line', maxlength: 300, autocomplete: 'off' });
  const addressCity = h('input', { type: 'text', name: 'address.city', maxlength: 100, autocomplete: 'off' });
  const addressRegion = h('input', { type: 'text', name: 'address.region', maxlength: 100, autocomplete: 'off', placeholder: 'e.g. NV or Ontario' });
  const addressPostcode = h('input', { type: 'text', name: 'address.postal_code', maxlength: 20, autocomplete: 'off' });
  const addressCountry = h('input', { type: 'text', name: 'address.country', list: 'country-options', maxlength: 80, autocomplete: 'off', placeholder: 'e.g. United Kingdom or GB' });
  // Phone and e-mail: compared with listed ones; the firm's own lists weigh them.
  const phone = h('input', { type: 'tel', name: 'phone', maxlength: 40, autocomplete: 'off', placeholder: '+44 20 7946 0958' });
  const email = h('input', { type: 'email', name: 'email', maxlength: 254, autocomplete: 'off' });
  /** Field checks as the user leaves each field, next to it: the server checks the same again. */
  const setFieldError = (control: HTMLElement, message: string) => {
    const slot = document.getElementById(`${control.id}-error`);
    if (slot) slot.textContent = message;
    if (message) control.setAttribute('aria-invalid', 'true');
    else control.removeAttribute('aria-invalid');
  };
  const checkDob = (): boolean => {
    const v = dateOfBirth.value.trim();
    let message = '';
    if (v) {
      const shape = /^\d{4}(-(0[1-9]|1[0-2])(-(0[1-9]|[12]\d|3[01]))?)?$/.test(v);
      const real = shape && (v.length < 10 || new Date(`${v}T00:00:00Z`).toISOString().slice(0, 10) === v);
      if (!shape) message = 'Use YYYY-MM-DD, YYYY-MM or YYYY (e.g. 1952-10-07).';
      else if (!real) message = 'This date does not exist.';
      else if (v > new Date().toISOString().slice(0, v.length)) message = 'A date of birth cannot be in the future.';
      else if (v < '1880') message = 'Check the year.';
    }
    setFieldError(dateOfBirth, message);
    return !message;
  };
  const checkNationality = (): boolean => {
    const ok = !nationality.value.trim() || countryCode(nationality.value) !== undefined;
    setFieldError(nationality, ok ? '' : 'Choose a country from the suggestions, or type its name or ISO code (e.g. North Korea, KP).');
    return ok;
  };
  const checkAddressCountry = (): boolean => {
    const ok = !addressCountry.value.trim() || countryCode(addressCountry.value) !== undefined;
    setFieldError(addressCountry, ok ? '' : 'Choose a country from the suggestions, or type its name or ISO code (e.g. North Korea, KP).');
    return ok;
  };
  const addressBody = () => {
    const parts = {
      line: addressLine.value.trim(),
      city: addressCity.value.trim(),
      region: addressRegion.value.trim(),
      postal_code: addressPostcode.value.trim(),
      country: countryCode(addressCountry.value) ?? '',
    };
    const given = Object.fromEntries(Object.entries(parts).filter(([, v]) => v));
    return Object.keys(given).length ? { address: given } : {};
  };
  const checkIdentifier = (): boolean => {
    const v = identifierValue.value.trim();
    const ok = !v || /^[\p{L}\p{N}][\p{L}\p{N} ./-]{0,63}$/u.test(v);
    setFieldError(identifierValue, ok ? '' : 'Letters, digits, spaces, dots, slashes and dashes only.');
    return ok;
  };
  dateOfBirth.addEventListener('blur', checkDob);
  nationality.addEventListener('blur', checkNationality);
  identifierValue.addEventListener('blur', checkIdentifier);
  addressCountry.addEventListener('blur', checkAddressCountry);
  const kind = h(
    'select',
    { name: 'kind' },
    h('option', { value: 'cdd' }, 'CDD: customer due diligence'),
    plan === 'professional' || plan === 'enterprise' ? h('option', { value: 'edd' }, 'EDD: enhanced due diligence') : null,
    plan === 'enterprise' ? h('option', { value: 'ma' }, 'M&A: acquisition target') : null,
  );
  // Extra fields per screening type (the S1 EDD declarations and M&A deal fields).
  const text = (name: string) => h('textarea', { name: `declared.${name}`, rows: 2, maxlength: 4000 });
  const line = (name: string) => h('input', { type: 'text', name: `declared.${name}`, maxlength: 300, autocomplete: 'off' });
  const dealType = h(
    'select',
    { name: 'declared.deal_type' },
    h('option', { value: '' }, 'Not specified'),
    ['acquisition', 'merger', 'joint_venture', 'restructuring'].map((v) => h('option', { value: v }, v.replace('_', ' '))),
  );
  const extra: Record<string, [string, HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement][]> = {
    edd: [
      ['Source of wealth', text('source_of_wealth')],
      ['Source of funds', text('source_of_funds')],
      ['Purpose of the relationship', text('purpose_of_relationship')],
      ['Beneficial ownership', text('beneficial_ownership')],
      ['PEP relationships', text('pep_relationships')],
    ],
    ma: [
      ['Target industry', line('target_industry')],
      ['Acquirer', line('acquirer_name')],
      ['Deal type', dealType],
      ['Deal value', line('deal_value')],
      ['Additional context', text('additional_context')],
    ],
  };
  const extraBox = h('div');
  const showExtra = () => {
    // M&A targets are companies; leaving M&A gives back the type the user had chosen.
    entityType.disabled = kind.value === 'ma';
    entityType.value = kind.value === 'ma' ? 'company' : chosenEntityType;
    clear(extraBox);
    const fields = extra[kind.value];
    if (!fields) return;
    extraBox.append(
      h(
        'fieldset',
        { class: 'extra' },
        h('legend', null, kind.value === 'edd' ? 'Declared by the customer (optional)' : 'Deal (optional)'),
        h('div', { class: 'form-grid' }, fields.map(([label, control]) => field(label, control))),
      ),
    );
  };
  kind.addEventListener('change', showExtra);
  const error = h('div', { class: 'alert error', role: 'alert', hidden: true });
  const progress = h('section', { class: 'card', 'aria-labelledby': 'progress-h', hidden: true });
  const submit = h('button', { type: 'submit', class: 'button primary' }, 'Run screening');

  const form = h(
    'form',
    {
      class: 'card',
      'aria-labelledby': 'screen-h',
      onsubmit: async (event: Event) => {
        event.preventDefault();
        error.hidden = true;
        // Every field checked at once; the first wrong one gets the focus, nothing is sent.
        const valid = [checkDob(), checkNationality(), checkIdentifier(), checkAddressCountry()];
        if (valid.includes(false)) {
          form.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
          return;
        }
        submit.disabled = true;
        try {
          const declared: Record<string, string> = {};
          for (const [, control] of extra[kind.value] ?? []) if (control.value.trim()) declared[control.name.replace('declared.', '')] = control.value.trim();
          const { data } = await api<{ screening: { id: number; search_query: string } }>('POST', '/api/portal/screenings', {
            kind: kind.value,
            query: query.value.trim(),
            entity_type: entityType.value,
            ...(jurisdiction.value.trim() ? { jurisdiction: jurisdiction.value.trim() } : {}),
            ...(dateOfBirth.value.trim() ? { date_of_birth: dateOfBirth.value.trim() } : {}),
            ...(countryCode(nationality.value) ? { nationality: countryCode(nationality.value) } : {}),
            ...(identifierValue.value.trim() ? { identifiers: [{ type: identifierType.value, value: identifierValue.value.trim() }] } : {}),
            ...addressBody(),
            ...(phone.value.trim() ? { phone: phone.value.trim() } : {}),
            ...(email.value.trim() ? { email: email.value.trim() } : {}),
            ...(Object.keys(declared).length ? { declared } : {}),
          });
          await follow(data.screening.id, data.screening.search_query);
        } catch (e) {
          if ((e as Error).name === 'AbortError') return;
          showFailure(error, form, e);
        } finally {
          submit.disabled = false;
        }
      },
    },
    h('h1', { id: 'screen-h' }, 'New screening'),
    h('p', { class: 'muted' }, 'Screens the name against the official sanctions, PEP, offshore-leak and debarment lists, then the other sources your plan includes.'),
    error,
    h('div', { class: 'form-grid' }, field('Name to screen', query, 'Person or company name, at least 2 characters.'), field('Entity type', entityType), field('Jurisdiction (optional)', jurisdiction, 'Country or state; improves scoring.'), field('Screening type', kind)),
    h(
      'fieldset',
      { class: 'extra' },
      h('legend', null, 'What tells the subject from a namesake (optional, strongly advised)'),
      h(
        'div',
        { class: 'form-grid' },
        field('Date of birth', dateOfBirth, 'Full date, year and month, or year.'),
        field('Nationality', nationality, 'Country name (as people say it or as the lists write it) or ISO code.'),
        field('Identifier type', identifierType),
        field('Identifier', identifierValue, 'Passport, national id, registration or IMO number.'),
        field('Address line', addressLine, 'Checked against your internal lists.'),
        field('City', addressCity),
        field('State, province or county', addressRegion),
        field('Postcode', addressPostcode),
        field('Country of address', addressCountry, 'Country name or ISO code.'),
        field('Phone', phone, 'Compared with listed phone numbers and your internal lists.'),
        field('E-mail', email, 'Compared with listed e-mail addresses and your internal lists.'),
      ),
      countryList,
    ),
    extraBox,
    submit,
  );

  async function follow(id: number, name: string): Promise<void> {
    clear(progress);
    progress.hidden = false;
    const status = h('p', { class: 'progress-status', role: 'status' }, 'Queued…');
    const phases = h('ol', { class: 'phases' });
    progress.append(h('h2', { id: 'progress-h' }, `Screening “${name}”`), status, phases);
    const phaseEls = new Map<string, { li: HTMLLIElement; state: HTMLSpanElement; agents: Map<string, HTMLLIElement> }>();

    const setPhase = (phase: string, state: 'pending' | 'running' | 'done', text: string) => {
      const p = phaseEls.get(phase);
      if (!p) return;
      p.li.className = `phase phase-${state}`;
      p.state.textContent = text;
    };

    await readEventStream(
      `/api/portal/screenings/${id}/progress`,
      (e) => {
        const d = JSON.parse(e.data) as Record<string, any>;
        switch (e.event) {
          case 'requested':
            for (const p of d.phases as PhasePlan[]) {
              const state = h('span', { class: 'phase-state' }, 'waiting');
              const agents = new Map<string, HTMLLIElement>();
              const list = h('ul', { class: 'agents' });
              for (const a of p.agents) {
                const li = h('li', { class: 'agent agent-pending', 'data-agent': a.agent }, a.label);
                agents.set(a.agent, li);
                list.append(li);
              }
              const li = h('li', { class: 'phase phase-pending', 'data-phase': p.phase }, h('div', { class: 'phase-head' }, h('strong', null, `Phase ${p.phase}`), ` ${p.name} `, state), list);
              phaseEls.set(p.phase, { li, state, agents });
              phases.append(li);
            }
            status.textContent = `${phaseEls.size} phases planned`;
            break;
          case 'phase_started':
            setPhase(d.phase, 'running', 'running…');
            status.textContent = `Phase ${d.phase}: ${d.name}`;
            announce(`Phase ${d.phase} started`);
            break;
          case 'agent_finished': {
            const li = phaseEls.get(d.phase)?.agents.get(d.agent);
            if (li) {
              li.className = `agent ${d.queried ? 'agent-done' : 'agent-skipped'}`;
              // What enables a source is an operator's business (the Sources page): here only that it was not searched.
              const why = d.error ? (String(d.error).startsWith('not configured') ? ' (not configured on this deployment)' : ` (${d.error})`) : '';
              li.textContent = `${d.label}${d.queried ? ' ✓' : ` — not searched${why}`}`;
            }
            break;
          }
          case 'phase_completed':
            setPhase(d.phase, 'done', `done (${d.queried.length} searched${d.not_queried.length ? `, ${d.not_queried.length} not searched` : ''})`);
            break;
          case 'completed':
            concluded = true;
            status.textContent = `Completed: risk ${d.risk_level} (${d.risk_score}/100).`;
            announce(`Screening completed with ${d.risk_level} risk`);
            break;
          case 'failed':
            concluded = true;
            status.textContent = `Failed: ${d.reason}`;
            announce('Screening failed');
            break;
          case 'end':
            break;
        }
      },
      abort.signal,
    );
    if (!abort.signal.aborted && progress.isConnected) {
      // No automatic jump (an unexpected change of page disorients screen-reader users): a link, focused.
      const link = h('a', { href: `#/screenings/${id}`, class: 'button primary' }, 'Open the report');
      // The next subject starts from an empty form, never from this one's name, date of birth or nationality.
      const another = h('button', { type: 'button', class: 'button secondary', onclick: () => navigate('#/screen') }, 'Screen another subject');
      progress.insertBefore(h('p', { class: 'actions-row' }, link, ' ', another), phases);
      link.focus();
    }
  }

  main.append(form, progress);
  query.focus();
  // Leaving during a run stops following it; after its last message the server closes the stream
  // itself a moment later, so it is not cut short (an aborted request, for nothing).
  return () => {
    if (!concluded) abort.abort();
  };
}
